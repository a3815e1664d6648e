import { ClientSessionFactory, CLIENT_VERSION } from '../../../src/core/client/client-session-factory';
import type { ClientOptions } from '../../../src/core/client/client-options';
import { FailoverEventType } from '../../../src/core/client/failover-events';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import { HornetQException } from '../../../src/core/protocol/hornetq-exception';
import { encodePacket } from '../../../src/core/protocol/packet-codec';
import { PacketType } from '../../../src/core/protocol/packet-type';
import {
  EXTENSION_VERSION,
  FORCED_DELIVERY_SEQUENCE_PROPERTY,
  type Packet,
} from '../../../src/core/protocol/packets';
import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import { MAX_UNANSWERED_TIMED_OUT_CALLS } from '../../../src/core/remoting/channel';
import { ScriptedBroker, type ScriptedBrokerOptions } from './scripted-broker';

const brokers: ScriptedBroker[] = [];
const factories: ClientSessionFactory[] = [];
const SESSION_CHANNEL = 10;

afterEach(async () => {
  await Promise.allSettled(factories.splice(0).map((factory) => factory.close()));
  await Promise.all(brokers.splice(0).map((broker) => broker.stop()));
});

async function brokerAt(
  options: ScriptedBrokerOptions = {},
): Promise<{ broker: ScriptedBroker; port: number }> {
  const broker = new ScriptedBroker(options);
  brokers.push(broker);
  return { broker, port: await broker.start() };
}

async function connect(port: number, options: Partial<ClientOptions> = {}): Promise<ClientSessionFactory> {
  const factory = await ClientSessionFactory.connect({
    connectors: [{ host: '127.0.0.1', port }],
    callTimeout: 5_000,
    ...options,
  });
  factories.push(factory);
  return factory;
}

/** Polls `condition` every 5 ms, failing after `ms` (generous: the machine is shared). */
async function until(condition: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function delivery(consumerId: number, body: string, deliveryCount = 1): Packet {
  const message = new CoreMessage();
  message.messageId = 1000 + body.length;
  message.address = 'q';
  message.body = Buffer.from(body);
  return { type: PacketType.SESS_RECEIVE_MSG, message, consumerId, deliveryCount };
}

/** HornetQ's forced-delivery marker: deliveryCount 0, the queue as address, the sequence as a LONG. */
function marker(consumerId: number, sequence: number): Packet {
  const message = new CoreMessage();
  message.messageId = 999_999;
  message.address = 'q';
  message.properties.set(FORCED_DELIVERY_SEQUENCE_PROPERTY, { kind: PropertyKind.LONG, value: sequence });
  return { type: PacketType.SESS_RECEIVE_MSG, message, consumerId, deliveryCount: 0 };
}

function creditsSent(broker: ScriptedBroker): number {
  return broker.packets(PacketType.SESS_FLOWTOKEN).reduce((sum, packet) => sum + packet.credits, 0);
}

describe('ClientSessionFactory handshake', () => {
  it('writes HORNETQ, then PING and SUBSCRIBE_TOPOLOGY_V2(false, 124) on channel 0, then CREATESESSION', async () => {
    const { broker, port } = await brokerAt();
    const factory = await connect(port);
    await factory.createSession();
    expect(broker.preambles.map((bytes) => bytes.toString('latin1'))).toEqual(['HORNETQ']);
    expect(broker.received.slice(0, 3).map((frame) => [frame.channelId, frame.packet.type])).toEqual([
      [0, PacketType.PING],
      [0, PacketType.SUBSCRIBE_TOPOLOGY_V2],
      [1, PacketType.CREATESESSION],
    ]);
    expect(broker.packets(PacketType.SUBSCRIBE_TOPOLOGY_V2)[0]).toMatchObject({
      clusterConnection: false,
      clientVersion: 124,
    });
  });

  it('creates sessions with version 124, a client-chosen UUID name and a fresh 16-byte secret each', async () => {
    const { broker, port } = await brokerAt();
    const factory = await connect(port);
    const first = await factory.createSession();
    const second = await factory.createSession();
    const [a, b] = broker.packets(PacketType.CREATESESSION);
    expect(CLIENT_VERSION).toBe(124);
    expect(a?.version).toBe(124);
    expect(a?.name).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(first.name).toBe(a?.name);
    expect(second.name).toBe(b?.name);
    expect(a?.name).not.toBe(b?.name);
    expect(a?.extension?.version).toBe(EXTENSION_VERSION);
    expect(a?.extension?.reattachSecret).toHaveLength(16);
    expect(a?.extension?.reattachSecret.equals(b?.extension?.reattachSecret ?? Buffer.alloc(0))).toBe(false);
  });

  it('fails to connect, naming the broker, when no topology answers the subscription within call-timeout', async () => {
    const { broker, port } = await brokerAt({ answerTopology: false });
    const started = Date.now();
    const error = await connect(port, { callTimeout: 300 }).catch((e: unknown) => e);
    expect(HornetQException.is(error, 'CONNECTION_TIMEDOUT')).toBe(true);
    expect((error as Error).message).toContain(`tcp://127.0.0.1:${port}`);
    expect((error as Error).message).toContain('topology');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    // No session was asked for on a connection that never said it was ready.
    expect(broker.packets(PacketType.CREATESESSION)).toEqual([]);
  });

  it('accepts any server version (Artemis answers 136) and takes later topology packets in its stride', async () => {
    const { broker, port } = await brokerAt({ serverVersion: 136 });
    const factory = await connect(port);
    broker.send(0, {
      type: PacketType.CLUSTER_TOPOLOGY_V2,
      exit: false,
      nodeId: 'another-node',
      uniqueEventId: 1,
      live: null,
      backup: null,
      last: true,
      nodeName: null,
    });
    const session = await factory.createSession();
    expect(session.closed).toBe(false);
    expect(factory.closed).toBe(false);
  });

  it('a DISCONNECT (node id, no reason) fails the connection as a server shutdown', async () => {
    const { broker, port } = await brokerAt();
    const factory = await connect(port);
    await factory.createSession();
    const failures: HornetQException[] = [];
    factory.addFailureListener((error) => failures.push(error));
    broker.send(0, { type: PacketType.DISCONNECT, nodeId: 'node-1' });
    await until(() => failures.length > 0);
    expect(failures[0]?.code).toBe('DISCONNECTED');
    expect(failures[0]?.message).toContain('server shutdown');
  });
});

describe('ClientSession on a broker without our extension (HornetQ, Artemis)', () => {
  it('registers no producers, and queue statistics fail saying the broker is not a hornetq-js broker', async () => {
    const { broker, port } = await brokerAt({ extended: false });
    const factory = await connect(port);
    const session = await factory.createSession();
    expect(session.extended).toBe(false);
    const producer = session.createProducer('q');
    producer.close();
    const error = await session.queueStats().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HornetQException);
    expect((error as Error).message).toMatch(/hornetq-js broker/);
    await session.close();
    expect(broker.packets(PacketType.SESS_CREATEPRODUCER)).toEqual([]);
    expect(broker.packets(PacketType.SESS_CLOSEPRODUCER)).toEqual([]);
    expect(broker.packets(PacketType.SESS_QUEUE_STATS)).toEqual([]);
  });

  it('on a broker of ours (the extension answered) registers producers', async () => {
    const { broker, port } = await brokerAt({ extended: true });
    const factory = await connect(port);
    const session = await factory.createSession();
    expect(session.extended).toBe(true);
    session.createProducer('q').close();
    await until(() => broker.packets(PacketType.SESS_CLOSEPRODUCER).length === 1);
    expect(broker.packets(PacketType.SESS_CREATEPRODUCER)).toHaveLength(1);
  });
});

describe('ClientSession requests in HornetQ 2.4 form', () => {
  it('addMetadata sends ADD_METADATA2 with its flag and waits for the answer; addUniqueMetadata has its flag', async () => {
    const { broker, port } = await brokerAt();
    const factory = await connect(port);
    const session = await factory.createSession();
    await session.addMetadata('jms-session', '');
    await session.addUniqueMetadata('jms-client-id', 'client-1');
    expect(broker.packets(PacketType.SESS_ADD_METADATA2)).toEqual([
      { type: PacketType.SESS_ADD_METADATA2, key: 'jms-session', data: '', requiresConfirmation: true },
    ]);
    expect(broker.packets(PacketType.SESS_UNIQUE_ADD_METADATA)).toEqual([
      {
        type: PacketType.SESS_UNIQUE_ADD_METADATA,
        key: 'jms-client-id',
        data: 'client-1',
        requiresConfirmation: true,
      },
    ]);
  });

  it('rollback() sends considerLastMessageAsDelivered false; rollback naming a consumer sends true', async () => {
    const { broker, port } = await brokerAt();
    const factory = await connect(port);
    const session = await factory.createSession({ autoCommitAcks: false, autoCommitSends: false });
    const consumer = await session.createConsumer('q');
    await session.rollback();
    await session.rollback([consumer]);
    expect(broker.packets(PacketType.SESS_ROLLBACK).map((p) => p.considerLastMessageAsDelivered)).toEqual([
      false,
      true,
    ]);
  });
});

describe('ClientConsumer against HornetQ 2.4 deliveries', () => {
  it('gives back credits for whole delivery frames', async () => {
    const { broker, port } = await brokerAt();
    const factory = await connect(port, { consumerWindowSize: 400 });
    const session = await factory.createSession();
    const consumer = await session.createConsumer('q');
    session.start();
    await until(() => broker.packets(PacketType.SESS_FLOWTOKEN).length === 1);
    expect(creditsSent(broker)).toBe(400);
    const packets = ['first message', 'second message', 'third one'].map((body) =>
      delivery(consumer.id, body),
    );
    const frameBytes = packets.map((packet) => encodePacket(SESSION_CHANNEL, packet).length);
    for (const packet of packets) broker.send(SESSION_CHANNEL, packet);
    const received = [];
    for (let i = 0; i < packets.length; i++) received.push(await consumer.receive(5_000));
    expect(received.map((message) => message?.size)).toEqual(frameBytes);
    // Half a window's worth goes back at once: what went back is a sum of whole frames.
    const total = frameBytes.reduce((sum, bytes) => sum + bytes, 0);
    expect(total).toBeGreaterThanOrEqual(200);
    await until(() => creditsSent(broker) > 400);
    const returned = creditsSent(broker) - 400;
    const sums = [frameBytes.slice(0, 1), frameBytes.slice(0, 2), frameBytes].map((part) =>
      part.reduce((sum, bytes) => sum + bytes, 0),
    );
    expect(sums).toContain(returned);
  });

  it('receiveImmediate asks for forced delivery and ends at the marker message with that sequence, charging nothing', async () => {
    const { broker, port } = await brokerAt();
    const factory = await connect(port, { consumerWindowSize: 1000 });
    const session = await factory.createSession();
    const consumer = await session.createConsumer('q');
    session.start();
    await until(() => broker.packets(PacketType.SESS_FLOWTOKEN).length === 1);
    const empty = consumer.receiveImmediate();
    await until(() => broker.packets(PacketType.SESS_FORCE_CONSUMER_DELIVERY).length === 1);
    const force = broker.packets(PacketType.SESS_FORCE_CONSUMER_DELIVERY)[0];
    expect(force?.consumerId).toBe(consumer.id);
    broker.send(SESSION_CHANNEL, marker(consumer.id, force?.sequence ?? -1));
    await expect(empty).resolves.toBeNull();

    // A message answers the next one; the marker that follows it is stale and ignored.
    const next = consumer.receiveImmediate();
    await until(() => broker.packets(PacketType.SESS_FORCE_CONSUMER_DELIVERY).length === 2);
    const second = broker.packets(PacketType.SESS_FORCE_CONSUMER_DELIVERY)[1];
    broker.send(SESSION_CHANNEL, delivery(consumer.id, 'there was one'));
    broker.send(SESSION_CHANNEL, marker(consumer.id, second?.sequence ?? -1));
    const got = await next;
    expect(got?.message.body.toString()).toBe('there was one');
    // No marker was handed out, and none of them came back as credits.
    const late = consumer.receive(200);
    await expect(late).resolves.toBeNull();
    expect(creditsSent(broker)).toBe(1000);
  });

  /** Resolves with the error the factory's connection failed with. */
  function connectionFailure(factory: ClientSessionFactory): Promise<HornetQException> {
    return new Promise((resolve) => factory.addFailureListener((error) => resolve(error)));
  }

  const BEYOND_CREDITS =
    /^protocol error: SESS_RECEIVE_MSG\(75\) of \d+ bytes for consumer 0 \(queue q\) on connection \d+ to \S*127\.0\.0\.1:\d+ came beyond the credits this consumer gave the broker \(window (4096|0) bytes; credit balance -?\d+ bytes\): the broker does not keep to flow control, so the connection is failed rather than buffer without bound$/;

  it('a broker that delivers beyond the credits it was given fails the connection, saying why; the client holds no more than its window', async () => {
    const { broker, port } = await brokerAt();
    const factory = await connect(port, { consumerWindowSize: 4096 });
    const failed = connectionFailure(factory);
    const session = await factory.createSession();
    const consumer = await session.createConsumer('q');
    session.start();
    await until(() => broker.packets(PacketType.SESS_FLOWTOKEN).length === 1);
    // What the consumer held when the failure was seen (the give-up then closes it, dropping them).
    let heldAtFailure = -1;
    factory.addFailoverListener(() => {
      if (heldAtFailure === -1) heldAtFailure = consumer.bufferedCount;
    });
    // 20 000 deliveries of 1 KiB (about 21 MiB) to a 4 KiB window, none taken by the application.
    const body = 'x'.repeat(1024);
    for (let i = 0; i < 20_000; i++) broker.send(SESSION_CHANNEL, delivery(consumer.id, body));
    const error = await failed;
    expect(error.code).toBe('UNSUPPORTED_PACKET');
    expect(error.message).toMatch(BEYOND_CREDITS);
    // What went in before the broker was caught: the window, and the one message it may overshoot by.
    const frame = encodePacket(SESSION_CHANNEL, delivery(consumer.id, body)).length;
    expect(heldAtFailure).toBeLessThanOrEqual(Math.ceil(4096 / frame) + 1);
    expect(heldAtFailure).toBeGreaterThan(0);
    expect(consumer.closed).toBe(true);
    expect(creditsSent(broker)).toBe(4096);
  });

  it('with a window of 0, a second message for the one credit asked fails the connection', async () => {
    const { broker, port } = await brokerAt();
    const factory = await connect(port, { consumerWindowSize: 0 });
    const failed = connectionFailure(factory);
    const session = await factory.createSession();
    const consumer = await session.createConsumer('q');
    session.start();
    const first = consumer.receive(5_000);
    await until(() => broker.packets(PacketType.SESS_FLOWTOKEN).length === 1);
    expect(creditsSent(broker)).toBe(1);
    broker.send(SESSION_CHANNEL, delivery(consumer.id, 'the one asked for'));
    broker.send(SESSION_CHANNEL, delivery(consumer.id, 'one more, never asked for'));
    expect((await first)?.message.body.toString()).toBe('the one asked for');
    expect((await failed).message).toMatch(BEYOND_CREDITS);
  });

  it('a window of -1 asks for no limit: the client takes whatever comes, as told', async () => {
    const { broker, port } = await brokerAt();
    const factory = await connect(port, { consumerWindowSize: -1 });
    let failure: HornetQException | null = null;
    factory.addFailureListener((error) => (failure = error));
    const session = await factory.createSession();
    const consumer = await session.createConsumer('q');
    session.start();
    await until(() => broker.packets(PacketType.SESS_FLOWTOKEN).length === 1);
    expect(creditsSent(broker)).toBe(-1);
    for (let i = 0; i < 500; i++) broker.send(SESSION_CHANNEL, delivery(consumer.id, 'y'.repeat(1024)));
    await until(() => consumer.bufferedCount === 500);
    expect(failure).toBeNull();
  });

  it('a broker that keeps to the credits is never caught: a window refilled as messages are taken, many times over', async () => {
    const { broker, port } = await brokerAt();
    const factory = await connect(port, { consumerWindowSize: 2048 });
    let failure: HornetQException | null = null;
    factory.addFailureListener((error) => (failure = error));
    const session = await factory.createSession();
    const consumer = await session.createConsumer('q');
    session.start();
    await until(() => broker.packets(PacketType.SESS_FLOWTOKEN).length === 1);
    const body = 'z'.repeat(500);
    const frame = encodePacket(SESSION_CHANNEL, delivery(consumer.id, body)).length;
    // The broker's side of flow control: it sends while its balance is above 0.
    let sent = 0;
    let received = 0;
    const balance = (): number => creditsSent(broker) - sent * frame;
    while (received < 100) {
      // Credits come back as messages are taken: wait for them when nothing is left to take.
      if (sent < 100) await until(() => balance() > 0 || received < sent);
      while (sent < 100 && balance() > 0) {
        broker.send(SESSION_CHANNEL, delivery(consumer.id, body));
        sent++;
      }
      const message = await consumer.receive(5_000);
      expect(message).not.toBeNull();
      received++;
    }
    expect(failure).toBeNull();
  });

  it('DISCONNECT_CONSUMER closes that consumer here: a waiting receive gets null', async () => {
    const { broker, port } = await brokerAt();
    const factory = await connect(port);
    const session = await factory.createSession();
    const consumer = await session.createConsumer('q');
    const other = await session.createConsumer('q');
    session.start();
    const waiting = consumer.receive();
    broker.send(SESSION_CHANNEL, { type: PacketType.DISCONNECT_CONSUMER, consumerId: consumer.id });
    await expect(waiting).resolves.toBeNull();
    expect(consumer.closed).toBe(true);
    expect(other.closed).toBe(false);
    // Closed by the broker already: the client does not ask it to close it again.
    expect(broker.packets(PacketType.SESS_CONSUMER_CLOSE)).toEqual([]);
  });
});

describe('ClientSession failover against a broker that lost the session', () => {
  async function recreated(extended: boolean): Promise<ScriptedBroker> {
    const { broker, port } = await brokerAt({ extended });
    const factory = await connect(port, {
      confirmationWindowSize: 1024,
      reconnectAttempts: 3,
      retryInterval: 50,
      maxRetryInterval: 50,
    });
    const session = await factory.createSession({ username: 'app', password: 'secret' });
    await session.addMetadata('jms-session', '');
    const completed = new Promise<boolean>((resolve) =>
      factory.addFailoverListener((event) => {
        if (event.type === FailoverEventType.FAILOVER_COMPLETED) resolve(event.reattached === true);
      }),
    );
    broker.dropConnections();
    expect(await completed).toBe(false);
    return broker;
  }

  it('asks to reattach by name, then re-creates with the same name, channel and version, and re-sends metadata uncounted', async () => {
    const broker = await recreated(false);
    const [reattach] = broker.packets(PacketType.REATTACH_SESSION);
    const [created, again] = broker.packets(PacketType.CREATESESSION);
    expect(reattach?.name).toBe(created?.name);
    // A broker that is not ours gets no secret and no credentials with the reattach.
    expect(reattach?.extension).toBeNull();
    expect(again).toMatchObject({
      name: created?.name,
      sessionChannelId: created?.sessionChannelId,
      version: 124,
    });
    await until(() => broker.packets(PacketType.SESS_ADD_METADATA2).length === 2);
    expect(broker.packets(PacketType.SESS_ADD_METADATA2).map((p) => p.requiresConfirmation)).toEqual([
      true,
      false,
    ]);
  });

  it('to a broker of ours the reattach carries the secret and the credentials', async () => {
    const broker = await recreated(true);
    const [reattach] = broker.packets(PacketType.REATTACH_SESSION);
    const [created] = broker.packets(PacketType.CREATESESSION);
    expect(
      reattach?.extension?.reattachSecret.equals(created?.extension?.reattachSecret ?? Buffer.alloc(0)),
    ).toBe(true);
    expect(reattach?.extension).toMatchObject({ username: 'app', password: 'secret' });
  });
});

describe('ClientSession against a broker that stops answering', () => {
  it(`fails the connection at ${MAX_UNANSWERED_TIMED_OUT_CALLS} unanswered timed-out calls, saying why, and fails over`, async () => {
    // The scripted broker never answers SESS_QUEUEQUERY: each query times out and leaves a tombstone.
    const { broker, port } = await brokerAt();
    const factory = await connect(port, { callTimeout: 500, reconnectAttempts: 3, retryInterval: 50 });
    const session = await factory.createSession();
    const events: Array<{ type: string; cause: string | undefined }> = [];
    factory.addFailoverListener((event) =>
      events.push({ type: event.type, cause: (event.cause as Error | undefined)?.message }),
    );

    const queries = Array.from({ length: MAX_UNANSWERED_TIMED_OUT_CALLS }, () =>
      session.queueQuery('q').catch((error: unknown) => error),
    );
    const outcomes = await Promise.all(queries);
    expect(outcomes.every((outcome) => HornetQException.is(outcome, 'CONNECTION_TIMEDOUT'))).toBe(true);

    await until(() => events.some((event) => event.type === FailoverEventType.FAILOVER_COMPLETED), 20_000);
    expect(events[0]).toEqual({
      type: FailoverEventType.FAILURE_DETECTED,
      cause: expect.stringMatching(
        new RegExp(
          `^${MAX_UNANSWERED_TIMED_OUT_CALLS} calls on channel \\d+ of .* the peer has stopped answering`,
        ),
      ),
    });
    // Re-created on a new connection (no resend buffer: nothing to reattach); it serves calls again.
    expect(broker.packets(PacketType.CREATESESSION)).toHaveLength(2);
    await expect(session.createConsumer('q')).resolves.toBeDefined();
  });
});

describe('a delivery the client cannot take', () => {
  function largeDelivery(broker: ScriptedBroker, consumerId: number, bodySize: number): void {
    const head = new CoreMessage();
    head.messageId = 77;
    head.address = 'q';
    broker.send(SESSION_CHANNEL, {
      type: PacketType.SESS_RECEIVE_LARGE_MSG,
      consumerId,
      deliveryCount: 1,
      largeMessageSize: bodySize,
      message: head,
    });
    const half = Math.ceil(bodySize / 2);
    for (const [chunk, continues] of [
      [Buffer.alloc(half, 1), true],
      [Buffer.alloc(bodySize - half, 2), false],
    ] as const) {
      broker.send(SESSION_CHANNEL, {
        type: PacketType.SESS_RECEIVE_CONTINUATION,
        chunk,
        continues,
        consumerId,
      });
    }
  }

  async function refusedOn(
    extended: boolean,
  ): Promise<{ broker: ScriptedBroker; errors: HornetQException[]; closed: boolean }> {
    const { broker, port } = await brokerAt({ extended });
    const factory = await connect(port, { maxLargeMessageBytes: 100 });
    const session = await factory.createSession();
    const errors: HornetQException[] = [];
    session.setAsyncErrorHandler((error) => errors.push(error));
    const consumer = await session.createConsumer('q');
    session.start();
    largeDelivery(broker, consumer.id, 300);
    await until(() => errors.length === 1);
    if (!extended) await until(() => consumer.closed);
    else await until(() => broker.packets(PacketType.SESS_DELIVERY_REFUSED).length === 1);
    return { broker, errors, closed: consumer.closed };
  }

  it('on a HornetQ broker closes that consumer (the broker takes its messages back) and says why', async () => {
    const { broker, errors, closed } = await refusedOn(false);
    expect(errors[0]?.message).toMatch(/300/);
    expect(closed).toBe(true);
    expect(broker.packets(PacketType.SESS_CONSUMER_CLOSE)).toHaveLength(1);
    expect(broker.packets(PacketType.SESS_DELIVERY_REFUSED)).toEqual([]);
  });

  it('on a broker of ours refuses that delivery alone (DELIVERY_REFUSED) and keeps the consumer', async () => {
    const { broker, closed } = await refusedOn(true);
    expect(closed).toBe(false);
    expect(broker.packets(PacketType.SESS_DELIVERY_REFUSED)[0]).toMatchObject({ messageId: 77 });
    expect(broker.packets(PacketType.SESS_CONSUMER_CLOSE)).toEqual([]);
  });
});

describe('a large frame arriving in parts', () => {
  /** A continuation of a large delivery, bigger than a HornetQ broker's socket buffer. */
  const chunkFrame = (): Buffer =>
    encodePacket(SESSION_CHANNEL, {
      type: PacketType.SESS_RECEIVE_CONTINUATION,
      chunk: Buffer.alloc(100 * 1024, 7),
      continues: true,
      consumerId: 0,
    });

  test('is answered with a ping as soon as a part has arrived, carrying the connection TTL', async () => {
    const { broker, port } = await brokerAt({ answerTopology: true });
    // No periodic pings during the test: every ping after the first is an answer.
    await connect(port, { connectionTTL: 45_000, clientFailureCheckPeriod: 600_000 });
    await until(() => broker.packets(PacketType.PING).length === 1);
    broker.write(chunkFrame().subarray(0, 40 * 1024));
    // (The scripted broker echoes it into the middle of the frame, which may earn another.)
    await until(() => broker.packets(PacketType.PING).length >= 2);
    expect(broker.packets(PacketType.PING)[1]).toEqual({ type: PacketType.PING, connectionTtl: 45_000 });
  });

  test('small frames, however they are split, are not answered', async () => {
    const { broker, port } = await brokerAt({ answerTopology: true });
    await connect(port, { clientFailureCheckPeriod: 600_000 });
    await until(() => broker.packets(PacketType.PING).length === 1);
    const ping = encodePacket(0, { type: PacketType.PING, connectionTtl: 1 });
    for (let i = 0; i < 20; i++) {
      broker.write(ping.subarray(0, 5));
      await new Promise((resolve) => setTimeout(resolve, 2));
      broker.write(ping.subarray(5));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(broker.packets(PacketType.PING)).toHaveLength(1);
  });
});
