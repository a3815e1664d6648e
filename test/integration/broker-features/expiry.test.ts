import { MessageHeader, PropertyKind } from '../../../src';
import { useTestBrokers } from '../../support/test-broker';
import {
  bodyOf,
  drainBodies,
  propertyOf,
  queues,
  queueStats,
  text,
  transacted,
  waitForQueue,
} from './support';
import { sleep } from '../../support/wait';

/** §4 L2/L3 (expired messages are never delivered) and §5.6 (the expiry address). */
const Q = 'jms.queue.ttl';
const EXPIRY = 'jms.queue.ExpiryQueue';
const DLQ = 'jms.queue.DLQ';

describe('expired messages are never delivered (L2, L3)', () => {
  const env = useTestBrokers();

  test('TTL 1 ms then a 250 ms pause: not received, and counted as expired', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const session = await (await env.connect(broker)).createSession();
    await session.createProducer(Q).send(text('short-lived', { expiration: Date.now() + 1 }));
    await sleep(250);
    const consumer = await session.createConsumer(Q);
    session.start();
    expect(await consumer.receive(500)).toBeNull();
    await waitForQueue(
      broker,
      Q,
      (q) => q.messageCount === 0 && q.messagesExpired === 1,
      'the expired message gone',
    );
  });

  test('a living message sent after an expiring one is received', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(Q);
    await producer.send(text('expiring', { expiration: Date.now() + 1 }));
    await producer.send(text('living', { expiration: Date.now() + 600_000 }));
    await sleep(250);
    const consumer = await session.createConsumer(Q);
    session.start();
    expect(await drainBodies(consumer)).toEqual(['living']);
  });

  test('100 expired messages: none is delivered', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(Q);
    for (let i = 0; i < 100; i++) await producer.send(text(`m${i}`, { expiration: Date.now() + 1 }));
    await sleep(250);
    const consumer = await session.createConsumer(Q);
    session.start();
    expect(await consumer.receive(500)).toBeNull();
    await waitForQueue(broker, Q, (q) => q.messagesExpired === 100 && q.messageCount === 0, '100 expired');
  });

  test('a message that expires while rolled back is not redelivered', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const factory = await env.connect(broker);
    await (await factory.createSession()).createProducer(Q).send(text('m', { expiration: Date.now() + 300 }));
    const tx = await transacted(factory);
    const consumer = await tx.createConsumer(Q);
    tx.start();
    const first = await consumer.receive(5000);
    expect(first === null ? null : bodyOf(first)).toBe('m');
    await first?.acknowledge();
    await sleep(400);
    await tx.rollback();
    expect(await consumer.receive(500)).toBeNull();
    expect(queueStats(broker, Q)).toMatchObject({ messageCount: 0, messagesExpired: 1 });
  });
});

describe('the expiry address (5.6)', () => {
  const env = useTestBrokers();

  test('an expired message moves to the expiry address as a copy carrying the original headers', async () => {
    const broker = await env.startBroker({
      queues: queues(Q, EXPIRY),
      addressSettings: { [Q]: { expiryAddress: EXPIRY } },
    });
    const session = await (await env.connect(broker)).createSession();
    const expiration = Date.now() + 50;
    await session.createProducer(Q).send(text('stale', { expiration }));
    await sleep(150);
    const consumer = await session.createConsumer(Q);
    const expired = await session.createConsumer(EXPIRY);
    session.start();
    expect(await consumer.receive(300)).toBeNull();
    const copy = await expired.receive(5000);
    if (copy === null) throw new Error('nothing reached the expiry queue');
    expect(bodyOf(copy)).toBe('stale');
    expect(copy.message.expiration).toBe(0);
    expect(copy.deliveryCount).toBe(1);
    expect(propertyOf(copy, MessageHeader.ORIGINAL_ADDRESS)).toBe(Q);
    expect(propertyOf(copy, MessageHeader.ORIGINAL_QUEUE)).toBe(Q);
    expect(copy.message.properties.get(MessageHeader.ORIGINAL_MESSAGE_ID)?.kind).toBe(PropertyKind.LONG);
    expect(propertyOf(copy, MessageHeader.ORIGINAL_MESSAGE_ID)).not.toBe(copy.message.messageId);
    const actualExpiry = copy.message.properties.get(MessageHeader.ACTUAL_EXPIRY_TIME);
    expect(actualExpiry?.kind).toBe(PropertyKind.LONG);
    expect(actualExpiry?.value as number).toBeGreaterThanOrEqual(expiration);
  });

  test('the reaper (scan period 100 ms) moves expired messages out of a queue nobody consumes from', async () => {
    const broker = await env.startBroker({
      queues: queues(Q, EXPIRY),
      messageExpiryScanPeriod: 100,
      addressSettings: { [Q]: { expiryAddress: EXPIRY } },
    });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(Q);
    for (let i = 0; i < 10; i++) await producer.send(text(`m${i}`, { expiration: Date.now() + 50 }));
    await producer.send(text('keeper'));
    await waitForQueue(
      broker,
      Q,
      (q) => q.messageCount === 1 && q.messagesExpired === 10,
      'ten expired by the scan',
    );
    expect(queueStats(broker, EXPIRY).messageCount).toBe(10);
  });

  test('with the scan off (-1) an expired message stays counted until a delivery attempt meets it', async () => {
    const broker = await env.startBroker({ queues: queues(Q), messageExpiryScanPeriod: -1 });
    const session = await (await env.connect(broker)).createSession();
    await session.createProducer(Q).send(text('m', { expiration: Date.now() + 1 }));
    await sleep(400);
    expect(queueStats(broker, Q)).toMatchObject({ messageCount: 1, messagesExpired: 0 });
    const consumer = await session.createConsumer(Q);
    session.start();
    expect(await consumer.receive(300)).toBeNull();
    expect(queueStats(broker, Q)).toMatchObject({ messageCount: 0, messagesExpired: 1 });
  });

  test('without an expiry address, or with one bound to nothing, expired messages are dropped', async () => {
    const other = 'jms.queue.other';
    const broker = await env.startBroker({
      queues: queues(Q, other),
      messageExpiryScanPeriod: 100,
      addressSettings: { [other]: { expiryAddress: 'jms.queue.unbound' } },
    });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(null);
    await producer.send(text('a', { expiration: Date.now() + 1 }), Q);
    await producer.send(text('b', { expiration: Date.now() + 1 }), other);
    await waitForQueue(broker, Q, (q) => q.messageCount === 0 && q.messagesExpired === 1, 'a dropped');
    await waitForQueue(broker, other, (q) => q.messageCount === 0 && q.messagesExpired === 1, 'b dropped');
  });

  test('a message moved again (expiry queue → DLQ) keeps the first original address, queue and id', async () => {
    const broker = await env.startBroker({
      queues: queues(Q, EXPIRY, DLQ),
      addressSettings: {
        [Q]: { expiryAddress: EXPIRY },
        [EXPIRY]: { maxDeliveryAttempts: 1, deadLetterAddress: DLQ },
      },
      messageExpiryScanPeriod: 100,
    });
    const factory = await env.connect(broker);
    await (
      await factory.createSession()
    )
      .createProducer(Q)
      .send(text('wanderer', { expiration: Date.now() + 1 }));
    await waitForQueue(broker, EXPIRY, (q) => q.messageCount === 1, 'the expiry copy');
    const tx = await transacted(factory);
    const fromExpiry = await tx.createConsumer(EXPIRY);
    tx.start();
    const copy = await fromExpiry.receive(5000);
    if (copy === null) throw new Error('no expiry copy');
    const firstOriginalId = propertyOf(copy, MessageHeader.ORIGINAL_MESSAGE_ID);
    await copy.acknowledge();
    await tx.rollback();

    const dead = await tx.createConsumer(DLQ);
    const last = await dead.receive(5000);
    if (last === null) throw new Error('nothing in the DLQ');
    expect(bodyOf(last)).toBe('wanderer');
    expect(propertyOf(last, MessageHeader.ORIGINAL_ADDRESS)).toBe(Q);
    expect(propertyOf(last, MessageHeader.ORIGINAL_QUEUE)).toBe(Q);
    expect(propertyOf(last, MessageHeader.ORIGINAL_MESSAGE_ID)).toBe(firstOriginalId);
    expect(last.message.messageId).not.toBe(copy.message.messageId);
  });

  test('expiry-delay gives messages sent without an expiration one; they then expire to the expiry address', async () => {
    const broker = await env.startBroker({
      queues: queues(Q, EXPIRY),
      messageExpiryScanPeriod: 100,
      addressSettings: { [Q]: { expiryDelay: 200, expiryAddress: EXPIRY } },
    });
    const session = await (await env.connect(broker)).createSession();
    const sentAt = Date.now();
    await session.createProducer(Q).send(text('no ttl'));
    await waitForQueue(broker, EXPIRY, (q) => q.messageCount === 1, 'the message expired by expiry-delay');
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(200);
    const consumer = await session.createConsumer(EXPIRY);
    session.start();
    const copy = await consumer.receive(5000);
    expect(copy === null ? null : bodyOf(copy)).toBe('no ttl');
    expect(copy?.message.expiration).toBe(0);
  });
});
