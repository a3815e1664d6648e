import { register as globalRegistry } from 'prom-client';
import { BrokerMetrics } from '../../../src/server/metrics/broker-metrics';
import { Broker } from '../../../src';
import { parseExposition } from '../../support/http-request';

/** prom-client's default metrics that the page docs/guide/metrics.md lists (Linux names). */
const DEFAULT_FAMILIES = [
  'process_cpu_user_seconds_total',
  'process_cpu_system_seconds_total',
  'process_cpu_seconds_total',
  'process_start_time_seconds',
  'process_resident_memory_bytes',
  'process_virtual_memory_bytes',
  'process_heap_bytes',
  'process_open_fds',
  'process_max_fds',
  'nodejs_active_handles',
  'nodejs_active_handles_total',
  'nodejs_active_requests',
  'nodejs_active_requests_total',
  'nodejs_active_resources',
  'nodejs_active_resources_total',
  'nodejs_heap_size_total_bytes',
  'nodejs_heap_size_used_bytes',
  'nodejs_external_memory_bytes',
  'nodejs_heap_space_size_total_bytes',
  'nodejs_heap_space_size_used_bytes',
  'nodejs_heap_space_size_available_bytes',
  'nodejs_version_info',
  'nodejs_gc_duration_seconds',
];

const EVENT_LOOP_FAMILIES = ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99'].map(
  (statistic) => `nodejs_eventloop_lag_${statistic}_seconds`,
);

function familiesOf(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('# TYPE '))
    .map((line) => line.split(' ')[2] ?? '');
}

describe('BrokerMetrics', () => {
  const opened: BrokerMetrics[] = [];
  function metricsOf(source: () => Broker | null): BrokerMetrics {
    const metrics = new BrokerMetrics(source);
    opened.push(metrics);
    return metrics;
  }
  afterEach(() => {
    for (const metrics of opened.splice(0)) metrics.close();
  });

  test("a broker that is not started shows only that, prom-client's process metrics and the event loop", async () => {
    const broker = new Broker({ persistenceEnabled: false, securityEnabled: false, acceptors: [] });
    const text = await metricsOf(() => broker).scrape();
    const families = familiesOf(text);
    expect(families.filter((name) => name.startsWith('hornetq_'))).toEqual(['hornetq_broker_started']);
    expect(new Set(families)).toEqual(
      new Set(['hornetq_broker_started', ...DEFAULT_FAMILIES, ...EVENT_LOOP_FAMILIES]),
    );
    expect(parseExposition(text).get('hornetq_broker_started')).toBe(0);
    // prom-client's own event loop gauges (the raw monitor intervals) are not there.
    expect(families).not.toContain('nodejs_eventloop_lag_seconds');
  });

  test('the default metrics describe this process', async () => {
    const samples = parseExposition(await metricsOf(() => null).scrape());
    const startedAt = Date.now() / 1000 - process.uptime();
    expect(Math.abs((samples.get('process_start_time_seconds') ?? 0) - startedAt)).toBeLessThan(2);
    expect(samples.get('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samples.get('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(samples.get('process_open_fds')).toBeGreaterThan(0);
    expect(
      samples.get(
        `nodejs_version_info{version="${process.version}",major="${process.versions.node.split('.')[0]}",minor="${process.versions.node.split('.')[1]}",patch="${process.versions.node.split('.')[2]}"}`,
      ),
    ).toBe(1);
  });

  test('an idle event loop shows well under the 10 ms the monitor ticks at, not the tick itself', async () => {
    const metrics = metricsOf(() => null);
    await metrics.scrape();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const samples = parseExposition(await metrics.scrape());
    // The monitor's raw median is its period (~10.1 ms idle); less the period, a fraction of a ms.
    expect(samples.get('nodejs_eventloop_lag_p50_seconds')).toBeLessThan(0.003);
    expect(samples.get('nodejs_eventloop_lag_min_seconds')).toBeLessThan(0.003);
    expect(samples.get('nodejs_eventloop_lag_p50_seconds')).toBeGreaterThanOrEqual(0);
  });

  test("each has a registry of its own: two side by side, and nothing in prom-client's global one", async () => {
    // Shared, the second would be refused: prom-client throws on a name registered twice.
    const [a, b] = await Promise.all([metricsOf(() => null).scrape(), metricsOf(() => null).scrape()]);
    expect(familiesOf(a)).toContain('nodejs_gc_duration_seconds');
    expect(familiesOf(a)).toEqual(familiesOf(b));
    expect(globalRegistry.getMetricsAsArray()).toEqual([]);
  });

  test('a closed one refuses to scrape, naming why', async () => {
    const metrics = metricsOf(() => null);
    metrics.close();
    await expect(metrics.scrape()).rejects.toThrow('these broker metrics are closed');
  });
});
