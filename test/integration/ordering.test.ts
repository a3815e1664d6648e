import { InMemoryStorage } from '../../src/server/storage/in-memory-storage';
import { range, receiveCount, seqOf, sequenced, useTestBrokers } from '../support/test-broker';

const QUEUE = 'jms.queue.orders';
const COUNT = 10_000;

describe('10 000 messages through one queue keep their order', () => {
  const env = useTestBrokers();

  test('non-durable sends, consumed while they are being sent', async () => {
    const broker = await env.startBroker({
      queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: false }],
    });
    const producerFactory = await env.connect(broker);
    const consumerFactory = await env.connect(broker);
    const producerSession = await producerFactory.createSession();
    const consumerSession = await consumerFactory.createSession();
    const consumer = await consumerSession.createConsumer(QUEUE);
    consumerSession.start();

    const producer = producerSession.createProducer(QUEUE);
    const sending = (async () => {
      for (let seq = 0; seq < COUNT; seq++) await producer.send(sequenced(seq));
    })();
    const received = await receiveCount(consumer, COUNT);
    await sending;

    expect(received.map(seqOf)).toEqual(range(COUNT));
    expect(received.map((m) => m.message.body.toString())).toEqual(range(COUNT).map((i) => `m${i}`));
    expect(received.every((m) => m.deliveryCount === 1 && !m.message.durable)).toBe(true);
    await received[COUNT - 1]?.acknowledge();
    await consumer.close();
    expect(await consumerSession.queueQuery(QUEUE)).toMatchObject({ exists: true, messageCount: 0 });
    const late = await consumerSession.createConsumer(QUEUE);
    expect(await late.receiveImmediate()).toBeNull();
  });

  test('durable sends, all queued before a consumer exists', async () => {
    const broker = await env.startBroker({
      queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: true }],
    });
    const factory = await env.connect(broker);
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    for (let seq = 0; seq < COUNT; seq++) await producer.send(sequenced(seq, { durable: true }));
    // A durable send resolves only once the broker has the message, so all of them are counted now.
    expect(await session.queueQuery(QUEUE)).toMatchObject({ messageCount: COUNT, durable: true });

    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const received = await receiveCount(consumer, COUNT);
    expect(received.map(seqOf)).toEqual(range(COUNT));
    expect(received.every((m) => m.message.durable && !m.redelivered)).toBe(true);
    // Cumulative acknowledgement of the last message acknowledges all of them.
    await received[COUNT - 1]?.acknowledge();
    await consumer.close();
    expect(await session.queueQuery(QUEUE)).toMatchObject({ messageCount: 0, consumerCount: 0 });
  });

  test('durable messages come back in order from storage after the broker restarts', async () => {
    const storage = new InMemoryStorage();
    const config = {
      storage,
      queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: true }],
    };
    const first = await env.startBroker(config);
    const before = await env.connect(first);
    const session = await before.createSession();
    const producer = session.createProducer(QUEUE);
    for (let seq = 0; seq < COUNT; seq++) await producer.send(sequenced(seq, { durable: true }));
    // Non-durable messages do not survive a restart; this one must not reappear.
    await producer.send(sequenced(COUNT));
    await env.closeAll();

    const second = await env.startBroker(config);
    expect(second.listQueues()).toEqual([expect.objectContaining({ name: QUEUE, messageCount: COUNT })]);
    const after = await env.connect(second);
    const afterSession = await after.createSession();
    const consumer = await afterSession.createConsumer(QUEUE);
    afterSession.start();
    const received = await receiveCount(consumer, COUNT);
    expect(received.map(seqOf)).toEqual(range(COUNT));
    expect(await consumer.receiveImmediate()).toBeNull();
  });
});
