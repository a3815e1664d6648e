import { IllegalStateException, Session, type Message } from '../../../src';
import {
  failureOf,
  receiveTexts,
  sendTexts,
  textOf,
  useJmsFixture,
  waitFor,
} from '../../support/jms-fixture';

/**
 * jms-conformance.md §4 F (acknowledgement modes F1–F6) with HornetQ's AcknowledgementTest,
 * AutoAckMesageListenerTest and JMSXDeliveryCountTest (§2.1, §2.2). Broker-side counts include
 * delivered-but-unacknowledged messages, as HornetQ's assertRemainingMessages does.
 */

const fx = useJmsFixture();
const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');
const twenty = Array.from({ length: 20 }, (_, i) => `m${i}`);

/** [text, redelivered, JMSXDeliveryCount] of a message. */
function delivery(message: Message | null): [string | null, boolean, number] {
  if (message === null) throw new Error('expected a message, got null');
  return [textOf(message), message.getJMSRedelivered(), message.getIntProperty('JMSXDeliveryCount')];
}

async function openMode(mode: number, configure?: Parameters<typeof fx.open>[0]) {
  const { connection, session } = await fx.open(configure);
  const acked =
    mode === Session.SESSION_TRANSACTED
      ? await connection.createSession(true, mode)
      : await connection.createSession(false, mode);
  return { connection, session, acked };
}

describe('F1 AUTO_ACKNOWLEDGE', () => {
  test('the broker count drops by one per receive (testAutoAcknowledge); recover afterwards redelivers nothing', async () => {
    const { session } = await fx.open();
    await sendTexts(session, Q1(), twenty);
    const consumer = await session.createConsumer(Q1());
    for (let i = 0; i < 20; i++) {
      expect(textOf(await consumer.receive(5000))).toBe(`m${i}`);
      await fx.expectCount('Queue1', 19 - i);
    }
    await session.recover();
    expect(await consumer.receive(200)).toBeNull();
  });

  test('receive "one", recover, the next receive is "two" (testRecoverAutoACK)', async () => {
    const { session } = await fx.open();
    await sendTexts(session, Q1(), ['one', 'two']);
    const consumer = await session.createConsumer(Q1());
    expect(textOf(await consumer.receive(5000))).toBe('one');
    await session.recover();
    expect(delivery(await consumer.receive(5000))).toEqual(['two', false, 1]);
    await fx.expectCount('Queue1', 0);
  });

  test('a listener message is acknowledged when onMessage returns; recover inside onMessage redelivers only the current one (testMessageListenerAutoAck)', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const sequence: Array<[string | null, boolean, number]> = [];
    const countsInside: number[] = [];
    consumer.setMessageListener(async (message) => {
      sequence.push(delivery(message));
      countsInside.push(fx.messageCount('Queue1'));
      if (sequence.length === 3) await session.recover();
    });
    await sendTexts(session, Q1(), ['a', 'b', 'c']);
    await waitFor(() => sequence.length >= 4, 'four deliveries');
    await fx.expectCount('Queue1', 0);
    expect(sequence).toEqual([
      ['a', false, 1],
      ['b', false, 1],
      ['c', false, 1],
      ['c', true, 2],
    ]);
    // the message being handled is never acknowledged before its listener returns
    expect(countsInside.every((count) => count >= 1)).toBe(true);
  });

  test('the first message is never redelivered; recover while handling the second redelivers the second (AutoAckMesageListenerTest)', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const sequence: Array<[string | null, boolean]> = [];
    consumer.setMessageListener(async (message) => {
      sequence.push([textOf(message), message.getJMSRedelivered()]);
      if (textOf(message) === 'second' && !message.getJMSRedelivered()) await session.recover();
    });
    await sendTexts(session, Q1(), ['first', 'second']);
    await waitFor(() => sequence.length >= 3, 'three deliveries');
    await fx.expectCount('Queue1', 0);
    expect(sequence).toEqual([
      ['first', false],
      ['second', false],
      ['second', true],
    ]);
  });
});

describe('F2 CLIENT_ACKNOWLEDGE', () => {
  test('nothing is acknowledged without acknowledge(): count stays 20; recover redelivers all 20; acknowledging the last empties the queue (testClientAcknowledgeNoAcknowledgement)', async () => {
    const { acked: client, session } = await openMode(Session.CLIENT_ACKNOWLEDGE);
    await sendTexts(session, Q1(), twenty);
    const consumer = await client.createConsumer(Q1());
    expect(await receiveTexts(consumer, 20)).toEqual(twenty);
    expect(fx.messageCount('Queue1')).toBe(20);
    await client.recover();
    let last: Message | null = null;
    for (let i = 0; i < 20; i++) {
      last = await consumer.receive(5000);
      expect(delivery(last)).toEqual([`m${i}`, true, 2]);
    }
    expect(fx.messageCount('Queue1')).toBe(20);
    await last?.acknowledge();
    expect(fx.messageCount('Queue1')).toBe(0);
  });

  test('acknowledging each message as it comes decrements the count by one each time; recover then redelivers nothing (testIndividualClientAcknowledge)', async () => {
    const { acked: client, session } = await openMode(Session.CLIENT_ACKNOWLEDGE);
    await sendTexts(session, Q1(), twenty);
    const consumer = await client.createConsumer(Q1());
    for (let i = 0; i < 20; i++) {
      const message = await consumer.receive(5000);
      await message?.acknowledge();
      expect(fx.messageCount('Queue1')).toBe(19 - i);
    }
    await client.recover();
    expect(await consumer.receive(200)).toBeNull();
  });

  test('acknowledging only the last of 20 acknowledges all (testBulkClientAcknowledge)', async () => {
    const { acked: client, session } = await openMode(Session.CLIENT_ACKNOWLEDGE);
    await sendTexts(session, Q1(), twenty);
    const consumer = await client.createConsumer(Q1());
    let last: Message | null = null;
    for (let i = 0; i < 20; i++) last = await consumer.receive(5000);
    await last?.acknowledge();
    expect(fx.messageCount('Queue1')).toBe(0);
    await client.recover();
    expect(await consumer.receive(200)).toBeNull();
  });

  test('acknowledge() on an earlier message covers every message delivered so far, not just that one', async () => {
    const { acked: client, session } = await openMode(Session.CLIENT_ACKNOWLEDGE);
    await sendTexts(session, Q1(), ['x', 'y', 'z']);
    const consumer = await client.createConsumer(Q1());
    const first = await consumer.receive(5000);
    await consumer.receive(5000);
    await consumer.receive(5000);
    await first?.acknowledge();
    expect(fx.messageCount('Queue1')).toBe(0);
  });

  test('acknowledge on the 11th while receiving 20 leaves 9; recover redelivers exactly those 9 (testPartialClientAcknowledge)', async () => {
    const { acked: client, session } = await openMode(Session.CLIENT_ACKNOWLEDGE);
    await sendTexts(session, Q1(), twenty);
    const consumer = await client.createConsumer(Q1());
    for (let i = 0; i < 20; i++) {
      const message = await consumer.receive(5000);
      if (i === 10) await message?.acknowledge();
    }
    expect(fx.messageCount('Queue1')).toBe(9);
    await client.recover();
    const redelivered = [];
    for (let m = await consumer.receive(300); m !== null; m = await consumer.receive(300))
      redelivered.push(delivery(m));
    expect(redelivered).toEqual(twenty.slice(11).map((text) => [text, true, 2]));
  });

  test('later deliveries are not covered by an earlier acknowledge()', async () => {
    const { acked: client, session } = await openMode(Session.CLIENT_ACKNOWLEDGE);
    await sendTexts(session, Q1(), ['x', 'y']);
    const consumer = await client.createConsumer(Q1());
    const x = await consumer.receive(5000);
    await x?.acknowledge();
    expect(fx.messageCount('Queue1')).toBe(1);
    const y = await consumer.receive(5000);
    await x?.acknowledge();
    expect(fx.messageCount('Queue1')).toBe(0);
    expect(textOf(y)).toBe('y');
  });

  test('a listener: recover and acknowledge drive redelivery (testMessageListenerClientAck)', async () => {
    const { acked: client, session } = await openMode(Session.CLIENT_ACKNOWLEDGE);
    const consumer = await client.createConsumer(Q1());
    const sequence: Array<[string | null, boolean, number]> = [];
    const counts: number[] = [];
    consumer.setMessageListener(async (message) => {
      sequence.push(delivery(message));
      switch (sequence.length) {
        case 1: // a
          await client.recover();
          break;
        case 2: // a again
          await message.acknowledge();
          counts.push(fx.messageCount('Queue1'));
          break;
        case 3: // b
        case 4: // b again
          await client.recover();
          break;
        case 6: // c
          await message.acknowledge();
          counts.push(fx.messageCount('Queue1'));
          break;
        default:
      }
    });
    await sendTexts(session, Q1(), ['a', 'b', 'c']);
    await waitFor(() => counts.length === 2, 'six deliveries and both settlements');
    expect(sequence).toEqual([
      ['a', false, 1],
      ['a', true, 2],
      ['b', false, 1],
      ['b', true, 2],
      ['b', true, 3],
      ['c', false, 1],
    ]);
    expect(counts).toEqual([2, 0]);
  });
});

describe('F3 DUPS_OK_ACKNOWLEDGE', () => {
  test('acknowledgements are batched (count still 20 after 20 receives); recover flushes them and redelivers nothing (testDupsOKAcknowledgeQueue)', async () => {
    const { acked: dups, session } = await openMode(Session.DUPS_OK_ACKNOWLEDGE);
    await sendTexts(session, Q1(), twenty);
    const consumer = await dups.createConsumer(Q1());
    expect(await receiveTexts(consumer, 20)).toEqual(twenty);
    expect(fx.messageCount('Queue1')).toBe(20);
    await dups.recover();
    await fx.expectCount('Queue1', 0);
    expect(await consumer.receive(200)).toBeNull();
  });

  test('with a small dups-ok-batch-size acknowledgements reach the broker as the batch fills', async () => {
    const { acked: dups, session } = await openMode(Session.DUPS_OK_ACKNOWLEDGE, {
      configure: (cf) => cf.setDupsOKBatchSize(1),
    });
    await sendTexts(session, Q1(), twenty);
    const consumer = await dups.createConsumer(Q1());
    expect(await receiveTexts(consumer, 20)).toEqual(twenty);
    await fx.expectCount('Queue1', 0);
  });

  test('a topic subscriber in DUPS_OK mode receives everything (testDupsOKAcknowledgeTopic)', async () => {
    const { acked: dups, session } = await openMode(Session.DUPS_OK_ACKNOWLEDGE, {
      configure: (cf) => cf.setDupsOKBatchSize(10),
    });
    const subscriber = await dups.createConsumer(fx.topic('Topic1'));
    const texts = Array.from({ length: 19 }, (_, i) => `t${i}`);
    await sendTexts(session, fx.topic('Topic1'), texts);
    expect(await receiveTexts(subscriber, 19)).toEqual(texts);
  });

  test('a listener: recover in onMessage of "c" flushes the acks of a and b and redelivers c (testMessageListenerDupsOK)', async () => {
    const { acked: dups, session } = await openMode(Session.DUPS_OK_ACKNOWLEDGE);
    await sendTexts(session, Q1(), ['a', 'b', 'c']);
    const consumer = await dups.createConsumer(Q1());
    const sequence: Array<[string | null, boolean]> = [];
    const countsInside: number[] = [];
    consumer.setMessageListener(async (message) => {
      sequence.push([textOf(message), message.getJMSRedelivered()]);
      countsInside.push(fx.messageCount('Queue1'));
      if (sequence.length === 3) await dups.recover();
    });
    await waitFor(() => sequence.length >= 4, 'four deliveries');
    expect(sequence).toEqual([
      ['a', false],
      ['b', false],
      ['c', false],
      ['c', true],
    ]);
    expect(countsInside.slice(0, 3)).toEqual([3, 3, 3]);
    expect(countsInside[3]).toBe(1);
    await dups.close();
    await fx.expectCount('Queue1', 0);
  });
});

describe('F4 transacted sessions', () => {
  test('acknowledge() is ignored: only commit and rollback settle (testTransactionalIgnoreACK)', async () => {
    const { acked: tx, session } = await openMode(Session.SESSION_TRANSACTED);
    const sent = session.createTextMessage('ignored ack');
    await (await session.createProducer(Q1())).send(sent);
    await sent.acknowledge();
    const consumer = await tx.createConsumer(Q1());
    const message = await consumer.receive(5000);
    await message?.acknowledge();
    expect(fx.messageCount('Queue1')).toBe(1);
    await tx.rollback();
    expect(delivery(await consumer.receive(5000))).toEqual(['ignored ack', true, 2]);
    await tx.commit();
    expect(fx.messageCount('Queue1')).toBe(0);
  });

  test('sends and receives settle on commit and rollback (testTransactionalAcknowledgement)', async () => {
    const { acked: tx } = await openMode(Session.SESSION_TRANSACTED);
    const producer = await tx.createProducer(Q1());
    for (const text of twenty) await producer.send(tx.createTextMessage(text));
    expect(fx.messageCount('Queue1')).toBe(0);
    await tx.rollback();
    expect(fx.messageCount('Queue1')).toBe(0);
    for (const text of twenty) await producer.send(tx.createTextMessage(text));
    await tx.commit();
    expect(fx.messageCount('Queue1')).toBe(20);
    const consumer = await tx.createConsumer(Q1());
    expect(await receiveTexts(consumer, 20)).toEqual(twenty);
    expect(fx.messageCount('Queue1')).toBe(20);
    await tx.rollback();
    expect(fx.messageCount('Queue1')).toBe(20);
    const again = [];
    for (let i = 0; i < 20; i++) again.push(delivery(await consumer.receive(5000)));
    expect(again).toEqual(twenty.map((text) => [text, true, 2]));
    await tx.commit();
    expect(fx.messageCount('Queue1')).toBe(0);
  });

  test('a listener: rollback and commit drive redelivery (testMessageListenerTransactionalAck)', async () => {
    const { acked: tx, session } = await openMode(Session.SESSION_TRANSACTED);
    const consumer = await tx.createConsumer(Q1());
    const sequence: Array<[string | null, boolean]> = [];
    const counts: number[] = [];
    consumer.setMessageListener(async (message) => {
      sequence.push([textOf(message), message.getJMSRedelivered()]);
      switch (sequence.length) {
        case 2: // a, b then rollback
          await tx.rollback();
          break;
        case 4: // a, b again then commit
          await tx.commit();
          counts.push(fx.messageCount('Queue1'));
          break;
        case 5: // c then rollback
          await tx.rollback();
          break;
        case 6: // c again then commit
          await tx.commit();
          counts.push(fx.messageCount('Queue1'));
          break;
        default:
      }
    });
    await sendTexts(session, Q1(), ['a', 'b', 'c']);
    await waitFor(() => counts.length === 2, 'six deliveries and both settlements');
    expect(sequence).toEqual([
      ['a', false],
      ['b', false],
      ['a', true],
      ['b', true],
      ['c', false],
      ['c', true],
    ]);
    expect(counts).toEqual([1, 0]);
  });
});

describe('F5 JMSXDeliveryCount', () => {
  test('exists on receipt; 1, then 2 after recover; readable as int, long and string (testSimpleJMSXDeliveryCount)', async () => {
    const { acked: client, session } = await openMode(Session.CLIENT_ACKNOWLEDGE);
    await sendTexts(session, Q1(), ['dc']);
    const consumer = await client.createConsumer(Q1());
    const first = await consumer.receive(5000);
    expect(first?.propertyExists('JMSXDeliveryCount')).toBe(true);
    expect(first?.getIntProperty('JMSXDeliveryCount')).toBe(1);
    expect(first?.getLongProperty('JMSXDeliveryCount')).toBe(1);
    expect(first?.getStringProperty('JMSXDeliveryCount')).toBe('1');
    expect(first?.getPropertyNames()).toContain('JMSXDeliveryCount');
    await client.recover();
    const second = await consumer.receive(5000);
    expect(second?.getIntProperty('JMSXDeliveryCount')).toBe(2);
    expect(second?.getJMSRedelivered()).toBe(true);
  });

  test('only messages handed to the application are counted (testJMSXDeliveryCountNotDeliveredMessagesNotUpdated)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['m1', 'm2', 'm3', 'm4', 'm5']);
    const client = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    expect(await receiveTexts(await client.createConsumer(Q1()), 1)).toEqual(['m1']);
    await client.close();
    const again = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const consumer = await again.createConsumer(Q1());
    const got = [];
    for (let i = 0; i < 5; i++) got.push(delivery(await consumer.receive(5000)));
    expect(got).toEqual([
      ['m1', true, 2],
      ['m2', false, 1],
      ['m3', false, 1],
      ['m4', false, 1],
      ['m5', false, 1],
    ]);
  });

  test('recover cycles: the count equals the cycle for every message, order kept (testRedeliveryOnQueue)', async () => {
    const { acked: client, session } = await openMode(Session.CLIENT_ACKNOWLEDGE);
    const texts = Array.from({ length: 30 }, (_, i) => `q${i}`);
    await sendTexts(session, Q1(), texts);
    const consumer = await client.createConsumer(Q1());
    for (let cycle = 1; cycle <= 5; cycle++) {
      const got = [];
      for (let i = 0; i < texts.length; i++) got.push(delivery(await consumer.receive(5000)));
      expect(got).toEqual(texts.map((text) => [text, cycle > 1, cycle]));
      await client.recover();
    }
  });

  test('recover cycles on a topic, for non-durable and durable subscribers (testRedeliveryOnTopic)', async () => {
    const { connection, session } = await fx.open({ clientID: 'dc-topic' });
    const client = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const subscribers = [
      await client.createConsumer(fx.topic('Topic1')),
      await client.createConsumer(fx.topic('Topic1')),
      await client.createDurableSubscriber(fx.topic('Topic1'), 'dc-durable'),
    ];
    const texts = Array.from({ length: 10 }, (_, i) => `t${i}`);
    await sendTexts(session, fx.topic('Topic1'), texts);
    for (let cycle = 1; cycle <= 4; cycle++) {
      for (const subscriber of subscribers) {
        const got = [];
        for (let i = 0; i < texts.length; i++) got.push(delivery(await subscriber.receive(5000)));
        expect(got).toEqual(texts.map((text) => [text, cycle > 1, cycle]));
      }
      await client.recover();
    }
    await (subscribers[2] as { close(): Promise<void> }).close();
    await client.unsubscribe('dc-durable');
  });

  test('transacted: 1, 2, 3 by rollbacks, then 4 after the session closed without commit (testDeliveryCountUpdatedOnCloseTransacted)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['tx']);
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const consumer = await tx.createConsumer(Q1());
    for (let count = 1; count <= 3; count++) {
      expect(delivery(await consumer.receive(5000))).toEqual(['tx', count > 1, count]);
      if (count < 3) await tx.rollback();
    }
    await tx.close();
    const next = await connection.createSession(true, Session.SESSION_TRANSACTED);
    expect(delivery(await (await next.createConsumer(Q1())).receive(5000))).toEqual(['tx', true, 4]);
    await next.commit();
  });

  test('CLIENT_ACKNOWLEDGE: 1, 2, 3 by recovers, then 4 after the session closed (testDeliveryCountUpdatedOnCloseClientAck)', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['ca']);
    const client = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const consumer = await client.createConsumer(Q1());
    for (let count = 1; count <= 3; count++) {
      expect(delivery(await consumer.receive(5000))).toEqual(['ca', count > 1, count]);
      if (count < 3) await client.recover();
    }
    await client.close();
    const next = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const message = await (await next.createConsumer(Q1())).receive(5000);
    expect(delivery(message)).toEqual(['ca', true, 4]);
    await message?.acknowledge();
    expect(fx.messageCount('Queue1')).toBe(0);
  });
});

describe('F6 acknowledge after close', () => {
  test('after the session closed → IllegalStateException', async () => {
    const { acked: client, session } = await openMode(Session.CLIENT_ACKNOWLEDGE);
    await sendTexts(session, Q1(), ['late ack']);
    const message = await (await client.createConsumer(Q1())).receive(5000);
    await client.close();
    expect(await failureOf((message as Message).acknowledge())).toBeInstanceOf(IllegalStateException);
    expect(fx.messageCount('Queue1')).toBe(1);
  });

  test('after the connection closed → IllegalStateException', async () => {
    const { connection, acked: client, session } = await openMode(Session.CLIENT_ACKNOWLEDGE);
    await sendTexts(session, Q1(), ['late ack']);
    const message = await (await client.createConsumer(Q1())).receive(5000);
    await connection.close();
    expect(await failureOf((message as Message).acknowledge())).toBeInstanceOf(IllegalStateException);
    await fx.expectCount('Queue1', 1);
  });
});
