// latency: p50/p99/p99.9 at half the measured maximum non-persistent rate. The maximum is the
// median of this invocation's np-throughput runs (or, when that scenario was not selected, one
// np run made here first and reported as 'latency-probe'). The producer paces its sends to that
// rate (lib/pacer.mjs); the consumer records every latency in an HdrHistogram. It runs for
// `latencySeconds` or `latencyMessages`, whichever is fewer messages.
import { median } from '../lib/stats.mjs';
import { measureThroughput } from '../lib/throughput.mjs';
import { nonPersistentSpec } from './ours-workloads.mjs';

export default {
  name: 'latency',
  repeated: false,
  async run(options, history) {
    const lines = [];
    let maximum = median(
      history
        .filter((l) => l.scenario === 'np-throughput' && l.persistence !== 'off' && l.error === undefined)
        .map((l) => l.msgs_per_s),
    );
    if (maximum === null) {
      const probe = await measureThroughput({ ...nonPersistentSpec(options), scenario: 'latency-probe' });
      lines.push(probe);
      if (probe.error !== undefined) return lines;
      maximum = probe.msgs_per_s;
    }
    const rate = Math.round(maximum / 2);
    const messages = Math.min(options.latencyMessages, rate * options.latencySeconds);
    const line = await measureThroughput({
      ...nonPersistentSpec(options),
      scenario: 'latency',
      messages,
      producerEnv: { RATE: String(rate) },
      consumerEnv: { HISTOGRAM: '1' },
    });
    const hdr = line.hdr_latency_ms;
    lines.push({
      ...line,
      target_msgs_per_s: rate,
      max_rate_msgs_per_s: maximum,
      // HdrHistogram's figures (3 significant digits) replace the exact sort, for one method.
      ...(hdr === undefined
        ? {}
        : {
            p50_latency_ms: hdr.p50_ms,
            p99_latency_ms: hdr.p99_ms,
            p999_latency_ms: hdr.p999_ms,
            max_latency_ms: hdr.max_ms,
          }),
    });
    return lines;
  },
};
