import {
  IllegalStateException,
  InvalidClientIDException,
  InvalidDestinationException,
  InvalidSelectorException,
  JMSException,
  MessageEOFException,
  MessageFormatException,
  MessageNotReadableException,
  MessageNotWriteableException,
  NumberFormatException,
  Session,
  TransactionRolledBackException,
  type BytesMessage,
  type HornetQConnection,
  type HornetQSession,
  type TextMessage,
} from '../../../src';
import { FaultProxy } from '../../support/fault-proxy';
import { deferred, failureOf, sendTexts, useJmsFixture } from '../../support/jms-fixture';

/**
 * jms-conformance.md §4 M, the misuse/exception table, one row per case: the situation is set up
 * on a real broker, the call is made, and the exact class thrown is checked. Rows not here:
 * domain misuse (the contract has no QueueSession/TopicSession, so there is no wrong domain to
 * call), bad credentials (the broker has no security yet), the CompletionListener row (no async
 * send in the contract) and the duplicate-id commit (broker-features.test.ts).
 */

const fx = useJmsFixture();

interface Row {
  situation: string;
  expected: new (...args: never[]) => Error;
  /** Sets the situation up and returns the misuse call. */
  arrange: (
    open: () => Promise<{ connection: HornetQConnection; session: HornetQSession }>,
  ) => Promise<() => unknown>;
}

const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');

/** A message received from the broker (properties and body read-only). */
async function receivedText(
  session: HornetQSession,
  configure?: (m: TextMessage) => void,
): Promise<TextMessage> {
  await sendTexts(session, Q1(), ['received'], configure);
  return (await (await session.createConsumer(Q1())).receive(5000)) as TextMessage;
}

/** The outcome of `action` run inside a message listener of `session`. */
async function insideListener(
  session: HornetQSession,
  action: () => Promise<unknown>,
): Promise<() => unknown> {
  const consumer = await session.createConsumer(Q1());
  const outcome = deferred<unknown>();
  consumer.setMessageListener(async () => {
    try {
      await action();
      outcome.resolve(null);
    } catch (error) {
      outcome.resolve(error);
    }
  });
  await sendTexts(session, Q1(), ['trigger']);
  const error = await outcome.promise;
  return () => {
    if (error !== null) throw error;
  };
}

const ROWS: Row[] = [
  {
    situation: 'createSession on a closed connection',
    expected: IllegalStateException,
    arrange: async (open) => {
      const { connection } = await open();
      await connection.close();
      return () => connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    },
  },
  {
    situation: 'createProducer on a closed session',
    expected: IllegalStateException,
    arrange: async (open) => {
      const { session } = await open();
      await session.close();
      return () => session.createProducer(Q1());
    },
  },
  {
    situation: 'send on a closed producer',
    expected: IllegalStateException,
    arrange: async (open) => {
      const { session } = await open();
      const producer = await session.createProducer(Q1());
      await producer.close();
      return () => producer.send(session.createTextMessage('x'));
    },
  },
  {
    situation: 'receive on a closed consumer',
    expected: IllegalStateException,
    arrange: async (open) => {
      const { session } = await open();
      const consumer = await session.createConsumer(Q1());
      await consumer.close();
      return () => consumer.receive(10);
    },
  },
  {
    situation: 'getEnumeration on a closed browser',
    expected: IllegalStateException,
    arrange: async (open) => {
      const { session } = await open();
      const browser = await session.createBrowser(Q1());
      await browser.close();
      return () => browser.getEnumeration().next();
    },
  },
  {
    situation: 'commit on a non-transacted session',
    expected: IllegalStateException,
    arrange: async (open) => {
      const { session } = await open();
      return () => session.commit();
    },
  },
  {
    situation: 'rollback on a non-transacted session',
    expected: IllegalStateException,
    arrange: async (open) => {
      const { session } = await open();
      return () => session.rollback();
    },
  },
  {
    situation: 'recover on a transacted session',
    expected: IllegalStateException,
    arrange: async (open) => {
      const { connection } = await open();
      const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
      return () => tx.recover();
    },
  },
  {
    situation: 'setClientID after another call',
    expected: IllegalStateException,
    arrange: async () => {
      const connection = await fx.connect();
      await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      return () => connection.setClientID('late');
    },
  },
  {
    situation: 'setClientID twice',
    expected: IllegalStateException,
    arrange: async () => {
      const connection = await fx.connect({ clientID: 'once' });
      return () => connection.setClientID('twice');
    },
  },
  {
    situation: 'setClientID with a client id configured on the factory',
    expected: IllegalStateException,
    arrange: async () => {
      const connection = await fx.connect({ configure: (cf) => cf.setClientID('preset') });
      return () => connection.setClientID('override');
    },
  },
  {
    situation: 'a client id in use by another connection',
    expected: InvalidClientIDException,
    arrange: async () => {
      await fx.connect({ clientID: 'in-use' });
      const second = await fx.connect();
      return () => second.setClientID('in-use');
    },
  },
  {
    situation: 'a durable subscriber without a client id',
    expected: IllegalStateException,
    arrange: async (open) => {
      const { session } = await open();
      return () => session.createDurableSubscriber(fx.topic('Topic1'), 'sub');
    },
  },
  {
    situation: 'unsubscribe with an active subscriber',
    expected: IllegalStateException,
    arrange: async () => {
      const { session } = await fx.open({ clientID: 'misuse' });
      await session.createDurableSubscriber(fx.topic('Topic1'), 'active');
      return () => session.unsubscribe('active');
    },
  },
  {
    situation: 'a second active durable subscriber',
    expected: IllegalStateException,
    arrange: async () => {
      const { session } = await fx.open({ clientID: 'misuse2' });
      await session.createDurableSubscriber(fx.topic('Topic1'), 'active');
      return () => session.createDurableSubscriber(fx.topic('Topic1'), 'active');
    },
  },
  {
    situation: 'a listener closes its own connection',
    expected: IllegalStateException,
    arrange: async (open) => {
      const { connection, session } = await open();
      return insideListener(session, () => connection.close());
    },
  },
  {
    situation: 'a listener stops its own connection',
    expected: IllegalStateException,
    arrange: async (open) => {
      const { connection, session } = await open();
      return insideListener(session, () => connection.stop());
    },
  },
  {
    situation: 'a listener closes its own session',
    expected: IllegalStateException,
    arrange: async (open) => {
      const { session } = await open();
      return insideListener(session, () => session.close());
    },
  },
  {
    situation: 'a null destination',
    expected: InvalidDestinationException,
    arrange: async (open) => {
      const { session } = await open();
      return () => session.createConsumer(null as never);
    },
  },
  {
    situation: 'an unknown destination',
    expected: InvalidDestinationException,
    arrange: async (open) => {
      const { session } = await open();
      return () => session.createProducer(session.createQueue('Unknown'));
    },
  },
  {
    situation: 'a foreign object that is neither queue nor topic',
    expected: InvalidDestinationException,
    arrange: async (open) => {
      const { session } = await open();
      return () => session.createConsumer({ toString: () => 'not a destination' } as never);
    },
  },
  {
    situation: 'unsubscribe of an unknown name',
    expected: InvalidDestinationException,
    arrange: async () => {
      const { session } = await fx.open({ clientID: 'misuse3' });
      return () => session.unsubscribe('never-subscribed');
    },
  },
  {
    situation: 'an invalid selector',
    expected: InvalidSelectorException,
    arrange: async (open) => {
      const { session } = await open();
      return () => session.createConsumer(Q1(), 'definitely not a message selector!');
    },
  },
  {
    situation: 'writing the body of a received message',
    expected: MessageNotWriteableException,
    arrange: async (open) => {
      const message = await receivedText((await open()).session);
      return () => message.setText('changed');
    },
  },
  {
    situation: 'writing a property of a received message',
    expected: MessageNotWriteableException,
    arrange: async (open) => {
      const message = await receivedText((await open()).session);
      return () => message.setStringProperty('p', 'v');
    },
  },
  {
    situation: 'reading a write-only body',
    expected: MessageNotReadableException,
    arrange: async (open) => {
      const message = (await open()).session.createBytesMessage();
      message.writeInt(1);
      return () => message.readInt();
    },
  },
  {
    situation: 'reading past the end of a received BytesMessage',
    expected: MessageEOFException,
    arrange: async (open) => {
      const { session } = await open();
      const bytes = session.createBytesMessage();
      bytes.writeShort(7);
      await (await session.createProducer(Q1())).send(bytes);
      const received = (await (await session.createConsumer(Q1())).receive(5000)) as BytesMessage;
      received.readShort();
      return () => received.readInt();
    },
  },
  {
    situation: 'a property read as a type it does not convert to',
    expected: MessageFormatException,
    arrange: async (open) => {
      const message = await receivedText((await open()).session, (m) => m.setBooleanProperty('flag', true));
      return () => message.getIntProperty('flag');
    },
  },
  {
    situation: 'a string property that does not parse as a number',
    expected: NumberFormatException,
    arrange: async (open) => {
      const message = await receivedText((await open()).session, (m) => m.setStringProperty('s', 'xyz123'));
      return () => message.getIntProperty('s');
    },
  },
  {
    situation: 'a numeric read of a missing property',
    expected: NumberFormatException,
    arrange: async (open) => {
      const message = await receivedText((await open()).session);
      return () => message.getLongProperty('missing');
    },
  },
  {
    situation: 'an empty map entry name (IllegalArgumentException: TypeError here)',
    expected: TypeError,
    arrange: async (open) => {
      const map = (await open()).session.createMapMessage();
      return () => map.setBoolean('', true);
    },
  },
];

describe('§4 M: what misuse throws', () => {
  test.each(ROWS.map((row) => [row.situation, row] as const))('%s', async (_situation, row) => {
    const call = await row.arrange(() => fx.open());
    const error = await failureOf(call);
    expect(error).toBeInstanceOf(row.expected);
    if (row.expected === NumberFormatException || row.expected === TypeError) {
      expect(error).not.toBeInstanceOf(JMSException);
    } else {
      expect(error).toBeInstanceOf(JMSException);
    }
  });
});

describe('§4 M / G5: a transaction cut off by a re-created session', () => {
  test('commit throws TransactionRolledBackException; the work is gone and the session goes on', async () => {
    const proxy = fx.track(
      await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: fx.broker.getPort() }),
    );
    const factory = fx.factory((cf) => {
      cf.setReconnectAttempts(10);
      cf.setRetryInterval(50);
      cf.setRetryJitter(0);
    }, proxy.port);
    const connection = await factory.createConnection();
    const failedOver = deferred<JMSException>();
    connection.setExceptionListener((error) => failedOver.resolve(error));
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const producer = await tx.createProducer(Q1());
    await producer.send(tx.createTextMessage('lost with the session'));
    proxy.cut();
    expect((await failedOver.promise).getErrorCode()).toBe('FAILOVER');
    const error = (await failureOf(tx.commit())) as JMSException;
    expect(error).toBeInstanceOf(TransactionRolledBackException);
    expect(error.getErrorCode()).toBe('TRANSACTION_ROLLED_BACK');
    expect(fx.messageCount('Queue1')).toBe(0);
    await producer.send(tx.createTextMessage('after the failover'));
    await tx.commit();
    expect(fx.messageCount('Queue1')).toBe(1);
  });
});
