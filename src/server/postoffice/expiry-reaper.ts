/**
 * Scans for expired messages every message-expiry-scan-period ms, so that messages expire on time
 * in queues nobody consumes from (a delivery pass catches the others). -1 turns the scan off.
 */
export class ExpiryReaper {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly period: number,
    /** Takes out what has expired by `now`. */
    private readonly scan: (now: number) => void,
    /** A scan threw: told instead of the event loop (which would end the process); the next scan runs as planned. */
    private readonly scanFailed: (error: unknown) => void,
  ) {}

  get running(): boolean {
    return this.timer !== null;
  }

  start(): void {
    if (this.period === -1 || this.timer !== null) return;
    this.timer = setInterval(() => this.runScan(), this.period);
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private runScan(): void {
    try {
      this.scan(Date.now());
    } catch (error) {
      this.scanFailed(error);
    }
  }
}
