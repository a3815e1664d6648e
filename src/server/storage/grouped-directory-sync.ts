/**
 * The fsyncs of one directory, shared: every request made before a sync starts is served by it, so
 * files created together (the large messages of one commit) cost one directory sync, not one
 * each. A sync starts at the end of the event-loop turn of its first request, so that requests
 * arriving together join it; a request made while one runs waits for the next (the running one
 * may have started before the request's entry existed).
 */
export class GroupedDirectorySync {
  /** The sync requested and not started yet, which new requests join. */
  private next: Promise<void> | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly syncDirectory: () => Promise<void>) {}

  /** Resolves once a sync that started after this call has completed; rejects with its error. */
  request(): Promise<void> {
    if (this.next !== null) return this.next;
    const previous = this.running;
    const next = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => previous)
      .then(() => {
        this.next = null;
        return this.syncDirectory();
      });
    this.next = next;
    // The next one waits for this one's end, whatever its outcome (the error is each requester's).
    this.running = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }
}
