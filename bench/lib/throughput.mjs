// One throughput measurement: a broker (or the relay), one consumer process and one producer
// process, each separate; returns the result line (fields of ../shared/peers/README.md "Each
// result line"). Never throws: a failure or a timeout comes back as the line's `error`, with
// every process it started stopped.
import { round } from '../payload.mjs';
import { ProcessGroup, diskWriteBytes, peakRssMb, processCpu, withTimeout } from './processes.mjs';

/**
 * spec: { peer, scenario, server: 'broker.mjs' | 'relay.mjs', target: 'ours' | 'raw', messages,
 *   size, timeoutMs, brokerEnv, brokerNodeArgs, clientEnv (both clients), consumerEnv,
 *   producerEnv, subscribers (fan-out: deliveries per message), extra (fields added to the line),
 *   afterRun(broker) -> extra fields (e.g. heap reports),
 *   startBroker(group) -> Promise<{ broker, port }> (another broker than `server`, e.g. a JVM),
 *   startClient(group, env) -> handle (another client than client.mjs, with its JSON lines) }
 */
export async function measureThroughput(spec) {
  const group = new ProcessGroup();
  const base = {
    peer: spec.peer,
    scenario: spec.scenario,
    size: spec.size,
    window: spec.clientEnv?.DURABLE === '1' ? Number(spec.clientEnv.IN_FLIGHT ?? 1000) : null,
    ...spec.extra,
  };
  try {
    const line = await withTimeout(runProcesses(spec, group), spec.timeoutMs, spec.scenario, () =>
      group.stopAll(0),
    );
    return { ...base, ...line };
  } catch (error) {
    return {
      ...base,
      messages: 0,
      bytes: 0,
      seconds: null,
      sent: spec.messages,
      error: String(error.message),
    };
  } finally {
    await group.stopAll();
  }
}

async function startNodeBroker(spec, group) {
  const broker = group.startServer(spec.server, spec.brokerEnv ?? {}, spec.brokerNodeArgs ?? []);
  const { port } = await broker.waitFor((line) => 'port' in line);
  return { broker, port };
}

async function runProcesses(spec, group) {
  const { broker, port } = await (spec.startBroker ?? ((g) => startNodeBroker(spec, g)))(group);
  const startClient = spec.startClient ?? ((g, env) => g.start('client.mjs', env));
  const env = {
    ...spec.clientEnv,
    PORT: String(port),
    MESSAGES: String(spec.messages),
    SIZE: String(spec.size),
    TARGET: spec.target,
  };
  const consumer = startClient(group, { ...env, ...spec.consumerEnv, ROLE: 'consumer' });
  const consumerReady = await consumer.waitFor((line) => line.ready);
  const producer = startClient(group, { ...env, ...spec.producerEnv, ROLE: 'producer' });
  const producerReady = await producer.waitFor((line) => line.ready);
  const brokerBefore = { ...processCpu(broker.pid), disk_write_bytes: diskWriteBytes(broker.pid) };
  const sent = await producer.waitFor((line) => line.done);
  consumer.command({ cmd: 'producer-done' });
  const received = await consumer.waitFor((line) => line.done);
  const brokerAfter = { ...processCpu(broker.pid), disk_write_bytes: diskWriteBytes(broker.pid) };
  const extra = spec.afterRun === undefined ? {} : await spec.afterRun(broker);
  // The clients close their sessions and exit by themselves once they have reported: let them
  // (for a bounded time), so that the broker is stopped after them rather than while it cleans up
  // after connections that stopAll() killed.
  await exitedWithin([producer, consumer], CLIENT_EXIT_GRACE_MS);
  const ready = { producer: producerReady, consumer: consumerReady };
  return resultLine(spec, {
    sent,
    received,
    ready,
    brokerBefore,
    brokerAfter,
    rssMb: peakRssMb(broker.pid),
    extra,
  });
}

const CLIENT_EXIT_GRACE_MS = 5000;

async function exitedWithin(handles, ms) {
  let timer;
  const graceOver = new Promise((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([Promise.all(handles.map((handle) => handle.exited)), graceOver]);
  clearTimeout(timer);
}

/** CPU seconds a client used between its ready line and its result, when both say. */
const cpuSinceReady = (readyLine, doneLine) =>
  typeof readyLine.cpu_s === 'number' && typeof doneLine.cpu_s === 'number'
    ? round(doneLine.cpu_s - readyLine.cpu_s, 2)
    : null;

function resultLine(spec, { sent, received, ready, brokerBefore, brokerAfter, rssMb, extra }) {
  const subscribers = spec.subscribers ?? 1;
  const seconds = (received.lastAtNs - sent.startedAtNs) / 1e9;
  const cpuDelta = (field) =>
    brokerBefore[field] === null || brokerAfter[field] === null
      ? null
      : round(brokerAfter[field] - brokerBefore[field], 2);
  const line = {
    messages: received.received,
    bytes: received.bytes,
    seconds: round(seconds),
    msgs_per_s: Math.round(received.received / seconds),
    mb_per_s: round(received.bytes / seconds / 2 ** 20, 1),
    p50_latency_ms: received.p50_latency_ms,
    p99_latency_ms: received.p99_latency_ms,
    p999_latency_ms: received.p999_latency_ms,
    sent: spec.messages,
    lost: spec.messages * subscribers - received.received,
    dups: received.duplicates,
    out_of_order: received.outOfOrder,
    producer_s: round((sent.finishedAtNs - sent.startedAtNs) / 1e9),
    broker_cpu_s: cpuDelta('cpu_s'),
    broker_sys_s: cpuDelta('sys_s'),
    broker_rss_peak_mb: rssMb,
    // What the broker (or the relay) wrote to its data directory during the run: its journal for
    // durable messages, next to nothing for non-durable ones.
    broker_disk_write_mb:
      brokerBefore.disk_write_bytes === null || brokerAfter.disk_write_bytes === null
        ? null
        : round((brokerAfter.disk_write_bytes - brokerBefore.disk_write_bytes) / 2 ** 20, 1),
    client_cpu_s: round(sent.cpu_s + received.cpu_s, 2),
    // The same without what each client spent starting up (module loading, a JVM's start): its
    // CPU from its ready line to its result.
    producer_cpu_s: cpuSinceReady(ready.producer, sent),
    consumer_cpu_s: cpuSinceReady(ready.consumer, received),
    ...(sent.resend_buffer_peak_bytes === undefined
      ? {}
      : { producer_resend_buffer_peak_bytes: sent.resend_buffer_peak_bytes }),
    ...(received.histogram_ms === undefined ? {} : { hdr_latency_ms: received.histogram_ms }),
    ...(received.subscribers === undefined ? {} : perSubscriber(received.subscribers, sent.startedAtNs)),
    ...extra,
  };
  if (received.reason !== 'complete') {
    line.error = `consumer stopped: ${received.reason} (got ${received.received} of ${spec.messages * subscribers})`;
  }
  return line;
}

/** Fan-out: each subscriber's own rate (its messages over its own first-send→last-receive time). */
function perSubscriber(subscribers, startedAtNs) {
  const rates = subscribers
    .map((s) => Math.round(s.received / ((s.lastAtNs - startedAtNs) / 1e9)))
    .sort((a, b) => a - b);
  return {
    subscribers: subscribers.length,
    per_subscriber_msgs_per_s: {
      min: rates[0],
      median: rates[Math.floor(rates.length / 2)],
      max: rates.at(-1),
    },
    per_subscriber_received: subscribers.map((s) => s.received),
  };
}
