// np-throughput: non-persistent messages, one producer -> one queue -> one consumer, broker,
// producer and consumer in separate processes; HornetQ's default confirmation window (-1). The
// broker has persistence on (its journal in a temporary data directory), but nothing
// non-durable touches it: this must not be slower than without persistence.
import { measureThroughput } from '../lib/throughput.mjs';
import { nonPersistentSpec } from './ours-workloads.mjs';

export default {
  name: 'np-throughput',
  repeated: true,
  async run(options) {
    return [await measureThroughput({ ...nonPersistentSpec(options), scenario: 'np-throughput' })];
  },
};
