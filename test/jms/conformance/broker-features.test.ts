import {
  JMSException,
  Session,
  TransactionRolledBackException,
  type BytesMessage,
  type Message,
  type TextMessage,
} from '../../../src';
import {
  expectNothing,
  failureOf,
  receiveTexts,
  sendTexts,
  textOf,
  useJmsFixture,
  waitFor,
} from '../../support/jms-fixture';

/**
 * HornetQ's broker features as a JMS client sees them (jms-conformance.md §5 where the broker
 * side exists): scheduled delivery (5.1), duplicate detection (5.2, with §4 G4), message groups
 * (5.3), redelivery delay, max-delivery-attempts and the dead-letter address (5.5), the expiry
 * address (5.6), last-value queues (5.7) and large messages (5.4, without persistence: the broker
 * stores in memory). Address-full policies are not covered here.
 */

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('5.1 scheduled delivery (_HQ_SCHED_DELIVERY)', () => {
  const fx = useJmsFixture();
  const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');

  test('a message is not delivered before its time, then it is; it counts as in the queue meanwhile', async () => {
    const { session } = await fx.open();
    const at = Date.now() + 700;
    await sendTexts(session, Q1(), ['later'], (m) => m.setLongProperty('_HQ_SCHED_DELIVERY', at));
    expect(fx.messageCount('Queue1')).toBe(1);
    expect(fx.coreQueue('jms.queue.Queue1')?.scheduledCount).toBe(1);
    const consumer = await session.createConsumer(Q1());
    expect(await consumer.receive(200)).toBeNull();
    const message = await consumer.receive(5000);
    expect(textOf(message)).toBe('later');
    expect(Date.now()).toBeGreaterThanOrEqual(at);
    expect(message?.getLongProperty('_HQ_SCHED_DELIVERY')).toBe(at);
  });

  test('two scheduled messages arrive in schedule order, not send order', async () => {
    const { session } = await fx.open();
    const now = Date.now();
    await sendTexts(session, Q1(), ['second', 'first'], (m, i) =>
      m.setLongProperty('_HQ_SCHED_DELIVERY', now + (i === 0 ? 600 : 300)),
    );
    expect(await receiveTexts(await session.createConsumer(Q1()), 2)).toEqual(['first', 'second']);
  });

  test('in a transaction the message is scheduled only once committed', async () => {
    const { connection, session } = await fx.open();
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    await sendTexts(tx, Q1(), ['tx scheduled'], (m) =>
      m.setLongProperty('_HQ_SCHED_DELIVERY', Date.now() + 200),
    );
    expect(fx.messageCount('Queue1')).toBe(0);
    await tx.rollback();
    await pause(300);
    expect(fx.messageCount('Queue1')).toBe(0);
    await sendTexts(tx, Q1(), ['committed'], (m) =>
      m.setLongProperty('_HQ_SCHED_DELIVERY', Date.now() + 200),
    );
    await tx.commit();
    expect(fx.messageCount('Queue1')).toBe(1);
    expect(await receiveTexts(await session.createConsumer(Q1()), 1)).toEqual(['committed']);
  });
});

describe('5.2 duplicate detection (_HQ_DUPL_ID)', () => {
  const fx = useJmsFixture({ broker: { idCacheSize: 3 } });
  const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');
  const withId = (id: string) => (m: Message) => m.setStringProperty('_HQ_DUPL_ID', id);

  test('a duplicate is dropped silently: the send succeeds, nothing is routed', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(Q1());
    const sendWithId = async (text: string, id: string): Promise<void> => {
      const m = session.createTextMessage(text);
      withId(id)(m);
      await producer.send(m);
    };
    await sendWithId('a1', 'abcdefg');
    await sendWithId('a2', 'abcdefg');
    await sendWithId('a3', 'abcdefg');
    await sendWithId('h1', 'hijklmnop');
    await sendWithId('h2', 'hijklmnop');
    await sendWithId('a4', 'abcdefg');
    expect(fx.messageCount('Queue1')).toBe(2);
    const consumer = await session.createConsumer(Q1());
    expect(await receiveTexts(consumer, 2)).toEqual(['a1', 'h1']);
    await expectNothing(consumer);
  });

  test('the cache holds id-cache-size ids: the oldest is forgotten and accepted again', async () => {
    const { session } = await fx.open();
    for (const id of ['i1', 'i2', 'i3']) await sendTexts(session, Q1(), [id], withId(id));
    await sendTexts(session, Q1(), ['i1-dup'], withId('i1'));
    expect(fx.messageCount('Queue1')).toBe(3);
    await sendTexts(session, Q1(), ['i4'], withId('i4'));
    await sendTexts(session, Q1(), ['i1-again'], withId('i1'));
    expect(fx.messageCount('Queue1')).toBe(5);
  });

  test('each address has its own cache', async () => {
    const { session } = await fx.open();
    for (const name of ['Queue1', 'Queue2', 'Queue3'])
      await sendTexts(session, fx.queue(name), ['same'], withId('shared'));
    expect(['Queue1', 'Queue2', 'Queue3'].map((name) => fx.messageCount(name))).toEqual([1, 1, 1]);
  });

  test('G4: a duplicate inside a transaction fails the commit with DUPLICATE_ID_REJECTED, not TransactionRolledBackException; nothing is routed', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['original'], withId('tx-dup'));
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    await sendTexts(tx, Q1(), ['fresh'], withId('tx-fresh'));
    await sendTexts(tx, Q1(), ['duplicate'], withId('tx-dup'));
    const error = (await failureOf(tx.commit())) as JMSException;
    expect(error).toBeInstanceOf(JMSException);
    expect(error).not.toBeInstanceOf(TransactionRolledBackException);
    expect(error.getErrorCode()).toBe('DUPLICATE_ID_REJECTED');
    expect(fx.messageCount('Queue1')).toBe(1);
    // the rejected transaction recorded nothing: its fresh id is still free
    await sendTexts(session, Q1(), ['fresh later'], withId('tx-fresh'));
    expect(fx.messageCount('Queue1')).toBe(2);
  });

  test('a rolled-back transaction records no ids', async () => {
    const { connection } = await fx.open();
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    await sendTexts(tx, Q1(), ['rolled back'], withId('rb'));
    await tx.rollback();
    await sendTexts(tx, Q1(), ['resent'], withId('rb'));
    await tx.commit();
    expect(fx.messageCount('Queue1')).toBe(1);
  });
});

describe('5.3 message groups (JMSXGroupID)', () => {
  const fx = useJmsFixture();
  const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');

  test('a group goes to one consumer; when it closes, the group moves to another', async () => {
    const { connection, session } = await fx.open();
    const other = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const consumers = [await session.createConsumer(Q1()), await other.createConsumer(Q1())];
    const got: string[][] = [[], []];
    consumers.forEach((consumer, i) =>
      consumer.setMessageListener((m) => void (got[i] as string[]).push(textOf(m) ?? '')),
    );
    const first = Array.from({ length: 10 }, (_, i) => `g${i}`);
    await sendTexts(session, Q1(), first, (m) => m.setStringProperty('JMSXGroupID', 'G'));
    await waitFor(() => got[0]!.length + got[1]!.length === 10, 'ten deliveries');
    const owner = got[0]!.length === 10 ? 0 : 1;
    expect(got[owner]).toEqual(first);
    expect(got[1 - owner]).toEqual([]);
    await consumers[owner]!.close();
    const second = Array.from({ length: 10 }, (_, i) => `h${i}`);
    await sendTexts(session, Q1(), second, (m) => m.setStringProperty('JMSXGroupID', 'G'));
    await waitFor(() => got[1 - owner]!.length === 10, 'the group on the other consumer');
    expect(got[1 - owner]).toEqual(second);
  });

  test('messages without a group are shared between consumers', async () => {
    const { connection, session } = await fx.open({ configure: (cf) => cf.setConsumerWindowSize(0) });
    const other = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const a = await session.createConsumer(Q1());
    const b = await other.createConsumer(Q1());
    await sendTexts(session, Q1(), ['u1', 'u2']);
    const fromA = textOf(await a.receive(5000));
    const fromB = textOf(await b.receive(5000));
    expect([fromA, fromB].sort()).toEqual(['u1', 'u2']);
  });
});

describe('5.5 redelivery delay, max-delivery-attempts and the dead-letter address', () => {
  const fx = useJmsFixture({
    queues: ['orders', 'delayed', 'DLQ'],
    broker: {
      addressSettings: {
        'jms.queue.orders': { maxDeliveryAttempts: 3, deadLetterAddress: 'jms.queue.DLQ' },
        'jms.queue.delayed': { redeliveryDelay: 400, maxDeliveryAttempts: -1 },
      },
    },
  });

  test('after max-delivery-attempts rollbacks the message moves to the DLQ as a copy with the original-message properties', async () => {
    const { connection, session } = await fx.open();
    const [sent] = await sendTexts(session, fx.queue('orders'), ['poison'], (m) =>
      m.setStringProperty('p', 'v'),
    );
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const consumer = await tx.createConsumer(fx.queue('orders'));
    for (let attempt = 1; attempt <= 3; attempt++) {
      const message = await consumer.receive(5000);
      expect([textOf(message), message?.getIntProperty('JMSXDeliveryCount')]).toEqual(['poison', attempt]);
      await tx.rollback();
    }
    expect(await consumer.receive(200)).toBeNull();
    await fx.expectCount('orders', 0);
    await fx.expectCount('DLQ', 1);
    const dead = (await (await session.createConsumer(fx.queue('DLQ'))).receive(5000)) as Message;
    expect(textOf(dead)).toBe('poison');
    expect(dead.getStringProperty('p')).toBe('v');
    expect(dead.getStringProperty('_HQ_ORIG_ADDRESS')).toBe('jms.queue.orders');
    expect(dead.getStringProperty('_HQ_ORIG_QUEUE')).toBe('jms.queue.orders');
    expect(dead.propertyExists('_HQ_ORIG_MESSAGE_ID')).toBe(true);
    expect(dead.getIntProperty('JMSXDeliveryCount')).toBe(1);
    expect(dead.getJMSExpiration()).toBe(0);
    expect(dead.getJMSMessageID()).not.toBeNull();
    expect(sent?.getJMSMessageID()).toEqual(expect.any(String));
  });

  test('CLIENT_ACKNOWLEDGE recovers count as failed deliveries too', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, fx.queue('orders'), ['recovered']);
    const client = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const consumer = await client.createConsumer(fx.queue('orders'));
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(textOf(await consumer.receive(5000))).toBe('recovered');
      await client.recover();
    }
    await fx.expectCount('DLQ', 1);
    await expectNothing(consumer);
  });

  test('redelivery-delay holds a rolled-back message back; other messages keep flowing', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, fx.queue('delayed'), ['slow']);
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const consumer = await tx.createConsumer(fx.queue('delayed'));
    expect(textOf(await consumer.receive(5000))).toBe('slow');
    const rolledBackAt = Date.now();
    await tx.rollback();
    await sendTexts(session, fx.queue('delayed'), ['fast']);
    expect(textOf(await consumer.receive(5000))).toBe('fast');
    const again = await consumer.receive(5000);
    expect([textOf(again), again?.getJMSRedelivered()]).toEqual(['slow', true]);
    expect(Date.now() - rolledBackAt).toBeGreaterThanOrEqual(390);
    await tx.commit();
  });
});

describe('5.6 the expiry address', () => {
  const fx = useJmsFixture({
    queues: ['ttl', 'ExpiryQueue'],
    broker: {
      messageExpiryScanPeriod: 100,
      addressSettings: { 'jms.queue.ttl': { expiryAddress: 'jms.queue.ExpiryQueue' } },
    },
  });

  test('an expired message moves to the expiry address as a copy with _HQ_ORIG_* and _HQ_ACTUAL_EXPIRY, expiration reset', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('ttl'));
    producer.setTimeToLive(50);
    const sent = session.createTextMessage('expires');
    await producer.send(sent);
    await fx.expectCount('ExpiryQueue', 1);
    expect(fx.messageCount('ttl')).toBe(0);
    const moved = (await (await session.createConsumer(fx.queue('ExpiryQueue'))).receive(5000)) as Message;
    expect(textOf(moved)).toBe('expires');
    expect(moved.getStringProperty('_HQ_ORIG_ADDRESS')).toBe('jms.queue.ttl');
    expect(moved.getStringProperty('_HQ_ORIG_QUEUE')).toBe('jms.queue.ttl');
    expect(moved.getLongProperty('_HQ_ACTUAL_EXPIRY')).toBeGreaterThanOrEqual(sent.getJMSExpiration());
    expect(moved.getJMSExpiration()).toBe(0);
  });
});

describe('5.7 last-value queues', () => {
  const fx = useJmsFixture({
    queues: ['prices'],
    broker: { addressSettings: { 'jms.queue.prices': { lastValueQueue: true } } },
  });

  test('two messages with the same _HQ_LVQ_NAME before any consumer: only the second is received', async () => {
    const { session } = await fx.open();
    await sendTexts(session, fx.queue('prices'), ['old', 'new'], (m) =>
      m.setStringProperty('_HQ_LVQ_NAME', 'STOCK'),
    );
    const consumer = await session.createConsumer(fx.queue('prices'));
    expect(await receiveTexts(consumer, 1)).toEqual(['new']);
    await expectNothing(consumer);
  });
});

describe('5.4 large messages', () => {
  const fx = useJmsFixture();
  const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');

  function pattern(size: number): Uint8Array {
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) & 0xff;
    return bytes;
  }

  test('a 1 MiB BytesMessage (over min-large-message-size) round-trips byte-exact', async () => {
    const { session } = await fx.open();
    const body = pattern(1024 * 1024);
    const message = session.createBytesMessage();
    message.writeBytes(body);
    await (await session.createProducer(Q1())).send(message);
    const received = (await (await session.createConsumer(Q1())).receive(10_000)) as BytesMessage;
    expect(received.getBodyLength()).toBe(body.length);
    const read = new Uint8Array(body.length);
    expect(received.readBytes(read)).toBe(body.length);
    expect(Buffer.from(read).equals(Buffer.from(body))).toBe(true);
    expect(received.readBytes(new Uint8Array(1))).toBe(-1);
  });

  test('with a small min-large-message-size a large TextMessage is redelivered intact after rollback', async () => {
    const { connection, session } = await fx.open({ configure: (cf) => cf.setMinLargeMessageSize(4096) });
    const text = 'x'.repeat(50_000) + '✓'.repeat(10_000);
    await sendTexts(session, Q1(), [text], (m) => m.setStringProperty('p', 'large'));
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const consumer = await tx.createConsumer(Q1());
    expect(((await consumer.receive(10_000)) as TextMessage).getText()).toBe(text);
    await tx.rollback();
    const again = (await consumer.receive(10_000)) as TextMessage;
    expect([again.getText() === text, again.getJMSRedelivered(), again.getStringProperty('p')]).toEqual([
      true,
      true,
      'large',
    ]);
    await tx.commit();
    await fx.expectCount('Queue1', 0);
  });
});
