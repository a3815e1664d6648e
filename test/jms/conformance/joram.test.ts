import {
  DeliveryMode,
  HornetQBytesMessage,
  HornetQMapMessage,
  HornetQObjectMessage,
  HornetQQueue,
  HornetQStreamMessage,
  HornetQTemporaryQueue,
  HornetQTextMessage,
  IllegalStateException,
  InvalidDestinationException,
  InvalidSelectorException,
  MessageNotWriteableException,
  Session,
  type BytesMessage,
  type HornetQConnection,
  type HornetQMessageConsumer,
  type HornetQMessageProducer,
  type HornetQSession,
  type MapMessage,
  type Message,
  type ObjectMessage,
  type StreamMessage,
  type TextMessage,
} from '../../../src';
import { expectNothing, failureOf, textOf, useJmsFixture, waitFor } from '../../support/jms-fixture';

/**
 * JORAM's conformance tests (jms-conformance.md §1.1–1.18) that need a connection and a broker;
 * the message-class cases (§1.3 clearBody, 1.4, 1.8, 1.9 and the unit parts of 1.5) are in
 * test/jms/message, and §1.12's selector grammar also in test/jms/selector. §1.17
 * (UnifiedSessionTest) has no counterpart: the contract has no queue- or topic-only sessions.
 * Fixtures as JORAM's: PTP (sender and receiver connections on testJoramQueue, AUTO_ACKNOWLEDGE,
 * both started) and Pub/Sub (client ids publisherConnection / subscriberConnection, testJoramTopic).
 */

const fx = useJmsFixture({ queues: ['testJoramQueue', 'Queue2'] });
const TIMEOUT = 5000;

interface Ptp {
  senderConnection: HornetQConnection;
  senderSession: HornetQSession;
  sender: HornetQMessageProducer;
  receiverConnection: HornetQConnection;
  receiverSession: HornetQSession;
  receiver: HornetQMessageConsumer;
  queue: HornetQQueue;
}

async function ptp(receiverMode: { transacted?: boolean; ackMode?: number } = {}): Promise<Ptp> {
  const queue = fx.queue('testJoramQueue');
  const senderConnection = await fx.connect();
  const senderSession = await senderConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const sender = await senderSession.createProducer(queue);
  const receiverConnection = await fx.connect();
  const receiverSession = await receiverConnection.createSession(
    receiverMode.transacted ?? false,
    receiverMode.ackMode ?? Session.AUTO_ACKNOWLEDGE,
  );
  const receiver = await receiverSession.createConsumer(queue);
  await senderConnection.start();
  await receiverConnection.start();
  return { senderConnection, senderSession, sender, receiverConnection, receiverSession, receiver, queue };
}

async function pubSub(subscriberMode: { transacted?: boolean } = {}) {
  const topic = fx.topic('testJoramTopic');
  const publisherConnection = await fx.connect({ clientID: 'publisherConnection' });
  const publisherSession = await publisherConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const publisher = await publisherSession.createProducer(topic);
  const subscriberConnection = await fx.connect({ clientID: 'subscriberConnection' });
  const subscriberSession = await subscriberConnection.createSession(
    subscriberMode.transacted ?? false,
    Session.AUTO_ACKNOWLEDGE,
  );
  const subscriber = await subscriberSession.createConsumer(topic);
  await publisherConnection.start();
  await subscriberConnection.start();
  return {
    topic,
    publisherConnection,
    publisherSession,
    publisher,
    subscriberConnection,
    subscriberSession,
    subscriber,
  };
}

describe('1.1 connection.ConnectionTest', () => {
  test('testAcknowledge: acknowledge after the receiving connection closed → IllegalStateException', async () => {
    const p = await ptp({ ackMode: Session.CLIENT_ACKNOWLEDGE });
    await p.sender.send(p.senderSession.createMessage());
    const message = (await p.receiver.receive(TIMEOUT)) as Message;
    await p.receiverConnection.close();
    expect(await failureOf(message.acknowledge())).toBeInstanceOf(IllegalStateException);
  });

  test('testUseClosedConnection: createSession after close → IllegalStateException', async () => {
    const p = await ptp();
    await p.senderConnection.close();
    expect(await failureOf(p.senderConnection.createSession(false, Session.AUTO_ACKNOWLEDGE))).toBeInstanceOf(
      IllegalStateException,
    );
  });

  test('testMessageSentWhenConnectionClosed: sending on a stopped connection is allowed', async () => {
    const p = await ptp();
    await p.senderConnection.stop();
    await p.sender.send(p.senderSession.createTextMessage());
    expect(await p.receiver.receive(TIMEOUT)).not.toBeNull();
  });

  test('testCloseClosedConnection: closing twice raises nothing', async () => {
    const p = await ptp();
    await p.senderConnection.close();
    await expect(p.senderConnection.close()).resolves.toBeUndefined();
  });

  test('testStartStartedConnection / testStopStoppedConnection: ignored', async () => {
    const p = await ptp();
    await p.senderConnection.start();
    await p.receiverConnection.stop();
    await p.receiverConnection.stop();
    await p.receiverConnection.start();
    await p.sender.send(p.senderSession.createTextMessage('still fine'));
    expect(textOf(await p.receiver.receive(TIMEOUT))).toBe('still fine');
  });

  test('testStopConsumerConnection: a listener on a stopped connection is not called (checked for 1 s)', async () => {
    const p = await ptp();
    await p.receiverConnection.stop();
    let called = false;
    p.receiver.setMessageListener(() => {
      called = true;
    });
    await p.sender.send(p.senderSession.createTextMessage('hold'));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(called).toBe(false);
    await p.receiverConnection.start();
    await waitFor(() => called, 'the listener after start');
  });
});

describe('1.2 connection.TopicConnectionTest', () => {
  test('testSetClientID_1: set on a fresh connection, read back; a second set → IllegalStateException', async () => {
    const connection = await fx.connect();
    expect(connection.getClientID()).toBeNull();
    await connection.setClientID('testSetClientID_1');
    expect(connection.getClientID()).toBe('testSetClientID_1');
    expect(await failureOf(connection.setClientID('testSetClientID_1_2'))).toBeInstanceOf(
      IllegalStateException,
    );
  });

  test('testSetClientID_2: after start → IllegalStateException', async () => {
    const connection = await fx.connect();
    await connection.start();
    expect(await failureOf(connection.setClientID('testSetClientID_2'))).toBeInstanceOf(
      IllegalStateException,
    );
  });
});

describe('1.3 message.MessageBodyTest (over the broker)', () => {
  test('testWriteOnReceivedBody: setText on a received TextMessage → MessageNotWriteableException', async () => {
    const p = await ptp();
    await p.sender.send(p.senderSession.createTextMessage('foo'));
    const received = (await p.receiver.receive(TIMEOUT)) as TextMessage;
    expect(() => received.setText('bar')).toThrow(MessageNotWriteableException);
  });

  test('clearBody on a received message makes it writable again and keeps properties', async () => {
    const p = await ptp();
    const message = p.senderSession.createTextMessage('bar');
    message.setStringProperty('prop', 'foo');
    await p.sender.send(message);
    const received = (await p.receiver.receive(TIMEOUT)) as TextMessage;
    received.clearBody();
    expect(received.getText()).toBeNull();
    expect(received.getStringProperty('prop')).toBe('foo');
    received.setText('writable');
    expect(received.getText()).toBe('writable');
  });
});

describe('1.5 message.MessageTypeTest (over the broker)', () => {
  async function roundTrip<T extends Message>(make: (s: HornetQSession) => T): Promise<Message> {
    const p = await ptp();
    await p.sender.send(make(p.senderSession));
    const received = (await p.receiver.receive(TIMEOUT)) as Message;
    // the next round trip opens its own receiver: this one must not compete with it
    await p.receiverConnection.close();
    return received;
  }

  test('testStreamMessage_1/2: empty arrives as StreamMessage; "pi", 3.14159 read back', async () => {
    expect(await roundTrip((s) => s.createStreamMessage())).toBeInstanceOf(HornetQStreamMessage);
    const received = (await roundTrip((s) => {
      const m = s.createStreamMessage();
      m.writeString('pi');
      m.writeDouble(3.14159);
      return m;
    })) as StreamMessage;
    expect([received.readString(), received.readDouble()]).toEqual(['pi', 3.14159]);
  });

  test('testMapMessage_1/2 and testMapMessageConversion: empty arrives as MapMessage; values and types survive', async () => {
    expect(await roundTrip((s) => s.createMapMessage())).toBeInstanceOf(HornetQMapMessage);
    const received = (await roundTrip((s) => {
      const m = s.createMapMessage();
      m.setString('name', 'pi');
      m.setDouble('value', 3.14159);
      return m;
    })) as MapMessage;
    expect(received.getString('name')).toBe('pi');
    expect(received.getDouble('value')).toBe(3.14159);
    expect(received.getObject('value')).toBe(3.14159);
    expect(() => received.getFloat('value')).toThrow();
  });

  test('testObjectMessage_1/2: empty arrives as ObjectMessage; a list round-trips equal', async () => {
    expect(await roundTrip((s) => s.createObjectMessage())).toBeInstanceOf(HornetQObjectMessage);
    const received = (await roundTrip((s) => s.createObjectMessage(['pi', 3.14159]))) as ObjectMessage;
    expect(received.getObject()).toEqual(['pi', 3.14159]);
  });

  test('testBytesMessage_1/2: empty arrives as BytesMessage; "pi" bytes then 3.14159 read back', async () => {
    expect(await roundTrip((s) => s.createBytesMessage())).toBeInstanceOf(HornetQBytesMessage);
    const received = (await roundTrip((s) => {
      const m = s.createBytesMessage();
      m.writeBytes(new TextEncoder().encode('pi'));
      m.writeDouble(3.14159);
      return m;
    })) as BytesMessage;
    const pi = new Uint8Array(2);
    expect(received.readBytes(pi)).toBe(2);
    expect(new TextDecoder().decode(pi)).toBe('pi');
    expect(received.readDouble()).toBe(3.14159);
  });

  test('testTextMessage_1/2: empty arrives as TextMessage; the text round-trips', async () => {
    const empty = await roundTrip((s) => s.createTextMessage());
    expect(empty).toBeInstanceOf(HornetQTextMessage);
    expect((empty as TextMessage).getText()).toBeNull();
    expect(textOf(await roundTrip((s) => s.createTextMessage('testTextMessage_2')))).toBe(
      'testTextMessage_2',
    );
  });
});

describe('1.6 message.headers.MessageHeaderTest', () => {
  test('testJMSPriority_1/2: a message’s own priority is ignored (4); producer priority 9 is kept', async () => {
    const p = await ptp();
    const m = p.senderSession.createMessage();
    m.setJMSPriority(0);
    await p.sender.send(m);
    expect(m.getJMSPriority()).toBe(4);
    p.sender.setPriority(9);
    const n = p.senderSession.createMessage();
    await p.sender.send(n);
    expect(n.getJMSPriority()).toBe(9);
  });

  test('testJMSExpiration: the received expiration equals the sent one', async () => {
    const p = await ptp();
    const m = p.senderSession.createMessage();
    await p.sender.send(m);
    expect((await p.receiver.receive(TIMEOUT))?.getJMSExpiration()).toBe(m.getJMSExpiration());
  });

  test('testJMSMessageID_1/2: a client id is overwritten; the sent and received ids start with ID:', async () => {
    const p = await ptp();
    const m = p.senderSession.createMessage();
    m.setJMSMessageID('ID:foo');
    await p.sender.send(m);
    expect(m.getJMSMessageID()).not.toBe('ID:foo');
    expect(m.getJMSMessageID()).toMatch(/^ID:/);
    expect((await p.receiver.receive(TIMEOUT))?.getJMSMessageID()).toMatch(/^ID:/);
  });

  test('testJMSDeliveryMode: producer default PERSISTENT; the message’s own mode is ignored', async () => {
    const p = await ptp();
    expect(p.sender.getDeliveryMode()).toBe(DeliveryMode.PERSISTENT);
    const m = p.senderSession.createMessage();
    m.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
    await p.sender.send(m);
    expect(m.getJMSDeliveryMode()).toBe(DeliveryMode.PERSISTENT);
  });

  test('testJMSDestination: the message’s own destination is ignored; the received destination has the queue name', async () => {
    const p = await ptp();
    const m = p.senderSession.createMessage();
    m.setJMSDestination(fx.queue('Queue2'));
    await p.sender.send(m);
    expect(m.getJMSDestination()).toEqual(p.queue);
    const received = await p.receiver.receive(TIMEOUT);
    expect((received?.getJMSDestination() as HornetQQueue).getQueueName()).toBe('testJoramQueue');
  });

  test('testJMSReplyTo_1/2: a queue and a temporary queue keep their kind and name', async () => {
    const p = await ptp();
    const m = p.senderSession.createMessage();
    m.setJMSReplyTo(p.queue);
    await p.sender.send(m);
    const r1 = (await p.receiver.receive(TIMEOUT))?.getJMSReplyTo() as HornetQQueue;
    expect(r1.getQueueName()).toBe('testJoramQueue');
    const temp = await p.senderSession.createTemporaryQueue();
    const n = p.senderSession.createMessage();
    n.setJMSReplyTo(temp);
    await p.sender.send(n);
    const r2 = (await p.receiver.receive(TIMEOUT))?.getJMSReplyTo();
    expect(r2).toBeInstanceOf(HornetQTemporaryQueue);
    expect((r2 as HornetQTemporaryQueue).getQueueName()).toBe(temp.getQueueName());
  });
});

describe('1.7 message.properties.JMSXPropertyTest', () => {
  test('testSupportsJMSXGroupID: metadata lists JMSXGroupID', async () => {
    const connection = await fx.connect();
    expect(connection.getMetaData().getJMSXPropertyNames()).toContain('JMSXGroupID');
  });

  test('testJMSXGroupID_1: a client JMSXGroupID round-trips, body intact', async () => {
    const p = await ptp();
    const m = p.senderSession.createTextMessage('testJMSXGroupID_1');
    m.setStringProperty('JMSXGroupID', 'testSupportsJMSXGroupID_1:group');
    await p.sender.send(m);
    const received = (await p.receiver.receive(TIMEOUT)) as TextMessage;
    expect(received.getStringProperty('JMSXGroupID')).toBe('testSupportsJMSXGroupID_1:group');
    expect(received.getText()).toBe('testJMSXGroupID_1');
  });

  test('testJMSXDeliveryCount: transacted receive has count 1; after rollback the same message has count 2, redelivered', async () => {
    const connection = await fx.connect({ start: true });
    const senderSession = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const receiverSession = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const queue = fx.queue('testJoramQueue');
    const receiver = await receiverSession.createConsumer(queue);
    await (
      await senderSession.createProducer(queue)
    ).send(senderSession.createTextMessage('testJMSXDeliveryCount'));
    await senderSession.commit();
    const first = (await receiver.receive(TIMEOUT)) as Message;
    expect([first.getJMSRedelivered(), first.getIntProperty('JMSXDeliveryCount')]).toEqual([false, 1]);
    await receiverSession.rollback();
    const second = (await receiver.receive(TIMEOUT)) as Message;
    expect([textOf(second), second.getJMSRedelivered(), second.getIntProperty('JMSXDeliveryCount')]).toEqual([
      'testJMSXDeliveryCount',
      true,
      2,
    ]);
    await receiverSession.commit();
  });
});

describe('1.10 queue.QueueBrowserTest', () => {
  test('testSenderBrowser: browse two, receive them in order; the receiver session’s earlier browser now sees nothing', async () => {
    const p = await ptp();
    const earlier = await p.receiverSession.createBrowser(p.queue);
    await p.receiver.close();
    for (const n of [1, 2])
      await p.sender.send(p.senderSession.createTextMessage(`testBrowser:message_${n}`));
    const browsed: Message[] = [];
    for await (const message of (await p.senderSession.createBrowser(p.queue)).getEnumeration())
      browsed.push(message);
    expect(browsed).toHaveLength(2);
    for (const message of browsed) {
      expect(message).toBeInstanceOf(HornetQTextMessage);
      expect(textOf(message)).toMatch(/^testBrowser:message_/);
    }
    const receiver = await p.receiverSession.createConsumer(p.queue);
    expect(textOf(await receiver.receive(TIMEOUT))).toBe('testBrowser:message_1');
    expect(textOf(await receiver.receive(TIMEOUT))).toBe('testBrowser:message_2');
    const after: Message[] = [];
    for await (const message of earlier.getEnumeration()) after.push(message);
    expect(after).toEqual([]);
  });

  test('testBrowserWithMessageSelector: pi = 3.14159 enumerates exactly the matching message', async () => {
    const p = await ptp();
    await p.receiver.close();
    const plain = p.senderSession.createTextMessage('testBrowserWithMessageSelector:message_1');
    const pi = p.senderSession.createTextMessage('testBrowserWithMessageSelector:message_2');
    pi.setDoubleProperty('pi', 3.14159);
    await p.sender.send(plain);
    await p.sender.send(pi);
    const browsed: Message[] = [];
    for await (const message of (
      await p.senderSession.createBrowser(p.queue, 'pi = 3.14159')
    ).getEnumeration()) {
      browsed.push(message);
    }
    expect(browsed.map(textOf)).toEqual(['testBrowserWithMessageSelector:message_2']);
  });
});

describe('1.11 queue.TemporaryQueueTest', () => {
  test('testTemporaryQueue: an anonymous sender sends to the receiver’s temporary queue', async () => {
    const p = await ptp();
    const temp = await p.receiverSession.createTemporaryQueue();
    const tempReceiver = await p.receiverSession.createConsumer(temp);
    const anonymous = await p.senderSession.createProducer(null);
    await anonymous.send(temp, p.senderSession.createTextMessage('testTemporaryQueue'));
    expect(textOf(await tempReceiver.receive(TIMEOUT))).toBe('testTemporaryQueue');
  });
});

describe('1.12 selector.SelectorSyntaxTest (consumer creation succeeds or throws InvalidSelectorException)', () => {
  const valid = [
    '_correct IS NULL',
    '$correct IS NULL',
    '',
    'prop_name IS NULL',
    'prop_name IS NOT NULL',
    "phone LIKE '12%3'",
    "word LIKE 'l_se'",
    "underscored LIKE '\\_%' ESCAPE '\\'",
    "phone NOT LIKE '12%3'",
    "Country IN ('UK', 'US', 'France')",
    "Country NOT IN ('UK', 'US', 'France')",
    'age BETWEEN 15 and 19',
    'age NOT BETWEEN 15 and 19',
    'average = +6.2',
    'average = -95.7',
    'average = 7.',
    'average = +62',
    'max = -957',
    'max = 57',
    'max = 0',
    'max = 0.0',
    'max = 0.',
    "string = 'literal'",
    "string = 'literal''s'",
  ];
  const invalid = [
    '1uncorrect IS NULL',
    '%uncorrect IS NULL',
    'NULL = ZERO',
    'TRUE > 0',
    'FALSE > 0',
    'NOT > 0',
    'AND > 0',
    'OR > 0',
    'BETWEEN > 0',
    'LIKE > 0',
    'IN > 0',
    'IS > 0',
    'ESCAPE > 0',
  ];

  test.each(valid)('%p is accepted', async (selector) => {
    const p = await ptp();
    const consumer = await p.receiverSession.createConsumer(p.queue, selector);
    expect(consumer.getMessageSelector()).toBe(selector === '' ? null : selector);
  });

  test.each(invalid)('%p → InvalidSelectorException', async (selector) => {
    const p = await ptp();
    expect(await failureOf(p.receiverSession.createConsumer(p.queue, selector))).toBeInstanceOf(
      InvalidSelectorException,
    );
  });
});

describe('1.13 selector.SelectorTest (a non-matching then a matching message; the first received is the match)', () => {
  type Setup = (m: TextMessage) => void;
  const cases: Array<[string, string, Setup, Setup]> = [
    ['testEmptyStringAsSelector', '', () => undefined, () => undefined],
    [
      'testStringLiterals',
      "string = 'literal''s'",
      (m) => m.setStringProperty('string', 'literal'),
      (m) => m.setStringProperty('string', "literal's"),
    ],
    [
      'testIdentifierConversion',
      'NumberOfOrders > 1',
      (m) => m.setStringProperty('NumberOfOrders', '2'),
      (m) => m.setIntProperty('NumberOfOrders', 2),
    ],
    [
      'testSelectorExampleFromSpecs',
      "JMSType = 'car' AND color = 'blue' AND weight > 2500",
      (m) => {
        m.setJMSType('car');
        m.setStringProperty('color', 'red');
        m.setLongProperty('weight', 3000);
      },
      (m) => {
        m.setJMSType('car');
        m.setStringProperty('color', 'blue');
        m.setLongProperty('weight', 3000);
      },
    ],
    [
      'testGreaterThan',
      'weight > 2500',
      (m) => m.setIntProperty('weight', 1000),
      (m) => m.setIntProperty('weight', 3000),
    ],
    [
      'testEquals',
      'weight = 2500',
      (m) => m.setIntProperty('weight', 1000),
      (m) => m.setIntProperty('weight', 2500),
    ],
    [
      'testNotEquals',
      'weight <> 2500',
      (m) => m.setIntProperty('weight', 2500),
      (m) => m.setIntProperty('weight', 1000),
    ],
    [
      'testBetween',
      'age BETWEEN 15 and 19',
      (m) => m.setIntProperty('age', 20),
      (m) => m.setIntProperty('age', 17),
    ],
    [
      'testIn',
      "Country IN ('UK', 'US', 'France')",
      (m) => m.setStringProperty('Country', 'Peru'),
      (m) => m.setStringProperty('Country', 'UK'),
    ],
    [
      'testLikeEscape',
      "underscored LIKE '\\_%' ESCAPE '\\'",
      (m) => m.setStringProperty('underscored', 'bar'),
      (m) => m.setStringProperty('underscored', '_foo'),
    ],
    [
      'testLike_1',
      "phone LIKE '12%3'",
      (m) => m.setStringProperty('phone', '1234'),
      (m) => m.setStringProperty('phone', '12993'),
    ],
    [
      'testLike_2',
      "word LIKE 'l_se'",
      (m) => m.setStringProperty('word', 'loose'),
      (m) => m.setStringProperty('word', 'lose'),
    ],
    ['testNull', 'prop_name IS NULL', (m) => m.setStringProperty('prop_name', 'not null'), () => undefined],
  ];

  test.each(cases)('%s: %p', async (_name, selector, nonMatch, match) => {
    const p = await ptp();
    await p.receiver.close();
    const receiver = await p.receiverSession.createConsumer(p.queue, selector);
    const first = p.senderSession.createTextMessage('first');
    nonMatch(first);
    const second = p.senderSession.createTextMessage('second');
    match(second);
    await p.sender.send(first);
    await p.sender.send(second);
    const expected = selector === '' ? 'first' : 'second';
    expect(textOf(await receiver.receive(TIMEOUT))).toBe(expected);
  });

  test("testJMSDeliveryModeInSelector: JMSDeliveryMode = 'PERSISTENT'", async () => {
    const p = await ptp();
    await p.receiver.close();
    const receiver = await p.receiverSession.createConsumer(p.queue, "JMSDeliveryMode = 'PERSISTENT'");
    await p.sender.send(p.senderSession.createTextMessage('np'), {
      deliveryMode: DeliveryMode.NON_PERSISTENT,
    });
    await p.sender.send(p.senderSession.createTextMessage('p'), { deliveryMode: DeliveryMode.PERSISTENT });
    const received = await receiver.receive(TIMEOUT);
    expect(textOf(received)).toBe('p');
    expect(received?.getJMSDeliveryMode()).toBe(DeliveryMode.PERSISTENT);
  });
});

describe('1.14 session.QueueSessionTest', () => {
  test('testRollbackRececeivedMessage: transacted receive, rollback → the same message again, redelivered', async () => {
    const p = await ptp({ transacted: true });
    await p.sender.send(p.senderSession.createTextMessage('testRollbackRececeivedMessage'));
    const first = (await p.receiver.receive(TIMEOUT)) as Message;
    expect(first.getJMSRedelivered()).toBe(false);
    await p.receiverSession.rollback();
    const again = (await p.receiver.receive(TIMEOUT)) as Message;
    expect([textOf(again), again.getJMSRedelivered(), again.getJMSMessageID()]).toEqual([
      'testRollbackRececeivedMessage',
      true,
      first.getJMSMessageID(),
    ]);
    await p.receiverSession.commit();
  });

  test('testCreateBrowser_1/2 and testCreateReceiver_1/2: null → InvalidDestinationException, bad selector → InvalidSelectorException', async () => {
    const p = await ptp();
    const s = p.receiverSession;
    expect(await failureOf(s.createBrowser(null as never))).toBeInstanceOf(InvalidDestinationException);
    expect(await failureOf(s.createBrowser(p.queue, 'definitely not a message selector!'))).toBeInstanceOf(
      InvalidSelectorException,
    );
    expect(await failureOf(s.createConsumer(null as never))).toBeInstanceOf(InvalidDestinationException);
    expect(await failureOf(s.createConsumer(p.queue, 'definitely not a message selector!'))).toBeInstanceOf(
      InvalidSelectorException,
    );
  });
});

describe('1.15 session.SessionTest', () => {
  test('testRecoverTransactedSession: recover on a transacted session → IllegalStateException', async () => {
    const p = await ptp({ transacted: true });
    expect(await failureOf(p.receiverSession.recover())).toBeInstanceOf(IllegalStateException);
  });

  test('testRollbackTransactedSession: send then rollback → receiveNoWait gets null', async () => {
    const connection = await fx.connect({ start: true });
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const queue = fx.queue('testJoramQueue');
    const receiver = await tx.createConsumer(queue);
    await (await tx.createProducer(queue)).send(tx.createTextMessage('testRollbackTransactedSession'));
    await tx.rollback();
    expect(await receiver.receiveNoWait()).toBeNull();
  });

  test('testCommitTransactedSession: invisible before commit, visible after', async () => {
    const connection = await fx.connect({ start: true });
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const queue = fx.queue('testJoramQueue');
    const receiver = await tx.createConsumer(queue);
    await (await tx.createProducer(queue)).send(tx.createTextMessage('testCommitTransactedSession'));
    expect(await receiver.receiveNoWait()).toBeNull();
    await tx.commit();
    expect(textOf(await receiver.receive(TIMEOUT))).toBe('testCommitTransactedSession');
    await tx.commit();
  });

  test('testRollbackNonTransactedSession / testCommitNonTransactedSession → IllegalStateException', async () => {
    const p = await ptp();
    expect(await failureOf(p.senderSession.rollback())).toBeInstanceOf(IllegalStateException);
    expect(await failureOf(p.senderSession.commit())).toBeInstanceOf(IllegalStateException);
  });

  test('testGetTransacted: transacted even if AUTO_ACKNOWLEDGE was passed', async () => {
    const connection = await fx.connect();
    expect((await connection.createSession(false, Session.AUTO_ACKNOWLEDGE)).getTransacted()).toBe(false);
    expect((await connection.createSession(true, Session.AUTO_ACKNOWLEDGE)).getTransacted()).toBe(true);
  });

  test('testAcknowledge: CLIENT_ACKNOWLEDGE, receive, close the session; acknowledge → IllegalStateException', async () => {
    const p = await ptp({ ackMode: Session.CLIENT_ACKNOWLEDGE });
    await p.sender.send(p.senderSession.createMessage());
    const message = (await p.receiver.receive(TIMEOUT)) as Message;
    await p.receiverSession.close();
    expect(await failureOf(message.acknowledge())).toBeInstanceOf(IllegalStateException);
  });

  test('testUseMessage: a received message is readable after its session closed', async () => {
    const p = await ptp();
    await p.sender.send(p.senderSession.createTextMessage('testUseMessage'));
    const message = (await p.receiver.receive(TIMEOUT)) as TextMessage;
    await p.receiverSession.close();
    expect(message.getText()).toBe('testUseMessage');
  });

  test('testUsedClosedSession / testCloseClosedSession', async () => {
    const p = await ptp();
    await p.senderSession.close();
    expect(() => p.senderSession.createMessage()).toThrow(IllegalStateException);
    await expect(p.senderSession.close()).resolves.toBeUndefined();
  });
});

describe('1.16 session.TopicSessionTest', () => {
  test('testRollbackReceivedMessage: transacted subscriber, rollback, received again, commit', async () => {
    const ps = await pubSub({ transacted: true });
    await ps.publisher.send(ps.publisherSession.createTextMessage('testRollbackReceivedMessage'));
    const first = await ps.subscriber.receive(TIMEOUT);
    expect(first?.getJMSRedelivered()).toBe(false);
    await ps.subscriberSession.rollback();
    const again = await ps.subscriber.receive(TIMEOUT);
    expect([textOf(again), again?.getJMSRedelivered()]).toEqual(['testRollbackReceivedMessage', true]);
    await ps.subscriberSession.commit();
  });

  test('testDurableSubscriber: a message published while offline reaches the reopened durable subscriber', async () => {
    const ps = await pubSub();
    await ps.subscriberSession.createDurableSubscriber(ps.topic, 'testTopic');
    await ps.subscriberConnection.close();
    await ps.publisher.send(ps.publisherSession.createTextMessage('test'));
    const again = await fx.open({ clientID: 'subscriberConnection' });
    const subscriber = await again.session.createDurableSubscriber(ps.topic, 'testTopic');
    expect(textOf(await subscriber.receive(TIMEOUT))).toBe('test');
    await subscriber.close();
    await again.session.unsubscribe('testTopic');
  });

  test('testUnsubscribe: close then unsubscribe succeeds', async () => {
    const ps = await pubSub();
    const durable = await ps.subscriberSession.createDurableSubscriber(ps.topic, 'topic');
    await durable.close();
    await ps.subscriberSession.unsubscribe('topic');
    expect(fx.queuesOn('jms.topic.testJoramTopic')).toHaveLength(1);
  });

  test('testCreateDurableSubscriber_1/2 and testCreateSubscriber_1/2: null → InvalidDestinationException, bad selector → InvalidSelectorException', async () => {
    const ps = await pubSub();
    const s = ps.subscriberSession;
    expect(await failureOf(s.createDurableSubscriber(null as never, 'topic'))).toBeInstanceOf(
      InvalidDestinationException,
    );
    expect(
      await failureOf(s.createDurableSubscriber(ps.topic, 'topic', 'definitely not a message selector!')),
    ).toBeInstanceOf(InvalidSelectorException);
    expect(await failureOf(s.createConsumer(null as never))).toBeInstanceOf(InvalidDestinationException);
    expect(await failureOf(s.createConsumer(ps.topic, 'definitely not a message selector!'))).toBeInstanceOf(
      InvalidSelectorException,
    );
  });
});

describe('1.18 topic.TemporaryTopicTest', () => {
  test('testTemporaryTopic: publish to the subscriber session’s temporary topic; the subscriber gets the text', async () => {
    const ps = await pubSub();
    const temp = await ps.subscriberSession.createTemporaryTopic();
    const tempSubscriber = await ps.subscriberSession.createConsumer(temp);
    const tempPublisher = await ps.publisherSession.createProducer(temp);
    await tempPublisher.send(ps.publisherSession.createTextMessage('testTemporaryTopic'));
    expect(textOf(await tempSubscriber.receive(TIMEOUT))).toBe('testTemporaryTopic');
    await expectNothing(ps.subscriber, 50);
  });
});
