import { DeliveryMode, Session } from '../../../src';
import { receiveTexts, sendTexts, textOf, useJmsFixture, waitFor } from '../../support/jms-fixture';

/**
 * jms-conformance.md §4 L (priority L1, expiry L2–L3) with HornetQ's JMSPriorityHeaderTest,
 * ExpiredMessageTest and JMSExpirationHeaderTest (§2.2). Priority order is asserted only for
 * messages queued before the consumer exists (§6.10). Expiry here is the broker's check at
 * delivery time; the expiry address is in broker-features.test.ts.
 */

const fx = useJmsFixture();
const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');
const letters = 'abcdefghij'.split('');
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function sendWithPriorities(priorities: number[]): Promise<void> {
  const { connection, session } = await fx.open();
  const producer = await session.createProducer(Q1());
  producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
  for (const [i, priority] of priorities.entries()) {
    await producer.send(session.createTextMessage(letters[i] as string), { priority });
  }
  await fx.expectCount('Queue1', priorities.length);
  await connection.close();
}

describe('L1 priority [HQ ordering]', () => {
  test.each([
    ['default consumer window', 1024 * 1024],
    ['consumer window 0', 0],
  ])('priorities 0..9 on a..j, queued before the consumer, arrive j..a (%s)', async (_name, window) => {
    await sendWithPriorities([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const { session } = await fx.open({ configure: (cf) => cf.setConsumerWindowSize(window) });
    expect(await receiveTexts(await session.createConsumer(Q1()), 10)).toEqual([...letters].reverse());
  });

  test('priorities [0,0,0,3,3,4,4,5,5,6] arrive j,h,i,f,g,d,e,a,b,c: higher first, FIFO within a priority', async () => {
    await sendWithPriorities([0, 0, 0, 3, 3, 4, 4, 5, 5, 6]);
    const { session } = await fx.open();
    expect(await receiveTexts(await session.createConsumer(Q1()), 10)).toEqual('jhifgdeabc'.split(''));
  });

  test('the priority is reported on receipt (testSimple)', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(Q1());
    producer.setPriority(7);
    await producer.send(session.createTextMessage('seven'));
    expect((await (await session.createConsumer(Q1())).receive(5000))?.getJMSPriority()).toBe(7);
  });

  test('a message’s own JMSPriority is ignored: the producer decides (JORAM testJMSPriority_1)', async () => {
    const { session } = await fx.open();
    const message = session.createTextMessage('own priority');
    message.setJMSPriority(0);
    await (await session.createProducer(Q1())).send(message);
    expect(message.getJMSPriority()).toBe(4);
    expect((await (await session.createConsumer(Q1())).receive(5000))?.getJMSPriority()).toBe(4);
  });

  test('priority order holds on a topic subscription too', async () => {
    const { connection, session } = await fx.open();
    const subscriberSession = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const subscriber = await subscriberSession.createConsumer(fx.topic('Topic1'));
    await connection.stop();
    const producer = await session.createProducer(fx.topic('Topic1'));
    for (const [i, priority] of [1, 9, 5].entries()) {
      await producer.send(session.createTextMessage(`p${priority}-${i}`), { priority });
    }
    await waitFor(() => fx.queuesOn('jms.topic.Topic1')[0]?.messageCount === 3, 'three queued');
    await connection.start();
    expect(await receiveTexts(subscriber, 3)).toEqual(['p9-1', 'p5-2', 'p1-0']);
  });
});

describe('L2/L3 expired messages are never delivered', () => {
  test('TTL 1 ms, then 250 ms later a new consumer gets nothing (testSimpleExpiration)', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(Q1());
    producer.setTimeToLive(1);
    await producer.send(session.createTextMessage('expiring'));
    await pause(250);
    expect(await (await session.createConsumer(Q1())).receive(300)).toBeNull();
  });

  test('an expiring then a living message: only the living one arrives (testExpiredAndLivingMessages)', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(Q1());
    await producer.send(session.createTextMessage('expiring'), { timeToLive: 1 });
    await producer.send(session.createTextMessage('living'), { timeToLive: 0 });
    await pause(50);
    const consumer = await session.createConsumer(Q1());
    expect(await receiveTexts(consumer, 1)).toEqual(['living']);
    expect(await consumer.receive(200)).toBeNull();
  });

  test('100 expired messages: none is received (testManyExpiredMessagesAtOnce)', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(Q1());
    producer.setTimeToLive(1);
    producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
    for (let i = 0; i < 100; i++) await producer.send(session.createTextMessage(`e${i}`));
    await pause(50);
    expect(await (await session.createConsumer(Q1())).receive(300)).toBeNull();
  });

  test('an expired message met at delivery is removed from the queue (testExpiredMessageDoesNotGoBackOnQueue)', async () => {
    const { session } = await fx.open();
    await (await session.createProducer(Q1())).send(session.createTextMessage('gone'), { timeToLive: 1 });
    await pause(50);
    const consumer = await session.createConsumer(Q1());
    expect(await consumer.receiveNoWait()).toBeNull();
    await fx.expectCount('Queue1', 0);
    expect(fx.coreQueue('jms.queue.Queue1')?.messagesExpired).toBe(1);
  });

  test('a receive(t) is not cut short by a message that expired before delivery (testReceiveTimeoutPreservation)', async () => {
    const { connection, session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    await connection.stop();
    await (await session.createProducer(Q1())).send(session.createTextMessage('dead'), { timeToLive: 1 });
    await pause(50);
    await connection.start();
    const started = Date.now();
    expect(await consumer.receive(600)).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(590);
  });

  test('a TTL longer than the wait: the message is received; JMSExpiration is timestamp + TTL (testNoExpirationOnReceive)', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(Q1());
    producer.setTimeToLive(5000);
    const sent = session.createTextMessage('alive');
    await producer.send(sent);
    expect(sent.getJMSExpiration()).toBe(sent.getJMSTimestamp() + 5000);
    const received = await (await session.createConsumer(Q1())).receive(5000);
    expect(textOf(received)).toBe('alive');
    expect(received?.getJMSExpiration()).toBe(sent.getJMSExpiration());
  });

  test('default TTL: received JMSExpiration is 0 (testZeroExpiration)', async () => {
    const { session } = await fx.open();
    await sendTexts(session, Q1(), ['forever']);
    expect((await (await session.createConsumer(Q1())).receive(5000))?.getJMSExpiration()).toBe(0);
  });

  test('a browser does not show expired messages', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(Q1());
    await producer.send(session.createTextMessage('expired'), { timeToLive: 1 });
    await producer.send(session.createTextMessage('shown'));
    await pause(50);
    const texts = [];
    for await (const message of (await session.createBrowser(Q1())).getEnumeration())
      texts.push(textOf(message));
    expect(texts).toEqual(['shown']);
  });
});
