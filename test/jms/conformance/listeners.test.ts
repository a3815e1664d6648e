import { IllegalStateException, JMSException, Session, type Message } from '../../../src';
import {
  deferred,
  failureOf,
  receiveTexts,
  sendTexts,
  textOf,
  useJmsFixture,
  waitFor,
} from '../../support/jms-fixture';

/**
 * Message listeners: E2 (set/replace, mixing with receive), E6 (a listener closing its own
 * consumer), E7 (JMS 1.1 §4.5.2 on listeners that throw), A7 (stop waits for onMessage), A10 and
 * B5 (a listener may not close or stop its own connection or close its own session: HornetQ 2.4
 * throws IllegalStateException, §6.13), and HornetQ's listener cases from MessageConsumerTest.
 */

const fx = useJmsFixture();
const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');
const settle = (ms = 200): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** [text, redelivered] of a message, for delivery sequences. */
function seen(message: Message): [string | null, boolean] {
  return [textOf(message), message.getJMSRedelivered()];
}

describe('E2 setting listeners', () => {
  test('a listener gets messages one at a time, in order (testMessageListenerOnQueueMultipleMessages)', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const got: string[] = [];
    let inside = 0;
    let overlap = false;
    consumer.setMessageListener(async (message) => {
      inside++;
      if (inside > 1) overlap = true;
      await settle(2);
      got.push(textOf(message) ?? '');
      inside--;
    });
    const texts = Array.from({ length: 10 }, (_, i) => `l${i}`);
    await sendTexts(session, Q1(), texts);
    await waitFor(() => got.length === 10, 'ten listener calls');
    expect(got).toEqual(texts);
    expect(overlap).toBe(false);
  });

  test('setting a second listener replaces the first, which then gets nothing (testSetMessageListenerTwice)', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const first: string[] = [];
    const second: string[] = [];
    const listener1 = (m: Message): void => void first.push(textOf(m) ?? '');
    const listener2 = (m: Message): void => void second.push(textOf(m) ?? '');
    consumer.setMessageListener(listener1);
    consumer.setMessageListener(listener2);
    expect(consumer.getMessageListener()).toBe(listener2);
    await sendTexts(session, Q1(), ['only-second']);
    await waitFor(() => second.length === 1, 'the second listener');
    await settle(100);
    expect(first).toEqual([]);
    expect(second).toEqual(['only-second']);
  });

  test('setting a listener while a receive is waiting fails with a JMSException (testSetMessageListenerWhileReceiving)', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const pending = consumer.receive(2000);
    await settle(20);
    let error: unknown = null;
    try {
      consumer.setMessageListener(() => undefined);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JMSException);
    expect(consumer.getMessageListener()).toBeNull();
    await sendTexts(session, Q1(), ['to receive']);
    expect(textOf(await pending)).toBe('to receive');
  });

  test('receive while a listener is set throws IllegalStateException; clearing the listener allows it again', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    consumer.setMessageListener(() => undefined);
    expect(await failureOf(consumer.receive(10))).toBeInstanceOf(IllegalStateException);
    expect(await failureOf(consumer.receiveNoWait())).toBeInstanceOf(IllegalStateException);
    consumer.setMessageListener(null);
    await sendTexts(session, Q1(), ['after listener']);
    expect(await receiveTexts(consumer, 1)).toEqual(['after listener']);
  });

  test('a listener can resend the message it got to another queue (testRelayMessage)', async () => {
    const { connection, session } = await fx.open();
    const relaySession = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const relay = await relaySession.createProducer(fx.queue('Queue2'));
    const consumer = await session.createConsumer(Q1());
    let relayed = 0;
    consumer.setMessageListener(async (message) => {
      await relay.send(message);
      relayed++;
    });
    const texts = Array.from({ length: 100 }, (_, i) => `relay${i}`);
    await sendTexts(relaySession, Q1(), texts);
    await waitFor(() => relayed === 100, '100 relays');
    expect(await receiveTexts(await relaySession.createConsumer(fx.queue('Queue2')), 100)).toEqual(texts);
  });
});

describe('E7 a listener that throws (JMS 1.1 §4.5.2)', () => {
  test.each([
    ['AUTO_ACKNOWLEDGE', Session.AUTO_ACKNOWLEDGE],
    ['DUPS_OK_ACKNOWLEDGE', Session.DUPS_OK_ACKNOWLEDGE],
  ])(
    '%s: the message is redelivered at once, marked redelivered, then the rest (testExceptionMessageListener1/2)',
    async (_name, mode) => {
      const { connection, session } = await fx.open();
      const listening = await connection.createSession(false, mode);
      const consumer = await listening.createConsumer(Q1());
      const sequence: Array<[string | null, boolean]> = [];
      let thrown = false;
      consumer.setMessageListener((message) => {
        sequence.push(seen(message));
        if (!thrown) {
          thrown = true;
          throw new Error('listener failure');
        }
      });
      await sendTexts(session, Q1(), ['a', 'b', 'c']);
      await waitFor(() => sequence.length >= 4, 'four deliveries');
      await settle();
      expect(sequence).toEqual([
        ['a', false],
        ['a', true],
        ['b', false],
        ['c', false],
      ]);
      // DUPS_OK may hold its acknowledgements back until the session closes
      await listening.close();
      await fx.expectCount('Queue1', 0);
    },
  );

  test('AUTO_ACKNOWLEDGE: an async listener that rejects counts as throwing', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const sequence: Array<[string | null, boolean]> = [];
    consumer.setMessageListener(async (message) => {
      sequence.push(seen(message));
      await settle(1);
      if (sequence.length === 1) throw new Error('async failure');
    });
    await sendTexts(session, Q1(), ['a', 'b']);
    await waitFor(() => sequence.length >= 3, 'three deliveries');
    await settle();
    expect(sequence).toEqual([
      ['a', false],
      ['a', true],
      ['b', false],
    ]);
  });

  test.each([
    ['transacted', true, Session.SESSION_TRANSACTED],
    ['CLIENT_ACKNOWLEDGE', false, Session.CLIENT_ACKNOWLEDGE],
  ])(
    '%s: delivery goes on with the next message and nothing is redelivered by itself (testExceptionMessageListener3/4)',
    async (_name, transacted, mode) => {
      const { connection, session } = await fx.open();
      const listening = await connection.createSession(transacted, mode);
      const consumer = await listening.createConsumer(Q1());
      const sequence: Array<[string | null, boolean]> = [];
      consumer.setMessageListener((message) => {
        sequence.push(seen(message));
        if (sequence.length === 1) throw new Error('listener failure');
      });
      await sendTexts(session, Q1(), ['a', 'b', 'c']);
      await waitFor(() => sequence.length >= 3, 'three deliveries');
      await settle(300);
      expect(sequence).toEqual([
        ['a', false],
        ['b', false],
        ['c', false],
      ]);
      // nothing settled yet: all three are still the broker's
      expect(fx.messageCount('Queue1')).toBe(3);
    },
  );
});

describe('E6 a listener closing its own consumer', () => {
  test('AUTO_ACKNOWLEDGE: close inside onMessage returns; the message is not acknowledged (testClosingConsumerFromMessageListenerAutoAck)', async () => {
    const { session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const closed = deferred<unknown>();
    let calls = 0;
    consumer.setMessageListener(async () => {
      calls++;
      try {
        await consumer.close();
        closed.resolve(null);
      } catch (error) {
        closed.resolve(error);
      }
    });
    await sendTexts(session, Q1(), ['stays', 'also stays']);
    expect(await closed.promise).toBeNull();
    await settle();
    expect(calls).toBe(1);
    await fx.expectCount('Queue1', 2);
    const next = await session.createConsumer(Q1());
    expect(await receiveTexts(next, 2)).toEqual(['stays', 'also stays']);
  });

  test('transacted: close inside onMessage returns; nothing is committed (testClosingConsumerFromMessageListenerTransacted)', async () => {
    const { connection, session } = await fx.open();
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const consumer = await tx.createConsumer(Q1());
    const closed = deferred<unknown>();
    consumer.setMessageListener(async () => {
      try {
        await consumer.close();
        closed.resolve(null);
      } catch (error) {
        closed.resolve(error);
      }
    });
    await sendTexts(session, Q1(), ['uncommitted']);
    expect(await closed.promise).toBeNull();
    await fx.expectCount('Queue1', 1);
    await tx.close();
    await fx.expectCount('Queue1', 1);
  });
});

describe('A10 / B5 a listener may not close or stop its own connection or close its own session', () => {
  test.each([
    ['connection.close()', 'connection'],
    ['connection.stop()', 'stop'],
    ['session.close()', 'session'],
  ] as const)(
    '%s inside onMessage throws IllegalStateException (testExceptionMessageListener*)',
    async (_name, what) => {
      const { connection, session } = await fx.open();
      const consumer = await session.createConsumer(Q1());
      const outcome = deferred<unknown>();
      consumer.setMessageListener(async () => {
        try {
          if (what === 'connection') await connection.close();
          else if (what === 'stop') await connection.stop();
          else await session.close();
          outcome.resolve(null);
        } catch (error) {
          outcome.resolve(error);
        }
      });
      await sendTexts(session, Q1(), ['forbidden']);
      expect(await outcome.promise).toBeInstanceOf(IllegalStateException);
      // the connection and session are unharmed
      await sendTexts(session, Q1(), ['still works']);
    },
  );

  test('the rule holds after an await inside the listener, and for a listener of another session of the connection', async () => {
    const { connection, session } = await fx.open();
    const other = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const consumer = await other.createConsumer(Q1());
    const outcome = deferred<unknown>();
    consumer.setMessageListener(async () => {
      await settle(5);
      try {
        await connection.close();
        outcome.resolve(null);
      } catch (error) {
        outcome.resolve(error);
      }
    });
    await sendTexts(session, Q1(), ['x']);
    expect(await outcome.promise).toBeInstanceOf(IllegalStateException);
  });

  test('a listener may close a different session (not its own)', async () => {
    const { connection, session } = await fx.open();
    const victim = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const consumer = await session.createConsumer(Q1());
    const outcome = deferred<unknown>();
    consumer.setMessageListener(async () => {
      try {
        await victim.close();
        outcome.resolve(null);
      } catch (error) {
        outcome.resolve(error);
      }
    });
    await sendTexts(session, Q1(), ['x']);
    expect(await outcome.promise).toBeNull();
    expect(() => victim.getTransacted()).toThrow(IllegalStateException);
  });
});

describe('A7 stop and close wait for onMessage', () => {
  test('stop() resolves only after the listener call in progress has finished', async () => {
    const { connection, session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const entered = deferred();
    const release = deferred();
    let finished = false;
    consumer.setMessageListener(async () => {
      entered.resolve();
      await release.promise;
      finished = true;
    });
    await sendTexts(session, Q1(), ['slow']);
    await entered.promise;
    let stopped = false;
    const stopping = connection.stop().then(() => {
      stopped = true;
    });
    await settle(100);
    expect(stopped).toBe(false);
    release.resolve();
    await stopping;
    expect(finished).toBe(true);
  });

  test('after stop no listener is called; start delivers the rest, nothing lost (testStopConnectionDuringOnMessage)', async () => {
    const { connection, session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const got: string[] = [];
    let callsAfterStop = 0;
    let stoppedAt: number | null = null;
    consumer.setMessageListener(async (message) => {
      if (stoppedAt !== null) callsAfterStop++;
      got.push(textOf(message) ?? '');
      await settle(1);
    });
    const texts = Array.from({ length: 100 }, (_, i) => `s${i}`);
    const sending = sendTexts(session, Q1(), texts);
    await waitFor(() => got.length >= 10, 'ten deliveries');
    await connection.stop();
    stoppedAt = got.length;
    await sending;
    await settle(300);
    expect(callsAfterStop).toBe(0);
    await connection.start();
    await waitFor(() => got.length === 100, 'all 100 after start');
    expect(got).toEqual(texts);
  });

  test('session.close() resolves only after the listener call in progress has finished', async () => {
    const { connection, session } = await fx.open();
    const listening = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const consumer = await listening.createConsumer(Q1());
    const entered = deferred();
    const release = deferred();
    let finished = false;
    consumer.setMessageListener(async () => {
      entered.resolve();
      await release.promise;
      finished = true;
    });
    await sendTexts(session, Q1(), ['slow']);
    await entered.promise;
    let closed = false;
    const closing = listening.close().then(() => {
      closed = true;
    });
    await settle(100);
    expect(closed).toBe(false);
    release.resolve();
    await closing;
    expect(finished).toBe(true);
  });

  test('stop then close with an active listener is clean (testCloseAfterStop)', async () => {
    const { connection, session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const got: string[] = [];
    consumer.setMessageListener((m) => void got.push(textOf(m) ?? ''));
    await sendTexts(session, Q1(), ['one']);
    await waitFor(() => got.length === 1, 'the listener');
    await connection.stop();
    await connection.close();
    expect(got).toEqual(['one']);
  });
});

describe('redelivery inside a listener (testRedelMessageListener1/2)', () => {
  test('CLIENT_ACKNOWLEDGE: recover in onMessage of "a" → "a" again, redelivered, then b, c', async () => {
    const { connection, session } = await fx.open();
    const client = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const consumer = await client.createConsumer(Q1());
    const sequence: Array<[string | null, boolean]> = [];
    consumer.setMessageListener(async (message) => {
      sequence.push(seen(message));
      if (sequence.length === 1) await client.recover();
      else if (textOf(message) === 'c') await message.acknowledge();
    });
    await sendTexts(session, Q1(), ['a', 'b', 'c']);
    await waitFor(() => sequence.length >= 4, 'four deliveries');
    await fx.expectCount('Queue1', 0);
    expect(sequence).toEqual([
      ['a', false],
      ['a', true],
      ['b', false],
      ['c', false],
    ]);
  });

  test('transacted: rollback in onMessage of "a" → "a" again, redelivered, then b, c; commit', async () => {
    const { connection, session } = await fx.open();
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const consumer = await tx.createConsumer(Q1());
    const sequence: Array<[string | null, boolean]> = [];
    consumer.setMessageListener(async (message) => {
      sequence.push(seen(message));
      if (sequence.length === 1) await tx.rollback();
      else if (textOf(message) === 'c') await tx.commit();
    });
    await sendTexts(session, Q1(), ['a', 'b', 'c']);
    await waitFor(() => sequence.length >= 4, 'four deliveries');
    await fx.expectCount('Queue1', 0);
    expect(sequence).toEqual([
      ['a', false],
      ['a', true],
      ['b', false],
      ['c', false],
    ]);
  });
});
