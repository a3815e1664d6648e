// p-throughput: durable messages with block-on-durable-send semantics but `window` (1000) sends
// in flight, the consumer acking each message individually; the broker with persistence on and
// its journal in a temporary data directory (real fdatasync, group commit; removed after the
// run). Confirmation window -1 (HornetQ's default). Compare with the baseline's p mode, the relay
// that fsyncs its own group commits.
import { measureThroughput } from '../lib/throughput.mjs';
import { persistentSpec } from './ours-workloads.mjs';

export default {
  name: 'p-throughput',
  repeated: true,
  async run(options) {
    return [await measureThroughput({ ...persistentSpec(options), scenario: 'p-throughput' })];
  },
};
