import { InMemoryStorage } from '../../../src/server/storage/in-memory-storage';
import { useTestBrokers } from '../../support/test-broker';
import { bodyOf, queues, queueStats, text, transacted } from './support';

/** §5.1 Scheduled delivery: _HQ_SCHED_DELIVERY (LONG, epoch ms). */
const Q = 'jms.queue.scheduled';

describe('scheduled delivery', () => {
  const env = useTestBrokers();

  test('a scheduled message is not delivered before its time, and is delivered at it', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const session = await (await env.connect(broker)).createSession();
    const consumer = await session.createConsumer(Q);
    session.start();
    const at = Date.now() + 1500;
    await session.createProducer(Q).send(text('later', { scheduledAt: at }));

    expect(await consumer.receive(500)).toBeNull();
    const message = await consumer.receive(10_000);
    expect(message === null ? null : bodyOf(message)).toBe('later');
    expect(Date.now()).toBeGreaterThanOrEqual(at);
    expect(message?.deliveryCount).toBe(1);
  });

  test('several scheduled messages are delivered in schedule order, not sending order', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(Q);
    const t = Date.now();
    await producer.send(text('t+900', { scheduledAt: t + 900 }));
    await producer.send(text('t+300', { scheduledAt: t + 300 }));
    await producer.send(text('t+600', { scheduledAt: t + 600 }));
    await producer.send(text('now'));
    const consumer = await session.createConsumer(Q);
    session.start();
    const bodies: string[] = [];
    for (let i = 0; i < 4; i++) {
      const message = await consumer.receive(10_000);
      if (message === null) throw new Error(`only ${bodies.join(', ')} arrived`);
      bodies.push(bodyOf(message));
    }
    expect(bodies).toEqual(['now', 't+300', 't+600', 't+900']);
  });

  test('scheduled messages count in the queue (queue query and management view)', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(Q);
    await producer.send(text('a', { scheduledAt: Date.now() + 60_000 }));
    await producer.send(text('b', { scheduledAt: Date.now() + 60_000 }));
    await producer.send(text('c'));
    expect(await session.queueQuery(Q)).toMatchObject({ messageCount: 3 });
    expect(queueStats(broker, Q)).toMatchObject({ messageCount: 3, scheduledCount: 2, messagesAdded: 3 });
    const consumer = await session.createConsumer(Q);
    session.start();
    const only = await consumer.receive(5000);
    expect(only === null ? null : bodyOf(only)).toBe('c');
    expect(await consumer.receive(300)).toBeNull();
  });

  test('a durable scheduled message survives a broker restart and still waits for its time', async () => {
    const storage = new InMemoryStorage();
    const broker = await env.startBroker({ queues: queues(Q), storage });
    const before = await env.connect(broker);
    const at = Date.now() + 1500;
    await (await before.createSession()).createProducer(Q).send(text('survivor', { scheduledAt: at }));
    await before.close();
    await broker.stop();
    await broker.start();

    expect(queueStats(broker, Q)).toMatchObject({ messageCount: 1, scheduledCount: 1 });
    const session = await (await env.connect(broker)).createSession();
    const consumer = await session.createConsumer(Q);
    session.start();
    if (Date.now() < at - 300) expect(await consumer.receive(200)).toBeNull();
    const message = await consumer.receive(10_000);
    expect(message === null ? null : bodyOf(message)).toBe('survivor');
    expect(Date.now()).toBeGreaterThanOrEqual(at);
  });

  test('in a transaction the message is scheduled only once committed; a rollback drops it', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const factory = await env.connect(broker);
    const tx = await transacted(factory);
    const producer = tx.createProducer(Q);
    await producer.send(text('rolled back', { scheduledAt: Date.now() + 100 }));
    await tx.rollback();
    await producer.send(text('committed', { scheduledAt: Date.now() + 100 }));

    const plain = await factory.createSession();
    const consumer = await plain.createConsumer(Q);
    plain.start();
    // Its time has come and gone, but it is not committed: nothing is in the queue.
    expect(await consumer.receive(400)).toBeNull();
    expect(queueStats(broker, Q)).toMatchObject({ messageCount: 0, scheduledCount: 0 });

    await tx.commit();
    const message = await consumer.receive(5000);
    expect(message === null ? null : bodyOf(message)).toBe('committed');
    expect(await consumer.receive(300)).toBeNull();
  });
});
