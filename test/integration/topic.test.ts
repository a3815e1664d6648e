import { range, receiveCount, seqOf, sequenced, useTestBrokers } from '../support/test-broker';

const TOPIC = 'jms.topic.news';

describe('topic fan-out', () => {
  const env = useTestBrokers();

  test('every subscription queue gets every message, in order', async () => {
    const COUNT = 1_000;
    // One subscription from the broker's configuration (durable), two created by clients.
    const broker = await env.startBroker({
      queues: [{ name: `${TOPIC}.configured`, address: TOPIC, filter: null, durable: true }],
    });
    const factory = await env.connect(broker);
    const admin = await factory.createSession();
    await admin.createQueue(TOPIC, `${TOPIC}.durable`, { durable: true });
    await admin.createQueue(TOPIC, `${TOPIC}.volatile`, { durable: false });
    const subscriptions = [`${TOPIC}.configured`, `${TOPIC}.durable`, `${TOPIC}.volatile`];
    expect((await admin.bindingQuery(TOPIC)).queueNames.sort()).toEqual([...subscriptions].sort());

    const producer = admin.createProducer(TOPIC);
    for (let seq = 0; seq < COUNT; seq++) await producer.send(sequenced(seq, { durable: seq % 2 === 0 }));

    // Each subscriber on its own connection, consuming at its own pace.
    const results = await Promise.all(
      subscriptions.map(async (queue) => {
        const session = await (await env.connect(broker)).createSession();
        const consumer = await session.createConsumer(queue);
        session.start();
        const received = await receiveCount(consumer, COUNT);
        await received[COUNT - 1]?.acknowledge();
        await consumer.close();
        return { queue, seqs: received.map(seqOf), ids: received.map((m) => m.message.messageId) };
      }),
    );
    for (const { seqs } of results) expect(seqs).toEqual(range(COUNT));
    // One message, several references: the same message id in every subscription.
    expect(results[1]?.ids).toEqual(results[0]?.ids);
    expect(results[2]?.ids).toEqual(results[0]?.ids);
    for (const queue of subscriptions) {
      expect(await admin.queueQuery(queue)).toMatchObject({ exists: true, messageCount: 0 });
    }
  });

  test('acknowledging in one subscription leaves the others untouched', async () => {
    const broker = await env.startBroker();
    const session = await (await env.connect(broker)).createSession();
    await session.createQueue(TOPIC, 'sub-a', { durable: false });
    await session.createQueue(TOPIC, 'sub-b', { durable: false });
    const producer = session.createProducer(TOPIC);
    for (let seq = 0; seq < 10; seq++) await producer.send(sequenced(seq, { durable: true }));

    const a = await session.createConsumer('sub-a');
    session.start();
    const fromA = await receiveCount(a, 10);
    await fromA[9]?.acknowledge();
    await a.close();
    expect(await session.queueQuery('sub-a')).toMatchObject({ messageCount: 0 });
    expect(await session.queueQuery('sub-b')).toMatchObject({ messageCount: 10 });
    const b = await session.createConsumer('sub-b');
    expect((await receiveCount(b, 10)).map(seqOf)).toEqual(range(10));
  });

  test('a subscription gets only what was sent after it was created; with none, messages are dropped', async () => {
    const broker = await env.startBroker();
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(TOPIC);
    await producer.send(sequenced(0, { durable: true }));
    await session.createQueue(TOPIC, 'late', { durable: false });
    await producer.send(sequenced(1, { durable: true }));
    const consumer = await session.createConsumer('late');
    session.start();
    const [only] = await receiveCount(consumer, 1);
    expect(only === undefined ? null : seqOf(only)).toBe(1);
    expect(await consumer.receiveImmediate()).toBeNull();
  });
});
