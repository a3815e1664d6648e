import type { Transport, TransportHandlers } from './transport';

/**
 * One end of an in-process link. Frames go to the other end without copying, delivered on a later
 * turn of the event loop (never re-entrantly) and in order.
 */
export class InVmTransport implements Transport {
  private handlers: TransportHandlers | null = null;
  private peer: InVmTransport | null = null;
  private inbox: Buffer[] = [];
  private inboxBytes = 0;
  private deliveryScheduled = false;
  /** pauseReading(): the inbox fills, and the peer sees its pendingBytes grow, as over TCP. */
  private readingPaused = false;
  private isClosed = false;
  /** Set by destroy(): frames not yet delivered are dropped, as a reset link drops them. */
  private discardInbox = false;

  private constructor(readonly remoteAddress: string) {}

  /** Two connected ends: one for the client, one for the acceptor. */
  static pair(name: string): [client: InVmTransport, server: InVmTransport] {
    const client = new InVmTransport(`invm://${name}`);
    const server = new InVmTransport(`invm://${name}/client`);
    client.peer = server;
    server.peer = client;
    return [client, server];
  }

  get pendingBytes(): number {
    return this.peer?.inboxBytes ?? 0;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  setHandlers(handlers: TransportHandlers): void {
    this.handlers = handlers;
    if (this.inbox.length > 0) this.scheduleDelivery();
  }

  pauseReading(): void {
    this.readingPaused = true;
  }

  resumeReading(): void {
    this.readingPaused = false;
    if (this.inbox.length > 0) this.scheduleDelivery();
  }

  write(frame: Buffer): void {
    if (this.isClosed || this.peer === null) return;
    this.peer.receive(frame);
  }

  close(): void {
    this.shutdown(undefined);
  }

  destroy(error?: Error): void {
    this.discardInbox = true;
    this.shutdown(error ?? new Error('in-VM link destroyed'));
  }

  private receive(frame: Buffer): void {
    this.inbox.push(frame);
    this.inboxBytes += frame.length;
    this.scheduleDelivery();
  }

  private scheduleDelivery(): void {
    if (this.deliveryScheduled || this.handlers === null || this.readingPaused) return;
    this.deliveryScheduled = true;
    setImmediate(() => this.deliver());
  }

  private deliver(): void {
    this.deliveryScheduled = false;
    if (this.readingPaused) return;
    const frames = this.inbox;
    this.inbox = [];
    this.inboxBytes = 0;
    for (const frame of frames) {
      if (this.discardInbox) return;
      this.handlers?.onData(frame);
    }
    // What the peer wrote has been read: its pendingBytes are back to 0.
    this.peer?.handlers?.onDrain?.();
  }

  private shutdown(error: Error | undefined): void {
    if (this.isClosed) return;
    this.isClosed = true;
    const peer = this.peer;
    this.peer = null;
    // After any delivery already scheduled, so a graceful close loses nothing sent before it.
    setImmediate(() => this.handlers?.onClose(error));
    peer?.shutdown(error === undefined ? undefined : new Error('in-VM peer failed', { cause: error }));
  }
}
