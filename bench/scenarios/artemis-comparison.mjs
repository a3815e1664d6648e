// The Artemis comparison (peers-artemis.mjs): each of our two workloads (ours-workloads.mjs:
// non-persistent, and durable with a window of sends awaiting confirmation) measured three ways:
//   a  our client -> our broker (as np-throughput and p-throughput measure it);
//   b  our client -> Artemis 2.40.0 through its HORNETQ acceptor (jms.queue. prefix);
//   c  Artemis' own core client -> Artemis through its CORE acceptor (bench/java BenchClient,
//      which does what bench/clients/ours.mjs does).
// Same counts, payloads, windows, prefetch and acks in all three. Both brokers persist: durable
// messages are synced to their journal before the broker confirms them.
import { ARTEMIS_QUEUE, artemisBroker, artemisClient } from '../lib/artemis-peer.mjs';
import { nonPersistentSpec, persistentSpec } from './ours-workloads.mjs';

// Artemis' client acknowledges an asynchronous durable send (its way of keeping `window` sends in
// flight) only on a session with a confirmation window; 1 MiB, the size HornetQ's and our
// reattach settings use. Our client awaits each send's own response instead (window -1).
const ARTEMIS_DURABLE_CONFIRMATION_WINDOW = 1024 * 1024;

const WORKLOADS = [
  { mode: 'np', scenario: 'np-throughput', spec: nonPersistentSpec },
  { mode: 'p', scenario: 'p-throughput', spec: persistentSpec },
];

/** measureThroughput specs of one run, in the order they run: a, b, c of np, then of p. */
export function comparisonSpecs(options, classpaths) {
  return WORKLOADS.flatMap(({ mode, scenario, spec }) => {
    const ours = { ...spec(options), scenario };
    const a = { ...ours, extra: { ...ours.extra, measurement: 'a', client: 'ours' } };
    const b = {
      ...a,
      peer: 'artemis',
      startBroker: artemisBroker(classpaths, { acceptor: 'hornetq' }),
      extra: { ...a.extra, measurement: 'b' },
    };
    const confirmationWindow =
      mode === 'p' ? ARTEMIS_DURABLE_CONFIRMATION_WINDOW : a.extra.confirmation_window;
    const c = {
      ...b,
      startBroker: artemisBroker(classpaths, { acceptor: 'core' }),
      startClient: artemisClient(classpaths),
      clientEnv: { ...b.clientEnv, BENCH_ADDRESS: ARTEMIS_QUEUE },
      producerEnv: { ...b.producerEnv, CONFIRMATION_WINDOW: String(confirmationWindow) },
      extra: {
        ...b.extra,
        measurement: 'c',
        client: 'artemis-core',
        confirmation_window: confirmationWindow,
      },
    };
    return [a, b, c];
  });
}
