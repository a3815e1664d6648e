// connections: `connections` (1000) concurrent idle connections, each with one session and one
// consumer on the benchmark queue and a confirmation window of 1 MiB (so they can reattach),
// held by `connectionProcesses` client processes (connection-holder.mjs) through the fault proxy
// (link-proxy.mjs, in this process, which is idle meanwhile).
// 1. Broker heap per connection: heapUsed after a full GC (broker under --expose-gc) before and
//    after the connections, divided by their number. Target <= 100 KiB.
// 2. Reattach storm: the proxy cuts every link at once and refuses new ones for `outageMs`, then
//    lets them through; we time from that moment until every connection's FAILOVER_COMPLETED
//    (with reattached true). Target: all within 2 s. The clients retry every 100 ms (jitter 10 %),
//    so up to ~110 ms of it is the retry schedule.
import { startLinkProxy } from '../link-proxy.mjs';
import { ProcessGroup, peakRssMb, processCpu, withTimeout } from '../lib/processes.mjs';
import { percentileOfSorted } from '../lib/stats.mjs';
import { nowNs, round } from '../payload.mjs';

const RETRY_INTERVAL_MS = 100;
const CONFIRMATION_WINDOW = 1024 * 1024;

export default {
  name: 'connections',
  repeated: false,
  async run(options) {
    const group = new ProcessGroup();
    let proxy = null;
    const base = {
      peer: 'ours',
      scenario: 'connections',
      connections: options.connections,
      client_processes: options.connectionProcesses,
      confirmation_window: CONFIRMATION_WINDOW,
      retry_interval_ms: RETRY_INTERVAL_MS,
      outage_ms: options.outageMs,
    };
    try {
      const line = await withTimeout(
        measure(options, group, (started) => (proxy = started)),
        options.timeout * 1000,
        'connections',
        () => group.stopAll(0),
      );
      return [{ ...base, ...line }];
    } catch (error) {
      return [{ ...base, error: String(error.message) }];
    } finally {
      await group.stopAll();
      await proxy?.close();
    }
  },
};

async function measure(options, group, proxyStarted) {
  const broker = group.startServer('broker.mjs', {}, ['--expose-gc']);
  const { port } = await broker.waitFor((l) => 'port' in l);
  const ask = async (cmd, field) => {
    broker.command({ cmd });
    return broker.waitFor((l) => field in l);
  };
  const heapBefore = (await ask('heap', 'heap_used_bytes')).heap_used_bytes;
  const proxy = await startLinkProxy(port);
  proxyStarted(proxy);

  const holders = spreadOver(options.connections, options.connectionProcesses).map((count) =>
    group.start('connection-holder.mjs', {
      PORT: String(proxy.port),
      COUNT: String(count),
      CONFIRMATION_WINDOW: String(CONFIRMATION_WINDOW),
      RETRY_INTERVAL: String(RETRY_INTERVAL_MS),
    }),
  );
  const connectStart = nowNs();
  const ready = await Promise.all(holders.map((h) => h.waitFor((l) => l.ready)));
  const connectSeconds = (nowNs() - connectStart) / 1e9;
  const connected = await ask('stats', 'connections');
  const heapAfter = (await ask('heap', 'heap_used_bytes')).heap_used_bytes;

  for (const holder of holders) holder.command({ cmd: 'expect-failover' });
  const brokerCpuBefore = processCpu(broker.pid);
  proxy.refuse(true);
  proxy.cut();
  await new Promise((resolve) => setTimeout(resolve, options.outageMs));
  const restoredAtNs = nowNs();
  proxy.refuse(false);
  const outcomes = await waitForFailovers(holders, options.reattachWaitMs);
  const brokerCpuAfter = processCpu(broker.pid);
  const afterStorm = await ask('stats', 'connections');

  const sinceRestoreMs = outcomes
    .flatMap((o) => o.completedAtNs)
    .map((at) => (at - restoredAtNs) / 1e6)
    .sort((a, b) => a - b);
  const sum = (field) => outcomes.reduce((total, o) => total + o[field], 0);
  const reattached = sum('reattached');
  const line = {
    connected_before: connected.connections,
    sessions_before: connected.sessions,
    connect_s: round(connectSeconds),
    holder_connect_s: ready.map((r) => round(r.connect_s)),
    broker_heap_before_mb: round(heapBefore / 2 ** 20, 2),
    broker_heap_after_mb: round(heapAfter / 2 ** 20, 2),
    heap_per_connection_kib: round((heapAfter - heapBefore) / 1024 / options.connections, 1),
    failovers_completed: sinceRestoreMs.length,
    reattached,
    recreated: sum('recreated'),
    failover_failed: sum('failed'),
    reattach_p50_ms: round(percentileOfSorted(sinceRestoreMs, 0.5)),
    reattach_p99_ms: round(percentileOfSorted(sinceRestoreMs, 0.99)),
    all_reattached_ms: reattached === options.connections ? round(sinceRestoreMs.at(-1)) : null,
    connections_after: afterStorm.connections,
    sessions_after: afterStorm.sessions,
    broker_cpu_s: round(brokerCpuAfter.cpu_s - brokerCpuBefore.cpu_s, 2),
    broker_sys_s: round(brokerCpuAfter.sys_s - brokerCpuBefore.sys_s, 2),
    broker_rss_peak_mb: peakRssMb(broker.pid),
    client_cpu_s: round(sum('cpu_s'), 2),
    target_all_reattached_ms: 2000,
    target_heap_per_connection_kib: 100,
  };
  if (line.all_reattached_ms === null) {
    line.error = `${reattached} of ${options.connections} reattached (${line.recreated} re-created, ${line.failover_failed} failed) within ${options.reattachWaitMs / 1000} s`;
  }
  return line;
}

/** Splits `total` into `parts` counts that differ by at most one. */
function spreadOver(total, parts) {
  return Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));
}

/** Each holder's outcome once all its connections failed over, or what it has after `waitMs`. */
async function waitForFailovers(holders, waitMs) {
  return Promise.all(
    holders.map(async (holder) => {
      try {
        return await withTimeout(
          holder.waitFor((l) => l.failovers_done),
          waitMs,
          'reattach',
        );
      } catch {
        holder.command({ cmd: 'report' });
        return holder.waitFor((l) => 'failovers_done' in l);
      }
    }),
  );
}
