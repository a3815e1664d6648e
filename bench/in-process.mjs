// Broker, producer and consumer in ONE process over loopback TCP: every CPU microsecond of the
// pipeline lands in one profile, and no scheduling between processes blurs an A/B comparison the
// way it does the three-process scenarios. For profiling and comparing builds, not for claims
// against peers (they run as three processes). One JSON line.
//   npm run build && node bench/in-process.mjs [--messages 200000] [--window -1]
//   node --cpu-prof --cpu-prof-dir=prof bench/in-process.mjs
import hornetq from '../dist/index.js';

const { Broker, ClientSessionFactory, CoreMessage } = hornetq;
const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const messages = option('messages', 200_000);
const confirmationWindowSize = option('window', -1);
const queue = 'jms.queue.bench';

const broker = new Broker({
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
