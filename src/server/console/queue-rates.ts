/** A queue's cumulative counters at one moment. */
export interface QueueCounters {
  readonly name: string;
  readonly messagesAdded: number;
  readonly messagesAcknowledged: number;
}

/** Messages per second into and out of a queue, over the last sampling interval. */
export interface QueueRate {
  readonly addedPerSecond: number;
  readonly acknowledgedPerSecond: number;
}

interface Sample {
  readonly at: number;
  readonly counters: ReadonlyMap<string, QueueCounters>;
}

/**
 * Queue rates for the console, from the queues' counters as the API reads them: a new sample is
 * taken when the newest is at least `minIntervalMs` old, and each queue's rate is its counters'
 * growth between the two newest samples. No timer runs: rates move while someone looks (the page
 * polls every two seconds) and cost nothing otherwise. A queue seen in one sample only (new, or
 * deleted and made again, its counters starting over) has no rate yet. Memory is two samples.
 */
export class QueueRates {
  private previous: Sample | null = null;
  private latest: Sample | null = null;

  constructor(
    private readonly minIntervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a sample of `queues` if one is due, then answers each queue's rate (null: none yet). */
  observe(queues: readonly QueueCounters[]): Map<string, QueueRate | null> {
    const at = this.now();
    if (this.latest === null || at - this.latest.at >= this.minIntervalMs) {
      this.previous = this.latest;
      this.latest = { at, counters: new Map(queues.map((queue) => [queue.name, queue])) };
    }
    const rates = new Map<string, QueueRate | null>();
    for (const queue of queues) rates.set(queue.name, this.rateOf(queue.name));
    return rates;
  }

  private rateOf(name: string): QueueRate | null {
    if (this.previous === null || this.latest === null) return null;
    const before = this.previous.counters.get(name);
    const after = this.latest.counters.get(name);
    if (before === undefined || after === undefined) return null;
    const added = after.messagesAdded - before.messagesAdded;
    const acknowledged = after.messagesAcknowledged - before.messagesAcknowledged;
    // Counters that went back: the queue was made again between the samples.
    if (added < 0 || acknowledged < 0) return null;
    const seconds = (this.latest.at - this.previous.at) / 1000;
    return { addedPerSecond: added / seconds, acknowledgedPerSecond: acknowledged / seconds };
  }
}
