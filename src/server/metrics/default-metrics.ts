import perfHooks, {
  type IntervalHistogram,
  type PerformanceObserver,
  type PerformanceObserverCallback,
} from 'node:perf_hooks';
import { collectDefaultMetrics, type Registry } from 'prom-client';

/** prom-client's event loop family, which EventLoopDelay replaces (see DefaultMetrics). */
const PROM_CLIENT_EVENT_LOOP_PREFIX = 'nodejs_eventloop_lag_';

/** What collectDefaultMetrics started in the background: an event loop monitor and a GC observer. */
interface BackgroundHooks {
  readonly monitors: IntervalHistogram[];
  readonly observers: PerformanceObserver[];
}

/**
 * prom-client's default metrics (process start time, CPU, resident memory, heap, file
 * descriptors, handles, GC durations, Node's version) on one registry, and a way to end them.
 *
 * prom-client 15 gives none: collectDefaultMetrics enables a perf_hooks event loop monitor and
 * subscribes a GC PerformanceObserver, and neither is ever disabled (prom-client issues #494 and
 * #500), so each registry would leave a timer ticking and an observer called at every GC for the
 * life of the process. Both are made synchronously inside the call, through the perf_hooks module
 * object: that object's two constructors are wrapped for the length of the call only, which hands
 * us what it made, to disable at release().
 *
 * prom-client's event loop gauges are dropped (and their monitor disabled at once): they report
 * the monitor's raw intervals, so an idle loop shows the monitor's resolution as lag.
 * EventLoopDelay exposes the same names, less the resolution.
 */
export class DefaultMetrics {
  private readonly hooks: BackgroundHooks;

  constructor(registry: Registry) {
    this.hooks = captureBackgroundHooks(() => collectDefaultMetrics({ register: registry }));
    for (const metric of registry.getMetricsAsArray()) {
      if (metric.name.startsWith(PROM_CLIENT_EVENT_LOOP_PREFIX)) registry.removeSingleMetric(metric.name);
    }
    for (const monitor of this.hooks.monitors) monitor.disable();
  }

  /** How many background hooks are still live (0 after release()): what a test checks. */
  get liveHooks(): number {
    return this.hooks.monitors.length + this.hooks.observers.length;
  }

  /** Disables the monitor and disconnects the GC observer; the registry's metrics stay as they are. */
  release(): void {
    for (const monitor of this.hooks.monitors.splice(0)) monitor.disable();
    for (const observer of this.hooks.observers.splice(0)) observer.disconnect();
  }
}

/** Runs `start` (synchronous) with perf_hooks' monitor and observer constructors recording what they make. */
function captureBackgroundHooks(start: () => void): BackgroundHooks {
  const hooks: BackgroundHooks = { monitors: [], observers: [] };
  const originalMonitor = perfHooks.monitorEventLoopDelay;
  const OriginalObserver = perfHooks.PerformanceObserver;
  perfHooks.monitorEventLoopDelay = (options) => {
    const monitor = originalMonitor(options);
    hooks.monitors.push(monitor);
    return monitor;
  };
  perfHooks.PerformanceObserver = class extends OriginalObserver {
    constructor(callback: PerformanceObserverCallback) {
      super(callback);
      hooks.observers.push(this);
    }
  };
  try {
    start();
  } finally {
    perfHooks.monitorEventLoopDelay = originalMonitor;
    perfHooks.PerformanceObserver = OriginalObserver;
  }
  return hooks;
}
