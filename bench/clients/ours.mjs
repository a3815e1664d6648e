// The producer and consumer on our core client. What they do comes from `cfg` (client.mjs):
//   producer: durable messages with block-on-durable-send and `inFlight` sends outstanding
//             (persistent), or one non-blocking send after another (non-persistent); `rate`
//             paces it (latency scenario).
//   consumer: one subscriber per queue in `cfg.queues`, each on its own connection (fan-out runs
//             its 10 subscribers in one process this way); acks each message individually or
//             cumulatively.
import hornetq from '../../dist/index.js';
import { createLatencyHistogram } from '../lib/latency-histogram.mjs';
import { createPacer } from '../lib/pacer.mjs';
import { sendAllWithWindow } from '../lib/send-window.mjs';
import { ArrivalLog, createPayloadFactory, nowNs } from '../payload.mjs';

const { ClientSessionFactory, CoreMessage } = hornetq;

function connect(cfg, extra = {}) {
  return ClientSessionFactory.connect({
    connectors: [{ host: cfg.host, port: cfg.port }],
    confirmationWindowSize: cfg.confirmationWindow,
    ...extra,
  });
}

export async function oursProducer(cfg, report) {
  const factory = await connect(cfg, {
    producerWindowSize: cfg.producerWindow,
    blockOnDurableSend: true,
    blockOnNonDurableSend: false,
  });
  const session = await factory.createSession(login(cfg));
  const producer = session.createProducer(cfg.address);
  const payloadFor = createPayloadFactory(cfg.size);
  // One message object for every send: the session encodes it before send() returns.
  const message = new CoreMessage();
  message.durable = cfg.durable;
  const sendOne = (seq) => {
    message.body = payloadFor(seq);
    return producer.send(message);
  };
  const pace = cfg.rate > 0 ? createPacer(cfg.rate) : null;
  await report.ready();
  const startedAtNs = nowNs();
  if (cfg.durable) {
    await sendAllWithWindow(cfg.messages, cfg.inFlight, sendOne, pace);
  } else {
    for (let seq = 0; seq < cfg.messages; seq++) {
      if (pace !== null) await pace(seq);
      await sendOne(seq);
    }
  }
  const finishedAtNs = nowNs();
  const { resendBufferPeakBytes } = factory.getStatistics();
  report.done({ startedAtNs, finishedAtNs, resend_buffer_peak_bytes: resendBufferPeakBytes });
  await factory.close();
}

async function subscribe(cfg, queue, onArrival) {
  const factory = await connect(
    cfg,
    cfg.consumerWindow === null ? {} : { consumerWindowSize: cfg.consumerWindow },
  );
  const session = await factory.createSession(login(cfg));
  const consumer = await session.createConsumer(queue);
  const log = new ArrivalLog(cfg.messages, cfg.histogram ? createLatencyHistogram() : null);
  // 'individual': one SESS_INDIVIDUAL_ACKNOWLEDGE per message (what "acks each message" means);
  // 'cumulative': acknowledge() acks this and every earlier message, and the client batches those
  // acks until ackBatchSize bytes (1 MiB by default) have been acknowledged.
  const acknowledge =
    cfg.ack === 'individual'
      ? (received) => received.individualAcknowledge()
      : (received) => received.acknowledge();
  consumer.setMessageHandler((received) => {
    void acknowledge(received);
    if (log.record(received.message.body)) onArrival(true);
    else onArrival(false);
  });
  session.start();
  return { factory, log, consumer };
}

export async function oursConsumer(cfg, report) {
  let complete = 0;
  let finish;
  const finished = new Promise((resolve) => (finish = resolve));
  const subscribers = [];
  for (const queue of cfg.queues) {
    subscribers.push(
      await subscribe(cfg, queue, (done) => {
        if (done && ++complete === cfg.queues.length) finish('complete');
      }),
    );
  }
  const received = () => subscribers.reduce((sum, s) => sum + s.log.unique, 0);
  report.onProducerDone(() => report.watchForStall(received, () => finish('stalled')));
  await report.ready();
  const reason = await finished;
  const summaries = subscribers.map((s) => s.log.summary());
  report.done({
    reason,
    ...mergeSummaries(summaries),
    subscribers: summaries.length > 1 ? summaries : undefined,
  });
  await Promise.all(subscribers.map((s) => s.factory.close()));
}

/** One subscriber: its summary; several: totals, with the worst latency percentiles of any. */
function mergeSummaries(summaries) {
  if (summaries.length === 1) return summaries[0];
  const sum = (field) => summaries.reduce((total, s) => total + s[field], 0);
  const max = (field) => Math.max(...summaries.map((s) => s[field]));
  return {
    received: sum('received'),
    duplicates: sum('duplicates'),
    outOfOrder: sum('outOfOrder'),
    bytes: sum('bytes'),
    lastAtNs: max('lastAtNs'),
    p50_latency_ms: max('p50_latency_ms'),
    p99_latency_ms: max('p99_latency_ms'),
    p999_latency_ms: max('p999_latency_ms'),
  };
}

/** BENCH_USER / BENCH_PASSWORD: the login of a broker with security on (security-overhead). */
function login(cfg) {
  return cfg.user === null ? {} : { username: cfg.user, password: cfg.password };
}
