// np-throughput: non-persistent messages, one producer -> one queue -> one consumer, broker,
// producer and consumer in separate processes; HornetQ's default confirmation window (-1). The
// broker has persistence on (its journal in a temporary data directory), but nothing
// non-durable touches it: this must not be slower than without persistence. So each run also
// measures the same broker with persistence off, back to back; the summary reports
// 1 − on/off over the medians (np_persistence_cost).
import { measureThroughput } from '../lib/throughput.mjs';
import { nonPersistentSpec } from './ours-workloads.mjs';

export default {
  name: 'np-throughput',
  repeated: true,
  async run(options) {
    const spec = { ...nonPersistentSpec(options), scenario: 'np-throughput' };
    return [
      await measureThroughput(spec),
      await measureThroughput({
        ...spec,
        brokerEnv: { BENCH_PERSISTENCE: 'off' },
        extra: { ...spec.extra, persistence: 'off' },
      }),
    ];
  },
};
