// How long a session takes to resume once the network is back: the link is cut and new
// connections refused; a message is sent during the outage (it waits in the resend buffer); the
// link is restored at a random moment; we time from the restore to that message's arrival at
// the consumer, i.e. reconnect + reattach + replay + delivery. 50 cuts; prints one JSON line.
//   BENCH_DATA_DIR=DIR node bench/resume.mjs [--cuts 50] [--retry-interval 100]   (run.mjs runs it as
//   scenario 'resume', with a data directory of its own)
import hornetq from '../dist/index.js';
import { startLinkProxy } from './link-proxy.mjs';
import { brokerPersistence } from './lib/persistence.mjs';
import { nowNs, round } from './payload.mjs';

const { Broker, ClientSessionFactory, CoreMessage } = hornetq;
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .reduce(
      (pairs, value, i, all) =>
        i % 2 === 0 ? [...pairs, [value.replace(/^--/, ''), Number(all[i + 1])]] : pairs,
      [],
    ),
);
const cuts = args.cuts ?? Number(process.env.RESUME_CUTS ?? 50);
const retryInterval = args['retry-interval'] ?? 100;
const queue = 'jms.queue.resume';

const broker = new Broker({
  securityEnabled: false,
  ...brokerPersistence(),
  acceptors: [{ name: 'bench', type: 'tcp', host: '127.0.0.1', port: 0 }],
  queues: [{ name: queue, address: queue, filter: null, durable: true }],
});
await broker.start();
const proxy = await startLinkProxy(broker.getPort());
const factory = await ClientSessionFactory.connect({
  connectors: [{ host: '127.0.0.1', port: proxy.port }],
  confirmationWindowSize: 1024 * 1024,
  reconnectAttempts: -1,
  retryInterval,
  retryJitter: 0,
});
const completed = [];
factory.addFailoverListener((event) => {
  if (event.type === 'FAILOVER_COMPLETED') completed.push(event.reattached);
});
const session = await factory.createSession();
const producer = session.createProducer(queue);
const consumer = await session.createConsumer(queue);
session.start();

const resumeMs = [];
for (let cut = 0; cut < cuts; cut++) {
  proxy.refuse(true);
  proxy.cut();
  const message = new CoreMessage();
  message.body = Buffer.from(`during outage ${cut}`);
  const sent = producer.send(message);
  await sleep(Math.random() * retryInterval * 1.5);
  const restoredAt = nowNs();
  proxy.refuse(false);
  await sent;
  const received = await consumer.receive(10_000);
  if (received === null) throw new Error(`cut ${cut}: the message sent during the outage never arrived`);
  resumeMs.push((nowNs() - restoredAt) / 1e6);
  await received.acknowledge();
}

const sorted = [...resumeMs].sort((a, b) => a - b);
const percentile = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const statistics = factory.getStatistics();
process.stdout.write(
  `${JSON.stringify({
    scenario: 'resume',
    cuts,
    retry_interval_ms: retryInterval,
    p50_resume_ms: round(percentile(0.5)),
    p99_resume_ms: round(percentile(0.99)),
    max_resume_ms: round(sorted[sorted.length - 1]),
    target_ms: retryInterval + 5,
    reattached: completed.filter(Boolean).length,
    recreated: completed.filter((r) => !r).length,
    replayed_commands: statistics.replayedCommands,
    resend_buffer_peak_bytes: statistics.resendBufferPeakBytes,
  })}\n`,
);
await factory.close();
await proxy.close();
await broker.stop();

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
