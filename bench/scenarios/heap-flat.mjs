// heap-flat (long; not in the default set): a non-persistent run of `heapMessages` (1 000 000)
// messages. The broker (node --expose-gc) reports its heapUsed after a full GC when its queue has
// taken 100 000 messages and again at the last one; heap_ratio = last / at-100 000 (target: flat
// within ±10 %). Each report also gives the queue depth at that moment: a backlog is heap that
// is not a leak.
import { withTimeout } from '../lib/processes.mjs';
import { round } from '../payload.mjs';
import { measureThroughput } from '../lib/throughput.mjs';
import { nonPersistentSpec } from './ours-workloads.mjs';

const EARLY_MARK = 100_000;

export default {
  name: 'heap-flat',
  repeated: false,
  async run(options) {
    const messages = options.heapMessages;
    const spec = nonPersistentSpec(options);
    return [
      await measureThroughput({
        ...spec,
        scenario: 'heap-flat',
        messages,
        timeoutMs: Math.max(spec.timeoutMs, (messages / 10_000) * 1000),
        brokerNodeArgs: ['--expose-gc'],
        brokerEnv: { HEAP_AT: `${EARLY_MARK},${messages}` },
        afterRun: (broker) => heapReports(broker, messages),
      }),
    ];
  },
};

async function heapReports(broker, messages) {
  const at = (mark) =>
    withTimeout(
      broker.waitFor((l) => l.heap_at === mark),
      10_000,
      `heap report at ${mark}`,
    );
  const early = await at(EARLY_MARK);
  const late = await at(messages);
  return {
    heap_at_100k_mb: round(early.heap_used_bytes / 2 ** 20, 2),
    queue_depth_at_100k: early.queue_depth,
    heap_at_end_mb: round(late.heap_used_bytes / 2 ** 20, 2),
    queue_depth_at_end: late.queue_depth,
    heap_ratio: round(late.heap_used_bytes / early.heap_used_bytes, 3),
  };
}
