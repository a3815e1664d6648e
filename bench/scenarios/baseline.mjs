// baseline: the raw Node TCP relay (relay.mjs) moving the same payloads with raw node:net
// clients, in the same run as ours, so that every figure of ours is a ratio against it.
// np: frames relayed as fast as socket backpressure allows. p: the relay writes each batch to a
// log file in its data directory and confirms it to the producer after the group commit's
// fdatasync (one write + fdatasync per group); the producer keeps `window` frames unconfirmed,
// and the consumer acks every frame. Our p-throughput's broker fsyncs its journal likewise.
import { measureThroughput } from '../lib/throughput.mjs';

export default {
  name: 'baseline',
  repeated: true,
  async run(options) {
    const common = {
      peer: 'limit-relay',
      scenario: 'baseline',
      server: 'relay.mjs',
      target: 'raw',
      size: options.size,
      timeoutMs: options.timeout * 1000,
    };
    return [
      await measureThroughput({ ...common, messages: options.npMessages, extra: { mode: 'np' } }),
      await measureThroughput({
        ...common,
        messages: options.pMessages,
        clientEnv: { DURABLE: '1', IN_FLIGHT: String(options.window) },
        extra: { mode: 'p' },
      }),
    ];
  },
};
