import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

/** Sampling period of the event loop delay monitor (ms): fine enough to see a 20 ms stall. */
export const EVENT_LOOP_RESOLUTION_MS = 10;

const RESOLUTION_NS = EVENT_LOOP_RESOLUTION_MS * 1e6;

/** prom-client's event loop names (its own gauges are dropped: see DefaultMetrics), each read from the monitor. */
const STATISTICS: ReadonlyArray<{
  readonly name: string;
  readonly help: string;
  readonly read: (monitor: IntervalHistogram) => number;
}> = [
  { name: 'min', help: 'Shortest', read: (monitor) => monitor.min },
  { name: 'max', help: 'Longest', read: (monitor) => monitor.max },
  { name: 'mean', help: 'Mean', read: (monitor) => monitor.mean },
  { name: 'p50', help: 'Median', read: (monitor) => monitor.percentile(50) },
  { name: 'p90', help: '90th percentile of the', read: (monitor) => monitor.percentile(90) },
  { name: 'p99', help: '99th percentile of the', read: (monitor) => monitor.percentile(99) },
];

/**
 * How late the event loop ran a timer, from Node's own monitor (a libuv timer every
 * EVENT_LOOP_RESOLUTION_MS, no JavaScript per sample). The monitor records the whole interval
 * between two of its ticks, so an idle loop would show the resolution itself as delay: the
 * resolution is taken off (a tick early by the clock's rounding counts 0). Each scrape reads what
 * was seen since the one before, then starts over, so a stall shows in the next scrape and does
 * not linger in every later one.
 */
export class EventLoopDelay {
  private readonly monitor = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
  private readonly gauges: ReadonlyArray<{ gauge: Gauge; read: (monitor: IntervalHistogram) => number }>;
  private readonly stddev: Gauge;

  constructor(registry: Registry) {
    const registers = [registry];
    this.gauges = STATISTICS.map(({ name, help, read }) => ({
      gauge: new Gauge({
        name: `nodejs_eventloop_lag_${name}_seconds`,
        help: `${help} event loop delay since the previous scrape, less the monitor's ${EVENT_LOOP_RESOLUTION_MS} ms period.`,
        registers,
      }),
      read,
    }));
    this.stddev = new Gauge({
      name: 'nodejs_eventloop_lag_stddev_seconds',
      help: 'Standard deviation of the event loop delay since the previous scrape.',
      registers,
    });
    this.monitor.enable();
  }

  /** Sets the gauges to what the monitor saw since the previous call (0 for nothing seen), and starts over. */
  sample(): void {
    const monitor = this.monitor;
    // Before its first tick the monitor reports NaN (mean) and a huge minimum: 0 says "no delay seen".
    const seen = monitor.count > 0;
    for (const { gauge, read } of this.gauges) gauge.set(seen ? lateBy(read(monitor)) : 0);
    this.stddev.set(seen && Number.isFinite(monitor.stddev) ? monitor.stddev / 1e9 : 0);
    monitor.reset();
  }

  stop(): void {
    this.monitor.disable();
  }
}

/** Seconds by which a tick came later than the monitor's period. */
function lateBy(intervalNs: number): number {
  return Number.isFinite(intervalNs) ? Math.max(0, intervalNs - RESOLUTION_NS) / 1e9 : 0;
}
