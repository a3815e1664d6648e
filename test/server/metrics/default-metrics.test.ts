import { Registry } from 'prom-client';
import { DefaultMetrics } from '../../../src/server/metrics/default-metrics';
import { parseExposition } from '../../support/http-request';

describe('DefaultMetrics', () => {
  test('garbage collections are timed, by kind', async () => {
    const registry = new Registry();
    const defaults = new DefaultMetrics(registry);
    let kept: unknown[] = [];
    let count = 0;
    // Garbage until a collection happens (a minor one comes after a few MiB); the observer is told asynchronously.
    for (let round = 0; round < 50 && count === 0; round++) {
      kept = Array.from({ length: 100_000 }, (_, i) => ({ i }));
      await new Promise((resolve) => setImmediate(resolve));
      count = gcCount(parseExposition(await registry.metrics()));
    }
    defaults.release();
    expect(kept.length).toBe(100_000);
    expect(count).toBeGreaterThan(0);
  });

  test("prom-client's event loop monitor and GC observer are caught, and released", async () => {
    const released = new Registry();
    const live = new Registry();
    const releasedDefaults = new DefaultMetrics(released);
    const liveDefaults = new DefaultMetrics(live);
    // prom-client 15 makes one of each; were it to make them some other way, this would say so.
    expect([releasedDefaults.liveHooks, liveDefaults.liveHooks]).toEqual([2, 2]);
    releasedDefaults.release();
    expect(releasedDefaults.liveHooks).toBe(0);
    // Garbage until the live observer hears of a collection: the released one must not have.
    let kept: unknown[] = [];
    let seen = 0;
    for (let round = 0; round < 50 && seen === 0; round++) {
      kept = Array.from({ length: 100_000 }, (_, i) => ({ i }));
      await new Promise((resolve) => setImmediate(resolve));
      seen = gcCount(parseExposition(await live.metrics()));
    }
    expect(kept.length).toBe(100_000);
    expect([seen > 0, gcCount(parseExposition(await released.metrics()))]).toEqual([true, 0]);
    liveDefaults.release();
  });
});

function gcCount(samples: Map<string, number>): number {
  return [...samples.entries()]
    .filter(([name]) => name.startsWith('nodejs_gc_duration_seconds_count{kind='))
    .reduce((sum, [, count]) => sum + count, 0);
}
