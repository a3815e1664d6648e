import {
  DeliveryMode,
  HornetQJMSContext,
  IllegalStateException,
  IllegalStateRuntimeException,
  InvalidClientIDRuntimeException,
  InvalidDestinationRuntimeException,
  InvalidSelectorRuntimeException,
  JMSContext,
  JMSRuntimeException,
  MessageFormatRuntimeException,
  isBytesMessage,
  isMapMessage,
  isObjectMessage,
  isStreamMessage,
  isTextMessage,
  type Message,
} from '../../../src';
import { textOf, useJmsFixture, waitFor } from '../../support/jms-fixture';

/**
 * HornetQ 2.4's JmsContextTest (jms2client), ported to our broker over TCP, plus what the Node
 * idiom adds: promises, `await using`, AbortSignal and `for await`, and the connection shared by
 * contexts made from one another closing with the last of them.
 */

const fx = useJmsFixture();
const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');

async function newContext(mode?: number): Promise<HornetQJMSContext> {
  const factory = fx.factory();
  return fx.track(mode === undefined ? await factory.createContext() : await factory.createContext(mode));
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('JmsContextTest', () => {
  test('testCreateContext / testDupsOK: each session mode, reported back', async () => {
    for (const mode of [
      JMSContext.DUPS_OK_ACKNOWLEDGE,
      JMSContext.SESSION_TRANSACTED,
      JMSContext.CLIENT_ACKNOWLEDGE,
      JMSContext.AUTO_ACKNOWLEDGE,
    ]) {
      const context = await newContext(mode);
      expect(context.getSessionMode()).toBe(mode);
      expect(context.getTransacted()).toBe(mode === JMSContext.SESSION_TRANSACTED);
      expect(context.getAutoStart()).toBe(true);
      await context.close();
    }
  });

  test('testRollbackTest: a transacted context rolls back and commits sends and receives', async () => {
    const context = await newContext();
    const transacted = fx.track(context.createContext(JMSContext.SESSION_TRANSACTED));
    const producer = transacted.createProducer();
    const consumer = await transacted.createConsumer(Q1());
    await producer.send(Q1(), context.createTextMessage('hello'));
    await transacted.rollback();
    expect(await consumer.receiveNoWait()).toBeNull();
    await producer.send(Q1(), context.createTextMessage('hello'));
    await transacted.commit();
    expect(textOf(await consumer.receiveNoWait())).toBe('hello');
    await transacted.commit();
    await transacted.rollback();
    expect(await consumer.receiveNoWait()).toBeNull();
    await consumer.close();
    await fx.expectCount('Queue1', 0);
  });

  test('testReceiveBytes: getBody(Buffer) gives the whole body and leaves the read position', async () => {
    const context = await newContext();
    const consumer = await context.createConsumer(Q1());
    const sent = context.createBytesMessage();
    sent.writeByte(1);
    sent.writeLong(2);
    await context.createProducer().send(Q1(), sent);
    const received = await consumer.receiveNoWait();
    if (!isBytesMessage(received)) throw new Error('expected a BytesMessage');
    const body = received.getBody(Buffer);
    expect(received.readByte()).toBe(1);
    expect(received.readLong()).toBe(2);
    expect(body?.readInt8(0)).toBe(1);
    expect(body?.readBigInt64BE(1)).toBe(2n);
  });

  test('testReceiveText', async () => {
    const context = await newContext();
    const consumer = await context.createConsumer(Q1());
    const text = `random-${Math.random()}`;
    await context.createProducer().send(Q1(), context.createTextMessage(text));
    expect(textOf(await consumer.receiveNoWait())).toBe(text);
  });

  test('testExpire: a message past its time to live is not delivered, by the broker or the client', async () => {
    const context = await newContext();
    const producer = context.createProducer().setTimeToLive(300);
    await producer.send(Q1(), context.createTextMessage('expires on the broker'));
    await new Promise((resolve) => setTimeout(resolve, 600));
    const consumer = await context.createConsumer(Q1());
    expect(await consumer.receiveNoWait()).toBeNull();
    await producer.send(Q1(), context.createTextMessage('expires on the client'));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await consumer.receiveNoWait()).toBeNull();
    await producer.setTimeToLive(0).send(Q1(), context.createTextMessage('lives'));
    expect(textOf(await consumer.receiveNoWait())).toBe('lives');
  });

  test('testDeliveryMode: the producer sets it on what it sends', async () => {
    const context = await newContext();
    const consumer = await context.createConsumer(Q1());
    const producer = context.createProducer().setDeliveryMode(DeliveryMode.NON_PERSISTENT);
    expect(producer.getDeliveryMode()).toBe(DeliveryMode.NON_PERSISTENT);
    await producer.send(Q1(), context.createTextMessage('np'));
    expect((await consumer.receiveNoWait())?.getJMSDeliveryMode()).toBe(DeliveryMode.NON_PERSISTENT);
  });

  test('testInvalidMessage: a null message is MessageFormatRuntimeException', async () => {
    const context = await newContext();
    const send = context.createProducer().send(Q1(), null as unknown as Message);
    await expect(send).rejects.toBeInstanceOf(MessageFormatRuntimeException);
  });

  test('testInvalidDestination: a null destination is InvalidDestinationRuntimeException', async () => {
    const context = await newContext();
    const send = context.createProducer().send(null as never, context.createMessage());
    await expect(send).rejects.toBeInstanceOf(InvalidDestinationRuntimeException);
  });

  test('testSendStreamMessage: properties and body arrive', async () => {
    const context = await newContext();
    const sent = context.createStreamMessage();
    sent.setStringProperty('name', 'testSendStreamMessage');
    sent.setBooleanProperty('booleanProp', true);
    sent.setIntProperty('intProp', 42);
    sent.writeBoolean(true);
    sent.writeInt(67);
    await context.createProducer().send(Q1(), sent);
    const consumer = await context.createConsumer(Q1());
    const received = await consumer.receive(5000);
    if (!isStreamMessage(received)) throw new Error('expected a StreamMessage');
    expect(received.getBooleanProperty('booleanProp')).toBe(true);
    expect(received.getIntProperty('intProp')).toBe(42);
    expect(received.readBoolean()).toBe(true);
    expect(received.readInt()).toBe(67);
  });

  test('testSetClientIdLate: after the context has been used, IllegalStateRuntimeException', async () => {
    const context = await newContext();
    await context.createProducer().send(Q1(), context.createMessage());
    await expect(context.setClientID('id')).rejects.toBeInstanceOf(IllegalStateRuntimeException);
  });

  test('testCloseSecondContextConnectionRemainsOpen: acknowledge after the context closed is IllegalStateException', async () => {
    const context = await newContext();
    const local = context.createContext(JMSContext.CLIENT_ACKNOWLEDGE);
    expect(local.getSessionMode()).toBe(JMSContext.CLIENT_ACKNOWLEDGE);
    const producer = local.createProducer();
    const consumer = await local.createConsumer(Q1());
    for (const pass of [0, 1]) {
      const sent = local.createMessage();
      const random = Math.floor(Math.random() * 1e9);
      sent.setIntProperty('random', random);
      await producer.send(Q1(), sent);
      const received = await consumer.receive(5000);
      if (received === null) throw new Error('must have a message');
      expect(received.getIntProperty('random')).toBe(random);
      if (pass === 1) {
        await local.close();
        await expect(received.acknowledge()).rejects.toBeInstanceOf(IllegalStateException);
      } else {
        await received.acknowledge();
      }
    }
    // The first context still has the shared connection.
    expect(context.createMessage()).toBeDefined();
    await context.createProducer().send(Q1(), 'still open');
    // The second message was never acknowledged: it is back on the queue, with the third.
    await fx.expectCount('Queue1', 2);
  });

  test.each([-1, 4, 1.5])(
    'testInvalidSessionModesValue %p: JMSRuntimeException naming the modes',
    async (mode) => {
      const context = await newContext();
      expect(() => context.createContext(mode)).toThrow(JMSRuntimeException);
      expect(() => context.createContext(mode)).toThrow(/Invalid session mode .*AUTO_ACKNOWLEDGE/);
      await expect(fx.factory().createContext(mode)).rejects.toBeInstanceOf(JMSRuntimeException);
    },
  );

  test('testGetAnotherContextFromIt: closing the second closes its session, not the shared connection', async () => {
    const context = await newContext();
    const second = context.createContext(JMSContext.DUPS_OK_ACKNOWLEDGE);
    expect(second.getSessionMode()).toBe(JMSContext.DUPS_OK_ACKNOWLEDGE);
    expect(second.createMessage()).toBeDefined();
    await second.createProducer().send(Q1(), 'from the second');
    await second.close();
    expect(() => second.createMessage()).toThrow(IllegalStateRuntimeException);
    expect(context.createMessage()).toBeDefined();
    const consumer = await context.createConsumer(Q1());
    expect(textOf(await consumer.receive(5000))).toBe('from the second');
  });

  test('testSetGetClientIdNewContext / testGetClientId: the client id is the shared connection’s', async () => {
    const context = await newContext();
    await context.setClientID('123');
    const second = fx.track(context.createContext(JMSContext.CLIENT_ACKNOWLEDGE));
    expect(second.getClientID()).toBe('123');

    const other = await newContext();
    const sharing = fx.track(other.createContext(JMSContext.AUTO_ACKNOWLEDGE));
    await other.setClientID('ID: 42');
    expect(sharing.getClientID()).toBe('ID: 42');
    // Client ids stay unique across connections.
    const third = await newContext();
    await expect(third.setClientID('123')).rejects.toBeInstanceOf(InvalidClientIDRuntimeException);
  });

  test('testCreateConsumerWithSelector', async () => {
    const context = await newContext();
    const producer = context.createProducer();
    const all = await context.createConsumer(Q1());
    const selected = await context.createConsumer(Q1(), 'magicIndexMessage=TRUE');
    for (let i = 0; i < 5; i++) {
      const message = context.createTextMessage(`message ${i}`);
      message.setBooleanProperty('magicIndexMessage', i === 3);
      await producer.send(Q1(), message);
    }
    expect(textOf(await selected.receive(5000))).toBe('message 3');
    expect(await selected.receiveNoWait()).toBeNull();
    const rest: Array<string | null> = [];
    for (let i = 0; i < 4; i++) rest.push(textOf(await all.receive(5000)));
    expect(rest).toEqual(['message 0', 'message 1', 'message 2', 'message 4']);
    expect(await all.receiveNoWait()).toBeNull();
    await expect(context.createConsumer(Q1(), 'a =')).rejects.toBeInstanceOf(InvalidSelectorRuntimeException);
  });

  test('testContextStopAndCloseFromMessageListeners: IllegalStateRuntimeException in the listener; fine outside', async () => {
    const context = await newContext();
    for (const action of ['stop', 'close'] as const) {
      const inner = context.createContext(JMSContext.AUTO_ACKNOWLEDGE);
      const consumer = await inner.createConsumer(Q1());
      const failure = deferred<unknown>();
      consumer.setMessageListener(async () => {
        try {
          await (action === 'stop' ? inner.stop() : inner.close());
          failure.resolve(null);
        } catch (error) {
          failure.resolve(error);
        }
      });
      await inner.createProducer().send(Q1(), inner.createTextMessage(`${action} message`));
      expect(await failure.promise).toBeInstanceOf(IllegalStateRuntimeException);
      await inner.close();
    }
    // Both messages were handled by listeners that returned normally: acknowledged.
    await fx.expectCount('Queue1', 0);
  });

  test('recoverAckTest: CLIENT_ACKNOWLEDGE, recover redelivers, context.acknowledge acknowledges all', async () => {
    {
      await using context = await fx.factory().createContext(JMSContext.CLIENT_ACKNOWLEDGE);
      const consumer = await context.createConsumer(Q1());
      const producer = context.createProducer();
      for (let i = 0; i < 10; i++) {
        const message = context.createTextMessage(`text message ${i}`);
        message.setStringProperty('COM_SUN_JMS_TESTNAME', `recoverAckTest${i}`);
        await producer.send(Q1(), message);
      }
      for (let i = 0; i < 10; i++) expect(await consumer.receive(5000)).not.toBeNull();
      await context.recover();
      for (let i = 0; i < 10; i++) {
        const again = await consumer.receive(5000);
        expect(again?.getJMSRedelivered()).toBe(true);
      }
      await context.acknowledge();
    }
    await using check = await fx.factory().createContext(JMSContext.CLIENT_ACKNOWLEDGE);
    const consumer = await check.createConsumer(Q1());
    expect(await consumer.receiveNoWait()).toBeNull();
  });
});

describe('the context in Node', () => {
  test('the connection closes with the last context sharing it, and only then', async () => {
    const before = fx.broker.getConnectionCount();
    const first = await fx.factory().createContext();
    const second = first.createContext(JMSContext.CLIENT_ACKNOWLEDGE);
    const third = second.createContext(JMSContext.SESSION_TRANSACTED);
    await third.createProducer().send(Q1(), 'x');
    expect(fx.broker.getConnectionCount()).toBe(before + 1);
    await first.close();
    await second.close();
    await first.close();
    expect(fx.broker.getConnectionCount()).toBe(before + 1);
    await third.close();
    await waitFor(() => fx.broker.getConnectionCount() === before, 'the shared connection to close');
    expect(() => third.createContext(JMSContext.AUTO_ACKNOWLEDGE)).toThrow(IllegalStateRuntimeException);
  });

  test('await using closes the context; setAutoStart(false) leaves delivery to start()', async () => {
    const before = fx.broker.getConnectionCount();
    {
      await using context = await fx.factory().createContext();
      context.setAutoStart(false);
      const consumer = await context.createConsumer(Q1());
      await context.createProducer().send(Q1(), 'held');
      expect(await consumer.receive(300)).toBeNull();
      await context.start();
      expect(textOf(await consumer.receive(5000))).toBe('held');
    }
    await waitFor(() => fx.broker.getConnectionCount() === before, 'the context to close its connection');
  });

  test('receive takes an AbortSignal: rejects with its reason and consumes nothing', async () => {
    const context = await newContext();
    const consumer = await context.createConsumer(Q1());
    const controller = new AbortController();
    const receiving = consumer.receive(0, { signal: controller.signal });
    const reason = new Error('no longer wanted');
    controller.abort(reason);
    await expect(receiving).rejects.toBe(reason);
    await context.createProducer().send(Q1(), 'after the abort');
    expect(textOf(await consumer.receive(5000))).toBe('after the abort');
  });

  test('for await yields messages until the context closes', async () => {
    const context = await fx.factory().createContext();
    const consumer = await context.createConsumer(Q1());
    const producer = context.createProducer();
    for (const text of ['a', 'b', 'c']) await producer.send(Q1(), text);
    const got: Array<string | null> = [];
    const loop = (async () => {
      for await (const message of consumer) {
        got.push(textOf(message));
        if (got.length === 3) void context.close();
      }
    })();
    await loop;
    expect(got).toEqual(['a', 'b', 'c']);
  });

  test('JMSProducer bodies: string, bytes, Map, plain object, other values, as HornetQ maps them', async () => {
    const context = await newContext();
    const consumer = await context.createConsumer(Q1());
    const producer = context.createProducer();
    await producer.send(Q1(), 'text');
    await producer.send(Q1(), Buffer.from([1, 2, 3]));
    await producer.send(
      Q1(),
      new Map<string, unknown>([
        ['i', 13],
        ['s', 'crocodile'],
        ['b', true],
      ]),
    );
    await producer.send(Q1(), { long: 2n ** 40n, bytes: new Uint8Array([9]) });
    await producer.send(Q1(), [1, 'two']);
    await producer.send(Q1(), 37.6);

    const text = await consumer.receive(5000);
    expect(isTextMessage(text) && text.getText()).toBe('text');
    const bytes = await consumer.receive(5000);
    expect(isBytesMessage(bytes) && bytes.getBody(Buffer)).toEqual(Buffer.from([1, 2, 3]));
    const map = await consumer.receive(5000);
    expect(isMapMessage(map) && map.getBody(Map)).toEqual(
      new Map<string, unknown>([
        ['i', 13],
        ['s', 'crocodile'],
        ['b', true],
      ]),
    );
    const record = await consumer.receive(5000);
    if (!isMapMessage(record)) throw new Error('a plain object is sent as a MapMessage');
    expect(record.getLong('long')).toBe(2 ** 40);
    expect(record.getBytes('bytes')).toEqual(Buffer.from([9]));
    const array = await consumer.receive(5000);
    expect(isObjectMessage(array) && array.getBody(Array)).toEqual([1, 'two']);
    const number = await consumer.receive(5000);
    expect(isObjectMessage(number) && number.getBody(Number)).toBe(37.6);
  });

  test('JMSProducer headers and properties go on every message; bad values are refused where set', async () => {
    const context = await newContext();
    const consumer = await context.createConsumer(Q1());
    const replyTo = fx.queue('Queue2');
    const producer = context
      .createProducer()
      .setPriority(7)
      .setJMSCorrelationID('corr-1')
      .setJMSType('order')
      .setJMSReplyTo(replyTo)
      .setProperty('count', 3)
      .setProperty('big', 2n ** 40n)
      .setProperty('name', 'x')
      .setProperty('flag', true)
      .setDisableMessageTimestamp(true);
    expect(producer.getIntProperty('count')).toBe(3);
    expect(producer.getStringProperty('count')).toBe('3');
    expect(producer.getLongProperty('big')).toBe(2 ** 40);
    expect(producer.propertyExists('flag')).toBe(true);
    expect(new Set(producer.getPropertyNames())).toEqual(new Set(['count', 'big', 'name', 'flag']));
    expect(() => producer.getBooleanProperty('count')).toThrow(MessageFormatRuntimeException);
    expect(() => producer.setProperty('', 1)).toThrow(TypeError);
    expect(() => producer.setProperty('bad', {} as never)).toThrow(MessageFormatRuntimeException);
    expect(() => producer.setPriority(10)).toThrow(JMSRuntimeException);
    expect(() => producer.setDeliveryMode(3)).toThrow(JMSRuntimeException);
    expect(() => producer.setTimeToLive(-1)).toThrow(JMSRuntimeException);
    expect(() => producer.setJMSCorrelationIDAsBytes(new Uint8Array(0))).toThrow(JMSRuntimeException);

    await producer.send(Q1(), 'first');
    await producer.clearProperties().send(Q1(), 'second');
    const first = await consumer.receive(5000);
    if (first === null) throw new Error('expected the first message');
    expect(first.getJMSPriority()).toBe(7);
    expect(first.getJMSCorrelationID()).toBe('corr-1');
    expect(first.getJMSType()).toBe('order');
    expect(first.getJMSReplyTo()).toEqual(replyTo);
    expect(first.getJMSTimestamp()).toBe(0);
    expect(first.getIntProperty('count')).toBe(3);
    expect(first.getLongProperty('big')).toBe(2 ** 40);
    expect(first.getBooleanProperty('flag')).toBe(true);
    const second = await consumer.receive(5000);
    expect(second?.propertyExists('count')).toBe(false);
    expect(second?.getJMSCorrelationID()).toBe('corr-1');
  });

  test('two JMSProducers of one context keep their own producer-wide settings', async () => {
    const context = await newContext();
    const consumer = await context.createConsumer(Q1());
    const withoutIds = context.createProducer().setDisableMessageID(true);
    const withIds = context.createProducer();
    await Promise.all([withoutIds.send(Q1(), 'no id'), withIds.send(Q1(), 'id')]);
    const byText = new Map<string | null, string | null>();
    for (let i = 0; i < 2; i++) {
      const message = await consumer.receive(5000);
      byText.set(textOf(message), message?.getJMSMessageID() ?? null);
    }
    expect(byText.get('no id')).toBeNull();
    expect(byText.get('id')).toMatch(/^ID:/);
  });

  test('a closed context refuses everything with IllegalStateRuntimeException; close is idempotent', async () => {
    const context = await newContext();
    await context.close();
    await context.close();
    expect(() => context.createTextMessage('x')).toThrow(IllegalStateRuntimeException);
    expect(() => context.createProducer()).toThrow(IllegalStateRuntimeException);
    expect(() => context.getClientID()).toThrow(IllegalStateRuntimeException);
    expect(() => context.setExceptionListener(null)).toThrow(IllegalStateRuntimeException);
    await expect(context.createConsumer(Q1())).rejects.toBeInstanceOf(IllegalStateRuntimeException);
    await expect(context.commit()).rejects.toBeInstanceOf(IllegalStateRuntimeException);
    await expect(context.acknowledge()).rejects.toBeInstanceOf(IllegalStateRuntimeException);
  });

  test('commit on a context that is not transacted is IllegalStateRuntimeException', async () => {
    const context = await newContext();
    await expect(context.commit()).rejects.toBeInstanceOf(IllegalStateRuntimeException);
    await expect(context.rollback()).rejects.toBeInstanceOf(IllegalStateRuntimeException);
  });

  test('createContext overloads: (), (mode), (user, password), (user, password, mode), each with AbortOptions', async () => {
    const factory = fx.factory();
    const contexts = [
      await factory.createContext(),
      await factory.createContext({ signal: AbortSignal.timeout(10_000) }),
      await factory.createContext(JMSContext.CLIENT_ACKNOWLEDGE),
      await factory.createContext('user', 'password'),
      await factory.createContext('user', 'password', JMSContext.SESSION_TRANSACTED, {
        signal: AbortSignal.timeout(10_000),
      }),
    ];
    expect(contexts.map((context) => context.getSessionMode())).toEqual([1, 1, 2, 1, 0]);
    const aborted = AbortSignal.abort(new Error('not now'));
    await expect(factory.createContext({ signal: aborted })).rejects.toThrow('not now');
    for (const context of contexts) await context.close();
  });
});
