// p-throughput: durable messages with block-on-durable-send semantics but `window` (1000) sends
// in flight, the consumer acking each message individually; the broker's storage as it is (in
// memory). Confirmation window -1 (HornetQ's default).
import { measureThroughput } from '../lib/throughput.mjs';
import { persistentSpec } from './ours-workloads.mjs';

export default {
  name: 'p-throughput',
  repeated: true,
  async run(options) {
    return [await measureThroughput({ ...persistentSpec(options), scenario: 'p-throughput' })];
  },
};
