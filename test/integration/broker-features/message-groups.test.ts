import type { ClientConsumer, ReceivedMessage } from '../../../src';
import { useTestBrokers, waitFor } from '../../support/test-broker';
import { bodyOf, queues, text } from './support';

/** §5.3 Message groups: _HQ_GROUP_ID (JMSXGroupID) pins a group to one consumer of a queue. */
const Q = 'jms.queue.groups';

/** Collects what a consumer is given, acknowledging each message. */
function collect(consumer: ClientConsumer): string[] {
  const bodies: string[] = [];
  consumer.setMessageHandler(async (message: ReceivedMessage) => {
    bodies.push(bodyOf(message));
    await message.acknowledge();
  });
  return bodies;
}

describe('message groups', () => {
  const env = useTestBrokers();

  test('2 consumers, 10 messages of group G: all to one; close it: the next 10 all to the other', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const factory = await env.connect(broker);
    const sessions = [await factory.createSession(), await factory.createSession()];
    const consumers = await Promise.all(sessions.map((s) => s.createConsumer(Q)));
    const received = consumers.map(collect);
    for (const session of sessions) session.start();
    const producer = (await factory.createSession()).createProducer(Q);

    for (let i = 0; i < 10; i++) await producer.send(text(`G-${i}`, { group: 'G' }));
    await waitFor(() => received[0]!.length + received[1]!.length === 10, '10 messages of group G');
    const owner = received[0]!.length === 10 ? 0 : 1;
    const other = 1 - owner;
    expect(received[owner]).toEqual(Array.from({ length: 10 }, (_, i) => `G-${i}`));
    expect(received[other]).toEqual([]);

    await consumers[owner]!.close();
    for (let i = 10; i < 20; i++) await producer.send(text(`G-${i}`, { group: 'G' }));
    await waitFor(() => received[other]!.length === 10, 'the next 10 messages at the other consumer');
    expect(received[other]).toEqual(Array.from({ length: 10 }, (_, i) => `G-${i + 10}`));
  });

  test('messages without a group are load-balanced as before; each group sticks to its consumer', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const factory = await env.connect(broker);
    const session = await factory.createSession();
    const consumers = [await session.createConsumer(Q), await session.createConsumer(Q)];
    const received = consumers.map(collect);
    session.start();
    const producer = session.createProducer(Q);
    for (let i = 0; i < 10; i++) {
      await producer.send(text(`u-${i}`));
      await producer.send(text(`A-${i}`, { group: 'A' }));
      await producer.send(text(`B-${i}`, { group: 'B' }));
    }
    await waitFor(() => received[0]!.length + received[1]!.length === 30, 'all 30 messages');
    for (const group of ['A', 'B']) {
      const holders = received.filter((bodies) => bodies.some((b) => b.startsWith(`${group}-`)));
      expect({ group, holders: holders.length }).toEqual({ group, holders: 1 });
      expect(holders[0]!.filter((b) => b.startsWith(`${group}-`))).toEqual(
        Array.from({ length: 10 }, (_, i) => `${group}-${i}`),
      );
    }
    const ungrouped = received.map((bodies) => bodies.filter((b) => b.startsWith('u-')).length);
    expect(ungrouped[0]).toBeGreaterThan(0);
    expect(ungrouped[1]).toBeGreaterThan(0);
    expect(ungrouped[0]! + ungrouped[1]!).toBe(10);
  });

  test('messages of a group that the closing consumer had not acknowledged go to the new owner, in order', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const factory = await env.connect(broker);
    const first = await factory.createSession();
    const second = await factory.createSession();
    const holder = await first.createConsumer(Q);
    first.start();
    const producer = first.createProducer(Q);
    for (let i = 0; i < 5; i++) await producer.send(text(`G-${i}`, { group: 'G' }));
    const seen = await holder.receive(5000);
    expect(seen === null ? null : bodyOf(seen)).toBe('G-0');

    const successor = await second.createConsumer(Q);
    const received = collect(successor);
    second.start();
    await producer.send(text('G-5', { group: 'G' }));
    // Still the holder's group: nothing reaches the successor.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toEqual([]);

    await holder.close();
    await waitFor(() => received.length === 6, 'the whole group at the successor');
    expect(received).toEqual(['G-0', 'G-1', 'G-2', 'G-3', 'G-4', 'G-5']);
  });
});
