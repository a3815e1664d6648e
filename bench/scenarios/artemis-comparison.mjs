// The Artemis comparison (peers-artemis.mjs): each of our two workloads measured three ways
// (java-peer-comparison.mjs):
//   a  our client -> our broker (as np-throughput and p-throughput measure it);
//   b  our client -> Artemis 2.40.0 through its HORNETQ acceptor (jms.queue. prefix);
//   c  Artemis' own core client -> Artemis through its CORE acceptor (bench/java/artemis
//      BenchClient, which does what bench/clients/ours.mjs does).
// Same counts, payloads, windows, prefetch and acks in all three. Both brokers persist: durable
// messages are synced to their journal before the broker confirms them.
import { ARTEMIS_QUEUE, artemisBroker, artemisClient } from '../lib/artemis-peer.mjs';
import { comparisonSpecs, withJavaClient } from './java-peer-comparison.mjs';

export const artemisComparison = {
  script: 'peers-artemis',
  javaModule: 'artemis',
  versions: { artemis: '2.40.0' },
  layout: {
    comparison: 'artemis',
    measurements: [
      { id: 'a', label: 'ours → ours' },
      { id: 'b', label: 'ours → Artemis (HORNETQ acceptor)' },
      { id: 'c', label: 'Artemis core client → Artemis (CORE acceptor)' },
    ],
    ratios: [
      ['b', 'a'],
      ['c', 'a'],
      ['c', 'b'],
    ],
  },
  /** measureThroughput specs of one run, in the order they run: a, b, c of np, then of p. */
  specs: (options, classpaths) =>
    comparisonSpecs(options, (a, mode) => {
      const b = {
        ...a,
        peer: 'artemis',
        startBroker: artemisBroker(classpaths, { acceptor: 'hornetq' }),
        extra: { ...a.extra, measurement: 'b' },
      };
      const c = {
        ...withJavaClient(b, mode, {
          measurement: 'c',
          client: 'artemis-core',
          startClient: artemisClient(classpaths),
          address: ARTEMIS_QUEUE,
        }),
        startBroker: artemisBroker(classpaths, { acceptor: 'core' }),
      };
      return [b, c];
    }),
};
