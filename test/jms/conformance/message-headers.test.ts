import {
  DeliveryMode,
  HornetQQueue,
  HornetQTemporaryQueue,
  HornetQTemporaryTopic,
  HornetQTopic,
  Message,
  type HornetQTextMessage,
  type TextMessage,
} from '../../../src';
import { receiveTexts, sendTexts, textOf, useJmsFixture } from '../../support/jms-fixture';

/**
 * The headers a send sets and the ones that travel as set (jms-conformance.md §4 C1, with D1–D3
 * as they show on the message), from HornetQ's JMS*HeaderTest classes and JORAM's
 * MessageHeaderTest (§1.6, §2.2). Each case goes through the real broker.
 */

const fx = useJmsFixture();
const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');

async function roundTrip(configure: (message: TextMessage) => void = () => undefined) {
  const { session } = await fx.open();
  const producer = await session.createProducer(Q1());
  const sent = session.createTextMessage('headers');
  configure(sent);
  const before = Date.now();
  await producer.send(sent);
  const after = Date.now();
  const received = (await (await session.createConsumer(Q1())).receive(5000)) as TextMessage;
  return { session, producer, sent, received, before, after };
}

describe('C1.1 defaults', () => {
  test('Message and DeliveryMode constants', () => {
    expect(Message).toEqual({ DEFAULT_DELIVERY_MODE: 2, DEFAULT_PRIORITY: 4, DEFAULT_TIME_TO_LIVE: 0 });
    expect(DeliveryMode).toEqual({ NON_PERSISTENT: 1, PERSISTENT: 2 });
  });

  test('a new message has no id, no type, no destination, and default mode and priority', async () => {
    const { session } = await fx.open();
    const message = session.createTextMessage();
    expect(message.getJMSMessageID()).toBeNull();
    expect(message.getJMSType()).toBeNull();
    expect(message.getJMSDestination()).toBeNull();
    expect(message.getJMSReplyTo()).toBeNull();
    expect(message.getJMSCorrelationID()).toBeNull();
    expect(message.getJMSDeliveryMode()).toBe(DeliveryMode.PERSISTENT);
    expect(message.getJMSPriority()).toBe(4);
    expect(message.getJMSExpiration()).toBe(0);
    expect(message.getJMSRedelivered()).toBe(false);
  });
});

describe('C1.2 send overwrites what the client set', () => {
  test('destination, delivery mode, priority, expiration, id and timestamp set before send are replaced on the caller’s object (JORAM testJMS*)', async () => {
    const { sent, received } = await roundTrip((m) => {
      m.setJMSDestination(fx.queue('Queue2'));
      m.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
      m.setJMSPriority(0);
      m.setJMSExpiration(12345);
      m.setJMSMessageID('ID:foo');
      m.setJMSTimestamp(42);
    });
    expect(sent.getJMSDestination()).toEqual(Q1());
    expect(sent.getJMSDeliveryMode()).toBe(DeliveryMode.PERSISTENT);
    expect(sent.getJMSPriority()).toBe(4);
    expect(sent.getJMSExpiration()).toBe(0);
    expect(sent.getJMSMessageID()).not.toBe('ID:foo');
    expect(sent.getJMSTimestamp()).not.toBe(42);
    expect(received.getJMSDeliveryMode()).toBe(DeliveryMode.PERSISTENT);
    expect(received.getJMSPriority()).toBe(4);
    expect(received.getJMSExpiration()).toBe(0);
    expect((received.getJMSDestination() as HornetQQueue).getQueueName()).toBe('Queue1');
    expect(fx.messageCount('Queue2')).toBe(0);
  });

  test('JMSRedelivered set by the client does not travel', async () => {
    const { received } = await roundTrip((m) => m.setJMSRedelivered(true));
    expect(received.getJMSRedelivered()).toBe(false);
  });
});

describe('C1.3 JMSMessageID', () => {
  test('after send it is non-null and starts with ID:, on both sides, and they are equal (JORAM testJMSMessageID_2)', async () => {
    const { sent, received } = await roundTrip();
    expect(sent.getJMSMessageID()).toMatch(/^ID:./);
    expect(received.getJMSMessageID()).toBe(sent.getJMSMessageID());
  });

  test('the ids of many sends are unique', async () => {
    const { session } = await fx.open();
    const sent = await sendTexts(
      session,
      Q1(),
      Array.from({ length: 50 }, (_, i) => `u${i}`),
    );
    expect(new Set(sent.map((m) => m.getJMSMessageID())).size).toBe(50);
  });
});

describe('C1.4 / C1.5 timestamp and expiration', () => {
  test('the timestamp lies between just before and just after the send; the received one equals it', async () => {
    const { sent, received, before, after } = await roundTrip();
    expect(sent.getJMSTimestamp()).toBeGreaterThanOrEqual(before);
    expect(sent.getJMSTimestamp()).toBeLessThanOrEqual(after);
    expect(received.getJMSTimestamp()).toBe(sent.getJMSTimestamp());
  });

  test('with a time to live, expiration = timestamp + TTL and travels unchanged (JORAM testJMSExpiration)', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(Q1());
    producer.setTimeToLive(60_000);
    const sent = session.createTextMessage('ttl');
    await producer.send(sent);
    expect(sent.getJMSExpiration()).toBe(sent.getJMSTimestamp() + 60_000);
    const received = await (await session.createConsumer(Q1())).receive(5000);
    expect(received?.getJMSExpiration()).toBe(sent.getJMSExpiration());
  });
});

describe('C1.6 JMSRedelivered', () => {
  test('false on first delivery', async () => {
    const { received } = await roundTrip();
    expect(received.getJMSRedelivered()).toBe(false);
    expect(received.getIntProperty('JMSXDeliveryCount')).toBe(1);
  });
});

describe('C1.7 JMSCorrelationID', () => {
  test.each([['ID:812739812378'], ['an arbitrary string'], ['']])('%p round-trips', async (id) => {
    const { received } = await roundTrip((m) => m.setJMSCorrelationID(id));
    expect(received.getJMSCorrelationID()).toBe(id);
  });

  test('bytes, including negative values, round-trip (JMSCorrelationIDHeaderTest)', async () => {
    const bytes = new Uint8Array([1, 2, 255, 128, 0, 127]);
    const { received } = await roundTrip((m) => (m as HornetQTextMessage).setJMSCorrelationIDAsBytes(bytes));
    expect([...((received as HornetQTextMessage).getJMSCorrelationIDAsBytes() ?? [])]).toEqual([...bytes]);
  });

  test('null stays null', async () => {
    const { received } = await roundTrip((m) => m.setJMSCorrelationID(null));
    expect(received.getJMSCorrelationID()).toBeNull();
  });
});

describe('C1.8 JMSReplyTo keeps the destination kind', () => {
  test('a queue arrives as a queue with the same name (JORAM testJMSReplyTo_1)', async () => {
    const { received } = await roundTrip((m) => m.setJMSReplyTo(fx.queue('Queue2')));
    const replyTo = received.getJMSReplyTo();
    expect(replyTo).toBeInstanceOf(HornetQQueue);
    expect(replyTo).not.toBeInstanceOf(HornetQTemporaryQueue);
    expect((replyTo as HornetQQueue).getQueueName()).toBe('Queue2');
  });

  test('a topic arrives as a topic', async () => {
    const { received } = await roundTrip((m) => m.setJMSReplyTo(fx.topic('Topic1')));
    const replyTo = received.getJMSReplyTo();
    expect(replyTo).toBeInstanceOf(HornetQTopic);
    expect((replyTo as HornetQTopic).getTopicName()).toBe('Topic1');
  });

  test('a temporary queue arrives as a temporary queue (JORAM testJMSReplyTo_2)', async () => {
    const { session } = await fx.open();
    const temp = await session.createTemporaryQueue();
    const message = session.createTextMessage('reply to temp');
    message.setJMSReplyTo(temp);
    await (await session.createProducer(Q1())).send(message);
    const replyTo = (await (await session.createConsumer(Q1())).receive(5000))?.getJMSReplyTo();
    expect(replyTo).toBeInstanceOf(HornetQTemporaryQueue);
    expect((replyTo as HornetQTemporaryQueue).getQueueName()).toBe(temp.getQueueName());
  });

  test('a temporary topic arrives as a temporary topic', async () => {
    const { session } = await fx.open();
    const temp = await session.createTemporaryTopic();
    const message = session.createTextMessage('reply to temp topic');
    message.setJMSReplyTo(temp);
    await (await session.createProducer(Q1())).send(message);
    const replyTo = (await (await session.createConsumer(Q1())).receive(5000))?.getJMSReplyTo();
    expect(replyTo).toBeInstanceOf(HornetQTemporaryTopic);
    expect((replyTo as HornetQTemporaryTopic).getTopicName()).toBe(temp.getTopicName());
  });

  test('null stays null (JMSReplyToHeaderTest)', async () => {
    const { received } = await roundTrip();
    expect(received.getJMSReplyTo()).toBeNull();
  });
});

describe('C1.9 JMSType', () => {
  test('"TYPE1" round-trips', async () => {
    const { received } = await roundTrip((m) => m.setJMSType('TYPE1'));
    expect(received.getJMSType()).toBe('TYPE1');
  });

  test('the default is null', async () => {
    const { received } = await roundTrip();
    expect(received.getJMSType()).toBeNull();
  });
});

describe('delivery mode on receipt (JMSDeliveryModeHeaderTest)', () => {
  test.each([
    ['NON_PERSISTENT', DeliveryMode.NON_PERSISTENT],
    ['PERSISTENT', DeliveryMode.PERSISTENT],
  ])('%s set on the producer is reported on the received message', async (_name, mode) => {
    const { session } = await fx.open();
    const producer = await session.createProducer(Q1());
    producer.setDeliveryMode(mode);
    await producer.send(session.createTextMessage('mode'));
    expect((await (await session.createConsumer(Q1())).receive(5000))?.getJMSDeliveryMode()).toBe(mode);
  });
});

describe('received messages', () => {
  test('clearProperties on a received message keeps the body, JMSDestination and the other headers (testClearMessage)', async () => {
    const { received, sent } = await roundTrip((m) => {
      m.setStringProperty('p', 'v');
      m.setJMSType('kept');
      m.setJMSCorrelationID('corr');
    });
    received.clearProperties();
    expect(received.propertyExists('p')).toBe(false);
    expect(received.getText()).toBe('headers');
    expect(received.getJMSDestination()).toEqual(Q1());
    expect(received.getJMSType()).toBe('kept');
    expect(received.getJMSCorrelationID()).toBe('corr');
    expect(received.getJMSMessageID()).toBe(sent.getJMSMessageID());
    received.setStringProperty('p', 'writable again');
    expect(received.getStringProperty('p')).toBe('writable again');
  });

  test('getPropertyNames lists application and JMSX properties, never header names (JORAM testGetPropertyNames)', async () => {
    const { received } = await roundTrip((m) => {
      m.setStringProperty('app', 'x');
      m.setJMSCorrelationID('c');
      m.setJMSType('t');
    });
    const names = received.getPropertyNames();
    expect(names).toContain('app');
    expect(names).toContain('JMSXDeliveryCount');
    expect(names.filter((n) => n.startsWith('JMS') && !n.startsWith('JMSX'))).toEqual([]);
    expect(names.filter((n) => n.startsWith('_HQ') || n.startsWith('__HQ'))).toEqual([]);
  });

  test('a JMSXGroupID set by the client round-trips with the body intact (JORAM testJMSXGroupID_1)', async () => {
    const { received } = await roundTrip((m) =>
      m.setStringProperty('JMSXGroupID', 'testSupportsJMSXGroupID_1:group'),
    );
    expect(received.getStringProperty('JMSXGroupID')).toBe('testSupportsJMSXGroupID_1:group');
    expect(received.propertyExists('JMSXGroupID')).toBe(true);
    expect(received.getText()).toBe('headers');
  });

  test('messages on one connection keep their headers apart (two sends, two receipts)', async () => {
    const { session } = await fx.open();
    await sendTexts(session, Q1(), ['h1', 'h2'], (m, i) => m.setJMSType(`type${i + 1}`));
    const consumer = await session.createConsumer(Q1());
    const a = await consumer.receive(5000);
    const b = await consumer.receive(5000);
    expect([textOf(a), a?.getJMSType(), textOf(b), b?.getJMSType()]).toEqual(['h1', 'type1', 'h2', 'type2']);
    expect(await receiveTexts(consumer, 0)).toEqual([]);
  });
});
