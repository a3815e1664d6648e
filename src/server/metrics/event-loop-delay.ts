import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { ExpositionWriter } from './exposition-writer';

/** Sampling period of the event loop delay monitor (ms): fine enough to see a 20 ms stall. */
const RESOLUTION_MS = 10;

/**
 * How late the event loop ran its timers, from Node's own monitor (a libuv timer, no JavaScript
 * per sample). Each scrape reads what was seen since the one before, then starts over, so a stall
 * shows in the next scrape and does not linger in every later one. Node's monitor measures each
 * delay from its previous tick and a reset clears that tick, so the first 10 ms after a scrape are
 * not measured.
 */
export class EventLoopDelay {
  private monitor: IntervalHistogram | null = null;

  start(): void {
    if (this.monitor !== null) return;
    this.monitor = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    this.monitor.enable();
  }

  stop(): void {
    this.monitor?.disable();
    this.monitor = null;
  }

  /** The delays since the previous call (nothing before start()), in seconds. */
  write(writer: ExpositionWriter): void {
    const monitor = this.monitor;
    if (monitor === null) return;
    // Before its first sample the monitor reports NaN (mean) and a huge minimum: 0 says "no delay seen".
    const seconds = (nanoseconds: number): number =>
      monitor.count === 0 || !Number.isFinite(nanoseconds) ? 0 : nanoseconds / 1e9;
    writer.single(
      'nodejs_eventloop_lag_mean_seconds',
      'gauge',
      'Mean event loop delay since the previous scrape.',
      seconds(monitor.mean),
    );
    writer.single(
      'nodejs_eventloop_lag_p99_seconds',
      'gauge',
      '99th percentile of the event loop delay since the previous scrape.',
      seconds(monitor.percentile(99)),
    );
    writer.single(
      'nodejs_eventloop_lag_max_seconds',
      'gauge',
      'Longest event loop delay since the previous scrape.',
      seconds(monitor.max),
    );
    monitor.reset();
  }
}
