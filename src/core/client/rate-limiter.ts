/**
 * At most `perSecond` permits a second (HornetQ's producer-max-rate and consumer-max-rate), handed
 * out in the order they were asked for. Within the rate a permit costs nothing and no timer;
 * past it, one timer wakes the queue when the next permit is due.
 */
export class RateLimiter {
  private readonly intervalMs: number;
  private nextFreeAt = 0;
  private readonly waiting: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(perSecond: number) {
    this.intervalMs = 1000 / perSecond;
  }

  /** Resolves when the caller may go; undefined when it may go at once. */
  take(): Promise<void> | undefined {
    const now = Date.now();
    if (this.waiting.length === 0 && this.nextFreeAt <= now) {
      // Permits are not banked over an idle spell: the next one is due an interval from now.
      this.nextFreeAt = Math.max(this.nextFreeAt, now) + this.intervalMs;
      return undefined;
    }
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  /** Releases every waiter at once (the producer or consumer closed). */
  close(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    for (const wake of this.waiting.splice(0)) wake();
  }

  private schedule(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => this.release(), Math.max(0, this.nextFreeAt - Date.now()));
  }

  private release(): void {
    this.timer = null;
    const now = Date.now();
    while (this.waiting.length > 0 && this.nextFreeAt <= now) {
      this.nextFreeAt += this.intervalMs;
      this.waiting.shift()?.();
    }
    if (this.waiting.length > 0) this.schedule();
  }
}
