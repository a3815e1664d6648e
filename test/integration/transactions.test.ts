import type { Broker, ClientSession, ClientSessionFactory } from '../../src';
import { range, receiveCount, seqOf, sequenced, useTestBrokers } from '../support/test-broker';

const QUEUE = 'jms.queue.tx';
const OUT = 'jms.queue.tx-out';
const queues = [
  { name: QUEUE, address: QUEUE, filter: null, durable: true },
  { name: OUT, address: OUT, filter: null, durable: true },
];

function transacted(factory: ClientSessionFactory): Promise<ClientSession> {
  return factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
}

async function fill(session: ClientSession, count: number, queue = QUEUE): Promise<void> {
  const producer = session.createProducer(queue);
  for (let seq = 0; seq < count; seq++) await producer.send(sequenced(seq, { durable: true }));
  producer.close();
}

describe('local transactions', () => {
  const env = useTestBrokers();
  let broker: Broker;
  let factory: ClientSessionFactory;
  let plain: ClientSession;

  beforeEach(async () => {
    broker = await env.startBroker({ queues });
    factory = await env.connect(broker);
    plain = await factory.createSession();
    plain.start();
  });

  test('sends are invisible until commit, then arrive in order', async () => {
    const tx = await transacted(await env.connect(broker));
    await fill(tx, 20);
    // Seen from another connection: nothing in the queue, nothing to receive.
    expect(await plain.queueQuery(QUEUE)).toMatchObject({ messageCount: 0 });
    const consumer = await plain.createConsumer(QUEUE);
    expect(await consumer.receiveImmediate()).toBeNull();

    await tx.commit();
    expect(await plain.queueQuery(QUEUE)).toMatchObject({ messageCount: 20 });
    const received = await receiveCount(consumer, 20);
    expect(received.map(seqOf)).toEqual(range(20));
    expect(received.every((m) => m.deliveryCount === 1)).toBe(true);
  });

  test('rollback discards the sends; the next transaction starts clean', async () => {
    const tx = await transacted(factory);
    await fill(tx, 10);
    await tx.rollback();
    const producer = tx.createProducer(QUEUE);
    await producer.send(sequenced(100, { durable: true }));
    await tx.commit();

    expect(await plain.queueQuery(QUEUE)).toMatchObject({ messageCount: 1 });
    const consumer = await plain.createConsumer(QUEUE);
    const [only] = await receiveCount(consumer, 1);
    expect(only === undefined ? null : seqOf(only)).toBe(100);
    expect(await consumer.receiveImmediate()).toBeNull();
  });

  test('rollback of received messages redelivers them in order with deliveryCount + 1; commit removes them', async () => {
    await fill(plain, 10);
    const tx = await transacted(factory);
    const consumer = await tx.createConsumer(QUEUE);
    tx.start();

    for (let round = 1; round <= 3; round++) {
      const received = await receiveCount(consumer, 10);
      expect(received.map(seqOf)).toEqual(range(10));
      expect(received.map((m) => m.deliveryCount)).toEqual(range(10).map(() => round));
      expect(received.map((m) => m.redelivered)).toEqual(range(10).map(() => round > 1));
      for (const message of received) await message.acknowledge();
      // Acknowledged in the transaction, not yet applied: the queue still counts them.
      expect(await plain.queueQuery(QUEUE)).toMatchObject({ messageCount: 10 });
      if (round < 3) await tx.rollback();
    }
    await tx.commit();
    expect(await plain.queueQuery(QUEUE)).toMatchObject({ messageCount: 0 });
    expect(await consumer.receiveImmediate()).toBeNull();
  });

  test('rollback redelivers acknowledged messages ahead of ones the client buffered but never handed out', async () => {
    await fill(plain, 10);
    const tx = await transacted(factory);
    const consumer = await tx.createConsumer(QUEUE);
    tx.start();
    const firstThree = await receiveCount(consumer, 3);
    for (const message of firstThree) await message.acknowledge();
    await tx.rollback();

    const all = await receiveCount(consumer, 10);
    expect(all.map(seqOf)).toEqual(range(10));
    // Only the three the application took count as delivered; the rest sat unseen in the buffer.
    expect(all.map((m) => m.deliveryCount)).toEqual([2, 2, 2, 1, 1, 1, 1, 1, 1, 1]);
    await all[9]?.acknowledge();
    await tx.commit();
    expect(await plain.queueQuery(QUEUE)).toMatchObject({ messageCount: 0 });
  });

  test('consume and produce in one transaction: commit applies both, rollback neither', async () => {
    await fill(plain, 5);
    const tx = await transacted(factory);
    const consumer = await tx.createConsumer(QUEUE);
    const forward = tx.createProducer(OUT);
    tx.start();

    const moved = async (): Promise<void> => {
      for (const message of await receiveCount(consumer, 5)) {
        await forward.send(sequenced(seqOf(message) + 1_000, { durable: true }));
        await message.acknowledge();
      }
    };
    await moved();
    await tx.rollback();
    expect(await plain.queueQuery(QUEUE)).toMatchObject({ messageCount: 5 });
    expect(await plain.queueQuery(OUT)).toMatchObject({ messageCount: 0 });

    await moved();
    await tx.commit();
    expect(await plain.queueQuery(QUEUE)).toMatchObject({ messageCount: 0 });
    expect(await plain.queueQuery(OUT)).toMatchObject({ messageCount: 5 });
    const out = await plain.createConsumer(OUT);
    expect((await receiveCount(out, 5)).map(seqOf)).toEqual(range(5).map((i) => i + 1_000));
  });

  test('closing a session with an open transaction rolls it back', async () => {
    await fill(plain, 5);
    const tx = await transacted(await env.connect(broker));
    const consumer = await tx.createConsumer(QUEUE);
    tx.start();
    const received = await receiveCount(consumer, 5);
    for (const message of received) await message.acknowledge();
    await tx.createProducer(OUT).send(sequenced(99, { durable: true }));
    await tx.close();

    expect(await plain.queueQuery(OUT)).toMatchObject({ messageCount: 0 });
    const again = await receiveCount(await plain.createConsumer(QUEUE), 5);
    expect(again.map(seqOf)).toEqual(range(5));
    expect(again.every((m) => m.redelivered)).toBe(true);
  });
});
