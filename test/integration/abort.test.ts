import net from 'node:net';
import { getEventListeners } from 'node:events';
import { ClientSessionFactory, type Broker, type ClientOptions } from '../../src';
import { FaultProxy } from '../support/fault-proxy';
import { listen } from '../support/listen';
import { receiveCount, seqOf, sequenced, useTestBrokers, waitFor } from '../support/test-broker';

/**
 * AbortSignal in the core client: an abort rejects with the signal's reason (an AbortError
 * DOMException by default), and what it leaves behind is exactly what the doc comments say: no
 * socket, no timer and no listener; a send withdrawn unsent, or written and still arriving.
 */

const QUEUE = 'aborts';
const queues = [{ name: QUEUE, address: QUEUE, filter: null, durable: false }];
const env = useTestBrokers();

/** A peer that accepts connections, reads and never answers; counts the sockets it has open. */
async function silentPeer(): Promise<{ port: number; open: Set<net.Socket>; accepted: () => number }> {
  const server = net.createServer();
  const open = new Set<net.Socket>();
  let accepted = 0;
  server.on('connection', (socket) => {
    accepted++;
    open.add(socket);
    socket.resume();
    socket.once('close', () => open.delete(socket));
  });
  const peer = env.track(await listen(server));
  return { port: peer.port, open, accepted: () => accepted };
}

/** A loopback port nothing listens on (connections to it are refused). */
async function refusedPort(): Promise<number> {
  const peer = await listen(net.createServer());
  await peer.close();
  return peer.port;
}

/**
 * Counts the timers set from now on that neither fired nor were cleared, and the client sockets
 * still open (process.getActiveResourcesInfo counts jest's own timers too, so it cannot tell).
 */
function trackTimers(): { pending(): number; restore(): void } {
  const live = new Set<unknown>();
  const realSet = global.setTimeout;
  const realClear = global.clearTimeout;
  const set = jest.spyOn(global, 'setTimeout').mockImplementation(((
    callback: (...args: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    const timer = realSet(() => {
      live.delete(timer);
      callback(...args);
    }, ms);
    live.add(timer);
    return timer;
  }) as typeof setTimeout);
  const clear = jest.spyOn(global, 'clearTimeout').mockImplementation((timer) => {
    live.delete(timer);
    realClear(timer);
  });
  return {
    pending: () => live.size,
    restore: () => {
      set.mockRestore();
      clear.mockRestore();
    },
  };
}

function openClientSockets(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'TCPSocketWrap').length;
}

/** Lets pending callbacks (socket closes, cleared timers) run. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function proxied(
  broker: Broker,
  options: Partial<ClientOptions> = {},
): Promise<{ proxy: FaultProxy; factory: ClientSessionFactory }> {
  const proxy = env.track(await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: broker.getPort() }));
  const factory = await env.connect(proxy.port, options);
  return { proxy, factory };
}

describe('ClientSessionFactory.connect', () => {
  test('an aborted signal rejects at once with its reason and opens no socket', async () => {
    const peer = await silentPeer();
    const reason = new Error('not now');
    const connecting = ClientSessionFactory.connect(
      { connectors: [{ host: '127.0.0.1', port: peer.port }] },
      { signal: AbortSignal.abort(reason) },
    );
    await expect(connecting).rejects.toBe(reason);
    // The next socket the peer sees is the first it sees: the aborted connect opened none.
    const probe = net.connect(peer.port, '127.0.0.1');
    await waitFor(() => peer.accepted() > 0, 'the probe connection');
    probe.destroy();
    expect(peer.accepted()).toBe(1);
  });

  test('aborted while the peer accepts and never answers: the socket and every timer are released', async () => {
    const peer = await silentPeer();
    const timers = trackTimers();
    const controller = new AbortController();
    const connecting = ClientSessionFactory.connect(
      { connectors: [{ host: '127.0.0.1', port: peer.port }], callTimeout: 30_000 },
      { signal: controller.signal },
    );
    await waitFor(() => peer.open.size === 1, 'the peer to accept the connection');
    controller.abort();
    const error: unknown = await connecting.catch((e: unknown) => e);
    expect(error).toBe(controller.signal.reason);
    expect((error as DOMException).name).toBe('AbortError');
    await waitFor(() => peer.open.size === 0, 'the peer to see the socket close');
    await turn();
    timers.restore();
    expect(timers.pending()).toBe(0);
    expect(openClientSockets()).toBe(0);
  });

  test('aborted between retries (a refused port, unlimited attempts): no retry follows, nothing is left', async () => {
    const port = await refusedPort();
    const timers = trackTimers();
    const controller = new AbortController();
    let settled = false;
    const connecting = ClientSessionFactory.connect(
      {
        connectors: [{ host: '127.0.0.1', port }],
        initialConnectAttempts: -1,
        retryInterval: 60_000,
      },
      { signal: controller.signal },
    ).finally(() => (settled = true));
    // The first attempt is refused within a few ms; the next would come a minute later.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(settled).toBe(false);
    const abortedAt = Date.now();
    controller.abort();
    await expect(connecting).rejects.toBe(controller.signal.reason);
    expect(Date.now() - abortedAt).toBeLessThan(5_000);
    await turn();
    timers.restore();
    expect(timers.pending()).toBe(0);
    expect(openClientSockets()).toBe(0);
  });
});

describe('ClientSessionFactory.createSession', () => {
  test('an aborted signal rejects with its reason and sends nothing', async () => {
    const broker = await env.startBroker({ queues });
    const factory = await env.connect(broker);
    const reason = new Error('no session');
    await expect(factory.createSession({}, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(factory.sessionCount).toBe(0);
    await factory.createSession();
    expect(broker.getSessionCount()).toBe(1);
  });

  test('aborted while the broker has not answered: a session it creates anyway is closed again', async () => {
    const broker = await env.startBroker({ queues });
    const { proxy, factory } = await proxied(broker);
    await factory.createSession(); // the broker is known to answer
    proxy.stall();
    const controller = new AbortController();
    const creating = factory.createSession({}, { signal: controller.signal });
    controller.abort();
    await expect(creating).rejects.toBe(controller.signal.reason);
    proxy.pass();
    // The request reaches the broker, which creates the session; its answer closes it again.
    await waitFor(
      () => broker.getSessionCount() === 1 && factory.sessionCount === 1,
      'only the first session',
    );
    const session = await factory.createSession();
    expect(await session.queueQuery(QUEUE)).toMatchObject({ exists: true });
  });
});

describe('ClientProducer.send', () => {
  test('an aborted signal rejects with its reason and sends nothing; the producer goes on', async () => {
    const broker = await env.startBroker({ queues });
    const factory = await env.connect(broker);
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    const reason = new Error('do not send');
    await expect(producer.send(sequenced(0), undefined, { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
    await producer.send(sequenced(1));
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([1]);
    expect(await consumer.receive(200)).toBeNull();
  });

  test('a send waiting for credits on a full address is withdrawn unsent; the window is intact', async () => {
    const KiB = 1024;
    const broker = await env.startBroker({
      queues,
      addressSettings: { [QUEUE]: { maxSizeBytes: 16 * KiB, addressFullPolicy: 'BLOCK' } },
    });
    const factory = await env.connect(broker, {
      producerWindowSize: 4 * KiB,
      blockOnNonDurableSend: false,
      ackBatchSize: 0, // each acknowledgement makes room on the address at once
    });
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    const body = Buffer.alloc(2 * KiB, 1);
    let sent = 0;
    const controller = new AbortController();
    // Sends until one waits (the address is full, so the broker withholds credits).
    let waiting: Promise<void> | null = null;
    while (waiting === null) {
      let done = false;
      const send = producer.send(sequenced(sent, { body }), undefined, { signal: controller.signal });
      void send.then(() => (done = true)).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (done) sent++;
      else waiting = send;
    }
    controller.abort();
    await expect(waiting).rejects.toBe(controller.signal.reason);
    // Room again: every message the broker had goes, and the aborted one never arrives.
    const reader = await factory.createSession();
    const consumer = await reader.createConsumer(QUEUE);
    reader.start();
    const first = await receiveCount(consumer, sent);
    for (const message of first) await message.acknowledge();
    expect(first.map(seqOf)).toEqual(Array.from({ length: sent }, (_, i) => i));
    // The same producer sends on, a window's worth and more, with nothing lost from its credits.
    const later = Array.from({ length: 6 }, (_, i) => 100 + i);
    for (const seq of later) await producer.send(sequenced(seq, { body }));
    const next = await receiveCount(consumer, later.length);
    expect(next.map(seqOf)).toEqual(later);
    for (const message of next) await message.acknowledge();
    expect(await consumer.receive(200)).toBeNull();
  });

  test('a send waiting for producer-max-rate is withdrawn unsent', async () => {
    const broker = await env.startBroker({ queues });
    const factory = await env.connect(broker, { producerMaxRate: 1 });
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    await producer.send(sequenced(0)); // the next permit is a second away
    const controller = new AbortController();
    const paced = producer.send(sequenced(1), undefined, { signal: controller.signal });
    controller.abort();
    await expect(paced).rejects.toBe(controller.signal.reason);
    await producer.send(sequenced(2));
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    expect((await receiveCount(consumer, 2)).map(seqOf)).toEqual([0, 2]);
    expect(await consumer.receive(200)).toBeNull();
  });

  test('a large message waiting behind another is withdrawn unsent; the one ahead arrives whole', async () => {
    const broker = await env.startBroker({ queues });
    const factory = await env.connect(broker, { minLargeMessageSize: 1024 });
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    const body = (seq: number): Buffer => Buffer.alloc(64 * 1024, seq);
    const ahead = producer.send(sequenced(0, { body: body(0) }));
    const controller = new AbortController();
    const behind = producer.send(sequenced(1, { body: body(1) }), undefined, { signal: controller.signal });
    controller.abort();
    await expect(behind).rejects.toBe(controller.signal.reason);
    await ahead;
    await producer.send(sequenced(2, { body: body(2) }));
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const received = await receiveCount(consumer, 2);
    expect(received.map(seqOf)).toEqual([0, 2]);
    expect(received.map((m) => m.message.body.equals(body(seqOf(m))))).toEqual([true, true]);
    expect(await consumer.receive(200)).toBeNull();
  });

  test('a large message aborted after its head went still goes whole: only the caller stops waiting', async () => {
    const broker = await env.startBroker({ queues });
    const factory = await env.connect(broker, { minLargeMessageSize: 1024, producerWindowSize: 16 * 1024 });
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    await session.queueQuery(QUEUE); // the producer's first credits are in
    const body = Buffer.alloc(512 * 1024, 7);
    const controller = new AbortController();
    const sending = producer.send(sequenced(0, { body }), undefined, { signal: controller.signal });
    await turn(); // the head and the first chunks go; the rest wait for credits
    controller.abort();
    await expect(sending).rejects.toBe(controller.signal.reason);
    await producer.send(sequenced(1));
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const received = await receiveCount(consumer, 2);
    expect(received.map(seqOf)).toEqual([0, 1]);
    expect(received[0]?.message.body.equals(body)).toBe(true);
  });

  test('a blocking send aborted while it waits for the answer was written: it still arrives', async () => {
    const broker = await env.startBroker({ queues });
    const { proxy, factory } = await proxied(broker, { confirmationWindowSize: 64 * 1024 });
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    await producer.send(sequenced(0, { durable: true }));
    proxy.stall();
    const controller = new AbortController();
    const sending = producer.send(sequenced(1, { durable: true }), undefined, { signal: controller.signal });
    controller.abort();
    await expect(sending).rejects.toBe(controller.signal.reason);
    proxy.pass();
    await producer.send(sequenced(2, { durable: true }));
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    expect((await receiveCount(consumer, 3)).map(seqOf)).toEqual([0, 1, 2]);
  });
});

describe('ClientConsumer.receive', () => {
  test('a message being paced by consumer-max-rate when the abort comes goes to the next receive', async () => {
    const broker = await env.startBroker({ queues });
    const factory = await env.connect(broker, { consumerMaxRate: 2 });
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    for (let i = 0; i < 3; i++) await producer.send(sequenced(i));
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    expect(seqOf((await consumer.receive(5_000)) ?? sequenced(-1))).toBe(0);
    await waitFor(() => consumer.bufferedCount === 2, 'the other two messages');
    const controller = new AbortController();
    const paced = consumer.receive(5_000, { signal: controller.signal });
    controller.abort();
    await expect(paced).rejects.toBe(controller.signal.reason);
    expect((await receiveCount(consumer, 2)).map(seqOf)).toEqual([1, 2]);
  });

  test('a message that arrives after the abort is kept for the next receive', async () => {
    const broker = await env.startBroker({ queues });
    const factory = await env.connect(broker);
    const session = await factory.createSession();
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const controller = new AbortController();
    const receiving = consumer.receive(0, { signal: controller.signal });
    controller.abort();
    await expect(receiving).rejects.toBe(controller.signal.reason);
    await session.createProducer(QUEUE).send(sequenced(7));
    expect(seqOf((await consumer.receive(5_000)) ?? sequenced(-1))).toBe(7);
  });
});

describe('close', () => {
  test('a session close aborted while the broker does not answer ends the session here at once', async () => {
    const broker = await env.startBroker({ queues });
    const { proxy, factory } = await proxied(broker);
    const session = await factory.createSession();
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const waiting = consumer.receive();
    proxy.stall();
    const controller = new AbortController();
    const closing = session.close({ signal: controller.signal });
    // The close request goes out within a turn; the broker does not answer it (the link stalls).
    await turn();
    await turn();
    controller.abort();
    await expect(closing).rejects.toBe(controller.signal.reason);
    expect(session.closed).toBe(true);
    expect(consumer.closed).toBe(true);
    expect(await waiting).toBeNull();
    expect(factory.sessionCount).toBe(0);
    // The close request had gone: once it gets through, the broker ends the session.
    proxy.pass();
    await waitFor(() => broker.getSessionCount() === 0, 'the broker to close the session');
  });

  test('a factory close aborted while the broker does not answer closes the socket; the broker sees it', async () => {
    const broker = await env.startBroker({ queues });
    const { proxy, factory } = await proxied(broker);
    await factory.createSession();
    await factory.createSession();
    proxy.stall();
    const controller = new AbortController();
    const closing = factory.close({ signal: controller.signal });
    controller.abort();
    await expect(closing).rejects.toBe(controller.signal.reason);
    expect(factory.closed).toBe(true);
    expect(factory.sessionCount).toBe(0);
    proxy.pass();
    await waitFor(() => broker.getConnectionCount() === 0, 'the broker to see the connection close');
    expect(broker.getSessionCount()).toBe(0);
  });

  test('a close with an aborted signal sends nothing, closes here and rejects with the reason', async () => {
    const broker = await env.startBroker({ queues });
    const factory = await env.connect(broker);
    const session = await factory.createSession();
    const reason = new Error('now');
    await expect(session.close({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(session.closed).toBe(true);
    // The broker keeps the session until the connection goes.
    expect(broker.getSessionCount()).toBe(1);
    await factory.close();
    await waitFor(() => broker.getSessionCount() === 0, 'the broker to drop the session with its connection');
  });
});

test('one signal for 1000 sends and receives, and for connects, session creations, closes and timeouts, leaves no listener on it', async () => {
  const broker = await env.startBroker({ queues });
  const factory = await env.connect(broker, { blockOnNonDurableSend: true });
  const { signal } = new AbortController();
  const session = await factory.createSession({}, { signal });
  const producer = session.createProducer(QUEUE);
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  for (let i = 0; i < 1000; i++) {
    await producer.send(sequenced(i), undefined, { signal });
    const received = await consumer.receive(5_000, { signal });
    expect(received === null ? -1 : seqOf(received)).toBe(i);
  }
  for (let i = 0; i < 20; i++) await (await factory.createSession({}, { signal })).close({ signal });
  const connectors = [{ host: '127.0.0.1', port: broker.getPort() }];
  for (let i = 0; i < 20; i++)
    await (await ClientSessionFactory.connect({ connectors }, { signal })).close({ signal });
  for (let i = 0; i < 50; i++) expect(await consumer.receive(1, { signal })).toBeNull();
  expect(getEventListeners(signal, 'abort')).toHaveLength(0);
});

test('await using closes the factory, its session, producer and consumer; the broker sees them go', async () => {
  const broker = await env.startBroker({ queues });
  {
    await using factory = await ClientSessionFactory.connect({
      connectors: [{ host: '127.0.0.1', port: broker.getPort() }],
    });
    await using session = await factory.createSession();
    await using producer = session.createProducer(QUEUE);
    await using consumer = await session.createConsumer(QUEUE);
    session.start();
    await producer.send(sequenced(0));
    expect(seqOf((await consumer.receive(5_000)) ?? sequenced(-1))).toBe(0);
    expect(broker.getSessionCount()).toBe(1);
  }
  await waitFor(
    () => broker.getConnectionCount() === 0 && broker.getSessionCount() === 0,
    'the broker to see the connection and session closed',
  );
});
