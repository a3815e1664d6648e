// Our broker with HornetQ's own Java client (java-client.mjs): each of our two workloads measured
// three ways (java-peer-comparison.mjs):
//   a  our client -> our broker (as np-throughput and p-throughput measure it);
//   d  HornetQ 2.4.7's JMS client (hornetq-jms-client; bench/java/hornetq BenchClient, which does
//      what bench/clients/ours.mjs does) -> our broker, run as for a;
//   e  the same JMS client -> a HornetQ 2.4.7 server (the interop harness' HqServer), the
//      reference: what that client does against the broker it was written for.
// Same counts, payloads, windows, prefetch and acks in all three. Both brokers persist: durable
// messages are synced to their journal before the broker confirms them.
// HornetQ's client runs with its own defaults, its 32 KiB socket buffers included; TCP_BUFFER_SIZE
// (bytes) in the environment gives it larger ones (bench/java/hornetq ConnectionFactories says
// why that matters on loopback), and each of its lines says which (`tcp_buffer_size`, null for
// HornetQ's default).
import { HORNETQ_QUEUE_ADDRESS, hornetqBroker, hornetqClient } from '../lib/hornetq-peer.mjs';
import { comparisonSpecs, withJavaClient } from './java-peer-comparison.mjs';

/** TCP_BUFFER_SIZE for HornetQ's client, or null (its default). */
function tcpBufferSize(env) {
  const text = env.TCP_BUFFER_SIZE;
  if (text === undefined || text === '') return null;
  const bytes = Number(text);
  if (!Number.isInteger(bytes) || bytes <= 0) {
    throw new Error(`TCP_BUFFER_SIZE must be a positive whole number of bytes, not "${text}"`);
  }
  return bytes;
}

export const javaClientComparison = {
  script: 'java-client',
  javaModule: 'hornetq',
  versions: { hornetq: '2.4.7.Final' },
  // Then one large message each way (scenarios/java-large-message.mjs).
  largeMessages: true,
  layout: {
    comparison: 'java-client',
    measurements: [
      { id: 'a', label: 'ours → ours' },
      { id: 'd', label: 'HornetQ JMS client → ours' },
      { id: 'e', label: 'HornetQ JMS client → HornetQ 2.4.7' },
    ],
    ratios: [
      ['d', 'a'],
      ['e', 'a'],
      ['d', 'e'],
    ],
  },
  /** measureThroughput specs of one run, in the order they run: a, d, e of np, then of p. */
  specs: (options, classpaths) =>
    comparisonSpecs(options, (a, mode) => {
      // Our broker's queue is jms.queue.bench (bench/broker.mjs), as the HornetQ server's is.
      const java = withJavaClient(a, mode, {
        measurement: 'd',
        client: 'hornetq-jms',
        startClient: hornetqClient(classpaths),
        address: HORNETQ_QUEUE_ADDRESS,
      });
      const d = { ...java, extra: { ...java.extra, tcp_buffer_size: tcpBufferSize(process.env) } };
      const e = {
        ...d,
        peer: 'hornetq',
        startBroker: hornetqBroker(classpaths),
        extra: { ...d.extra, measurement: 'e' },
      };
      return [d, e];
    }),
};
