import { sequenced, useTestBrokers } from '../support/test-broker';

const QUEUE = 'jms.queue.counted';
const OTHER = 'jms.queue.other';
const queues = [
  { name: QUEUE, address: QUEUE, filter: null, durable: true },
  { name: OTHER, address: OTHER, filter: null, durable: false },
];

describe('queue statistics query', () => {
  const env = useTestBrokers();

  test('lists every queue with the counters the broker keeps', async () => {
    const broker = await env.startBroker({ queues });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(QUEUE);
    for (let seq = 0; seq < 5; seq++) await producer.send(sequenced(seq, { durable: true }));

    const before = await session.queueStats();
    expect(before.map((queue) => queue.name).sort()).toEqual([QUEUE, OTHER]);
    expect(before.find((queue) => queue.name === QUEUE)).toEqual({
      name: QUEUE,
      address: QUEUE,
      filter: null,
      durable: true,
      temporary: false,
      consumerCount: 0,
      messageCount: 5,
      deliveringCount: 0,
      scheduledCount: 0,
      messagesAdded: 5,
      messagesAcknowledged: 0,
      messagesExpired: 0,
      messagesKilled: 0,
    });

    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const first = await consumer.receive(5000);
    const second = await consumer.receive(5000);
    await first?.acknowledge();
    await consumer.flushAcknowledgements();
    const during = (await session.queueStats()).find((queue) => queue.name === QUEUE);
    // Two delivered, one acknowledged; the other three wait in the consumer's buffer (delivering).
    expect(second).not.toBeNull();
    expect(during).toMatchObject({ consumerCount: 1, messagesAdded: 5, messagesAcknowledged: 1 });
    expect(during?.messageCount).toBe(4);
    expect(during?.deliveringCount).toBe(4);

    // The broker's own view agrees with what travelled over the wire.
    const view = broker.listQueues().find((queue) => queue.name === QUEUE);
    expect(view).toMatchObject({
      messageCount: during?.messageCount,
      deliveringCount: during?.deliveringCount,
      messagesAcknowledged: during?.messagesAcknowledged,
    });
  });

  test('a temporary queue is listed as temporary, and goes when it is deleted', async () => {
    const broker = await env.startBroker({ queues: [] });
    const session = await (await env.connect(broker)).createSession();
    expect(await session.queueStats()).toEqual([]);
    await session.createQueue('jms.topic.t', 'sub-1', { temporary: true });
    expect(await session.queueStats()).toEqual([
      expect.objectContaining({ name: 'sub-1', address: 'jms.topic.t', temporary: true, durable: false }),
    ]);
    await session.deleteQueue('sub-1');
    expect(await session.queueStats()).toEqual([]);
  });
});
