import {
  IllegalStateRuntimeException,
  JMSContext,
  JMSRuntimeException,
  isBytesMessage,
  isMessage,
  isStreamMessage,
  type CompletionListener,
  type HornetQJMSContext,
  type JMSException,
  type Message,
} from '../../../src';
import { textOf, useJmsFixture, waitFor } from '../../support/jms-fixture';

/**
 * What the context has from the other JMS 2.0 pieces: shared and durable subscriptions,
 * delivery delay and CompletionListener sends (JmsContextTest's testDelay, bytesMessage,
 * testSendStreamMessage and illegalStateRuntimeExceptionTests; SharedConsumerTest through a
 * context), on our broker over TCP.
 */

function deployedTopic(name: string): { name: string; address: string; filter: string; durable: boolean } {
  const address = `jms.topic.${name}`;
  return { name: address, address, filter: '__HQX=-1', durable: true };
}

const fx = useJmsFixture({ broker: { queues: [deployedTopic('Topic1')] } });
const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');
const T1 = (): ReturnType<typeof fx.topic> => fx.topic('Topic1');

/** A context whose connection confirms sends, as CompletionListener sends need. */
async function confirmingContext(mode: number = JMSContext.AUTO_ACKNOWLEDGE): Promise<HornetQJMSContext> {
  const factory = fx.factory((f) => f.setConfirmationWindowSize(1024 * 1024));
  return fx.track(await factory.createContext(mode));
}

/** A CompletionListener whose `next` resolves with the message (or rejects with the error) of each send. */
function recordingListener(onCompletion?: (message: Message) => void): CompletionListener & {
  completed: Promise<Message>;
} {
  let resolve!: (message: Message) => void;
  let reject!: (error: JMSException) => void;
  const completed = new Promise<Message>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return {
    completed,
    onCompletion(message) {
      onCompletion?.(message);
      resolve(message);
    },
    onException(_message, error) {
      reject(error);
    },
  };
}

describe('subscriptions through a context', () => {
  test('two contexts (two services) split a shared subscription; it ends with its last consumer', async () => {
    const first = fx.track(await fx.factory().createContext());
    const second = fx.track(await fx.factory().createContext());
    const a = await first.createSharedConsumer(T1(), 'orders');
    const b = await second.createSharedConsumer(T1(), 'orders');
    expect(fx.queuesOn('jms.topic.Topic1').map((queue) => queue.name)).toContain('nonDurable.orders');
    const producer = first.createProducer();
    for (let i = 0; i < 10; i++) await producer.send(T1(), `m${i}`);
    const got: string[] = [];
    const deadline = Date.now() + 10_000;
    const counts = [0, 0];
    while (got.length < 10 && Date.now() < deadline) {
      for (const [index, consumer] of [a, b].entries()) {
        const body = await consumer.receiveBody(String, 50);
        if (body !== null) {
          got.push(body);
          counts[index]! += 1;
        }
      }
    }
    expect(got.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `m${i}`).sort());
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1]).toBeGreaterThan(0);
    await a.close();
    await b.close();
    await waitFor(
      () => !fx.queuesOn('jms.topic.Topic1').some((queue) => queue.name === 'nonDurable.orders'),
      'the non-durable shared subscription to go with its last consumer',
    );
  });

  test('a shared durable subscription keeps messages until unsubscribe, which is refused while it has a consumer', async () => {
    const context = fx.track(await fx.factory().createContext());
    const consumer = await context.createSharedDurableConsumer(T1(), 'audit', "kind = 'keep'");
    await expect(context.unsubscribe('audit')).rejects.toBeInstanceOf(IllegalStateRuntimeException);
    await consumer.close();
    const producer = context.createProducer();
    await producer.setProperty('kind', 'keep').send(T1(), 'kept');
    await producer.setProperty('kind', 'drop').send(T1(), 'dropped');
    const again = await context.createSharedDurableConsumer(T1(), 'audit', "kind = 'keep'");
    expect(await again.receiveBody(String, 5000)).toBe('kept');
    expect(await again.receiveBodyNoWait(String)).toBeNull();
    await again.close();
    await context.unsubscribe('audit');
    expect(fx.queuesOn('jms.topic.Topic1').some((queue) => queue.name === 'audit')).toBe(false);
  });

  test('createDurableConsumer needs a client id and keeps messages while closed', async () => {
    const context = fx.track(await fx.factory().createContext());
    await context.setClientID('ctx-client');
    const consumer = await context.createDurableConsumer(T1(), 'sub');
    await consumer.close();
    await context.createProducer().send(T1(), 'while away');
    const back = await context.createDurableConsumer(T1(), 'sub');
    expect(textOf(await back.receive(5000))).toBe('while away');
    await back.close();
    await context.unsubscribe('sub');
    const anonymous = fx.track(await fx.factory().createContext());
    await expect(anonymous.createDurableConsumer(T1(), 'sub')).rejects.toBeInstanceOf(
      IllegalStateRuntimeException,
    );
  });
});

describe('delivery delay and asynchronous sends', () => {
  test('testDelay: a 500 ms delay arrives no sooner (and not much later)', async () => {
    const context = fx.track(await fx.factory().createContext());
    const consumer = await context.createConsumer(Q1());
    const producer = context.createProducer().setDeliveryDelay(500);
    expect(producer.getDeliveryDelay()).toBe(500);
    const start = Date.now();
    await producer.send(Q1(), 'later');
    const message = await consumer.receive(10_000);
    const waited = Date.now() - start;
    expect(textOf(message)).toBe('later');
    if (!isMessage(message)) throw new Error('expected a message of this package');
    expect(message.getJMSDeliveryTime()).toBeGreaterThanOrEqual(start + 500);
    expect(waited).toBeGreaterThanOrEqual(500);
    expect(waited).toBeLessThan(5000);
    expect(() => producer.setDeliveryDelay(-1)).toThrow(JMSRuntimeException);
  });

  test('bytesMessage: setAsync sends, and the listener gets the message once the broker confirmed it', async () => {
    const context = await confirmingContext();
    const producer = context.createProducer();
    const sent = context.createBytesMessage();
    sent.setStringProperty('COM_SUN_JMS_TESTNAME', 'sendAndRecvMsgOfEachTypeCLTest');
    sent.writeByte(1);
    sent.writeInt(22);
    const listener = recordingListener();
    expect(producer.setAsync(listener).getAsync()).toBe(listener);
    await producer.send(Q1(), sent);
    const completed = await listener.completed;
    expect(completed).toBe(sent);
    if (!isBytesMessage(completed)) throw new Error('expected the BytesMessage sent');
    expect(completed.readByte()).toBe(1);
    expect(completed.readInt()).toBe(22);
    await fx.expectCount('Queue1', 1);
    await producer.setAsync(null).send(Q1(), 'synchronous again');
    await fx.expectCount('Queue1', 2);
  });

  test('testSendStreamMessage: an asynchronous send arrives whole, and the listener has it', async () => {
    const context = await confirmingContext();
    const listener = recordingListener();
    const producer = context.createProducer().setAsync(listener).setPriority(6).setDeliveryDelay(10);
    const sent = context.createStreamMessage();
    sent.setBooleanProperty('booleanProp', true);
    sent.setIntProperty('intProp', 42);
    sent.writeBoolean(true);
    sent.writeInt(67);
    await producer.send(Q1(), sent);
    const consumer = await context.createConsumer(Q1());
    const received = await consumer.receive(5000);
    expect(received?.getJMSPriority()).toBe(6);
    const completed = await listener.completed;
    if (!isStreamMessage(completed)) throw new Error('expected the StreamMessage sent');
    expect(completed.getBooleanProperty('booleanProp')).toBe(true);
    expect(completed.getIntProperty('intProp')).toBe(42);
    expect(completed.readBoolean()).toBe(true);
    expect(completed.readInt()).toBe(67);
  });

  test('illegalStateRuntimeExceptionTests: stop from a CompletionListener works; close and commit do not', async () => {
    const context = await confirmingContext();
    const transacted = context.createContext(JMSContext.SESSION_TRANSACTED);
    const outcomes: Record<string, unknown> = {};
    const listener = recordingListener(() => {
      outcomes['stop'] = context.stop().then(
        () => 'stopped',
        (error: unknown) => error,
      );
      outcomes['close'] = context.close().then(
        () => 'closed',
        (error: unknown) => error,
      );
    });
    await context.createProducer().setAsync(listener).send(Q1(), 'x');
    await listener.completed;
    expect(await outcomes['stop']).toBe('stopped');
    expect(await outcomes['close']).toBeInstanceOf(IllegalStateRuntimeException);

    const commitFromListener = recordingListener();
    let commitOutcome: Promise<unknown> = Promise.resolve(null);
    const committing: CompletionListener = {
      onCompletion: (message) => {
        commitOutcome = transacted.commit().then(
          () => 'committed',
          (error: unknown) => error,
        );
        commitFromListener.onCompletion(message);
      },
      onException: (message, error) => commitFromListener.onException(message, error),
    };
    await transacted.createProducer().setAsync(committing).send(Q1(), 'in a transaction');
    await commitFromListener.completed;
    expect(await commitOutcome).toBeInstanceOf(IllegalStateRuntimeException);
    await transacted.close();
  });
});

describe('InvalidDestinationTest / NonExistentQueueTest', () => {
  test('invalidDestinationRuntimeExceptionTests: a null destination or topic is InvalidDestinationRuntimeException everywhere', async () => {
    const context = fx.track(await fx.factory().createContext());
    const producer = context.createProducer();
    const none = null as never;
    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['send(message)', () => producer.send(none, context.createTextMessage('hello world'))],
      ['send(string)', () => producer.send(none, 'hello world')],
      ['send(object message)', () => producer.send(none, context.createObjectMessage('x'))],
      ['send(bytes)', () => producer.send(none, Buffer.from('hello world'))],
      ['send(map)', () => producer.send(none, { s: 'foo', b: true, i: 1 })],
      ['createConsumer', () => context.createConsumer(none)],
      ['createConsumer(selector)', () => context.createConsumer(none, 'lastMessage = TRUE')],
      ['createConsumer(selector, noLocal)', () => context.createConsumer(none, 'lastMessage = TRUE', false)],
      [
        'createDurableConsumer',
        () => context.createDurableConsumer(none, 'InvalidDestinationRuntimeException'),
      ],
      [
        'createDurableConsumer(selector)',
        () =>
          context.createDurableConsumer(
            none,
            'InvalidDestinationRuntimeException',
            'lastMessage = TRUE',
            false,
          ),
      ],
      ['createSharedDurableConsumer', () => context.createSharedDurableConsumer(none, 'Invalid')],
      [
        'createSharedDurableConsumer(selector)',
        () => context.createSharedDurableConsumer(none, 'Invalid', 'a = 1'),
      ],
      ['unsubscribe(unknown)', () => context.unsubscribe('InvalidSubscriptionName')],
      ['createSharedConsumer', () => context.createSharedConsumer(none, 'Invalid')],
      ['createSharedConsumer(selector)', () => context.createSharedConsumer(none, 'Invalid', 'a = 1')],
    ];
    for (const [what, attempt] of attempts) {
      const error = await attempt().then(
        () => null,
        (failure: unknown) => failure,
      );
      expect([what, (error as Error | null)?.name]).toEqual([what, 'InvalidDestinationRuntimeException']);
    }
  });

  test('sendToNonExistantDestination: JMS 1.1 throws a JMSException, the context a JMSRuntimeException', async () => {
    const missing = fx.queue('DoesNotExist');
    const { session } = await fx.open();
    const anonymous = await session.createProducer(null);
    await expect(anonymous.send(missing, session.createMessage())).rejects.toThrow(/does not exist/);
    const context = fx.track(await fx.factory().createContext());
    const send = context.createProducer().setDeliveryMode(2).send(missing, context.createMessage());
    await expect(send).rejects.toBeInstanceOf(JMSRuntimeException);
    await expect(send).rejects.toThrow(/Queue jms.queue.DoesNotExist does not exist/);
  });
});
