import { IllegalStateException, Session, type Message } from '../../../src';
import { failureOf, receiveTexts, sendTexts, textOf, useJmsFixture } from '../../support/jms-fixture';

/**
 * The Node conventions of the contract: a consumer is an AsyncIterable that yields messages until
 * the consumer, its session or its connection closes; receive takes an AbortSignal that rejects
 * with the signal's reason and consumes nothing.
 */

const fx = useJmsFixture();
const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('for await', () => {
  test('yields messages in order, including ones sent while it waits', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    await sendTexts(session, Q1(), ['a', 'b']);
    const got: Array<string | null> = [];
    const loop = (async () => {
      for await (const message of consumer) {
        got.push(textOf(message));
        if (got.length === 4) break;
      }
    })();
    await pause(50);
    await sendTexts(session, Q1(), ['c', 'd']);
    await loop;
    expect(got).toEqual(['a', 'b', 'c', 'd']);
  });

  test.each([
    ['the consumer', 'consumer'],
    ['its session', 'session'],
    ['its connection', 'connection'],
  ] as const)('ends (without throwing) when %s closes', async (_name, what) => {
    const { connection, session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    await sendTexts(session, Q1(), ['only']);
    const got: Array<string | null> = [];
    const loop = (async () => {
      for await (const message of consumer) got.push(textOf(message));
    })();
    await pause(100);
    if (what === 'consumer') await consumer.close();
    else if (what === 'session') await session.close();
    else await connection.close();
    await loop;
    expect(got).toEqual(['only']);
  });

  test('breaking out leaves the consumer usable and takes no further message', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    await sendTexts(session, Q1(), ['first', 'second']);
    for await (const message of consumer) {
      expect(textOf(message)).toBe('first');
      break;
    }
    expect(await receiveTexts(consumer, 1)).toEqual(['second']);
  });

  test('a CLIENT_ACKNOWLEDGE loop acknowledges through the yielded message', async () => {
    const { connection, session } = await fx.open();
    await sendTexts(session, Q1(), ['x', 'y', 'z']);
    const client = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const consumer = await client.createConsumer(Q1());
    let count = 0;
    for await (const message of consumer) {
      if (++count === 3) {
        await message.acknowledge();
        break;
      }
    }
    expect(fx.messageCount('Queue1')).toBe(0);
  });

  test('a consumer with a listener cannot be iterated: IllegalStateException', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    consumer.setMessageListener(() => undefined);
    const iterator = consumer[Symbol.asyncIterator]();
    expect(await failureOf(iterator.next())).toBeInstanceOf(IllegalStateException);
  });

  test('a closed consumer yields nothing', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    await consumer.close();
    const got: Message[] = [];
    for await (const message of consumer) got.push(message);
    expect(got).toEqual([]);
  });
});

describe('receive with an AbortSignal', () => {
  test('an already-aborted signal rejects with its reason (an AbortError by default) and consumes nothing', async () => {
    const { session } = await fx.open();
    await sendTexts(session, Q1(), ['keep']);
    const consumer = await session.createConsumer(Q1());
    const controller = new AbortController();
    controller.abort();
    const error = await failureOf(consumer.receive(1000, { signal: controller.signal }));
    expect(error).toBe(controller.signal.reason);
    expect((error as Error).name).toBe('AbortError');
    expect(fx.messageCount('Queue1')).toBe(1);
    expect(await receiveTexts(consumer, 1)).toEqual(['keep']);
  });

  test('aborting a waiting receive rejects at once with the reason; a message sent afterwards waits for the next receive', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const started = Date.now();
    const pending = consumer.receive(0, { signal: controller.signal });
    await pause(50);
    controller.abort(reason);
    expect(await failureOf(pending)).toBe(reason);
    expect(Date.now() - started).toBeLessThan(2000);
    await sendTexts(session, Q1(), ['after abort']);
    expect(await receiveTexts(consumer, 1)).toEqual(['after abort']);
    await fx.expectCount('Queue1', 0);
  });

  test('AbortSignal.timeout rejects with a TimeoutError', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const error = await failureOf(consumer.receive(0, { signal: AbortSignal.timeout(100) }));
    expect((error as Error).name).toBe('TimeoutError');
  });

  test('a receive timeout before the abort gives null; a message before the abort is returned', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const controller = new AbortController();
    expect(await consumer.receive(100, { signal: controller.signal })).toBeNull();
    await sendTexts(session, Q1(), ['in time']);
    expect(textOf(await consumer.receive(5000, { signal: controller.signal }))).toBe('in time');
    controller.abort();
  });

  test('aborted receives leave no waiter behind: the next receive and a listener still work', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    for (let i = 0; i < 5; i++) {
      const controller = new AbortController();
      const pending = consumer.receive(0, { signal: controller.signal });
      controller.abort();
      await failureOf(pending);
    }
    await sendTexts(session, Q1(), ['one']);
    expect(await receiveTexts(consumer, 1)).toEqual(['one']);
    consumer.setMessageListener(() => undefined);
    consumer.setMessageListener(null);
  });
});
