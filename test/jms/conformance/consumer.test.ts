import {
  DeliveryMode,
  IllegalStateException,
  Session,
  type BytesMessage,
  type MapMessage,
  type Message,
  type ObjectMessage,
  type StreamMessage,
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
 * jms-conformance.md §4 E (MessageConsumer: E1, E3–E5, E9, E10; listeners E2, E6, E7 are in
 * listeners.test.ts, E8 in destinations.test.ts) with HornetQ's MessageConsumerTest and
 * ConsumerClosedTest (§2.1).
 */

const fx = useJmsFixture();
const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');

describe('E1 receive, receive(timeout), receiveNoWait', () => {
  test('receive() waits for a message sent after it started waiting (testAsynchronous_to_Client)', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const pending = consumer.receive();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await sendTexts(session, Q1(), ['late']);
    expect(textOf(await pending)).toBe('late');
  });

  test('receive(t) returns null after about t, not earlier', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const started = Date.now();
    expect(await consumer.receive(400)).toBeNull();
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(395);
    expect(waited).toBeLessThan(3000);
  });

  test('receive(t) returns a message queued before the connection started (testReceiveTimeout)', async () => {
    const connection = await fx.connect();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    await sendTexts(session, Q1(), ['queued']);
    const consumer = await session.createConsumer(Q1());
    await connection.start();
    expect(textOf(await consumer.receive(2000))).toBe('queued');
  });

  test('receiveNoWait returns null on an empty queue, and the message once the broker holds it', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    expect(await consumer.receiveNoWait()).toBeNull();
    await sendTexts(session, Q1(), ['now']);
    await fx.expectCount('Queue1', 1);
    expect(textOf(await consumer.receiveNoWait())).toBe('now');
    expect(await consumer.receiveNoWait()).toBeNull();
  });

  test('receiveNoWait on a topic: null when idle, the message once published (testReceiveNoWaitOnTopic)', async () => {
    const { session } = await fx.open();
    const subscriber = await session.createConsumer(fx.topic('Topic1'));
    expect(await subscriber.receiveNoWait()).toBeNull();
    await sendTexts(session, fx.topic('Topic1'), ['published']);
    await waitFor(
      () => (fx.queuesOn('jms.topic.Topic1')[0]?.messageCount ?? 0) === 1,
      'the subscription to hold it',
    );
    expect(textOf(await subscriber.receiveNoWait())).toBe('published');
  });

  test('a receive on a stopped connection returns null at its timeout although a message is there (testReceiveOnTopicConnectionStopped)', async () => {
    const { connection, session } = await fx.open();
    const subscriber = await session.createConsumer(fx.topic('Topic1'));
    await connection.stop();
    await sendTexts(session, fx.topic('Topic1'), ['held']);
    expect(await subscriber.receive(300)).toBeNull();
    await connection.start();
    expect(textOf(await subscriber.receive(5000))).toBe('held');
  });

  test('100 messages sent while a consumer receives all arrive (testStressReceiveOnQueue)', async () => {
    const { connection, session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const other = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const texts = Array.from({ length: 100 }, (_, i) => `s${i}`);
    const sending = sendTexts(other, Q1(), texts);
    const received = await receiveTexts(consumer, 100);
    await sending;
    expect(received).toEqual(texts);
  });
});

describe('E3 delivery order', () => {
  test('messages of equal priority arrive in send order on a topic, persistent and not (testMessageOrderTopic)', async () => {
    const { session } = await fx.open();
    const subscriber = await session.createConsumer(fx.topic('Topic1'));
    const producer = await session.createProducer(fx.topic('Topic1'));
    const texts: string[] = [];
    for (let i = 0; i < 20; i++) {
      producer.setDeliveryMode(i % 2 === 0 ? DeliveryMode.NON_PERSISTENT : DeliveryMode.PERSISTENT);
      texts.push(`t${i}`);
      await producer.send(session.createTextMessage(`t${i}`));
    }
    expect(await receiveTexts(subscriber, 20)).toEqual(texts);
  });
});

describe('E4 closing a consumer', () => {
  test('a blocked receive returns null well before its timeout (testTimeoutReceiveOnClose)', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const started = Date.now();
    const pending = consumer.receive(5000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await consumer.close();
    expect(await pending).toBeNull();
    expect(Date.now() - started).toBeLessThan(2500);
  });

  test('a receive with no timeout returns null on close (testReceiveOnClose)', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const pending = consumer.receive();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await consumer.close();
    expect(await pending).toBeNull();
  });

  test('getters, receive and listeners on a closed consumer throw IllegalStateException', async () => {
    const { session } = await fx.open();
    const queueConsumer = await session.createConsumer(Q1(), "a = 'b'");
    const subscriber = await session.createConsumer(fx.topic('Topic1'), null, true);
    await queueConsumer.close();
    await subscriber.close();
    const calls: Array<[string, () => unknown]> = [
      ['getMessageSelector', () => queueConsumer.getMessageSelector()],
      ['getMessageListener', () => queueConsumer.getMessageListener()],
      ['setMessageListener', () => queueConsumer.setMessageListener(() => undefined)],
      ['receive', () => queueConsumer.receive()],
      ['receive(t)', () => queueConsumer.receive(10)],
      ['receiveNoWait', () => queueConsumer.receiveNoWait()],
      ['getTopic', () => subscriber.getTopic()],
      ['getNoLocal', () => subscriber.getNoLocal()],
    ];
    for (const [name, call] of calls) {
      expect({ name, error: await failureOf(call) }).toEqual({
        name,
        error: expect.any(IllegalStateException),
      });
    }
    await expect(queueConsumer.close()).resolves.toBeUndefined();
  });

  test('creating and closing a consumer consumes nothing (ConsumerClosedTest)', async () => {
    const { session } = await fx.open();
    await sendTexts(
      session,
      Q1(),
      Array.from({ length: 10 }, (_, i) => `c${i}`),
    );
    const consumer = await session.createConsumer(Q1());
    await consumer.close();
    await fx.expectCount('Queue1', 10);
  });

  test('messages buffered but not handed out return without a delivery count increment', async () => {
    const { session } = await fx.open();
    await sendTexts(session, Q1(), ['b1', 'b2', 'b3']);
    const first = await session.createConsumer(Q1());
    expect(await receiveTexts(first, 1)).toEqual(['b1']);
    await first.close();
    const second = await session.createConsumer(Q1());
    const got = [];
    for (let i = 0; i < 2; i++) {
      const message = (await second.receive(5000)) as Message;
      got.push([textOf(message), message.getJMSRedelivered(), message.getIntProperty('JMSXDeliveryCount')]);
    }
    expect(got).toEqual([
      ['b2', false, 1],
      ['b3', false, 1],
    ]);
  });

  test('a consumer closed before start consumed nothing; the next consumer gets the same message id (testSendMessageAndCloseConsumer1)', async () => {
    const connection = await fx.connect();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const [sent] = await sendTexts(session, Q1(), ['one']);
    const early = await session.createConsumer(Q1());
    await early.close();
    await connection.start();
    const message = await (await session.createConsumer(Q1())).receive(5000);
    expect(message?.getJMSMessageID()).toBe(sent?.getJMSMessageID());
  });

  test('20 times: create, start, receive one, close; nothing is lost (testClosedConsumerAfterStart)', async () => {
    const { session } = await fx.open();
    const texts = Array.from({ length: 20 }, (_, i) => `z${i}`);
    await sendTexts(session, Q1(), texts);
    const received: string[] = [];
    for (let i = 0; i < 20; i++) {
      const consumer = await session.createConsumer(Q1());
      received.push(textOf(await consumer.receive(5000)) ?? '');
      await consumer.close();
    }
    expect([...received].sort()).toEqual([...texts].sort());
    await fx.expectCount('Queue1', 0);
  });
});

describe('E5 closing a consumer settles nothing by itself (testRedel0–8)', () => {
  test('transacted: receive 1 of 3, close the consumer, commit → a new consumer gets 2 and 3 (testRedel0–2)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['r1', 'r2', 'r3']);
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const first = await tx.createConsumer(Q1());
    expect(await receiveTexts(first, 1)).toEqual(['r1']);
    await first.close();
    await tx.commit();
    const second = await tx.createConsumer(Q1());
    expect(await receiveTexts(second, 2)).toEqual(['r2', 'r3']);
    await tx.commit();
    await fx.expectCount('Queue1', 0);
  });

  test('transacted: commit after creating the second consumer acknowledges the first consumer’s message too', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['r1', 'r2', 'r3']);
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const first = await tx.createConsumer(Q1());
    expect(await receiveTexts(first, 1)).toEqual(['r1']);
    await first.close();
    const second = await tx.createConsumer(Q1());
    await tx.commit();
    expect(await receiveTexts(second, 2)).toEqual(['r2', 'r3']);
    await tx.commit();
    await fx.expectCount('Queue1', 0);
  });

  test('transacted: rollback redelivers 1, 2, 3 in order to the same consumer (testRedel3)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['r1', 'r2', 'r3']);
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const consumer = await tx.createConsumer(Q1());
    expect(await receiveTexts(consumer, 1)).toEqual(['r1']);
    await tx.rollback();
    expect(await receiveTexts(consumer, 3)).toEqual(['r1', 'r2', 'r3']);
    await tx.commit();
    await fx.expectCount('Queue1', 0);
  });

  test('transacted: receive 1, close the consumer, rollback → a new consumer gets 1, 2, 3 (testRedel4)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['r1', 'r2', 'r3']);
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const first = await tx.createConsumer(Q1());
    expect(await receiveTexts(first, 1)).toEqual(['r1']);
    await first.close();
    await tx.rollback();
    const second = await tx.createConsumer(Q1());
    const redelivered = (await second.receive(5000)) as Message;
    expect([textOf(redelivered), redelivered.getJMSRedelivered()]).toEqual(['r1', true]);
    expect(await receiveTexts(second, 2)).toEqual(['r2', 'r3']);
    await tx.commit();
  });

  test('CLIENT_ACKNOWLEDGE: recover redelivers 1 then 2, 3; acknowledging the last empties the queue (testRedel5)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['r1', 'r2', 'r3']);
    const client = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const consumer = await client.createConsumer(Q1());
    expect(await receiveTexts(consumer, 1)).toEqual(['r1']);
    await client.recover();
    const again = (await consumer.receive(5000)) as Message;
    expect([textOf(again), again.getJMSRedelivered()]).toEqual(['r1', true]);
    const rest = [await consumer.receive(5000), await consumer.receive(5000)];
    expect(rest.map(textOf)).toEqual(['r2', 'r3']);
    await rest[1]?.acknowledge();
    await fx.expectCount('Queue1', 0);
  });

  test('CLIENT_ACKNOWLEDGE: receive 1, close the consumer, recover → a new consumer gets 1, 2, 3 (testRedel6)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['r1', 'r2', 'r3']);
    const client = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const first = await client.createConsumer(Q1());
    expect(await receiveTexts(first, 1)).toEqual(['r1']);
    await first.close();
    await client.recover();
    const second = await client.createConsumer(Q1());
    expect(await receiveTexts(second, 3)).toEqual(['r1', 'r2', 'r3']);
  });

  test('CLIENT_ACKNOWLEDGE: closing consumer 1 does not hand its message to consumer 2; one acknowledge settles all (testRedel7)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['r1', 'r2', 'r3']);
    const client = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const first = await client.createConsumer(Q1());
    const m1 = await first.receive(5000);
    expect(textOf(m1)).toBe('r1');
    await first.close();
    const second = await client.createConsumer(Q1());
    const rest = [await second.receive(5000), await second.receive(5000)];
    expect(rest.map(textOf)).toEqual(['r2', 'r3']);
    expect(await second.receive(200)).toBeNull();
    await rest[1]?.acknowledge();
    await fx.expectCount('Queue1', 0);
  });

  test('AUTO_ACKNOWLEDGE: a consumer created and closed leaves all three to the next (testRedel8)', async () => {
    const { session } = await fx.open();
    await sendTexts(session, Q1(), ['r1', 'r2', 'r3']);
    await (await session.createConsumer(Q1())).close();
    expect(await receiveTexts(await session.createConsumer(Q1()), 3)).toEqual(['r1', 'r2', 'r3']);
  });

  test('transacted: commit after the consumer closed acknowledges what it received (testAckAfterConsumerClosed)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['one']);
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const consumer = await tx.createConsumer(Q1());
    expect(await receiveTexts(consumer, 1)).toEqual(['one']);
    await consumer.close();
    await tx.commit();
    await fx.expectCount('Queue1', 0);
  });

  test('CLIENT_ACKNOWLEDGE: acknowledge after the consumer closed works (testClientAcknowledgmentOnClosedConsumer)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['one']);
    const client = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const consumer = await client.createConsumer(Q1());
    const message = await consumer.receive(5000);
    await consumer.close();
    await message?.acknowledge();
    await fx.expectCount('Queue1', 0);
    expect(await failureOf(consumer.receive(10))).toBeInstanceOf(IllegalStateException);
  });
});

describe('E9 competing consumers on a queue', () => {
  test('each message goes to exactly one consumer', async () => {
    const { connection, session } = await fx.open();
    const other = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const a = await session.createConsumer(Q1());
    const b = await other.createConsumer(Q1());
    const texts = Array.from({ length: 40 }, (_, i) => `m${i}`);
    await sendTexts(session, Q1(), texts);
    const got: string[] = [];
    for (const consumer of [a, b]) {
      for (let m = await consumer.receive(300); m !== null; m = await consumer.receive(300))
        got.push(textOf(m) ?? '');
    }
    expect([...got].sort()).toEqual([...texts].sort());
  });

  test('with selectors each consumer gets only its matches (testManyConsumersWithDifferentSelectors)', async () => {
    const { session } = await fx.open();
    const one = await session.createConsumer(Q1(), 'weight = 1');
    const two = await session.createConsumer(Q1(), 'weight = 2');
    await sendTexts(
      session,
      Q1(),
      Array.from({ length: 10 }, (_, i) => `w${i}`),
      (m, i) => m.setIntProperty('weight', (i % 2) + 1),
    );
    expect(await receiveTexts(one, 5)).toEqual(['w0', 'w2', 'w4', 'w6', 'w8']);
    expect(await receiveTexts(two, 5)).toEqual(['w1', 'w3', 'w5', 'w7', 'w9']);
    await expectNothing(one, 100);
  });

  test("a closed session's unacknowledged message goes to a consumer already waiting (testRedeliveryToCompetingConsumerOnQueue)", async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['contested']);
    const client = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const holder = await client.createConsumer(Q1());
    expect(await receiveTexts(holder, 1)).toEqual(['contested']);
    const waiter = await session.createConsumer(Q1());
    const pending = waiter.receive(5000);
    await client.close();
    const message = await pending;
    expect(textOf(message)).toBe('contested');
    expect(message?.getJMSRedelivered()).toBe(true);
  });

  test('a selective consumer leaves the rest; after it closes a plain consumer gets it (testSelectiveClosingConsumer)', async () => {
    const { session } = await fx.open();
    const red = await session.createConsumer(Q1(), "color = 'red'");
    await sendTexts(session, Q1(), ['blue', 'red'], (m, i) =>
      m.setStringProperty('color', i === 0 ? 'blue' : 'red'),
    );
    expect(await receiveTexts(red, 1)).toEqual(['red']);
    await expectNothing(red, 100);
    await red.close();
    expect(await receiveTexts(await session.createConsumer(Q1()), 1)).toEqual(['blue']);
  });

  test('consecutive consumers on new connections get one message each (testTwoConsumersNonTransacted)', async () => {
    const { session } = await fx.open();
    await sendTexts(session, Q1(), ['One', 'Two']);
    for (const expected of ['One', 'Two']) {
      const { connection, session: s } = await fx.open();
      expect(await receiveTexts(await s.createConsumer(Q1()), 1)).toEqual([expected]);
      await connection.close();
    }
  });
});

describe('E10 topics', () => {
  test('every subscriber gets every message published after it subscribed (testMultipleConcurrentConsumers)', async () => {
    const connection = await fx.connect({ start: true });
    const subscribers = [];
    for (let i = 0; i < 3; i++) {
      const s = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      subscribers.push(await s.createConsumer(fx.topic('Topic1')));
    }
    const publisher = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const texts = Array.from({ length: 10 }, (_, i) => `p${i}`);
    await sendTexts(publisher, fx.topic('Topic1'), texts);
    for (const subscriber of subscribers) expect(await receiveTexts(subscriber, 10)).toEqual(texts);
  });

  test('a message published before a subscriber existed is not delivered to it', async () => {
    const { session } = await fx.open();
    await sendTexts(session, fx.topic('Topic1'), ['before']);
    const subscriber = await session.createConsumer(fx.topic('Topic1'));
    await sendTexts(session, fx.topic('Topic1'), ['after']);
    expect(await receiveTexts(subscriber, 1)).toEqual(['after']);
    await expectNothing(subscriber, 100);
  });

  test('publishing to a topic without subscribers stores nothing (testPersistentMessagesForTopicDropped)', async () => {
    const { session } = await fx.open();
    await sendTexts(session, fx.topic('Topic1'), ['nobody']);
    expect(fx.queuesOn('jms.topic.Topic1')).toEqual([]);
  });

  test('a non-durable subscription and its messages go when the subscriber closes (testNoRedeliveryOnNonDurableSubscriber)', async () => {
    const { connection, session } = await fx.open();
    const client = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const subscriber = await client.createConsumer(fx.topic('Topic1'));
    await sendTexts(session, fx.topic('Topic1'), ['x', 'y']);
    expect(await receiveTexts(subscriber, 1)).toEqual(['x']);
    expect(fx.queuesOn('jms.topic.Topic1')).toHaveLength(1);
    await subscriber.close();
    await waitFor(() => fx.queuesOn('jms.topic.Topic1').length === 0, 'the subscription queue to go');
  });

  test('non-durable subscriptions go when their session or connection closes', async () => {
    const { connection, session } = await fx.open();
    await session.createConsumer(fx.topic('Topic1'));
    const other = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    await other.createConsumer(fx.topic('Topic1'));
    expect(fx.queuesOn('jms.topic.Topic1')).toHaveLength(2);
    await other.close();
    await waitFor(
      () => fx.queuesOn('jms.topic.Topic1').length === 1,
      'one subscription to go with its session',
    );
    await connection.close();
    await waitFor(() => fx.queuesOn('jms.topic.Topic1').length === 0, 'the other to go with the connection');
  });

  test('a subscriber reports its topic, selector and noLocal flag', async () => {
    const { session } = await fx.open();
    const subscriber = await session.createConsumer(fx.topic('Topic1'), "kind = 'x'", true);
    expect(subscriber.getTopic()).toEqual(fx.topic('Topic1'));
    expect(subscriber.getMessageSelector()).toBe("kind = 'x'");
    expect(subscriber.getNoLocal()).toBe(true);
    const plain = await session.createConsumer(fx.queue('Queue1'));
    expect(plain.getMessageSelector()).toBeNull();
    expect(plain.getMessageListener()).toBeNull();
  });
});

describe('every message type survives the broker (testPersistedMessageType)', () => {
  test('Message, Text, Bytes, Map, Stream and Object arrive as their type with their content, read by another connection', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(Q1());
    const plain = session.createMessage();
    plain.setStringProperty('kind', 'plain');
    const text = session.createTextMessage('text body');
    const bytes = session.createBytesMessage();
    bytes.writeBytes(new Uint8Array([0, 1, 255, 128]));
    bytes.writeInt(-7);
    const map = session.createMapMessage();
    map.setString('name', 'pi');
    map.setDouble('value', 3.14159);
    const stream = session.createStreamMessage();
    stream.writeString('pi');
    stream.writeDouble(3.14159);
    const object = session.createObjectMessage({ list: ['pi', 3.14159], nested: { ok: true } });
    for (const message of [plain, text, bytes, map, stream, object]) await producer.send(message);

    const { session: reader } = await fx.open();
    const consumer = await reader.createConsumer(Q1());
    const received: Message[] = [];
    for (let i = 0; i < 6; i++) received.push((await consumer.receive(5000)) as Message);
    const [p, t, b, m, s, o] = received;
    expect(p?.getStringProperty('kind')).toBe('plain');
    expect(typeof (p as Partial<TextMessage>).getText).toBe('undefined');
    expect((t as TextMessage).getText()).toBe('text body');
    const bytesIn = b as BytesMessage;
    expect(bytesIn.getBodyLength()).toBe(8);
    const head = new Uint8Array(4);
    expect(bytesIn.readBytes(head, 4)).toBe(4);
    expect([...head]).toEqual([0, 1, 255, 128]);
    expect(bytesIn.readInt()).toBe(-7);
    expect((m as MapMessage).getString('name')).toBe('pi');
    expect((m as MapMessage).getDouble('value')).toBe(3.14159);
    expect((s as StreamMessage).readString()).toBe('pi');
    expect((s as StreamMessage).readDouble()).toBe(3.14159);
    expect((o as ObjectMessage).getObject()).toEqual({ list: ['pi', 3.14159], nested: { ok: true } });
  });
});
