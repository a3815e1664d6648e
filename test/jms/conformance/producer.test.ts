import {
  DeliveryMode,
  IllegalStateException,
  InvalidDestinationException,
  JMSException,
  Message,
  type TextMessage,
} from '../../../src';
import {
  failureOf,
  foreignTextMessage,
  receiveTexts,
  sendTexts,
  textOf,
  useJmsFixture,
} from '../../support/jms-fixture';

/**
 * jms-conformance.md §4 D (MessageProducer) and HornetQ's MessageProducerTest (§2.1): defaults,
 * setters, anonymous producers, foreign messages, closed producers, and what each setting does to
 * the message that arrives.
 */

const fx = useJmsFixture();

describe('D1 defaults and setters', () => {
  test('PERSISTENT, priority 4, time to live 0, message id and timestamp enabled', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    expect(producer.getDeliveryMode()).toBe(DeliveryMode.PERSISTENT);
    expect(producer.getPriority()).toBe(Message.DEFAULT_PRIORITY);
    expect(producer.getPriority()).toBe(4);
    expect(producer.getTimeToLive()).toBe(0);
    expect(producer.getDisableMessageID()).toBe(false);
    expect(producer.getDisableMessageTimestamp()).toBe(false);
    expect(producer.getDestination()).toEqual(fx.queue('Queue1'));
  });

  test('setters round-trip (priority 0 and 9, time to live 100, delivery mode NON_PERSISTENT)', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    producer.setPriority(0);
    expect(producer.getPriority()).toBe(0);
    producer.setPriority(9);
    expect(producer.getPriority()).toBe(9);
    producer.setTimeToLive(100);
    expect(producer.getTimeToLive()).toBe(100);
    producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
    expect(producer.getDeliveryMode()).toBe(DeliveryMode.NON_PERSISTENT);
    producer.setDisableMessageID(true);
    expect(producer.getDisableMessageID()).toBe(true);
    producer.setDisableMessageTimestamp(true);
    expect(producer.getDisableMessageTimestamp()).toBe(true);
  });

  test.each([
    ['delivery mode 3', (p: { setDeliveryMode(m: number): void }) => p.setDeliveryMode(3)],
    ['priority -1', (p: { setPriority(m: number): void }) => p.setPriority(-1)],
    ['priority 10', (p: { setPriority(m: number): void }) => p.setPriority(10)],
    ['time to live -1', (p: { setTimeToLive(m: number): void }) => p.setTimeToLive(-1)],
  ])('an illegal %s is refused with a JMSException', async (_name, set) => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    expect(() => set(producer as never)).toThrow(JMSException);
    expect(producer.getPriority()).toBe(4);
    expect(producer.getDeliveryMode()).toBe(DeliveryMode.PERSISTENT);
    expect(producer.getTimeToLive()).toBe(0);
  });

  test('what the producer is set to is what arrives', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
    producer.setPriority(7);
    producer.setTimeToLive(60_000);
    const sent = session.createTextMessage('configured');
    await producer.send(sent);
    const received = await (await session.createConsumer(fx.queue('Queue1'))).receive(5000);
    expect(received?.getJMSDeliveryMode()).toBe(DeliveryMode.NON_PERSISTENT);
    expect(received?.getJMSPriority()).toBe(7);
    expect(received?.getJMSExpiration()).toBe(sent.getJMSExpiration());
    expect(received?.getJMSExpiration()).toBeGreaterThan(Date.now());
  });

  test('send options override the producer for one send', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    await producer.send(session.createTextMessage('override'), {
      deliveryMode: DeliveryMode.NON_PERSISTENT,
      priority: 1,
      timeToLive: 30_000,
    });
    await producer.send(session.createTextMessage('plain'));
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    const got = [await consumer.receive(5000), await consumer.receive(5000)].map((m) => [
      textOf(m),
      m?.getJMSDeliveryMode(),
      m?.getJMSPriority(),
      (m?.getJMSExpiration() ?? 0) > 0,
    ]);
    expect(got).toEqual(
      expect.arrayContaining([
        ['override', DeliveryMode.NON_PERSISTENT, 1, true],
        ['plain', DeliveryMode.PERSISTENT, 4, false],
      ]),
    );
  });

  test('illegal send options are refused and nothing is sent', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    for (const options of [{ priority: 10 }, { deliveryMode: 0 }, { timeToLive: -5 }]) {
      expect(await failureOf(producer.send(session.createTextMessage('bad'), options))).toBeInstanceOf(
        JMSException,
      );
    }
    await fx.expectCount('Queue1', 0);
  });

  test('disabled timestamp → received JMSTimestamp 0; enabled again → within the send window (testSetTimestampDisabled)', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    producer.setDisableMessageTimestamp(true);
    await producer.send(session.createTextMessage('no ts'));
    expect((await consumer.receive(5000))?.getJMSTimestamp()).toBe(0);
    producer.setDisableMessageTimestamp(false);
    const before = Date.now();
    await producer.send(session.createTextMessage('ts'));
    const received = await consumer.receive(5000);
    const after = Date.now();
    expect(received?.getJMSTimestamp()).toBeGreaterThanOrEqual(before);
    expect(received?.getJMSTimestamp()).toBeLessThanOrEqual(after);
  });

  test('disabled message id → the sent and received JMSMessageID are null', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    producer.setDisableMessageID(true);
    const sent = session.createTextMessage('no id');
    await producer.send(sent);
    expect(sent.getJMSMessageID()).toBeNull();
    const received = await (await session.createConsumer(fx.queue('Queue1'))).receive(5000);
    expect(textOf(received)).toBe('no id');
    expect(received?.getJMSMessageID()).toBeNull();
  });
});

describe('D2 anonymous and identified producers', () => {
  test('an anonymous producer sends to the destination given per send, queue and topic (testSendDestination)', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(null);
    expect(producer.getDestination()).toBeNull();
    const subscriber = await session.createConsumer(fx.topic('Topic2'));
    await producer.send(fx.queue('Queue2'), session.createTextMessage('to queue'));
    await producer.send(fx.topic('Topic2'), session.createTextMessage('to topic'));
    expect(await receiveTexts(await session.createConsumer(fx.queue('Queue2')), 1)).toEqual(['to queue']);
    expect(await receiveTexts(subscriber, 1)).toEqual(['to topic']);
  });

  test('an anonymous producer without a destination fails', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(null);
    expect(await failureOf(producer.send(session.createTextMessage('nowhere')))).toBeInstanceOf(JMSException);
    expect(await failureOf(producer.send(null as never, session.createTextMessage('null')))).toBeInstanceOf(
      InvalidDestinationException,
    );
  });

  test('an identified producer refuses a destination per send', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    expect(await failureOf(producer.send(fx.queue('Queue2'), session.createTextMessage('x')))).toBeInstanceOf(
      JMSException,
    );
    await fx.expectCount('Queue2', 0);
  });

  test("an identified producer ignores the message's own JMSDestination", async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    const message = session.createTextMessage('mine');
    message.setJMSDestination(fx.queue('Queue2'));
    await producer.send(message);
    expect(message.getJMSDestination()).toEqual(fx.queue('Queue1'));
    await fx.expectCount('Queue1', 1);
    expect(fx.messageCount('Queue2')).toBe(0);
  });

  test('sending a null message fails', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    expect(await failureOf(producer.send(null as never))).toBeInstanceOf(JMSException);
  });
});

describe('D3 foreign messages', () => {
  test('a foreign TextMessage is converted and delivered with its properties (testSendForeignMessage)', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    const foreign = foreignTextMessage('from elsewhere', { colour: 'red', count: 3 });
    foreign.setJMSCorrelationID('corr-1');
    foreign.setJMSType('foreign-type');
    await producer.send(foreign);
    const received = (await (await session.createConsumer(fx.queue('Queue1'))).receive(5000)) as TextMessage;
    expect(received.getText()).toBe('from elsewhere');
    expect(received.getStringProperty('colour')).toBe('red');
    expect(received.getObjectProperty('count')).toBe(3);
    expect(received.getJMSCorrelationID()).toBe('corr-1');
    expect(received.getJMSType()).toBe('foreign-type');
  });

  test('after send the foreign object carries the real destination, id and timestamp (testForeignMessageSetDestination)', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    const foreign = foreignTextMessage('dest');
    foreign.setJMSDestination({ getQueueName: () => 'SomewhereElse', toString: () => 'foreign queue' });
    await producer.send(foreign);
    expect(foreign.getJMSDestination()).toEqual(fx.queue('Queue1'));
    expect(foreign.getJMSMessageID()).toMatch(/^ID:/);
    expect(foreign.getJMSTimestamp()).toBeGreaterThan(0);
    const received = await (await session.createConsumer(fx.queue('Queue1'))).receive(5000);
    expect(received?.getJMSMessageID()).toBe(foreign.getJMSMessageID());
    expect(fx.messageCount('Queue2')).toBe(0);
  });

  test('a foreign destination object works for producers and consumers', async () => {
    const { session } = await fx.open();
    const foreignQueue = { getQueueName: () => 'Queue3', toString: () => 'foreign Queue3' };
    await sendTexts(session, foreignQueue, ['via foreign destination']);
    expect(await receiveTexts(await session.createConsumer(foreignQueue), 1)).toEqual([
      'via foreign destination',
    ]);
  });
});

describe('D4 a closed producer', () => {
  test('every getter, setter and send throws IllegalStateException; close again is fine', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    await producer.close();
    const calls: Array<[string, () => unknown]> = [
      ['send', () => producer.send(session.createTextMessage('x'))],
      ['getDestination', () => producer.getDestination()],
      ['getDeliveryMode', () => producer.getDeliveryMode()],
      ['setDeliveryMode', () => producer.setDeliveryMode(DeliveryMode.PERSISTENT)],
      ['getPriority', () => producer.getPriority()],
      ['setPriority', () => producer.setPriority(4)],
      ['getTimeToLive', () => producer.getTimeToLive()],
      ['setTimeToLive', () => producer.setTimeToLive(0)],
      ['getDisableMessageID', () => producer.getDisableMessageID()],
      ['setDisableMessageID', () => producer.setDisableMessageID(true)],
      ['getDisableMessageTimestamp', () => producer.getDisableMessageTimestamp()],
      ['setDisableMessageTimestamp', () => producer.setDisableMessageTimestamp(true)],
    ];
    for (const [name, call] of calls) {
      expect({ name, error: await failureOf(call) }).toEqual({
        name,
        error: expect.any(IllegalStateException),
      });
    }
    await expect(producer.close()).resolves.toBeUndefined();
    await fx.expectCount('Queue1', 0);
  });

  test('closing a producer leaves the session and other producers working', async () => {
    const { session } = await fx.open();
    const a = await session.createProducer(fx.queue('Queue1'));
    const b = await session.createProducer(fx.queue('Queue1'));
    await a.close();
    await b.send(session.createTextMessage('still'));
    expect(await receiveTexts(await session.createConsumer(fx.queue('Queue1')), 1)).toEqual(['still']);
  });
});

describe('round trips (MessageProducerTest)', () => {
  test.each([
    ['persistent', DeliveryMode.PERSISTENT],
    ['non-persistent', DeliveryMode.NON_PERSISTENT],
  ])('%s to a queue: the received message id equals the sent one', async (_name, mode) => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    producer.setDeliveryMode(mode);
    const sent = session.createTextMessage('id check');
    await producer.send(sent);
    const received = await (await session.createConsumer(fx.queue('Queue1'))).receive(5000);
    expect(received?.getJMSMessageID()).toBe(sent.getJMSMessageID());
    expect(received?.getJMSDeliveryMode()).toBe(mode);
    expect(textOf(received)).toBe('id check');
  });

  test.each([
    ['persistent', DeliveryMode.PERSISTENT],
    ['non-persistent', DeliveryMode.NON_PERSISTENT],
  ])('%s to a topic: the subscriber gets the same message id', async (_name, mode) => {
    const { session } = await fx.open();
    const subscriber = await session.createConsumer(fx.topic('Topic1'));
    const producer = await session.createProducer(fx.topic('Topic1'));
    producer.setDeliveryMode(mode);
    const sent = session.createTextMessage('topic id');
    await producer.send(sent);
    const received = await subscriber.receive(5000);
    expect(received?.getJMSMessageID()).toBe(sent.getJMSMessageID());
  });

  test('the same message object sent three times arrives three times with three ids (testSendMoreThanOnce)', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    const message = session.createTextMessage('thrice');
    message.setStringProperty('p', 'v');
    const ids: Array<string | null> = [];
    for (let i = 0; i < 3; i++) {
      await producer.send(message);
      ids.push(message.getJMSMessageID());
    }
    expect(new Set(ids).size).toBe(3);
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    const received = [];
    for (let i = 0; i < 3; i++) received.push(await consumer.receive(5000));
    expect(received.map((m) => m?.getJMSMessageID())).toEqual(ids);
    expect(received.map((m) => [textOf(m), m?.getStringProperty('p')])).toEqual([
      ['thrice', 'v'],
      ['thrice', 'v'],
      ['thrice', 'v'],
    ]);
  });

  test('the sender may change its message after send without touching what was sent', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    const message = session.createTextMessage('original');
    await producer.send(message);
    message.setText('changed');
    message.setStringProperty('late', 'yes');
    const received = await (await session.createConsumer(fx.queue('Queue1'))).receive(5000);
    expect(textOf(received)).toBe('original');
    expect(received?.propertyExists('late')).toBe(false);
  });

  test('messages of one producer arrive in send order, persistent and not mixed (testMessageOrderQueue)', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    const texts: string[] = [];
    for (let i = 0; i < 20; i++) {
      producer.setDeliveryMode(i < 10 ? DeliveryMode.NON_PERSISTENT : DeliveryMode.PERSISTENT);
      texts.push(`o${i}`);
      await producer.send(session.createTextMessage(`o${i}`));
    }
    expect(await receiveTexts(await session.createConsumer(fx.queue('Queue1')), 20)).toEqual(texts);
  });
});
