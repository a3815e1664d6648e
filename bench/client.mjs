// A benchmark producer or consumer in its own process: ROLE=producer|consumer, TARGET=ours|raw,
// PORT, MESSAGES, SIZE. A consumer prints {"ready":true} once subscribed and a summary when done;
// a producer prints when it started and finished. Every line is JSON on stdout.
import net from 'node:net';
import hornetq from '../dist/index.js';
import { ArrivalLog, createPayloadFactory, nowNs } from './payload.mjs';

const { ClientSessionFactory, CoreMessage } = hornetq;
const role = process.env.ROLE;
const target = process.env.TARGET;
const port = Number(process.env.PORT);
const messages = Number(process.env.MESSAGES);
const size = Number(process.env.SIZE);
const queue = process.env.BENCH_QUEUE ?? 'jms.queue.bench';

const confirmationWindowSize = Number(process.env.CONFIRMATION_WINDOW ?? -1);

const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

async function oursProducer() {
  const factory = await ClientSessionFactory.connect({
    connectors: [{ host: '127.0.0.1', port }],
    producerWindowSize: Number(process.env.PRODUCER_WINDOW ?? 64 * 1024),
    confirmationWindowSize,
  });
  const session = await factory.createSession();
  const producer = session.createProducer(queue);
  const payloadFor = createPayloadFactory(size);
  const message = new CoreMessage();
  message.durable = false;
  const startedAtNs = nowNs();
  for (let seq = 0; seq < messages; seq++) {
    message.body = payloadFor(seq);
    await producer.send(message);
  }
  const { resendBufferPeakBytes } = factory.getStatistics();
  print({ startedAtNs, finishedAtNs: nowNs(), cpu_s: cpuSeconds(), resendBufferPeakBytes });
  await factory.close();
}

async function oursConsumer() {
  const factory = await ClientSessionFactory.connect({
    connectors: [{ host: '127.0.0.1', port }],
    confirmationWindowSize,
  });
  const session = await factory.createSession();
  const consumer = await session.createConsumer(queue);
  const log = new ArrivalLog(messages);
  const done = new Promise((resolve) => {
    consumer.setMessageHandler((received) => {
      void received.acknowledge();
      if (log.record(received.message.body)) resolve();
    });
  });
  session.start();
  print({ ready: true });
  await done;
  print({ ...log.summary(), cpu_s: cpuSeconds() });
  await factory.close();
}

function rawConnect(roleByte) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.setNoDelay(true);
      socket.write(roleByte);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

async function rawProducer() {
  const socket = await rawConnect('P');
  const payloadFor = createPayloadFactory(size);
  const startedAtNs = nowNs();
  for (let seq = 0; seq < messages; seq++) {
    const payload = payloadFor(seq);
    const frame = Buffer.allocUnsafe(4 + payload.length);
    frame.writeUInt32BE(payload.length, 0);
    payload.copy(frame, 4);
    if (!socket.write(frame)) await new Promise((resolve) => socket.once('drain', resolve));
  }
  print({ startedAtNs, finishedAtNs: nowNs(), cpu_s: cpuSeconds() });
  socket.end();
}

async function rawConsumer() {
  const socket = await rawConnect('C');
  const log = new ArrivalLog(messages);
  print({ ready: true });
  let carry = Buffer.alloc(0);
  await new Promise((resolve) => {
    socket.on('data', (chunk) => {
      let data = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
      let offset = 0;
      while (offset + 4 <= data.length) {
        const end = offset + 4 + data.readUInt32BE(offset);
        if (end > data.length) break;
        if (log.record(data.subarray(offset + 4, end))) resolve();
        offset = end;
      }
      carry = data.subarray(offset);
    });
  });
  print({ ...log.summary(), cpu_s: cpuSeconds() });
  socket.destroy();
}

const roles = {
  'ours-producer': oursProducer,
  'ours-consumer': oursConsumer,
  'raw-producer': rawProducer,
  'raw-consumer': rawConsumer,
};
const run = roles[`${target}-${role}`];
if (run === undefined) throw new Error(`unknown TARGET-ROLE ${target}-${role}`);
await run();
