import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import {
  HornetQMessage,
  HornetQTemporaryTopic,
  InvalidClientIDException,
  InvalidDestinationException,
  type HornetQSession,
} from '../../../src';
import { failureOf, receiveTexts, sendTexts, useJmsFixture } from '../../support/jms-fixture';

/**
 * The conventions HornetQ 2.4's JMS client follows on the wire (hornetq-jms-client's
 * HornetQConnection, HornetQSession, HornetQMessageProducer, SelectorTranslator), checked on what
 * our broker holds, so that a Java client on the same broker sees the same things.
 */

const fx = useJmsFixture();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The metadata our broker holds for a JMS session's core session. */
function metadataOf(session: HornetQSession, key: string): string | undefined {
  return fx.broker.findSession(session.core.name)?.metadata.get(key);
}

describe('session metadata', () => {
  test('every JMS session says jms-session = "" (Artemis restores the jms. prefixes by it)', async () => {
    const { connection, session } = await fx.open();
    const other = await connection.createSession(true, 0);
    expect(metadataOf(session, 'jms-session')).toBe('');
    expect(metadataOf(other, 'jms-session')).toBe('');
    expect(metadataOf(session, 'jms-client-id')).toBeUndefined();
  });

  test('with a client id, each session also says jms-client-id; the id is claimed once per broker', async () => {
    const { connection, session } = await fx.open({ clientID: 'conventions-1' });
    const other = await connection.createSession(false, 1);
    expect(metadataOf(session, 'jms-client-id')).toBe('conventions-1');
    expect(metadataOf(other, 'jms-client-id')).toBe('conventions-1');
    const rival = await fx.connect();
    expect(await failureOf(rival.setClientID('conventions-1'))).toBeInstanceOf(InvalidClientIDException);
  });
});

describe('message ids', () => {
  test('JMSMessageID is ID: + a canonical lowercase UUID, the core userId; an id the application set is replaced', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    const [sent] = await sendTexts(session, fx.queue('Queue1'), ['a'], (m) => m.setJMSMessageID('ID:mine'));
    const id = sent?.getJMSMessageID() ?? '';
    expect(id.slice(3)).toMatch(UUID);
    expect(id.startsWith('ID:')).toBe(true);
    const received = (await consumer.receive(5000)) as HornetQMessage;
    expect(received.getJMSMessageID()).toBe(id);
    expect(received.getCoreMessage().userId).toBe(id.slice(3));
  });
});

describe('noLocal and the connection property', () => {
  test("a send carries __HQ_CID = the client id; a noLocal consumer’s filter is HornetQ’s __HQ_CID<>'id'", async () => {
    const { session } = await fx.open({ clientID: 'conventions-nl' });
    const noLocal = await session.createDurableSubscriber(fx.topic('Topic1'), 'sub', 'JMSPriority = 4', true);
    const plain = await session.createConsumer(fx.topic('Topic1'));
    const queue = await session.core.queueQuery('conventions-nl.sub');
    expect(queue.filter).toBe("HQPriority = 4 AND __HQ_CID<>'conventions-nl'");
    await sendTexts(session, fx.topic('Topic1'), ['own']);
    const received = (await plain.receive(5000)) as HornetQMessage;
    expect(received.getCoreMessage().properties.get('__HQ_CID')).toEqual({
      kind: PropertyKind.STRING,
      value: 'conventions-nl',
    });
    expect(await noLocal.receive(200)).toBeNull();
  });

  test('a noLocal selector that is a disjunction is bracketed: no local message gets through either side of its OR', async () => {
    const { session } = await fx.open({ clientID: 'PERSISTENT' });
    const noLocal = await session.createDurableSubscriber(
      fx.topic('Topic1'),
      'or',
      "colour = 'red' OR colour = 'blue'",
      true,
    );
    const everything = await session.createConsumer(fx.topic('Topic1'));
    const queue = await session.core.queueQuery('PERSISTENT.or');
    expect(queue.filter).toBe("(colour = 'red' OR colour = 'blue') AND __HQ_CID<>'PERSISTENT'");
    const producer = await session.createProducer(fx.topic('Topic1'));
    for (const colour of ['red', 'blue']) {
      const message = session.createTextMessage(colour);
      message.setStringProperty('colour', colour);
      await producer.send(message);
    }
    expect((await everything.receive(5000))?.getStringProperty('colour')).toBe('red');
    expect((await everything.receive(5000))?.getStringProperty('colour')).toBe('blue');
    expect(await noLocal.receive(200)).toBeNull();
  });

  test('without a client id the property and the filter use the connection’s UID', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    await sendTexts(session, fx.queue('Queue1'), ['x']);
    const received = (await consumer.receive(5000)) as HornetQMessage;
    const stamp = received.getCoreMessage().properties.get('__HQ_CID');
    expect(stamp?.kind).toBe(PropertyKind.STRING);
    expect(String(stamp?.value)).toMatch(UUID);
  });
});

describe('selectors travel translated', () => {
  test('a subscription queue’s filter is the selector in HornetQ’s identifiers, and selects as the selector does', async () => {
    const { session } = await fx.open({ clientID: 'conventions-sel' });
    const subscriber = await session.createDurableSubscriber(
      fx.topic('Topic1'),
      'sel',
      "JMSDeliveryMode = 'PERSISTENT' AND JMSPriority > 5",
    );
    const queue = await session.core.queueQuery('conventions-sel.sel');
    expect(queue.filter).toBe("HQDurable = 'DURABLE' AND HQPriority > 5");
    expect(subscriber.getMessageSelector()).toBe("JMSDeliveryMode = 'PERSISTENT' AND JMSPriority > 5");
    const producer = await session.createProducer(fx.topic('Topic1'));
    await producer.send(session.createTextMessage('low'), { priority: 1 });
    await producer.send(session.createTextMessage('high'), { priority: 9 });
    await producer.send(session.createTextMessage('non-persistent'), { priority: 9, deliveryMode: 1 });
    expect(await receiveTexts(subscriber, 1)).toEqual(['high']);
    expect(await subscriber.receive(200)).toBeNull();
  });
});

describe('temporary topics', () => {
  test('get their own queue named after the address with HornetQ’s _HQX=-1 filter, which selects nothing', async () => {
    const { session } = await fx.open();
    const temp = (await session.createTemporaryTopic()) as HornetQTemporaryTopic;
    const own = await session.core.queueQuery(temp.address);
    expect(own).toMatchObject({ exists: true, filter: '_HQX=-1', address: temp.address, temporary: true });
    const subscriber = await session.createConsumer(temp);
    await sendTexts(session, temp, ['t']);
    expect(await receiveTexts(subscriber, 1)).toEqual(['t']);
    expect(fx.coreQueue(temp.address)?.messageCount).toBe(0);
    await subscriber.close();
    await temp.delete();
    expect((await session.core.queueQuery(temp.address)).exists).toBe(false);
  });
});

describe('JMSDestination from the core address', () => {
  test('an address that is not a JMS destination’s is an InvalidDestinationException naming it', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    await sendTexts(session, fx.queue('Queue1'), ['x']);
    const received = (await consumer.receive(5000)) as HornetQMessage;
    received.getCoreMessage().address = 'orders.eu';
    const error = await failureOf(() => received.getJMSDestination());
    expect(error).toBeInstanceOf(InvalidDestinationException);
    expect((error as Error).message).toContain("'orders.eu'");
  });
});
