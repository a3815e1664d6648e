// Broker, producer and consumer in ONE process over loopback TCP: every CPU microsecond of the
// pipeline lands in one profile, and no scheduling between processes blurs an A/B comparison the
// way it does the three-process scenarios. For profiling and comparing builds, not for claims
// against peers (they run as three processes). One JSON line.
//   npm run build && node bench/in-process.mjs [--messages 200000] [--window -1]
//   node --cpu-prof --cpu-prof-dir=prof bench/in-process.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import hornetq from '../dist/index.js';
import { brokerPersistence } from './lib/persistence.mjs';

const { Broker, ClientSessionFactory, CoreMessage } = hornetq;
const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const messages = option('messages', 200_000);
const confirmationWindowSize = option('window', -1);
const queue = 'jms.queue.bench';

// Persistence on, as in the three-process scenarios (the messages here are non-durable: nothing
// should touch the journal), in a data directory of its own removed at the end.
const dataDir = mkdtempSync(join(tmpdir(), 'hornetq-bench-'));
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
const broker = new Broker({
  securityEnabled: false,
  ...brokerPersistence({ BENCH_DATA_DIR: dataDir }),
  acceptors: [{ name: 'bench', type: 'tcp', host: '127.0.0.1', port: 0 }],
  queues: [{ name: queue, address: queue, filter: null, durable: true }],
});
await broker.start();
const connect = () =>
  ClientSessionFactory.connect({
    connectors: [{ host: '127.0.0.1', port: broker.getPort() }],
    confirmationWindowSize,
  });
const producerFactory = await connect();
const consumerFactory = await connect();
const producer = (await producerFactory.createSession()).createProducer(queue);
const consumerSession = await consumerFactory.createSession();
const consumer = await consumerSession.createConsumer(queue);

let received = 0;
const allReceived = new Promise((resolve) => {
  consumer.setMessageHandler((message) => {
    void message.acknowledge();
    if (++received === messages) resolve();
  });
});
consumerSession.start();

const message = new CoreMessage();
const body = Buffer.alloc(1024, 'x');
const startedNs = process.hrtime.bigint();
const cpuBefore = process.cpuUsage();
for (let i = 0; i < messages; i++) {
  message.body = body;
  await producer.send(message);
}
await allReceived;
const cpu = process.cpuUsage(cpuBefore);
const seconds = Number(process.hrtime.bigint() - startedNs) / 1e9;
process.stdout.write(
  `${JSON.stringify({
    messages,
    confirmation_window: confirmationWindowSize,
    msgs_per_s: Math.round(messages / seconds),
    cpu_us_per_msg: Number(((cpu.user + cpu.system) / messages).toFixed(2)),
    sys_us_per_msg: Number((cpu.system / messages).toFixed(2)),
  })}\n`,
);
await producerFactory.close();
await consumerFactory.close();
await broker.stop();
