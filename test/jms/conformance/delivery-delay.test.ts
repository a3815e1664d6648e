import {
  HornetQMessage,
  IllegalStateException,
  JMSException,
  type HornetQMessageConsumer,
  type Message,
} from '../../../src';
import { expectNothing, failureOf, receiveTexts, textOf, useJmsFixture } from '../../support/jms-fixture';

/**
 * JMS 2.0 delivery delay (issue 27 item 2) as HornetQ 2.4 computes it: the producer stamps
 * JMSDeliveryTime ('_HQ_SCHED_DELIVERY') with its clock plus the delay, and the broker holds the
 * message until then. JmsContextTest.testDelay at the producer level, on our broker.
 */

const fx = useJmsFixture();
const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');
const DELAY_MS = 500;

/** Receives one message and says when it came, after `since`. */
async function receiveTimed(
  consumer: HornetQMessageConsumer,
  since: number,
): Promise<{ text: string | null; deliveryTime: number; elapsed: number }> {
  const message = await consumer.receive(5000);
  const elapsed = Date.now() - since;
  if (message === null) throw new Error('no message within 5 s');
  return { text: textOf(message), deliveryTime: ours(message).getJMSDeliveryTime(), elapsed };
}

/** What our consumers deliver: a HornetQMessage, which has JMS 2.0's getJMSDeliveryTime. */
function ours(message: Message | null): HornetQMessage {
  if (!(message instanceof HornetQMessage)) throw new Error('expected a received HornetQMessage');
  return message;
}

describe('a producer delivery delay', () => {
  test('a 500 ms delay arrives in [500, 2000) ms, its JMSDeliveryTime the send time + 500 (testDelay)', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const producer = await session.createProducer(Q1());
    expect(producer.getDeliveryDelay()).toBe(0);
    producer.setDeliveryDelay(DELAY_MS);
    expect(producer.getDeliveryDelay()).toBe(DELAY_MS);
    const message = session.createTextMessage('delayed');
    const before = Date.now();
    await producer.send(message);
    const after = Date.now();
    // The sent message carries what was stamped on it, as HornetQ's does.
    expect(message.getJMSDeliveryTime()).toBeGreaterThanOrEqual(before + DELAY_MS);
    expect(message.getJMSDeliveryTime()).toBeLessThanOrEqual(after + DELAY_MS);
    expect(message.getJMSDeliveryTime() - message.getJMSTimestamp()).toBe(DELAY_MS);

    const received = await receiveTimed(consumer, before);
    expect(received.text).toBe('delayed');
    expect(received.elapsed).toBeGreaterThanOrEqual(DELAY_MS);
    expect(received.elapsed).toBeLessThan(2000);
    expect(received.deliveryTime).toBe(message.getJMSDeliveryTime());
  });

  test('without a delay nothing is stamped: JMSDeliveryTime is 0 on the sent and the received message (HornetQ 2.4)', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const producer = await session.createProducer(Q1());
    const message = session.createTextMessage('now');
    await producer.send(message);
    expect(message.getJMSDeliveryTime()).toBe(0);
    const received = ours(await consumer.receive(5000));
    expect(received.getJMSDeliveryTime()).toBe(0);
    expect(received.getCoreMessage().properties.has('_HQ_SCHED_DELIVERY')).toBe(false);
  });

  test('a delayed message is overtaken by one sent after it without delay', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const producer = await session.createProducer(Q1());
    await producer.send(session.createTextMessage('late'), { deliveryDelay: DELAY_MS });
    await producer.send(session.createTextMessage('early'));
    expect(await receiveTexts(consumer, 2)).toEqual(['early', 'late']);
  });

  test("the send option overrides the producer's delay, either way", async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const producer = await session.createProducer(Q1());
    producer.setDeliveryDelay(60_000);
    const before = Date.now();
    await producer.send(session.createTextMessage('undelayed'), { deliveryDelay: 0 });
    const received = await receiveTimed(consumer, before);
    expect(received).toMatchObject({ text: 'undelayed', deliveryTime: 0 });
    expect(received.elapsed).toBeLessThan(DELAY_MS);

    producer.setDeliveryDelay(0);
    const start = Date.now();
    await producer.send(session.createTextMessage('delayed'), { deliveryDelay: DELAY_MS });
    await expectNothing(consumer, 200);
    const delayed = await receiveTimed(consumer, start);
    expect(delayed.text).toBe('delayed');
    expect(delayed.elapsed).toBeGreaterThanOrEqual(DELAY_MS);
  });

  test("a topic's subscribers get the delayed message at its delivery time too", async () => {
    const { session } = await fx.open();
    const topic = fx.topic('Delayed');
    const subscribers = [await session.createConsumer(topic), await session.createConsumer(topic)];
    const producer = await session.createProducer(topic);
    producer.setDeliveryDelay(DELAY_MS);
    const before = Date.now();
    await producer.send(session.createTextMessage('to all'));
    for (const subscriber of subscribers) {
      const received = await receiveTimed(subscriber, before);
      expect(received.text).toBe('to all');
      expect(received.elapsed).toBeGreaterThanOrEqual(DELAY_MS);
    }
  });

  test('a negative or fractional delay is refused with a JMSException naming it, at set and at send; nothing is sent', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(Q1());
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => producer.setDeliveryDelay(bad)).toThrow(JMSException);
      expect(() => producer.setDeliveryDelay(bad)).toThrow(
        /Illegal delivery delay .*: must be an integer >= 0/,
      );
      const error = await failureOf(producer.send(session.createTextMessage('x'), { deliveryDelay: bad }));
      expect(error).toBeInstanceOf(JMSException);
    }
    expect(producer.getDeliveryDelay()).toBe(0);
    expect(fx.messageCount('Queue1')).toBe(0);
    await producer.close();
    expect(() => producer.getDeliveryDelay()).toThrow(IllegalStateException);
    expect(() => producer.setDeliveryDelay(1)).toThrow(IllegalStateException);
  });
});
