import { setImmediate as yieldToIo, setTimeout as sleep } from 'node:timers/promises';

/** Full speed yields to I/O every this many messages, so timers and deliveries are not starved. */
const YIELD_EVERY = 64;

/**
 * Spaces out the messages of a run: the i-th message is due `i / rate` seconds after the start,
 * so a slow moment is caught up rather than lost. Without a rate, everything is due at once.
 */
export class Pacer {
  private readonly startedAt = performance.now();

  constructor(
    private readonly rate: number | null,
    private readonly signal: AbortSignal,
  ) {}

  /** Resolves when message `index` (from 0) is due, or early when the signal aborts. */
  async due(index: number): Promise<void> {
    if (this.rate === null) {
      if (index % YIELD_EVERY === YIELD_EVERY - 1) await yieldToIo();
      return;
    }
    const wait = this.startedAt + (index * 1000) / this.rate - performance.now();
    if (wait <= 0) {
      if (index % YIELD_EVERY === YIELD_EVERY - 1) await yieldToIo();
      return;
    }
    await sleep(wait, undefined, { signal: this.signal }).catch(() => undefined);
  }
}
