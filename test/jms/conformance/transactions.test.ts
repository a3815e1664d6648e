import { DeliveryMode, Session, type Message } from '../../../src';
import { receiveTexts, sendTexts, textOf, useJmsFixture, waitFor } from '../../support/jms-fixture';

/**
 * jms-conformance.md §4 G (local transactions G1–G3; G4 duplicate ids is in broker-features,
 * G5 failover in session-misuse and the reattach suites) with HornetQ's TransactedSessionTest,
 * JORAM's testRollbackRececeivedMessage and JMSTest's transactional cases (§2.1).
 */

const fx = useJmsFixture();
const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');
const T1 = (): ReturnType<typeof fx.topic> => fx.topic('Topic1');
const ten = Array.from({ length: 10 }, (_, i) => `m${i}`);

describe('G1 sends and acknowledgements are atomic per transaction', () => {
  test.each([
    ['queue', 'Queue1'],
    ['topic', 'Topic1'],
  ])(
    'uncommitted sends to a %s are invisible; commit makes all 10 visible (testSendNoCommit*/testSendCommit*)',
    async (kind) => {
      const { connection, session } = await fx.open();
      const destination = kind === 'queue' ? Q1() : T1();
      const consumer = await session.createConsumer(destination);
      const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
      await sendTexts(tx, destination, ten);
      expect(await consumer.receive(200)).toBeNull();
      await tx.commit();
      expect(await receiveTexts(consumer, 10)).toEqual(ten);
    },
  );

  test.each([
    ['queue', 'Queue1'],
    ['topic', 'Topic1'],
  ])('rolled-back sends to a %s are discarded (testSendRollback*)', async (kind) => {
    const { connection, session } = await fx.open();
    const destination = kind === 'queue' ? Q1() : T1();
    const consumer = await session.createConsumer(destination);
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    await sendTexts(tx, destination, ten);
    await tx.rollback();
    await sendTexts(tx, destination, ['after rollback']);
    await tx.commit();
    expect(await receiveTexts(consumer, 1)).toEqual(['after rollback']);
    expect(await consumer.receive(100)).toBeNull();
  });

  test('rollback of a receive: redelivered, count 2; after close without commit the message is still queued (testSimpleRollback)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['simple']);
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const consumer = await tx.createConsumer(Q1());
    const first = (await consumer.receive(5000)) as Message;
    expect([first.getJMSRedelivered(), first.getIntProperty('JMSXDeliveryCount')]).toEqual([false, 1]);
    await tx.rollback();
    const second = (await consumer.receive(5000)) as Message;
    expect([textOf(second), second.getJMSRedelivered(), second.getIntProperty('JMSXDeliveryCount')]).toEqual([
      'simple',
      true,
      2,
    ]);
    await tx.close();
    await fx.expectCount('Queue1', 1);
  });

  test('a rolled-back receive on a topic is redelivered to the same subscriber (testRedeliveredTopic, JORAM TopicSession.testRollbackReceivedMessage)', async () => {
    const { connection, session } = await fx.open();
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const subscriber = await tx.createConsumer(T1());
    await sendTexts(session, T1(), ['topic tx']);
    const first = await subscriber.receive(5000);
    expect(first?.getJMSRedelivered()).toBe(false);
    await tx.rollback();
    const again = await subscriber.receive(5000);
    expect([textOf(again), again?.getJMSRedelivered()]).toEqual(['topic tx', true]);
    await tx.commit();
    expect(await subscriber.receive(100)).toBeNull();
  });

  test.each([
    ['queue', 'Queue1'],
    ['topic', 'Topic1'],
  ])(
    'after a commit and a new send, rollback redelivers only the uncommitted message on a %s (testReceivedRollback*)',
    async (kind) => {
      const { connection, session } = await fx.open();
      const destination = kind === 'queue' ? Q1() : T1();
      const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
      const consumer = await tx.createConsumer(destination);
      await sendTexts(session, destination, ['commit me']);
      expect(await receiveTexts(consumer, 1)).toEqual(['commit me']);
      await tx.commit();
      await sendTexts(session, destination, ['rollback']);
      expect(await receiveTexts(consumer, 1)).toEqual(['rollback']);
      await tx.rollback();
      const again = await consumer.receive(5000);
      expect([textOf(again), again?.getJMSRedelivered()]).toEqual(['rollback', true]);
      await tx.commit();
    },
  );

  test('consumed and committed messages are not redelivered to a new connection (testAckCommitQueue)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ten);
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    expect(await receiveTexts(await tx.createConsumer(Q1()), 10)).toEqual(ten);
    await tx.commit();
    await connection.close();
    const { session: later } = await fx.open();
    expect(await (await later.createConsumer(Q1())).receive(200)).toBeNull();
  });

  test('a durable subscriber: consumed and committed messages are not redelivered after reconnecting (testAckCommitTopic)', async () => {
    const first = await fx.open({ clientID: 'ack-commit' });
    const tx = await first.connection.createSession(true, Session.SESSION_TRANSACTED);
    const subscriber = await tx.createDurableSubscriber(T1(), 'ack-commit-sub');
    await sendTexts(first.session, T1(), ten);
    expect(await receiveTexts(subscriber, 10)).toEqual(ten);
    await tx.commit();
    await first.connection.close();
    const second = await fx.open({ clientID: 'ack-commit' });
    const again = await second.session.createDurableSubscriber(T1(), 'ack-commit-sub');
    expect(await again.receive(200)).toBeNull();
    await again.close();
    await second.session.unsubscribe('ack-commit-sub');
  });

  test('consumed but uncommitted messages are all redelivered to a new connection (testAckNoCommitQueue, testAckRollbackQueue)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ten);
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    expect(await receiveTexts(await tx.createConsumer(Q1()), 10)).toEqual(ten);
    await connection.close();
    await fx.expectCount('Queue1', 10);
    const { session: later } = await fx.open();
    const consumer = await later.createConsumer(Q1());
    for (const text of ten) {
      const message = await consumer.receive(5000);
      expect([textOf(message), message?.getJMSRedelivered()]).toEqual([text, true]);
    }
  });

  test('sends and acknowledgements of one transaction commit together', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['in']);
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const consumer = await tx.createConsumer(Q1());
    const producer = await tx.createProducer(fx.queue('Queue2'));
    const received = await consumer.receive(5000);
    await producer.send(tx.createTextMessage(`out:${textOf(received)}`));
    expect([fx.messageCount('Queue1'), fx.messageCount('Queue2')]).toEqual([1, 0]);
    await tx.commit();
    expect([fx.messageCount('Queue1'), fx.messageCount('Queue2')]).toEqual([0, 1]);
  });

  test('sends and acknowledgements of one transaction roll back together', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['in']);
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const consumer = await tx.createConsumer(Q1());
    const producer = await tx.createProducer(fx.queue('Queue2'));
    await consumer.receive(5000);
    await producer.send(tx.createTextMessage('out'));
    await tx.rollback();
    expect([fx.messageCount('Queue1'), fx.messageCount('Queue2')]).toEqual([1, 0]);
  });

  test('an anonymous producer in a transacted session; the receiver commits; a later receiver finds nothing (testSendAndReceivePersistentDifferentConnections)', async () => {
    const sender = await fx.open({ transacted: true });
    const producer = await sender.session.createProducer(null);
    await producer.send(Q1(), sender.session.createTextMessage('anon tx'));
    await sender.session.commit();
    const receiver = await fx.open({ transacted: true });
    expect(await receiveTexts(await receiver.session.createConsumer(Q1()), 1)).toEqual(['anon tx']);
    await receiver.session.commit();
    await receiver.connection.close();
    const later = await fx.open();
    expect(await (await later.session.createConsumer(Q1())).receive(200)).toBeNull();
  });
});

describe('G2 closing with work pending is a rollback', () => {
  test('closing the connection of a transacted session rolls back its sends and receives', async () => {
    const { session } = await fx.open();
    await sendTexts(session, Q1(), ['held']);
    const other = await fx.open({ transacted: true });
    expect(await receiveTexts(await other.session.createConsumer(Q1()), 1)).toEqual(['held']);
    await sendTexts(other.session, fx.queue('Queue2'), ['never']);
    await other.connection.close();
    await fx.expectCount('Queue1', 1);
    expect(fx.messageCount('Queue2')).toBe(0);
  });

  test('a rollback then close: all redelivered to the next session with JMSXDeliveryCount 2 (testRedeliveredQueue2)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['r']);
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    expect(await receiveTexts(await tx.createConsumer(Q1()), 1)).toEqual(['r']);
    await tx.rollback();
    await tx.close();
    const next = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const message = await (await next.createConsumer(Q1())).receive(5000);
    expect([
      textOf(message),
      message?.getJMSRedelivered(),
      message?.getIntProperty('JMSXDeliveryCount'),
    ]).toEqual(['r', true, 2]);
  });
});

describe('G3 each commit or rollback starts the next transaction', () => {
  test('10 transactions of 10 messages → 100 received in order (testSendMultipleQueue)', async () => {
    const { connection, session } = await fx.open();
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const producer = await tx.createProducer(Q1());
    const all: string[] = [];
    for (let t = 0; t < 10; t++) {
      for (let i = 0; i < 10; i++) {
        all.push(`t${t}-${i}`);
        await producer.send(tx.createTextMessage(`t${t}-${i}`));
      }
      await tx.commit();
      expect(fx.messageCount('Queue1')).toBe((t + 1) * 10);
    }
    expect(await receiveTexts(await session.createConsumer(Q1()), 100)).toEqual(all);
  });

  test('alternating commits and rollbacks: only committed batches arrive', async () => {
    const { connection, session } = await fx.open();
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const producer = await tx.createProducer(Q1());
    const kept: string[] = [];
    for (let t = 0; t < 6; t++) {
      await producer.send(tx.createTextMessage(`b${t}`));
      if (t % 2 === 0) {
        await tx.commit();
        kept.push(`b${t}`);
      } else {
        await tx.rollback();
      }
    }
    expect(await receiveTexts(await session.createConsumer(Q1()), 3)).toEqual(kept);
  });

  test('a transacted listener commits batches of ~10 in send order (DeliveryOrderTest.testOutOfOrder, scaled to 200)', async () => {
    const { connection } = await fx.open();
    const sender = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const producer = await sender.createProducer(Q1());
    const receiverSession = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const consumer = await receiverSession.createConsumer(Q1());
    const got: number[] = [];
    consumer.setMessageListener(async (message) => {
      got.push(message.getIntProperty('n'));
      if (got.length % 10 === 0) await receiverSession.commit();
    });
    for (let n = 0; n < 200; n++) {
      const message = sender.createTextMessage(`n${n}`);
      message.setIntProperty('n', n);
      await producer.send(message);
      if (n % 10 === 9) await sender.commit();
    }
    await waitFor(() => got.length === 200, '200 deliveries');
    expect(got).toEqual(Array.from({ length: 200 }, (_, n) => n));
    await fx.expectCount('Queue1', 0);
  });

  test('two messages sent and committed arrive in order, persistent and not (testNonPersistent/Persistent_Transactional_Send)', async () => {
    const { connection, session } = await fx.open();
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const producer = await tx.createProducer(Q1());
    producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
    await producer.send(tx.createTextMessage('np1'));
    producer.setDeliveryMode(DeliveryMode.PERSISTENT);
    await producer.send(tx.createTextMessage('p2'));
    await tx.commit();
    expect(await receiveTexts(await session.createConsumer(Q1()), 2)).toEqual(['np1', 'p2']);
  });
});
