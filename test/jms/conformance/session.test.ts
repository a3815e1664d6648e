import {
  IllegalStateException,
  InvalidDestinationException,
  InvalidSelectorException,
  JMSException,
  Session,
  type Message,
  type TextMessage,
} from '../../../src';
import { failureOf, receiveTexts, sendTexts, textOf, useJmsFixture } from '../../support/jms-fixture';

/**
 * jms-conformance.md §4 B (sessions) with the HornetQ SessionTest / QueueSessionTest cases of
 * §2.1. Per the contract, createQueue/createTopic only make a handle (no broker check); the
 * existence check happens when a producer, consumer or browser is created (HornetQ does it there).
 */

const fx = useJmsFixture();

describe('B1 transacted flag and acknowledgement mode', () => {
  test.each([
    [true, Session.AUTO_ACKNOWLEDGE, true, Session.SESSION_TRANSACTED],
    [true, Session.CLIENT_ACKNOWLEDGE, true, Session.SESSION_TRANSACTED],
    [false, Session.AUTO_ACKNOWLEDGE, false, Session.AUTO_ACKNOWLEDGE],
    [false, Session.CLIENT_ACKNOWLEDGE, false, Session.CLIENT_ACKNOWLEDGE],
    [false, Session.DUPS_OK_ACKNOWLEDGE, false, Session.DUPS_OK_ACKNOWLEDGE],
  ])(
    'createSession(%s, %i) → transacted %s, mode %i',
    async (transacted, mode, expectTransacted, expectMode) => {
      const connection = await fx.connect();
      const session = await connection.createSession(transacted, mode);
      expect(session.getTransacted()).toBe(expectTransacted);
      expect(session.getAcknowledgeMode()).toBe(expectMode);
    },
  );

  test('the flag is per session instance (testCreateTwoSessions)', async () => {
    const connection = await fx.connect();
    const a = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const b = await connection.createSession(true, Session.AUTO_ACKNOWLEDGE);
    expect([a.getTransacted(), b.getTransacted()]).toEqual([false, true]);
  });

  test('an unknown acknowledgement mode is refused with a JMSException', async () => {
    const connection = await fx.connect();
    const error = await failureOf(connection.createSession(false, 7));
    expect(error).toBeInstanceOf(JMSException);
    expect((error as Error).message).toContain('7');
  });

  test('constants are javax.jms.Session values', () => {
    expect(Session).toEqual({
      SESSION_TRANSACTED: 0,
      AUTO_ACKNOWLEDGE: 1,
      CLIENT_ACKNOWLEDGE: 2,
      DUPS_OK_ACKNOWLEDGE: 3,
    });
  });
});

describe('B2 transaction calls on the wrong kind of session', () => {
  test.each([Session.AUTO_ACKNOWLEDGE, Session.CLIENT_ACKNOWLEDGE, Session.DUPS_OK_ACKNOWLEDGE])(
    'commit and rollback on a non-transacted session (mode %i) throw IllegalStateException',
    async (mode) => {
      const { session } = await fx.open({ ackMode: mode });
      expect(await failureOf(session.commit())).toBeInstanceOf(IllegalStateException);
      expect(await failureOf(session.rollback())).toBeInstanceOf(IllegalStateException);
    },
  );

  test('recover on a transacted session throws IllegalStateException', async () => {
    const { session } = await fx.open({ transacted: true });
    expect(await failureOf(session.recover())).toBeInstanceOf(IllegalStateException);
  });
});

describe('B3 closing a session', () => {
  test('rolls back its transaction: the received message stays queued and comes back redelivered (testCloseInTransaction)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, fx.queue('Queue1'), ['tx']);
    const transacted = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const consumer = await transacted.createConsumer(fx.queue('Queue1'));
    expect(await receiveTexts(consumer, 1)).toEqual(['tx']);
    await transacted.close();
    await fx.expectCount('Queue1', 1);
    const again = await session.createConsumer(fx.queue('Queue1'));
    const message = await again.receive(5000);
    expect(textOf(message)).toBe('tx');
    expect(message?.getJMSRedelivered()).toBe(true);
    expect(message?.getIntProperty('JMSXDeliveryCount')).toBe(2);
  });

  test('discards its uncommitted sends', async () => {
    const { connection } = await fx.open();
    const transacted = await connection.createSession(true, Session.SESSION_TRANSACTED);
    await sendTexts(transacted, fx.queue('Queue1'), ['never']);
    await transacted.close();
    await fx.expectCount('Queue1', 0);
  });

  test('returns unacknowledged CLIENT_ACKNOWLEDGE messages, redelivered with JMSXDeliveryCount 2 (testCloseNoClientAcknowledgment)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, fx.queue('Queue1'), ['c1', 'c2']);
    const client = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const consumer = await client.createConsumer(fx.queue('Queue1'));
    expect(await receiveTexts(consumer, 2)).toEqual(['c1', 'c2']);
    await client.close();
    await fx.expectCount('Queue1', 2);
    const again = await session.createConsumer(fx.queue('Queue1'));
    for (const text of ['c1', 'c2']) {
      const message = await again.receive(5000);
      expect(textOf(message)).toBe(text);
      expect(message?.getJMSRedelivered()).toBe(true);
      expect(message?.getIntProperty('JMSXDeliveryCount')).toBe(2);
    }
  });

  test('messages buffered but never handed to the application come back not redelivered', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, fx.queue('Queue1'), ['seen', 'unseen1', 'unseen2']);
    const client = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const consumer = await client.createConsumer(fx.queue('Queue1'));
    expect(await receiveTexts(consumer, 1)).toEqual(['seen']);
    await client.close();
    const again = await session.createConsumer(fx.queue('Queue1'));
    const got: Array<[string | null, boolean, number]> = [];
    for (let i = 0; i < 3; i++) {
      const message = (await again.receive(5000)) as Message;
      got.push([textOf(message), message.getJMSRedelivered(), message.getIntProperty('JMSXDeliveryCount')]);
    }
    expect(got).toEqual([
      ['seen', true, 2],
      ['unseen1', false, 1],
      ['unseen2', false, 1],
    ]);
  });

  test('closing twice is a no-op', async () => {
    const { session } = await fx.open();
    await session.close();
    await expect(session.close()).resolves.toBeUndefined();
  });

  test('every other method throws IllegalStateException afterwards', async () => {
    const { session } = await fx.open();
    await session.close();
    const queue = fx.queue('Queue1');
    const calls: Array<[string, () => unknown]> = [
      ['createMessage', () => session.createMessage()],
      ['createTextMessage', () => session.createTextMessage()],
      ['createBytesMessage', () => session.createBytesMessage()],
      ['createMapMessage', () => session.createMapMessage()],
      ['createStreamMessage', () => session.createStreamMessage()],
      ['createObjectMessage', () => session.createObjectMessage({ a: 1 })],
      ['createProducer', () => session.createProducer(queue)],
      ['createConsumer', () => session.createConsumer(queue)],
      ['createDurableSubscriber', () => session.createDurableSubscriber(fx.topic('t'), 'sub')],
      ['createBrowser', () => session.createBrowser(queue)],
      ['createQueue', () => session.createQueue('Queue1')],
      ['createTopic', () => session.createTopic('t')],
      ['createTemporaryQueue', () => session.createTemporaryQueue()],
      ['createTemporaryTopic', () => session.createTemporaryTopic()],
      ['getTransacted', () => session.getTransacted()],
      ['getAcknowledgeMode', () => session.getAcknowledgeMode()],
      ['commit', () => session.commit()],
      ['rollback', () => session.rollback()],
      ['recover', () => session.recover()],
      ['unsubscribe', () => session.unsubscribe('sub')],
    ];
    for (const [name, call] of calls) {
      expect({ name, error: await failureOf(call) }).toEqual({
        name,
        error: expect.any(IllegalStateException),
      });
    }
  });

  test('closing one session leaves the others working (testCloseAndCreateSession, testGetDeliveriesForSession)', async () => {
    const connection = await fx.connect({ start: true });
    const a = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const b = await connection.createSession(true, Session.SESSION_TRANSACTED);
    await sendTexts(b, fx.queue('Queue1'), ['from-b']);
    await a.close();
    await b.commit();
    const c = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    expect(await receiveTexts(await c.createConsumer(fx.queue('Queue1')), 1)).toEqual(['from-b']);
  });
});

describe('B4 messages outlive their session', () => {
  test('a received message is still readable after its session closed (testUseMessage); acknowledge throws IllegalStateException', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, fx.queue('Queue1'), ['keep me'], (m) => m.setStringProperty('p', 'v'));
    const client = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const message = (await (await client.createConsumer(fx.queue('Queue1'))).receive(5000)) as TextMessage;
    await client.close();
    expect(message.getText()).toBe('keep me');
    expect(message.getStringProperty('p')).toBe('v');
    expect(await failureOf(message.acknowledge())).toBeInstanceOf(IllegalStateException);
  });

  test('a message created by a closed session can still be filled and sent by another', async () => {
    const { connection, session } = await fx.open();
    const other = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const message = other.createTextMessage('made elsewhere');
    await other.close();
    message.setText('made elsewhere, changed');
    const producer = await session.createProducer(fx.queue('Queue1'));
    await producer.send(message);
    expect(await receiveTexts(await session.createConsumer(fx.queue('Queue1')), 1)).toEqual([
      'made elsewhere, changed',
    ]);
  });
});

describe('B6 destinations by name', () => {
  test('createQueue and createTopic return handles without asking the broker (contract)', async () => {
    const { session } = await fx.open();
    const queue = session.createQueue('NoSuchQueue');
    const topic = session.createTopic('AnyTopic');
    expect(queue.getQueueName()).toBe('NoSuchQueue');
    expect(topic.getTopicName()).toBe('AnyTopic');
    expect(fx.coreQueue('jms.queue.NoSuchQueue')).toBeUndefined();
  });

  test('createQueue of an existing queue is usable (testCreateQueue)', async () => {
    const { session } = await fx.open();
    const queue = session.createQueue('Queue1');
    await sendTexts(session, queue, ['via createQueue']);
    expect(await receiveTexts(await session.createConsumer(queue), 1)).toEqual(['via createQueue']);
  });

  test('producer, consumer and browser on an unknown queue throw InvalidDestinationException', async () => {
    const { session } = await fx.open();
    const queue = session.createQueue('NoSuchQueue');
    expect(await failureOf(session.createProducer(queue))).toBeInstanceOf(InvalidDestinationException);
    expect(await failureOf(session.createConsumer(queue))).toBeInstanceOf(InvalidDestinationException);
    expect(await failureOf(session.createBrowser(queue))).toBeInstanceOf(InvalidDestinationException);
  });

  test('a foreign queue object naming an unknown queue is refused with InvalidDestinationException', async () => {
    const { session } = await fx.open();
    const foreign = { getQueueName: () => 'NoSuchQueue', toString: () => 'foreign' };
    expect(await failureOf(session.createConsumer(foreign))).toBeInstanceOf(InvalidDestinationException);
    expect(await failureOf(session.createBrowser(foreign))).toBeInstanceOf(InvalidDestinationException);
  });

  test('an anonymous producer sending to an unknown queue fails with InvalidDestinationException', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(null);
    const error = await failureOf(
      producer.send(session.createQueue('NoSuchQueue'), session.createTextMessage('x')),
    );
    expect(error).toBeInstanceOf(InvalidDestinationException);
  });

  test.each([
    [
      'createConsumer',
      (s: Awaited<ReturnType<typeof fx.open>>['session']) => s.createConsumer(null as never),
    ],
    ['createBrowser', (s: Awaited<ReturnType<typeof fx.open>>['session']) => s.createBrowser(null as never)],
    [
      'createDurableSubscriber',
      (s: Awaited<ReturnType<typeof fx.open>>['session']) => s.createDurableSubscriber(null as never, 'sub'),
    ],
  ])('%s(null) throws InvalidDestinationException', async (_name, create) => {
    const { session } = await fx.open({ clientID: 'null-dest' });
    expect(await failureOf(create(session))).toBeInstanceOf(InvalidDestinationException);
  });
});

describe('B7 invalid selectors', () => {
  const bad = ['definitely not a message selector!', "=TEST 'test'", '3 + 5', "color = 'red"];

  test.each(bad)('createConsumer on a queue with %p throws InvalidSelectorException', async (selector) => {
    const { session } = await fx.open();
    expect(await failureOf(session.createConsumer(fx.queue('Queue1'), selector))).toBeInstanceOf(
      InvalidSelectorException,
    );
  });

  test.each(bad)('createConsumer on a topic with %p throws InvalidSelectorException', async (selector) => {
    const { session } = await fx.open();
    expect(await failureOf(session.createConsumer(fx.topic('t'), selector))).toBeInstanceOf(
      InvalidSelectorException,
    );
    expect(fx.queuesOn('jms.topic.t')).toEqual([]);
  });

  test.each(bad)('createBrowser with %p throws InvalidSelectorException', async (selector) => {
    const { session } = await fx.open();
    expect(await failureOf(session.createBrowser(fx.queue('Queue1'), selector))).toBeInstanceOf(
      InvalidSelectorException,
    );
  });

  test.each(bad)('createDurableSubscriber with %p throws InvalidSelectorException', async (selector) => {
    const { session } = await fx.open({ clientID: 'sel' });
    expect(await failureOf(session.createDurableSubscriber(fx.topic('t'), 'sub', selector))).toBeInstanceOf(
      InvalidSelectorException,
    );
    expect(fx.queuesOn('jms.topic.t')).toEqual([]);
  });

  test('an empty or blank selector means no selector', async () => {
    const { session } = await fx.open();
    await sendTexts(session, fx.queue('Queue1'), ['any']);
    const consumer = await session.createConsumer(fx.queue('Queue1'), '  ');
    expect(consumer.getMessageSelector()).toBeNull();
    expect(await receiveTexts(consumer, 1)).toEqual(['any']);
  });
});
