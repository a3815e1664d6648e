import { CapturingLogger, useTestBrokers, waitFor } from '../../support/test-broker';
import { MessageHeader, PropertyKind } from '../../../src';
import { bodyOf, drainBodies, propertyOf, queues, queueStats, text, transacted } from './support';

/** §5.5 Redelivery delay, max delivery attempts, dead-letter address. */
const Q = 'jms.queue.orders';
const DLQ = 'jms.queue.DLQ';

describe('redelivery delay', () => {
  const env = useTestBrokers();

  test('a rolled-back message comes back no sooner than redelivery-delay, marked redelivered', async () => {
    const broker = await env.startBroker({
      queues: queues(Q),
      addressSettings: { [Q]: { redeliveryDelay: 100 } },
    });
    const factory = await env.connect(broker);
    await (await factory.createSession()).createProducer(Q).send(text('m'));
    const tx = await transacted(factory);
    const consumer = await tx.createConsumer(Q);
    tx.start();
    const first = await consumer.receive(5000);
    await first?.acknowledge();
    const rolledBackAt = Date.now();
    await tx.rollback();
    const again = await consumer.receive(5000);
    expect(Date.now() - rolledBackAt).toBeGreaterThanOrEqual(100);
    expect(again === null ? null : bodyOf(again)).toBe('m');
    expect(again?.deliveryCount).toBe(2);
    expect(again?.redelivered).toBe(true);
  });

  test('the delay grows by the multiplier and stops at max-redelivery-delay: 100, 200, 300, 300', async () => {
    const broker = await env.startBroker({
      queues: queues(Q),
      addressSettings: {
        [Q]: {
          redeliveryDelay: 100,
          redeliveryDelayMultiplier: 2,
          maxRedeliveryDelay: 300,
          maxDeliveryAttempts: -1,
        },
      },
    });
    const factory = await env.connect(broker);
    await (await factory.createSession()).createProducer(Q).send(text('m'));
    const tx = await transacted(factory);
    const consumer = await tx.createConsumer(Q);
    tx.start();
    const gaps: number[] = [];
    let message = await consumer.receive(5000);
    for (let round = 0; round < 4; round++) {
      await message?.acknowledge();
      const rolledBackAt = Date.now();
      await tx.rollback();
      message = await consumer.receive(5000);
      if (message === null) throw new Error(`no redelivery in round ${round}`);
      gaps.push(Date.now() - rolledBackAt);
    }
    expect(message?.deliveryCount).toBe(5);
    [100, 200, 300, 300].forEach((min, i) =>
      expect({ round: i, gap: gaps[i]! >= min }).toEqual({ round: i, gap: true }),
    );
    // The cap holds: the fourth wait is nowhere near 800 ms (generous bound for a noisy machine).
    expect(gaps[3]).toBeLessThan(800);
  });

  test('only the cancelled message waits; other messages keep flowing meanwhile', async () => {
    const broker = await env.startBroker({
      queues: queues(Q),
      addressSettings: { [Q]: { redeliveryDelay: 1500 } },
    });
    const factory = await env.connect(broker);
    const producer = (await factory.createSession()).createProducer(Q);
    await producer.send(text('failed'));
    await producer.send(text('next'));
    const tx = await transacted(factory);
    const consumer = await tx.createConsumer(Q, { windowSize: 0 });
    tx.start();
    const failed = await consumer.receive(5000);
    expect(failed === null ? null : bodyOf(failed)).toBe('failed');
    await failed?.acknowledge();
    const rolledBackAt = Date.now();
    await tx.rollback();

    const next = await consumer.receive(5000);
    expect(next === null ? null : bodyOf(next)).toBe('next');
    expect(Date.now() - rolledBackAt).toBeLessThan(1500);
    await next?.acknowledge();
    await tx.commit();
    expect(queueStats(broker, Q)).toMatchObject({ messageCount: 1, scheduledCount: 1 });
    const back = await consumer.receive(10_000);
    expect(back === null ? null : bodyOf(back)).toBe('failed');
    expect(Date.now() - rolledBackAt).toBeGreaterThanOrEqual(1500);
  });
});

describe('max delivery attempts and the dead-letter address', () => {
  const env = useTestBrokers();

  test('max 3: rolled back at deliveries 1, 2, 3, the message is then in the DLQ and the queue is empty', async () => {
    const broker = await env.startBroker({
      queues: queues(Q, DLQ),
      addressSettings: { [Q]: { maxDeliveryAttempts: 3, deadLetterAddress: DLQ } },
    });
    const factory = await env.connect(broker);
    const plain = await factory.createSession();
    const sent = text('poison', { expiration: Date.now() + 600_000 });
    await plain.createProducer(Q).send(sent);
    const tx = await transacted(factory);
    const consumer = await tx.createConsumer(Q);
    tx.start();
    let originalId = 0;
    for (let delivery = 1; delivery <= 3; delivery++) {
      const message = await consumer.receive(5000);
      expect(message?.deliveryCount).toBe(delivery);
      originalId = message?.message.messageId ?? 0;
      await message?.acknowledge();
      await tx.rollback();
    }
    expect(await consumer.receive(300)).toBeNull();
    expect(queueStats(broker, Q)).toMatchObject({ messageCount: 0, messagesKilled: 1 });

    const dlq = await plain.createConsumer(DLQ);
    plain.start();
    const moved = await dlq.receive(5000);
    expect(moved === null ? null : bodyOf(moved)).toBe('poison');
    expect(moved?.deliveryCount).toBe(1);
    expect(moved?.message.expiration).toBe(0);
    expect(originalId).toBeGreaterThan(0);
    expect(moved?.message.messageId).not.toBe(originalId);
    expect(moved === null ? null : propertyOf(moved, MessageHeader.ORIGINAL_ADDRESS)).toBe(Q);
    expect(moved === null ? null : propertyOf(moved, MessageHeader.ORIGINAL_QUEUE)).toBe(Q);
    expect(moved?.message.properties.get(MessageHeader.ORIGINAL_MESSAGE_ID)).toEqual({
      kind: PropertyKind.LONG,
      value: originalId,
    });
  });

  test('settings merge: # gives the DLA and max 10, jms.queue.orders overrides max to 3', async () => {
    const broker = await env.startBroker({
      queues: queues(Q, DLQ, 'jms.queue.other'),
      addressSettings: {
        '#': { deadLetterAddress: DLQ, maxDeliveryAttempts: 10 },
        [Q]: { maxDeliveryAttempts: 3 },
      },
    });
    const factory = await env.connect(broker);
    const producer = (await factory.createSession()).createProducer(null);
    await producer.send(text('orders'), Q);
    await producer.send(text('other'), 'jms.queue.other');
    const tx = await transacted(factory);
    const orders = await tx.createConsumer(Q);
    const other = await tx.createConsumer('jms.queue.other');
    tx.start();
    for (let delivery = 1; delivery <= 3; delivery++) {
      for (const consumer of [orders, other]) await (await consumer.receive(5000))?.acknowledge();
      await tx.rollback();
    }
    await waitFor(() => queueStats(broker, DLQ).messageCount === 1, 'orders in the DLQ');
    expect(queueStats(broker, Q)).toMatchObject({ messageCount: 0 });
    // The other queue inherits max 10 from '#': its message is still there after 3.
    const still = await other.receive(5000);
    expect(still?.deliveryCount).toBe(4);
  });

  test('messages buffered but never seen by the client do not count toward max attempts', async () => {
    const broker = await env.startBroker({
      queues: queues(Q, DLQ),
      addressSettings: { [Q]: { maxDeliveryAttempts: 2, deadLetterAddress: DLQ } },
    });
    const factory = await env.connect(broker);
    const producer = (await factory.createSession()).createProducer(Q);
    for (let i = 0; i < 5; i++) await producer.send(text(`m${i}`));
    const tx = await transacted(factory);
    const consumer = await tx.createConsumer(Q); // a 1 MiB window: all five are buffered at once
    tx.start();
    for (let round = 0; round < 2; round++) {
      const first = await consumer.receive(5000);
      expect(first === null ? null : bodyOf(first)).toBe('m0');
      await first?.acknowledge();
      await tx.rollback();
    }
    const rest = [];
    for (let i = 1; i < 5; i++) rest.push(await consumer.receive(5000));
    expect(rest.map((m) => (m === null ? null : [bodyOf(m), m.deliveryCount]))).toEqual([
      ['m1', 1],
      ['m2', 1],
      ['m3', 1],
      ['m4', 1],
    ]);
    expect(queueStats(broker, DLQ).messageCount).toBe(1);
  });

  test('no DLA, or a DLA bound to no queue: the message is dropped with a warning', async () => {
    const logger = new CapturingLogger();
    const unbound = 'jms.queue.unbound';
    const broker = await env.startBroker({
      queues: queues(Q, unbound),
      logger,
      addressSettings: {
        [Q]: { maxDeliveryAttempts: 1 },
        [unbound]: { maxDeliveryAttempts: 1, deadLetterAddress: 'jms.queue.nothing-here' },
      },
    });
    const factory = await env.connect(broker);
    const producer = (await factory.createSession()).createProducer(null);
    await producer.send(text('a'), Q);
    await producer.send(text('b'), unbound);
    const tx = await transacted(factory);
    const consumers = [await tx.createConsumer(Q), await tx.createConsumer(unbound)];
    tx.start();
    for (const consumer of consumers) await (await consumer.receive(5000))?.acknowledge();
    await tx.rollback();
    for (const consumer of consumers) expect(await consumer.receive(300)).toBeNull();
    expect(queueStats(broker, Q)).toMatchObject({ messageCount: 0, messagesKilled: 1 });
    expect(queueStats(broker, unbound)).toMatchObject({ messageCount: 0, messagesKilled: 1 });
    expect(
      logger.find(/No Dead Letter Address configured for queue jms\.queue\.orders/, ['warn']),
    ).toHaveLength(1);
    expect(
      logger.find(/No bindings for Dead Letter Address jms\.queue\.nothing-here/, ['warn']),
    ).toHaveLength(1);
  });

  test('send-to-dla-on-no-route: a message no queue takes goes to the DLA; without it, it is dropped', async () => {
    const broker = await env.startBroker({
      queues: queues(DLQ),
      addressSettings: {
        'jms.queue.#': { deadLetterAddress: DLQ, sendToDlaOnNoRoute: true },
        'jms.topic.#': { deadLetterAddress: DLQ },
      },
    });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(null);
    await producer.send(text('to nobody'), 'jms.queue.nobody');
    await producer.send(text('to no subscriber'), 'jms.topic.quiet');
    const consumer = await session.createConsumer(DLQ);
    session.start();
    const dead = await consumer.receive(5000);
    expect(dead === null ? null : bodyOf(dead)).toBe('to nobody');
    expect(dead === null ? null : propertyOf(dead, MessageHeader.ORIGINAL_ADDRESS)).toBe('jms.queue.nobody');
    await dead?.acknowledge();
    expect(await drainBodies(consumer)).toEqual([]);
  });
});
