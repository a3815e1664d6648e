// reattach-overhead: what reattachment costs in throughput. np and p each with a confirmation
// window of 1 MiB (resend buffers and confirmations on both sides) and with -1 (none), measured
// back to back in the same run so that machine noise hits both alike. The summary reports
// 1 - windowed/unwindowed over the medians.
import { measureThroughput } from '../lib/throughput.mjs';
import { nonPersistentSpec, persistentSpec } from './ours-workloads.mjs';

const ONE_MIB = 1024 * 1024;

export default {
  name: 'reattach-overhead',
  repeated: true,
  async run(options) {
    const lines = [];
    for (const spec of [nonPersistentSpec, persistentSpec]) {
      for (const window of [-1, ONE_MIB]) {
        lines.push(await measureThroughput({ ...spec(options, window), scenario: 'reattach-overhead' }));
      }
    }
    return lines;
  },
};
