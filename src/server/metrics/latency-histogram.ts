/**
 * Upper bounds (seconds) of the journal sync histogram: from a fast NVMe fdatasync (~100 µs) to a
 * stalled disk (seconds). Fixed, so that every broker's series aggregate.
 */
export const SYNC_SECONDS_BUCKETS: readonly number[] = Object.freeze([
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
]);

/** A histogram's state at one moment: cumulative counts per upper bound, as Prometheus exposes them. */
export interface HistogramSnapshot {
  readonly buckets: ReadonlyArray<{ readonly le: number; readonly count: number }>;
  readonly sum: number;
  readonly count: number;
}

/**
 * Durations counted into fixed buckets. Observing costs a short scan and two additions, no
 * allocation: it runs once per journal flush. Counts are kept per bucket and made cumulative only
 * when read (a scrape).
 */
export class LatencyHistogram {
  private readonly bounds: readonly number[];
  /** One more slot than bounds: what is above the largest bound (+Inf). */
  private readonly counts: Float64Array;
  private total = 0;
  private observations = 0;

  constructor(bounds: readonly number[] = SYNC_SECONDS_BUCKETS) {
    for (let i = 0; i < bounds.length; i++) {
      const bound = bounds[i] as number;
      if (!Number.isFinite(bound) || (i > 0 && bound <= (bounds[i - 1] as number))) {
        throw new RangeError(
          `histogram bounds must be finite and increasing (bound ${i} is ${bound}, after ${bounds[i - 1]})`,
        );
      }
    }
    this.bounds = [...bounds];
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > (this.bounds[i] as number)) i++;
    this.counts[i] = (this.counts[i] as number) + 1;
    this.total += value;
    this.observations++;
  }

  get count(): number {
    return this.observations;
  }

  snapshot(): HistogramSnapshot {
    const buckets: Array<{ le: number; count: number }> = [];
    let cumulative = 0;
    for (let i = 0; i < this.bounds.length; i++) {
      cumulative += this.counts[i] as number;
      buckets.push({ le: this.bounds[i] as number, count: cumulative });
    }
    buckets.push({ le: Number.POSITIVE_INFINITY, count: this.observations });
    return { buckets, sum: this.total, count: this.observations };
  }
}
