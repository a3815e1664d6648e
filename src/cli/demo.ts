/**
 * `npm start`: the main job on an embedded broker. Starts a broker on a free loopback port, moves
 * messages through a queue, a topic and a transaction with the core client, prints what happened
 * and exits 0 (1 if anything did not arrive as sent).
 */
import pino from 'pino';
import { ClientSessionFactory, type ClientSession } from '../core/client';
import { CoreMessage, PropertyKind } from '../core/protocol';
import { Broker } from '../server';

const QUEUE = 'jms.queue.ExampleQueue';
const TOPIC = 'jms.topic.ExampleTopic';
const MESSAGES = 1000;

async function main(): Promise<void> {
  const broker = new Broker({
    acceptors: [{ name: 'netty', type: 'tcp', host: '127.0.0.1', port: 0 }],
    queues: [
      { name: QUEUE, address: QUEUE, filter: null, durable: true },
      { name: `${TOPIC}.subscriber-1`, address: TOPIC, filter: null, durable: false },
      { name: `${TOPIC}.subscriber-2`, address: TOPIC, filter: null, durable: false },
    ],
    logger: pino({ level: process.env.HORNETQ_LOG_LEVEL ?? 'warn' }),
  });
  await broker.start();
  console.log(`broker listening on tcp://127.0.0.1:${broker.getPort()}`);
  const factory = await ClientSessionFactory.connect({
    connectors: [{ host: '127.0.0.1', port: broker.getPort() }],
  });
  const failures: string[] = [];
  try {
    const session = await factory.createSession();
    session.start();
    failures.push(...(await queueInOrder(session)));
    failures.push(...(await topicFanOut(session)));
    failures.push(...(await transactionRollback(factory)));
  } finally {
    await factory.close();
    await broker.stop();
  }
  if (failures.length > 0) {
    console.error(`FAILED:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('all messages arrived exactly once and in order');
  }
}

function numbered(n: number, durable: boolean): CoreMessage {
  const message = new CoreMessage();
  message.durable = durable;
  message.properties.set('seq', { kind: PropertyKind.INT, value: n });
  message.body = Buffer.from(`message ${n}`);
  return message;
}

function sequenceOf(message: CoreMessage): number {
  const seq = message.properties.get('seq');
  return seq?.kind === PropertyKind.INT ? seq.value : -1;
}

async function queueInOrder(session: ClientSession): Promise<string[]> {
  const producer = session.createProducer(QUEUE);
  const consumer = await session.createConsumer(QUEUE);
  const started = Date.now();
  const sends: Promise<void>[] = [];
  for (let n = 0; n < MESSAGES; n++) sends.push(producer.send(numbered(n, n % 2 === 0)));
  await Promise.all(sends);
  for (let n = 0; n < MESSAGES; n++) {
    const received = await consumer.receive(5000);
    if (received === null) return [`queue: message ${n} never arrived`];
    if (sequenceOf(received.message) !== n)
      return [`queue: expected message ${n}, got ${sequenceOf(received.message)}`];
    await received.acknowledge();
  }
  console.log(
    `queue  ${QUEUE}: ${MESSAGES} messages (half durable) sent and received in order in ${Date.now() - started} ms`,
  );
  await consumer.close();
  return [];
}

async function topicFanOut(session: ClientSession): Promise<string[]> {
  const producer = session.createProducer(TOPIC);
  const subscribers = await Promise.all(
    [1, 2].map((i) => session.createConsumer(`${TOPIC}.subscriber-${i}`)),
  );
  for (let n = 0; n < 10; n++) await producer.send(numbered(n, false));
  const failures: string[] = [];
  for (const [index, subscriber] of subscribers.entries()) {
    for (let n = 0; n < 10; n++) {
      const received = await subscriber.receive(5000);
      if (received === null || sequenceOf(received.message) !== n)
        failures.push(`topic: subscriber ${index + 1} missed ${n}`);
      await received?.acknowledge();
    }
    await subscriber.close();
  }
  if (failures.length === 0) console.log(`topic  ${TOPIC}: 10 messages reached each of 2 subscriptions`);
  return failures;
}

async function transactionRollback(factory: ClientSessionFactory): Promise<string[]> {
  const session = await factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
  const producer = session.createProducer(QUEUE);
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  await producer.send(numbered(0, true));
  await session.commit();
  const first = await consumer.receive(5000);
  await first?.acknowledge();
  await session.rollback();
  const again = await consumer.receive(5000);
  await again?.acknowledge();
  await session.commit();
  await session.close();
  if (first === null || again === null) return ['transaction: the message did not come back after rollback'];
  if (!again.redelivered || again.deliveryCount !== 2)
    return [`transaction: redelivery count ${again.deliveryCount}, expected 2`];
  console.log('tx     rollback returned the message (delivery count 2, redelivered), commit consumed it');
  return [];
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
