import type { Broker, BrokerConfiguration, ClientSessionFactory, ConnectionStatistics } from '../../src';
import { CoreMessage, PacketType, encodePacket } from '../../src/core/protocol';
import { FaultProxy } from '../support/fault-proxy';
import { RawClient } from '../support/raw-client';
import { CapturingLogger, useTestBrokers, waitFor } from '../support/test-broker';

/**
 * What abusive clients can make the broker hold is bounded, and an honest client on another
 * connection keeps being served meanwhile. The abusers speak the wire format by hand (RawClient);
 * the assertions are on what the broker itself holds (bytes queued for a connection, messages
 * delivering to it, its connections and sessions), plus the process heap with generous margins.
 */

const brokers = useTestBrokers();
const QUEUE = 'jms.queue.bounded';
const MiB = 1024 * 1024;
const HIGH_WATER = 256 * 1024;
/** One socket read's worth of pings answered after the mark is passed, or one message: far less. */
const SLACK = 1 * MiB;

/** Small settings so that the tests see each bound quickly; the defaults are the same mechanism. */
const SMALL_LIMITS: Partial<BrokerConfiguration> = {
  connectionOutputHighWaterMark: HIGH_WATER,
  connectionOutputStallTimeout: 2_000,
  connectionTtlCheckInterval: 100,
  sessionlessConnectionTimeout: 60_000,
};

async function startBroker(config: Partial<BrokerConfiguration> = {}): Promise<Broker> {
  return brokers.startBroker({
    queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: false }],
    ...SMALL_LIMITS,
    ...config,
  });
}

async function rawClient(broker: Broker): Promise<RawClient> {
  return brokers.track(await RawClient.connect(broker.getPort()));
}

/** The broker's view of the raw client's connection (by its local port); undefined once it is gone. */
function connectionOf(broker: Broker, raw: RawClient): ConnectionStatistics | undefined {
  const address = `tcp://127.0.0.1:${raw.socket.localPort}`;
  return broker.listConnections().find((connection) => connection.remoteAddress === address);
}

function heapNow(): number {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

function message(bodyBytes = 16): CoreMessage {
  const m = new CoreMessage();
  m.body = Buffer.alloc(bodyBytes, 1);
  return m;
}

/**
 * An honest client on its own connection that sends a message to `queue` and receives it back,
 * over and over, until stopped; it records every round trip and every failure.
 */
class HonestClient {
  roundTrips = 0;
  readonly failures: string[] = [];
  private stopped = false;
  private loop: Promise<void> = Promise.resolve();

  private constructor(private readonly factory: ClientSessionFactory) {}

  static async start(broker: Broker, queue: string): Promise<HonestClient> {
    const honest = new HonestClient(await brokers.connect(broker));
    const session = await honest.factory.createSession();
    const consumer = await session.createConsumer(queue);
    const producer = session.createProducer(queue);
    session.start();
    honest.loop = (async () => {
      while (!honest.stopped) {
        try {
          await producer.send(message());
          const received = await consumer.receive(10_000);
          if (received === null) throw new Error('no message came back within 10 s');
          await received.acknowledge();
          honest.roundTrips++;
        } catch (error) {
          honest.failures.push((error as Error).message);
          return;
        }
      }
    })();
    return honest;
  }

  /** Waits for `count` more round trips than now. */
  async serves(count: number, what: string): Promise<void> {
    const target = this.roundTrips + count;
    await waitFor(() => this.roundTrips >= target || this.failures.length > 0, what, 30_000);
    expect(this.failures).toEqual([]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    expect(this.failures).toEqual([]);
  }
}

test('pings from a client that never reads: the broker stops reading it, holds at most the high-water mark for it, and closes it once it stays stuck; an honest client is served throughout', async () => {
  const logger = new CapturingLogger();
  const broker = await startBroker({ logger });
  const honest = await HonestClient.start(broker, QUEUE);
  const raw = await rawClient(broker);
  raw.stopReading();
  const pings = Buffer.concat(
    Array.from({ length: 3000 }, () => encodePacket(0, { type: PacketType.PING, connectionTtl: 60_000 })),
  );
  const heapBefore = heapNow();

  // Writes pings as long as they go somewhere: a broker that reads them all answers each one.
  let written = 0;
  let peakPending = 0;
  while (written < 32 * MiB && raw.socket.writableLength < 4 * MiB && !raw.closed) {
    raw.socket.write(pings);
    written += pings.length;
    peakPending = Math.max(peakPending, connectionOf(broker, raw)?.pendingOutputBytes ?? 0);
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(peakPending).toBeLessThanOrEqual(HIGH_WATER + SLACK);
  expect(connectionOf(broker, raw)?.congested).toBe(true);
  expect(heapNow() - heapBefore).toBeLessThan(24 * MiB);
  await honest.serves(5, 'the honest client to be served while the other one is stuck');

  await waitFor(
    () => connectionOf(broker, raw) === undefined,
    'the broker to close the connection that stays stuck',
    20_000,
  );
  expect(logger.find(/has not read what the broker sent for 2000 ms/)).not.toHaveLength(0);
  expect(broker.getConnectionCount()).toBe(1);
  await honest.serves(5, 'the honest client to be served after the other one is closed');
  await honest.stop();
});

test('a consumer without flow control that stops reading gets no more than the high-water mark lets through; the queue gives every later message to the other consumer', async () => {
  // The stuck consumer must stay connected while 1 000 more messages are sent, which took longer
  // than the 2 s stall bound on two loaded cores (the stall close has its own test above).
  const broker = await startBroker({ connectionOutputStallTimeout: 60_000 });
  const raw = await rawClient(broker);
  await raw.createSession();
  raw.consumeWithoutFlowControl(QUEUE);
  raw.stopReading();
  const honest = await brokers.connect(broker);
  const consumerSession = await honest.createSession();
  const consumer = await consumerSession.createConsumer(QUEUE);
  let received = 0;
  consumer.setMessageHandler((delivered) => {
    received++;
    void delivered.acknowledge();
  });
  consumerSession.start();
  const producer = (await (await brokers.connect(broker)).createSession()).createProducer(QUEUE);
  const queue = broker.postOffice.requireQueue(QUEUE);
  const heapBefore = heapNow();

  // Until what the kernel buffers take is full and the broker holds the rest for the raw client.
  let sent = 0;
  let peakPending = 0;
  while (connectionOf(broker, raw)?.congested !== true) {
    if (sent >= 20_000)
      throw new Error(`the raw consumer's connection never became congested (${sent} sent)`);
    for (let i = 0; i < 100; i++) await producer.send(message(10 * 1024));
    sent += 100;
    peakPending = Math.max(peakPending, connectionOf(broker, raw)?.pendingOutputBytes ?? 0);
  }
  const settled = (): boolean =>
    queue.messageCount === queue.deliveringCount &&
    received + (connectionOf(broker, raw)?.deliveringCount ?? 0) === sent;
  await waitFor(settled, 'every message to be delivered to one consumer or the other');
  const heldByRaw = connectionOf(broker, raw)?.deliveringCount ?? 0;

  // The raw client is stuck: everything sent from now on goes to the honest consumer.
  for (let i = 0; i < 1000; i++) await producer.send(message(10 * 1024));
  sent += 1000;
  peakPending = Math.max(peakPending, connectionOf(broker, raw)?.pendingOutputBytes ?? 0);
  await waitFor(settled, 'the honest consumer to receive every later message');
  expect(connectionOf(broker, raw)?.deliveringCount).toBe(heldByRaw);
  expect(peakPending).toBeLessThanOrEqual(HIGH_WATER + SLACK);
  expect(heapNow() - heapBefore).toBeLessThan(heldByRaw * 10 * 1024 + 64 * MiB);
});

test.each([
  ['2^52 ms', 2 ** 52],
  ['-1 (never)', -1],
])(
  'a client that asks for a TTL of %s and vanishes holds its session and messages only up to the broker maximum',
  async (_label, askedTtl) => {
    const broker = await startBroker({ maxClientConnectionTtl: 500 });
    // Honest clients ping well within the broker's maximum TTL.
    const honestOptions = { connectionTTL: 500, clientFailureCheckPeriod: 100 };
    const proxy = brokers.track(
      await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: broker.getPort() }),
    );
    const raw = brokers.track(await RawClient.connect(proxy.port));
    // A reattachable session (window >= 0): it waits for its client for the connection's TTL.
    await raw.createSession(undefined, { windowSize: 1024 });
    raw.send(0, { type: PacketType.PING, connectionTtl: askedTtl });
    raw.consumeWithoutFlowControl(QUEUE);
    const producer = (await (await brokers.connect(broker, honestOptions)).createSession()).createProducer(
      QUEUE,
    );
    await producer.send(message());
    await waitFor(() => raw.deliveries === 1, 'the raw client to receive the message');
    // Gone without a FIN or a RST (a pulled cable): only the TTL tells the broker.
    proxy.blackHole();

    const other = await (await brokers.connect(broker, honestOptions)).createSession();
    const consumer = await other.createConsumer(QUEUE);
    other.start();
    const redelivered = await consumer.receive(15_000);
    expect(redelivered).not.toBeNull();
    expect(broker.getSessionCount()).toBe(2);
  },
);

test('a connection that creates no session is closed after the deadline; one that does is kept', async () => {
  const logger = new CapturingLogger();
  const broker = await startBroker({ sessionlessConnectionTimeout: 300, logger });
  const idle = await rawClient(broker);
  const working = await rawClient(broker);
  await working.createSession();
  const pinger = setInterval(() => {
    for (const raw of [idle, working])
      if (!raw.closed) raw.send(0, { type: PacketType.PING, connectionTtl: 60_000 });
  }, 50);
  try {
    await waitFor(() => idle.closed, 'the broker to close the connection without a session');
  } finally {
    clearInterval(pinger);
  }
  expect(working.closed).toBe(false);
  expect(logger.find(/no session was created within 300 ms/)).not.toHaveLength(0);
  expect(broker.getConnectionCount()).toBe(1);
});

test('sessions and consumers per connection, queues in all and name lengths are bounded, each with an error naming its setting; other connections go on', async () => {
  const broker = await startBroker({
    maxSessionsPerConnection: 3,
    maxConsumersPerConnection: 2,
    maxQueues: 4,
    maxNameLength: 64,
  });
  const greedy = await brokers.connect(broker);
  const sessions = [await greedy.createSession(), await greedy.createSession(), await greedy.createSession()];
  await expect(greedy.createSession()).rejects.toThrow(/already has 3 sessions.*maxSessionsPerConnection/);
  const first = sessions[0];
  if (first === undefined) throw new Error('no session');
  await first.createConsumer(QUEUE);
  await (sessions[1] ?? first).createConsumer(QUEUE);
  await expect(first.createConsumer(QUEUE)).rejects.toThrow(
    /already has 2 consumers.*maxConsumersPerConnection/,
  );

  const long = `jms.queue.${'x'.repeat(60)}`;
  await expect(first.createQueue(long, 'jms.queue.short')).rejects.toThrow(
    /address .* 70 characters long.*maxNameLength/,
  );
  await expect(first.createQueue('jms.queue.short', long)).rejects.toThrow(
    /queue name .* 70 characters.*maxNameLength/,
  );
  const durable = message();
  durable.durable = true;
  await expect(first.createProducer(long).send(durable)).rejects.toThrow(/address .*maxNameLength/);

  for (const name of ['q1', 'q2', 'q3']) await first.createQueue(name, name);
  await expect(first.createQueue('q4', 'q4')).rejects.toThrow(/already has 4 queues.*maxQueues/);
  expect(broker.postOffice.queueCount).toBe(4);

  // Another connection is not limited by what this one holds.
  const other = await (await brokers.connect(broker)).createSession();
  const consumer = await other.createConsumer(QUEUE);
  other.start();
  await other.createProducer(QUEUE).send(message());
  expect(await consumer.receive(10_000)).not.toBeNull();
});

test('queue statistics come in pages: 100 000 queues with long names are all listed, and the broker stays usable', async () => {
  const broker = await startBroker({ maxQueues: 200_000 });
  const padding = 'p'.repeat(60);
  for (let i = 0; i < 100_000; i++) {
    const name = `jms.queue.${padding}-${i}`;
    broker.postOffice.createQueue({ name, address: name, filter: null, durable: false, temporary: false });
  }
  const session = await (await brokers.connect(broker)).createSession();
  const stats = await session.queueStats();
  expect(stats).toHaveLength(100_001);
  expect(new Set(stats.map((queue) => queue.name)).size).toBe(100_001);
  expect(stats.find((queue) => queue.name === QUEUE)).toMatchObject({ messageCount: 0, consumerCount: 0 });
});
