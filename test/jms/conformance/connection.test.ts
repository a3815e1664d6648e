import {
  IllegalStateException,
  InvalidClientIDException,
  JMSException,
  Session,
  type Message,
  type TextMessage,
} from '../../../src';
import { FaultProxy } from '../../support/fault-proxy';
import {
  deferred,
  expectNothing,
  failureOf,
  receiveTexts,
  sendTexts,
  textOf,
  useJmsFixture,
  waitFor,
} from '../../support/jms-fixture';

/**
 * jms-conformance.md §4 A (connection rules A3–A12) and the HornetQ ConnectionTest /
 * ConnectionClosedTest cases of §2.1. A1 and A2 (registry, credentials) belong to other suites:
 * the broker here has no security.
 */

const fx = useJmsFixture();

describe('A3 client id', () => {
  test('is null by default; set once as the first action, then read back', async () => {
    const connection = await fx.connect();
    expect(connection.getClientID()).toBeNull();
    await connection.setClientID('alpha');
    expect(connection.getClientID()).toBe('alpha');
  });

  test('a second setClientID throws IllegalStateException', async () => {
    const connection = await fx.connect();
    await connection.setClientID('alpha');
    const error = await failureOf(connection.setClientID('beta'));
    expect(error).toBeInstanceOf(IllegalStateException);
    expect(connection.getClientID()).toBe('alpha');
  });

  test('setClientID after createSession throws IllegalStateException', async () => {
    const connection = await fx.connect();
    await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    expect(await failureOf(connection.setClientID('late'))).toBeInstanceOf(IllegalStateException);
    expect(connection.getClientID()).toBeNull();
  });

  test('setClientID after start throws IllegalStateException', async () => {
    const connection = await fx.connect();
    await connection.start();
    expect(await failureOf(connection.setClientID('late'))).toBeInstanceOf(IllegalStateException);
  });

  test('setClientID after stop throws IllegalStateException', async () => {
    const connection = await fx.connect();
    await connection.stop();
    expect(await failureOf(connection.setClientID('late'))).toBeInstanceOf(IllegalStateException);
  });

  test('setClientID after getMetaData throws IllegalStateException (HornetQ counts it as use)', async () => {
    const connection = await fx.connect();
    connection.getMetaData();
    expect(await failureOf(connection.setClientID('late'))).toBeInstanceOf(IllegalStateException);
  });

  test('get/setExceptionListener first does not count as use [HQ]', async () => {
    const connection = await fx.connect();
    const listener = (): void => undefined;
    connection.setExceptionListener(listener);
    expect(connection.getExceptionListener()).toBe(listener);
    await connection.setClientID('after-listener');
    expect(connection.getClientID()).toBe('after-listener');
  });

  test('a client id configured on the factory is reported and cannot be overridden', async () => {
    const connection = await fx.connect({ configure: (cf) => cf.setClientID('dilbert-id') });
    expect(connection.getClientID()).toBe('dilbert-id');
    expect(await failureOf(connection.setClientID('other'))).toBeInstanceOf(IllegalStateException);
    expect(connection.getClientID()).toBe('dilbert-id');
  });

  test('an empty client id is refused with InvalidClientIDException', async () => {
    const connection = await fx.connect();
    expect(await failureOf(connection.setClientID(''))).toBeInstanceOf(InvalidClientIDException);
  });
});

describe('A4 client id uniqueness', () => {
  test('a client id held by an open connection is refused with InvalidClientIDException, free again after close', async () => {
    const first = await fx.connect({ clientID: 'unique-c' });
    const second = await fx.connect();
    const error = await failureOf(second.setClientID('unique-c'));
    expect(error).toBeInstanceOf(InvalidClientIDException);
    expect(error).toBeInstanceOf(JMSException);
    expect(second.getClientID()).toBeNull();
    await first.close();
    const third = await fx.connect();
    await third.setClientID('unique-c');
    expect(third.getClientID()).toBe('unique-c');
  });

  test('a factory whose preset client id is in use cannot create a connection', async () => {
    await fx.connect({ clientID: 'preset' });
    const factory = fx.factory((cf) => cf.setClientID('preset'));
    expect(await failureOf(factory.createConnection())).toBeInstanceOf(InvalidClientIDException);
  });

  test('two connections with different client ids coexist', async () => {
    const a = await fx.connect({ clientID: 'a' });
    const b = await fx.connect({ clientID: 'b' });
    expect([a.getClientID(), b.getClientID()]).toEqual(['a', 'b']);
  });
});

describe('A5 idempotent start, stop and close', () => {
  test('start twice, stop twice and close twice raise nothing', async () => {
    const connection = await fx.connect();
    await connection.start();
    await connection.start();
    await connection.stop();
    await connection.stop();
    await connection.close();
    await expect(connection.close()).resolves.toBeUndefined();
  });

  test('a started connection started again keeps delivering', async () => {
    const { connection, session } = await fx.open();
    await connection.start();
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    await sendTexts(session, fx.queue('Queue1'), ['one']);
    expect(await receiveTexts(consumer, 1)).toEqual(['one']);
  });
});

describe('A6 a new connection is stopped', () => {
  test('receive gets nothing until start; sending works while stopped', async () => {
    const connection = await fx.connect();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    await sendTexts(session, fx.queue('Queue1'), ['while-stopped']);
    await fx.expectCount('Queue1', 1);
    expect(await consumer.receive(300)).toBeNull();
    await connection.start();
    expect(await receiveTexts(consumer, 1)).toEqual(['while-stopped']);
  });

  test('a listener set before start is not called until start', async () => {
    const connection = await fx.connect();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    const got: string[] = [];
    consumer.setMessageListener((message) => {
      got.push(textOf(message) ?? '');
    });
    await sendTexts(session, fx.queue('Queue1'), ['a', 'b']);
    await fx.expectCount('Queue1', 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(got).toEqual([]);
    await connection.start();
    await waitFor(() => got.length === 2, 'two listener calls');
    expect(got).toEqual(['a', 'b']);
  });

  test('two subscribers on two connections: only the started one receives until the other starts', async () => {
    const topic = fx.topic('news');
    const c1 = await fx.connect();
    const c2 = await fx.connect();
    const s1 = await c1.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const s2 = await c2.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const sub1 = await s1.createConsumer(topic);
    const sub2 = await s2.createConsumer(topic);
    await c1.start();
    const texts = Array.from({ length: 10 }, (_, i) => `n${i}`);
    await sendTexts(s1, topic, texts);
    expect(await receiveTexts(sub1, 10)).toEqual(texts);
    expect(await sub2.receive(200)).toBeNull();
    await c2.start();
    expect(await receiveTexts(sub2, 10)).toEqual(texts);
  });
});

describe('A7 stop pauses delivery; start resumes without loss', () => {
  test('after stop receive(t) returns null at its timeout; after start the message comes', async () => {
    const { connection, session } = await fx.open();
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    await connection.stop();
    await sendTexts(session, fx.queue('Queue1'), ['paused']);
    await fx.expectCount('Queue1', 1);
    const started = Date.now();
    expect(await consumer.receive(300)).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    await connection.start();
    expect(await receiveTexts(consumer, 1)).toEqual(['paused']);
  });

  test('a listener hears nothing while stopped (JORAM testStopConsumerConnection)', async () => {
    const { connection, session } = await fx.open();
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    const got: string[] = [];
    consumer.setMessageListener((m) => {
      got.push(textOf(m) ?? '');
    });
    await connection.stop();
    await sendTexts(session, fx.queue('Queue1'), ['x']);
    await fx.expectCount('Queue1', 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(got).toEqual([]);
    await connection.start();
    await waitFor(() => got.length === 1, 'the listener after start');
    expect(got).toEqual(['x']);
  });
});

describe('A8 close closes everything beneath', () => {
  test('every session, producer and consumer method throws IllegalStateException afterwards (testCloseHierarchy)', async () => {
    const { connection, session } = await fx.open();
    const queue = fx.queue('Queue1');
    const producer = await session.createProducer(queue);
    const consumer = await session.createConsumer(queue, "color = 'red'");
    const browser = await session.createBrowser(queue);
    const message = session.createTextMessage('m');
    await connection.close();

    const sessionCalls: Array<() => unknown> = [
      () => session.createMessage(),
      () => session.createTextMessage('x'),
      () => session.getAcknowledgeMode(),
      () => session.getTransacted(),
      () => session.createProducer(queue),
      () => session.createConsumer(queue),
      () => session.createBrowser(queue),
      () => session.createTemporaryQueue(),
      () => session.createTemporaryTopic(),
      () => session.commit(),
      () => session.rollback(),
      () => session.recover(),
    ];
    const producerCalls: Array<() => unknown> = [
      () => producer.send(message),
      () => producer.getDisableMessageID(),
      () => producer.getDisableMessageTimestamp(),
      () => producer.getPriority(),
      () => producer.getDestination(),
      () => producer.getTimeToLive(),
      () => producer.getDeliveryMode(),
      () => producer.setPriority(5),
    ];
    const consumerCalls: Array<() => unknown> = [
      () => consumer.getMessageSelector(),
      () => consumer.getMessageListener(),
      () => consumer.setMessageListener(() => undefined),
      () => consumer.receive(10),
      () => consumer.receiveNoWait(),
    ];
    const browserCalls: Array<() => unknown> = [
      () => browser.getQueue(),
      () => browser.getMessageSelector(),
      () => browser.getEnumeration().next(),
    ];
    for (const call of [...sessionCalls, ...producerCalls, ...consumerCalls, ...browserCalls]) {
      expect(await failureOf(call)).toBeInstanceOf(IllegalStateException);
    }
    // close itself stays allowed on everything
    await expect(session.close()).resolves.toBeUndefined();
    await expect(producer.close()).resolves.toBeUndefined();
    await expect(consumer.close()).resolves.toBeUndefined();
    await expect(browser.close()).resolves.toBeUndefined();
  });

  test('a receive blocked on the connection returns null promptly when it closes (testCloseWhileReceiving)', async () => {
    const { connection, session } = await fx.open();
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    const started = Date.now();
    const pending = consumer.receive(10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await connection.close();
    expect(await pending).toBeNull();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('a receive with no timeout returns null when the connection closes', async () => {
    const { connection, session } = await fx.open();
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    const pending = consumer.receive();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await connection.close();
    expect(await pending).toBeNull();
  });

  test('closing the connection releases its consumers on the broker; unacked messages stay queued', async () => {
    const { connection, session } = await fx.open({ ackMode: Session.CLIENT_ACKNOWLEDGE });
    await sendTexts(session, fx.queue('Queue1'), ['kept']);
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    expect(await receiveTexts(consumer, 1)).toEqual(['kept']);
    expect(fx.coreQueue('jms.queue.Queue1')?.consumerCount).toBe(1);
    await connection.close();
    await waitFor(() => fx.coreQueue('jms.queue.Queue1')?.consumerCount === 0, 'consumer gone');
    expect(fx.messageCount('Queue1')).toBe(1);
    const { session: other } = await fx.open();
    const again = await other.createConsumer(fx.queue('Queue1'));
    const message = await again.receive(5000);
    expect(textOf(message)).toBe('kept');
    expect(message?.getJMSRedelivered()).toBe(true);
  });
});

describe('A9 a closed connection', () => {
  test('getMetaData and createSession throw IllegalStateException', async () => {
    const connection = await fx.connect();
    await connection.close();
    expect(() => connection.getMetaData()).toThrow(IllegalStateException);
    expect(await failureOf(connection.createSession(false, Session.AUTO_ACKNOWLEDGE))).toBeInstanceOf(
      IllegalStateException,
    );
    expect(await failureOf(connection.start())).toBeInstanceOf(IllegalStateException);
    expect(await failureOf(connection.stop())).toBeInstanceOf(IllegalStateException);
    expect(await failureOf(connection.setClientID('x'))).toBeInstanceOf(IllegalStateException);
  });

  test('acknowledge on a CLIENT_ACKNOWLEDGE message received through a closed connection throws IllegalStateException', async () => {
    const { connection, session } = await fx.open({ ackMode: Session.CLIENT_ACKNOWLEDGE });
    await sendTexts(session, fx.queue('Queue1'), ['ack-me']);
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    const message = (await consumer.receive(5000)) as Message;
    await connection.close();
    expect(await failureOf(message.acknowledge())).toBeInstanceOf(IllegalStateException);
    // still readable (B4)
    expect((message as TextMessage).getText()).toBe('ack-me');
  });

  test('100 create/close cycles leave no connection behind on the broker (testManyConnections)', async () => {
    const factory = fx.factory();
    for (let i = 0; i < 100; i++) {
      const connection = await factory.createConnection();
      connection.setExceptionListener(() => undefined);
      await connection.close();
    }
    await waitFor(() => fx.broker.getConnectionCount() === 0, 'every connection closed on the broker');
  });
});

describe('A11 metadata', () => {
  test('reports JMS 2.0, HornetQ and the JMSX properties', async () => {
    const connection = await fx.connect();
    const meta = connection.getMetaData();
    expect(meta.getJMSVersion()).toBe('2.0');
    expect(meta.getJMSMajorVersion()).toBe(2);
    expect(meta.getJMSMinorVersion()).toBe(0);
    expect(meta.getJMSProviderName()).toBe('HornetQ');
    expect(typeof meta.getProviderVersion()).toBe('string');
    expect([...meta.getJMSXPropertyNames()].sort()).toEqual(
      ['JMSXDeliveryCount', 'JMSXGroupID', 'JMSXGroupSeq'].sort(),
    );
  });
});

describe('A12 exception listener', () => {
  test('get returns what was set; null clears it', async () => {
    const connection = await fx.connect();
    expect(connection.getExceptionListener()).toBeNull();
    const listener = (): void => undefined;
    connection.setExceptionListener(listener);
    expect(connection.getExceptionListener()).toBe(listener);
    connection.setExceptionListener(null);
    expect(connection.getExceptionListener()).toBeNull();
  });

  test('a failure that cannot be survived is reported once with code DISCONNECT, asynchronously', async () => {
    const proxy = fx.track(
      await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: fx.broker.getPort() }),
    );
    const connection = await fx.factory(undefined, proxy.port).createConnection();
    const heard: JMSException[] = [];
    let synchronous = true;
    connection.setExceptionListener((error) => {
      expect(synchronous).toBe(false);
      heard.push(error);
    });
    proxy.refuseNewConnections();
    proxy.cut();
    synchronous = false;
    await waitFor(() => heard.length > 0, 'the exception listener');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toHaveLength(1);
    expect(heard[0]).toBeInstanceOf(JMSException);
    expect(heard[0]?.getErrorCode()).toBe('DISCONNECT');
  });

  test('a failure survived by reconnecting is reported once with code FAILOVER', async () => {
    const proxy = fx.track(
      await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: fx.broker.getPort() }),
    );
    const factory = fx.factory((cf) => {
      cf.setReconnectAttempts(5);
      cf.setRetryInterval(50);
      cf.setConfirmationWindowSize(1024 * 1024);
    }, proxy.port);
    const connection = await factory.createConnection();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    await connection.start();
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    const heard: JMSException[] = [];
    const done = deferred();
    connection.setExceptionListener((error) => {
      heard.push(error);
      done.resolve();
    });
    proxy.cut();
    await done.promise;
    expect(heard[0]?.getErrorCode()).toBe('FAILOVER');
    // the connection works after the failover
    await sendTexts(session, fx.queue('Queue1'), ['after']);
    expect(await receiveTexts(consumer, 1)).toEqual(['after']);
    expect(heard).toHaveLength(1);
    await expectNothing(consumer, 50);
  });
});
