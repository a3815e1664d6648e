import { build, type Histogram } from 'hdr-histogram-js';

/** Microseconds on the process's monotonic clock: sender and receiver are the same process. */
export function nowMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

export const PERCENTILES = [50, 90, 99, 99.9] as const;

/** Latencies in microseconds, with three significant digits (HdrHistogram), shown in milliseconds. */
export class LatencyRecorder {
  private readonly histogram: Histogram = build({ numberOfSignificantValueDigits: 3 });

  record(micros: number): void {
    this.histogram.recordValue(Math.max(0, Math.round(micros)));
  }

  get count(): number {
    return this.histogram.totalCount;
  }

  /** "p50 0.213 ms  p90 0.402 ms  p99 1.210 ms  p99.9 3.100 ms", or "-" when nothing was recorded. */
  percentiles(): string {
    if (this.count === 0) return '-';
    return PERCENTILES.map((p) => `p${p} ${ms(this.histogram.getValueAtPercentile(p))}`).join('  ');
  }

  /** Mean, percentiles and max. */
  summary(): string {
    if (this.count === 0) return 'no messages received';
    return `mean ${ms(this.histogram.mean)}  ${this.percentiles()}  max ${ms(this.histogram.maxValue)}`;
  }

  reset(): void {
    this.histogram.reset();
  }
}

function ms(micros: number): string {
  return `${(micros / 1000).toFixed(3)} ms`;
}
