// What every comparison with a Java peer measures (artemis-comparison.mjs,
// java-client-comparison.mjs): each of our two workloads (ours-workloads.mjs: non-persistent, and
// durable with a window of sends awaiting confirmation) first as `a`, our client -> our broker
// (as np-throughput and p-throughput measure it), then the peer's measurements, derived from `a`
// so that counts, payloads, windows, prefetch and acks are the same in all of them.
import { nonPersistentSpec, persistentSpec } from './ours-workloads.mjs';

// A Java client (Artemis' core client, HornetQ's JMS client) acknowledges an asynchronous durable
// send (its way of keeping `window` sends in flight) only on a session with a confirmation window;
// 1 MiB, the size HornetQ's and our reattach settings use. Our client awaits each send's own
// response instead (window -1).
const JAVA_DURABLE_CONFIRMATION_WINDOW = 1024 * 1024;

const WORKLOADS = [
  { mode: 'np', scenario: 'np-throughput', spec: nonPersistentSpec },
  { mode: 'p', scenario: 'p-throughput', spec: persistentSpec },
];

/**
 * measureThroughput specs of one run, in the order they run: a and then `peerSpecs(a, mode)`
 * (the peer's measurements, e.g. [b, c]) of np, then of p.
 */
export function comparisonSpecs(options, peerSpecs) {
  return WORKLOADS.flatMap(({ mode, scenario, spec }) => {
    const ours = { ...spec(options), scenario };
    const a = { ...ours, extra: { ...ours.extra, measurement: 'a', client: 'ours' } };
    return [a, ...peerSpecs(a, mode)];
  });
}

/**
 * `spec` with a Java client of bench/java (startClient, e.g. artemisClient(classpaths)) in place
 * of ours, producing to and consuming from `address`, with a confirmation window for its durable
 * producer (see JAVA_DURABLE_CONFIRMATION_WINDOW); `measurement` and `client` label its lines.
 */
export function withJavaClient(spec, mode, { measurement, client, startClient, address }) {
  const confirmationWindow = mode === 'p' ? JAVA_DURABLE_CONFIRMATION_WINDOW : spec.extra.confirmation_window;
  return {
    ...spec,
    startClient,
    clientEnv: { ...spec.clientEnv, BENCH_ADDRESS: address },
    producerEnv: { ...spec.producerEnv, CONFIRMATION_WINDOW: String(confirmationWindow) },
    extra: { ...spec.extra, measurement, client, confirmation_window: confirmationWindow },
  };
}
