import { receiveCount, seqOf, sequenced, useTestBrokers } from '../support/test-broker';

const QUEUE = 'jms.queue.priorities';
const queues = [{ name: QUEUE, address: QUEUE, filter: null, durable: true }];

/** Expected delivery order: priority 9 first, and within a priority the order of sending. */
function byPriorityThenSeq(sent: { seq: number; priority: number }[]): number[] {
  return [...sent].sort((a, b) => b.priority - a.priority || a.seq - b.seq).map((m) => m.seq);
}

describe('priority delivery', () => {
  const env = useTestBrokers();

  test('higher priority first, FIFO within a priority (queued while no consumer)', async () => {
    const broker = await env.startBroker({ queues });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(QUEUE);
    // A fixed interleaving that puts every priority 0..9 before, between and after the others.
    const sent = Array.from({ length: 500 }, (_, seq) => ({ seq, priority: (seq * 7 + (seq >> 3)) % 10 }));
    for (const { seq, priority } of sent) await producer.send(sequenced(seq, { durable: true, priority }));

    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const received = await receiveCount(consumer, sent.length);
    expect(received.map(seqOf)).toEqual(byPriorityThenSeq(sent));
    expect(received.map((m) => m.message.priority)).toEqual(
      [...sent].sort((a, b) => b.priority - a.priority).map((m) => m.priority),
    );
  });

  test('a rolled-back message goes back ahead of its priority, behind higher ones', async () => {
    const broker = await env.startBroker({ queues });
    const factory = await env.connect(broker);
    const producerSession = await factory.createSession();
    const producer = producerSession.createProducer(QUEUE);
    await producer.send(sequenced(0, { durable: true, priority: 4 }));
    await producer.send(sequenced(1, { durable: true, priority: 4 }));

    const session = await factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
    const consumer = await session.createConsumer(QUEUE, { windowSize: 0 });
    session.start();
    const first = await consumer.receive(5_000);
    expect(first === null ? null : seqOf(first)).toBe(0);
    await first?.acknowledge();
    // While it is out, a more urgent message and a less urgent one arrive.
    await producer.send(sequenced(2, { durable: true, priority: 9 }));
    await producer.send(sequenced(3, { durable: true, priority: 0 }));
    await session.rollback();

    const again = await receiveCount(consumer, 4);
    expect(again.map(seqOf)).toEqual([2, 0, 1, 3]);
    expect(again.map((m) => m.deliveryCount)).toEqual([1, 2, 1, 1]);
    await again[3]?.acknowledge();
    await session.commit();
    expect(await session.queueQuery(QUEUE)).toMatchObject({ messageCount: 0 });
  });
});
