import net from 'node:net';
import { getEventListeners } from 'node:events';
import {
  Broker,
  DeliveryMode,
  HornetQConnectionFactory,
  IllegalStateException,
  JMSException,
  Session,
} from '../../../src';
import { FaultProxy } from '../../support/fault-proxy';
import {
  failureOf,
  receiveTexts,
  sendTexts,
  textOf,
  useJmsFixture,
  waitFor,
} from '../../support/jms-fixture';
import { listen } from '../../support/listen';

/**
 * The JMS API's AbortSignal (createConnection, send, receive, close: the reason passes through,
 * never wrapped in a JMSException) and Symbol.asyncDispose (`await using` closes, and the broker
 * sees it).
 */

const fx = useJmsFixture();
const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');

/** A peer that accepts connections, reads and never answers. */
async function silentPeer(): Promise<{ port: number; open: Set<net.Socket> }> {
  const server = net.createServer();
  const open = new Set<net.Socket>();
  server.on('connection', (socket) => {
    open.add(socket);
    socket.resume();
    socket.once('close', () => open.delete(socket));
  });
  const peer = fx.track(await listen(server));
  return { port: peer.port, open };
}

async function proxy(): Promise<FaultProxy> {
  return fx.track(await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: fx.broker.getPort() }));
}

describe('createConnection with a signal', () => {
  test('an aborted signal rejects with its reason, not a JMSException, and connects nothing', async () => {
    const factory = fx.factory();
    const reason = new Error('not now');
    const error = await failureOf(
      factory.createConnection(undefined, undefined, { signal: AbortSignal.abort(reason) }),
    );
    expect(error).toBe(reason);
    expect(error).not.toBeInstanceOf(JMSException);
    expect(fx.broker.getConnectionCount()).toBe(0);
    // The factory still connects (the abort left nothing behind that it would trip on).
    const connection = await factory.createConnection();
    expect(fx.broker.getConnectionCount()).toBe(1);
    await connection.close();
  });

  test('aborted while the peer never answers: rejects with an AbortError and closes the socket', async () => {
    const peer = await silentPeer();
    const factory = fx.factory(undefined, peer.port);
    const controller = new AbortController();
    const connecting = factory.createConnection(undefined, undefined, { signal: controller.signal });
    await waitFor(() => peer.open.size === 1, 'the peer to accept the connection');
    controller.abort();
    const error = await failureOf(connecting);
    expect(error).toBe(controller.signal.reason);
    expect((error as DOMException).name).toBe('AbortError');
    await waitFor(() => peer.open.size === 0, 'the peer to see the socket close');
  });

  test('aborted between retries: no retry follows', async () => {
    const closed = await listen(net.createServer());
    await closed.close();
    const factory = fx.factory((f) => {
      f.setInitialConnectAttempts(-1);
      f.setRetryInterval(60_000);
    }, closed.port);
    const controller = new AbortController();
    const connecting = factory.createConnection(undefined, undefined, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const abortedAt = Date.now();
    controller.abort();
    expect(await failureOf(connecting)).toBe(controller.signal.reason);
    expect(Date.now() - abortedAt).toBeLessThan(5_000);
  });
});

describe('send with a signal', () => {
  test('an aborted signal rejects with its reason, sets no header and sends nothing', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(Q1());
    const message = session.createTextMessage('never');
    const reason = new Error('stop');
    expect(await failureOf(producer.send(message, { signal: AbortSignal.abort(reason) }))).toBe(reason);
    expect(message.getJMSMessageID()).toBeNull();
    expect(message.getJMSDestination()).toBeNull();
    await producer.send(session.createTextMessage('sent'));
    const consumer = await session.createConsumer(Q1());
    expect(await receiveTexts(consumer, 1)).toEqual(['sent']);
    expect(await consumer.receive(200)).toBeNull();
  });

  test('a persistent send aborted while the broker has not answered was written: it still arrives', async () => {
    const link = await proxy();
    const factory = fx.factory((f) => f.setConfirmationWindowSize(64 * 1024), link.port);
    const connection = await factory.createConnection();
    await connection.start();
    const sender = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const producer = await sender.createProducer(Q1());
    producer.setDeliveryMode(DeliveryMode.PERSISTENT);
    await producer.send(sender.createTextMessage('first'));
    link.stall();
    const controller = new AbortController();
    const sending = producer.send(sender.createTextMessage('aborted'), { signal: controller.signal });
    // A turn for it to be written (an abort before that would withdraw it unsent).
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect(await failureOf(sending)).toBe(controller.signal.reason);
    link.pass();
    await producer.send(sender.createTextMessage('last'));
    const consumer = await sender.createConsumer(Q1());
    expect(await receiveTexts(consumer, 3)).toEqual(['first', 'aborted', 'last']);
  });
});

describe('a send waiting for producer credits', () => {
  const KiB = 1024;
  const full = useJmsFixture({
    broker: {
      addressSettings: { 'jms.queue.Queue1': { maxSizeBytes: 16 * KiB, addressFullPolicy: 'BLOCK' } },
    },
  });

  test('is withdrawn unsent when aborted; the producer sends on once there is room', async () => {
    const connection = await full
      .factory((f) => {
        f.setProducerWindowSize(4 * KiB);
        f.setBlockOnNonDurableSend(false);
      })
      .createConnection();
    await connection.start();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const producer = await session.createProducer(full.queue('Queue1'));
    producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
    const body = 'x'.repeat(2 * KiB);
    const controller = new AbortController();
    let sent = 0;
    let waiting: Promise<void> | null = null;
    while (waiting === null) {
      let done = false;
      const send = producer.send(session.createTextMessage(`${sent}:${body}`), { signal: controller.signal });
      void send.then(() => (done = true)).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (done) sent++;
      else waiting = send;
    }
    controller.abort();
    expect(await failureOf(waiting)).toBe(controller.signal.reason);
    const consumer = await session.createConsumer(full.queue('Queue1'));
    const first = await receiveTexts(consumer, sent);
    expect(first.map((text) => Number(text.split(':')[0]))).toEqual(
      Array.from({ length: sent }, (_, i) => i),
    );
    await producer.send(session.createTextMessage(`after:${body}`));
    expect((await receiveTexts(consumer, 1)).map((text) => text.split(':')[0])).toEqual(['after']);
    expect(await consumer.receive(200)).toBeNull();
  });
});

describe('close with a signal', () => {
  test('a connection close aborted while the broker does not answer closes here; the broker sees it go', async () => {
    const link = await proxy();
    const connection = await fx.factory(undefined, link.port).createConnection();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const consumer = await session.createConsumer(Q1());
    await connection.start();
    const receiving = consumer.receive();
    link.stall();
    const controller = new AbortController();
    const closing = connection.close({ signal: controller.signal });
    controller.abort();
    expect(await failureOf(closing)).toBe(controller.signal.reason);
    expect(await receiving).toBeNull();
    expect(await failureOf(() => connection.createSession(false))).toBeInstanceOf(IllegalStateException);
    expect(await failureOf(() => session.createProducer(Q1()))).toBeInstanceOf(IllegalStateException);
    link.pass();
    await waitFor(() => fx.broker.getConnectionCount() === 0, 'the broker to see the connection close');
    expect(fx.broker.getSessionCount()).toBe(0);
  });

  test('a session, consumer or producer close with an aborted signal closes and rejects with the reason', async () => {
    const { connection, session } = await fx.open();
    const consumer = await session.createConsumer(Q1());
    const producer = await session.createProducer(Q1());
    const reason = new Error('now');
    expect(await failureOf(producer.close({ signal: AbortSignal.abort(reason) }))).toBe(reason);
    expect(await failureOf(consumer.close({ signal: AbortSignal.abort(reason) }))).toBe(reason);
    expect(consumer.closed).toBe(true);
    const other = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    expect(await failureOf(other.close({ signal: AbortSignal.abort(reason) }))).toBe(reason);
    expect(await failureOf(() => other.createTextMessage('x'))).toBeInstanceOf(IllegalStateException);
    // Closing again is a no-op that resolves.
    await other.close();
    await sendTexts(session, Q1(), ['still works']);
  });
});

test('one signal for 1000 sends and receives leaves no listener on it', async () => {
  const { session } = await fx.open();
  const producer = await session.createProducer(Q1());
  const consumer = await session.createConsumer(Q1());
  const { signal } = new AbortController();
  for (let i = 0; i < 1000; i++) {
    await producer.send(session.createTextMessage(`m${i}`), { signal });
    expect(textOf(await consumer.receive(5_000, { signal }))).toBe(`m${i}`);
  }
  expect(getEventListeners(signal, 'abort')).toHaveLength(0);
});

describe('await using', () => {
  test('closes the factory, connection, session, producer, consumer and browser; the broker sees them go', async () => {
    {
      await using factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: fx.broker.getPort() });
      await using connection = await factory.createConnection();
      await using session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      await using producer = await session.createProducer(Q1());
      await using consumer = await session.createConsumer(Q1());
      await using browser = await session.createBrowser(Q1());
      await connection.start();
      await producer.send(session.createTextMessage('inside'));
      expect(textOf(await consumer.receive(5_000))).toBe('inside');
      expect(browser.getQueue()).toEqual(Q1());
      expect(fx.broker.getConnectionCount()).toBe(1);
    }
    await waitFor(
      () => fx.broker.getConnectionCount() === 0 && fx.broker.getSessionCount() === 0,
      'the broker to see the connection and its sessions closed',
    );
  });

  test('a factory disposes of every connection it made', async () => {
    let connection: Awaited<ReturnType<HornetQConnectionFactory['createConnection']>>;
    {
      await using factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: fx.broker.getPort() });
      connection = await factory.createConnection();
      await factory.createConnection();
      expect(fx.broker.getConnectionCount()).toBe(2);
    }
    expect(await failureOf(() => connection.createSession(false))).toBeInstanceOf(IllegalStateException);
    await waitFor(() => fx.broker.getConnectionCount() === 0, 'the broker to see both connections close');
  });

  test('stops a Broker', async () => {
    let stopped: Broker;
    {
      await using broker = new Broker({
        acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port: 0 }],
        persistenceEnabled: false,
        securityEnabled: false,
      });
      await broker.start();
      stopped = broker;
      expect(broker.started).toBe(true);
    }
    expect(stopped.started).toBe(false);
  });
});
