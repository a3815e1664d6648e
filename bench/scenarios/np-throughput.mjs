// np-throughput: non-persistent messages, one producer -> one queue -> one consumer, broker,
// producer and consumer in separate processes; HornetQ's default confirmation window (-1).
import { measureThroughput } from '../lib/throughput.mjs';
import { nonPersistentSpec } from './ours-workloads.mjs';

export default {
  name: 'np-throughput',
  repeated: true,
  async run(options) {
    return [await measureThroughput({ ...nonPersistentSpec(options), scenario: 'np-throughput' })];
  },
};
