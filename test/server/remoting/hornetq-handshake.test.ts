import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  CoreMessage,
  EXTENSION_VERSION,
  PacketType,
  encodePacket,
  type Packet,
  type ReattachExtension,
} from '../../../src/core/protocol';
import { MAX_UNANSWERED_SESSION_REQUESTS } from '../../../src/server/remoting/handshake-handler';
import type { Broker } from '../../../src/server/broker';
import {
  RAW_SESSION_CHANNEL,
  RawClient,
  createSessionPacket,
  newReattachSecret,
} from '../../support/raw-client';
import { MAX_METADATA_KEYS_PER_SESSION } from '../../../src/server/session/session-metadata';
import { CapturingLogger, useTestBrokers, waitFor } from '../../support/test-broker';

/**
 * The broker's side of the connection set-up as a HornetQ 2.4 client meets it, over real TCP with a
 * raw client that writes a Java client's packets: the preamble, the topology subscription, version
 * negotiation, client-chosen session names, the extension trailer and DISCONNECT at shutdown.
 */

const env = useTestBrokers();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function raw(broker: Broker, options: { preamble?: Buffer | null } = {}): Promise<RawClient> {
  return env.track(await RawClient.connect(broker.getPort(), options));
}

/** The member of Packet whose type may be T (CLUSTER_TOPOLOGY and its V2 share one interface). */
type PacketOf<T, P = Packet> = P extends { type: infer U } ? (T extends U ? P : never) : never;

function expectPacket<T extends Packet['type']>(packet: Packet | undefined, type: T): PacketOf<T> {
  expect(packet?.type).toBe(type);
  return packet as PacketOf<T>;
}

describe('connection set-up', () => {
  it('skips the HORNETQ preamble a Java client writes, and works without one too', async () => {
    const broker = await env.startBroker();
    for (const preamble of [Buffer.from('HORNETQ'), null]) {
      const client = await raw(broker, { preamble });
      const echo = await client.request(0, { type: PacketType.PING, connectionTtl: 60_000 });
      expect(echo).toEqual({ type: PacketType.PING, connectionTtl: 60_000 });
    }
  });

  it('refuses a native Artemis client (ARTEMIS preamble) with a log line naming it, and closes', async () => {
    const logger = new CapturingLogger();
    const broker = await env.startBroker({ logger });
    const client = await raw(broker, { preamble: Buffer.from('ARTEMIS') });
    client.send(0, { type: PacketType.PING, connectionTtl: 60_000 });
    await waitFor(() => client.closed, 'the broker to close the Artemis connection');
    expect(client.frames).toEqual([]);
    expect(logger.find(/native ActiveMQ Artemis client \(preamble 'ARTEMIS'\)/, ['warn'])).toHaveLength(1);
  });

  it('answers SUBSCRIBE_TOPOLOGY_V2 with one CLUSTER_TOPOLOGY_V2: its node id, no connectors, last', async () => {
    const broker = await env.startBroker();
    const client = await raw(broker);
    const before = Date.now();
    const topology = expectPacket(await client.subscribeTopology(), PacketType.CLUSTER_TOPOLOGY_V2);
    expect(topology).toMatchObject({
      exit: false,
      nodeId: broker.nodeId,
      live: null,
      backup: null,
      last: true,
    });
    expect(broker.nodeId).toMatch(UUID);
    expect(topology.uniqueEventId).toBeGreaterThanOrEqual(before);
    expect(client.packetsOn(0)).toHaveLength(1);
  });

  it('answers CLUSTER_TOPOLOGY (V1) to a client below version 122 and to SUBSCRIBE_TOPOLOGY', async () => {
    const broker = await env.startBroker();
    const old = await raw(broker);
    expectPacket(await old.subscribeTopology(121), PacketType.CLUSTER_TOPOLOGY);
    const v1 = await raw(broker);
    const answer = await v1.request(0, { type: PacketType.SUBSCRIBE_TOPOLOGY, clusterConnection: false });
    expect(expectPacket(answer, PacketType.CLUSTER_TOPOLOGY)).toMatchObject({
      nodeId: broker.nodeId,
      last: true,
    });
  });

  it('keeps its node id across a restart when it persists (a client must not take it for another server)', async () => {
    const dataDirectory = await fs.mkdtemp(path.join(os.tmpdir(), 'hornetq-node-id-'));
    env.track({ close: () => fs.rm(dataDirectory, { recursive: true, force: true }) });
    const config = { persistenceEnabled: true, dataDirectory, journalFileSize: 128 * 1024 };
    const first = await env.startBroker(config);
    const id = first.nodeId;
    await first.stop();
    const second = await env.startBroker(config);
    expect(second.nodeId).toBe(id);
    const client = await raw(second);
    expect(expectPacket(await client.subscribeTopology(), PacketType.CLUSTER_TOPOLOGY_V2).nodeId).toBe(id);
  });

  it('says DISCONNECT with its node id when it shuts down', async () => {
    const broker = await env.startBroker();
    const client = await raw(broker);
    await client.subscribeTopology();
    const nodeId = broker.nodeId;
    await broker.stop();
    await waitFor(() => client.has(PacketType.DISCONNECT), 'DISCONNECT');
    expect(client.packetsOn(0).at(-1)).toEqual({ type: PacketType.DISCONNECT, nodeId });
  });
});

describe('CREATESESSION', () => {
  it('accepts the 2.3 and 2.4 client versions (122 to 124) and answers 124, with no trailer unless asked', async () => {
    const broker = await env.startBroker();
    const client = await raw(broker);
    for (const [index, version] of [122, 123, 124].entries()) {
      const answer = await client.createSession(RAW_SESSION_CHANNEL + index, { version });
      expect(answer).toEqual({ type: PacketType.CREATESESSION_RESP, serverVersion: 124, extension: null });
    }
  });

  it.each([121, 125, 1])(
    'refuses version %i with INCOMPATIBLE_CLIENT_SERVER_VERSIONS, as HornetQ words it',
    async (version) => {
      const broker = await env.startBroker();
      const client = await raw(broker);
      const answer = expectPacket(
        await client.createSession(RAW_SESSION_CHANNEL, { version }),
        PacketType.EXCEPTION,
      );
      expect(answer.code).toBe('INCOMPATIBLE_CLIENT_SERVER_VERSIONS');
      expect(answer.message).toMatch(/^Server and client versions incompatible/);
      expect(broker.getSessionCount()).toBe(0);
    },
  );

  it('answers our extension trailer with its own, and only then', async () => {
    const broker = await env.startBroker();
    const client = await raw(broker);
    const answer = await client.createSession(RAW_SESSION_CHANNEL, { reattachSecret: newReattachSecret() });
    expect(answer).toEqual({
      type: PacketType.CREATESESSION_RESP,
      serverVersion: 124,
      extension: { version: EXTENSION_VERSION },
    });
  });

  it('negotiates the lower extension version: a version 1 client gets version 1', async () => {
    const broker = await env.startBroker();
    const client = await raw(broker);
    const answer = await client.createSession(RAW_SESSION_CHANNEL, {
      reattachSecret: newReattachSecret(),
      extensionVersion: 1,
    });
    expect(answer).toMatchObject({ type: PacketType.CREATESESSION_RESP, extension: { version: 1 } });
  });

  it('refuses an XA session with a clear error', async () => {
    const broker = await env.startBroker();
    const client = await raw(broker);
    const answer = expectPacket(
      await client.createSession(RAW_SESSION_CHANNEL, { xa: true }),
      PacketType.EXCEPTION,
    );
    expect(answer.code).toBe('SESSION_CREATION_REJECTED');
    expect(answer.message).toMatch(/XA sessions are not supported/);
  });

  it('never lets a session name a live session holds be taken: the first session goes on', async () => {
    const broker = await env.startBroker({
      queues: [{ name: 'q', address: 'q', filter: null, durable: false }],
    });
    const owner = await raw(broker);
    await owner.createSession(RAW_SESSION_CHANNEL, { name: 'taken' });
    const intruder = await raw(broker);
    const refused = expectPacket(
      await intruder.createSession(RAW_SESSION_CHANNEL, { name: 'taken' }),
      PacketType.EXCEPTION,
    );
    expect(refused.code).toBe('SESSION_CREATION_REJECTED');
    expect(refused.message).toMatch(/a session named "taken" already exists/);
    const query = await owner.request(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_QUEUEQUERY,
      queueName: 'q',
    });
    expect(expectPacket(query, PacketType.SESS_QUEUEQUERY_RESP)).toMatchObject({
      exists: true,
      name: 'q',
      address: 'q',
    });
    expect(broker.getSessionCount()).toBe(1);
  });

  it('lets the client that holds a name create its session again (its first answer was lost): same secret and user, or a plain session whose link is gone', async () => {
    const broker = await env.startBroker();
    const secret = newReattachSecret();
    const ours = await raw(broker);
    await ours.createSession(RAW_SESSION_CHANNEL, { name: 'ours', windowSize: 1024, reattachSecret: secret });
    const java = await raw(broker);
    await java.createSession(RAW_SESSION_CHANNEL, { name: 'java', windowSize: 1024 });
    await Promise.all([ours.close(), java.close()]);
    await waitFor(
      () => broker.getConnectionCount() === 2 && broker.listConnections().every((c) => c.sessionCount === 1),
      'two detached sessions',
    );

    const again = await raw(broker);
    const wrongSecret = await again.createSession(RAW_SESSION_CHANNEL, {
      name: 'ours',
      reattachSecret: newReattachSecret(),
    });
    expect(expectPacket(wrongSecret, PacketType.EXCEPTION).code).toBe('SESSION_CREATION_REJECTED');
    const noSecret = await again.createSession(RAW_SESSION_CHANNEL + 1, { name: 'ours' });
    expect(expectPacket(noSecret, PacketType.EXCEPTION).code).toBe('SESSION_CREATION_REJECTED');
    expectPacket(
      await again.createSession(RAW_SESSION_CHANNEL + 2, { name: 'ours', reattachSecret: secret }),
      PacketType.CREATESESSION_RESP,
    );
    expectPacket(
      await again.createSession(RAW_SESSION_CHANNEL + 3, { name: 'java' }),
      PacketType.CREATESESSION_RESP,
    );
    // The earlier two were closed, not kept beside the new ones.
    expect(broker.getSessionCount()).toBe(2);
  });

  it('takes a name again once its session is closed (a re-create after a failed reattach)', async () => {
    const broker = await env.startBroker();
    const first = await raw(broker);
    await first.createSession(RAW_SESSION_CHANNEL, { name: 'reused' });
    expectPacket(
      await first.request(RAW_SESSION_CHANNEL, { type: PacketType.SESS_CLOSE }),
      PacketType.NULL_RESPONSE,
    );
    const again = await raw(broker);
    expectPacket(
      await again.createSession(RAW_SESSION_CHANNEL, { name: 'reused' }),
      PacketType.CREATESESSION_RESP,
    );
  });

  it('answers channel-1 requests in the order they came', async () => {
    const broker = await env.startBroker();
    const client = await raw(broker);
    client.send(1, {
      type: PacketType.REATTACH_SESSION,
      name: 'nobody',
      lastConfirmedCommandId: -1,
      extension: null,
    });
    const created = client.createSession(RAW_SESSION_CHANNEL);
    await waitFor(() => client.packetsOn(1).length === 2, 'two channel-1 answers');
    await created;
    expect(client.packetsOn(1).map((packet) => packet.type)).toEqual([
      PacketType.REATTACH_SESSION_RESP,
      PacketType.CREATESESSION_RESP,
    ]);
    expect(client.packetsOn(1)[0]).toEqual({
      type: PacketType.REATTACH_SESSION_RESP,
      lastConfirmedCommandId: -1,
      reattached: false,
    });
  });
});

describe('reattach', () => {
  const REATTACHABLE = { windowSize: 64 * 1024 };

  async function detachedSession(
    broker: Broker,
    options: { name: string; reattachSecret?: Buffer },
  ): Promise<void> {
    const owner = await raw(broker);
    await owner.createSession(RAW_SESSION_CHANNEL, { ...REATTACHABLE, ...options });
    await owner.close();
    await waitFor(() => broker.getConnectionCount() === 1, 'the broker to see the link gone');
  }

  function reattach(client: RawClient, name: string, extension: ReattachExtension | null): Promise<Packet> {
    return client.request(1, {
      type: PacketType.REATTACH_SESSION,
      name,
      lastConfirmedCommandId: -1,
      extension,
    });
  }

  it('reattaches a plain session (a Java client’s) by its name, HornetQ’s rule', async () => {
    const broker = await env.startBroker();
    await detachedSession(broker, { name: 'java-session' });
    const client = await raw(broker);
    expect(await reattach(client, 'java-session', null)).toEqual({
      type: PacketType.REATTACH_SESSION_RESP,
      lastConfirmedCommandId: -1,
      reattached: true,
    });
    const stop = await client.request(RAW_SESSION_CHANNEL, { type: PacketType.SESS_STOP });
    expect(stop).toEqual({ type: PacketType.NULL_RESPONSE });
  });

  // HornetQ's Java client moves the session's channel to its new connection first, and the
  // channel's confirmation timer may flush on it before the REATTACH_SESSION goes out.
  it('takes a confirmation on the session channel before the reattach that opens it, as a Java client sends one', async () => {
    const broker = await env.startBroker();
    await detachedSession(broker, { name: 'java-session' });
    const client = await raw(broker);
    client.send(RAW_SESSION_CHANNEL, { type: PacketType.PACKETS_CONFIRMED, commandId: 3 });
    expect(await reattach(client, 'java-session', null)).toMatchObject({ reattached: true });
    const stop = await client.request(RAW_SESSION_CHANNEL, { type: PacketType.SESS_STOP });
    expect(stop).toEqual({ type: PacketType.NULL_RESPONSE });
    expect(client.closed).toBe(false);
  });

  it(`fails a connection that queues more than ${MAX_UNANSWERED_SESSION_REQUESTS} session requests behind a waiting reattach`, async () => {
    const dataDirectory = await fs.mkdtemp(path.join(os.tmpdir(), 'hornetq-pipelined-'));
    env.track({ close: () => fs.rm(dataDirectory, { recursive: true, force: true }) });
    const logger = new CapturingLogger();
    const broker = await env.startBroker({
      logger,
      persistenceEnabled: true,
      dataDirectory,
      queues: [{ name: 'q', address: 'q', filter: null, durable: true }],
    });
    const client = await raw(broker);
    await client.createSession(RAW_SESSION_CHANNEL, { ...REATTACHABLE, name: 'pipelined' });
    const durable = new CoreMessage();
    durable.address = 'q';
    durable.durable = true;
    // One write: the send's answer waits for the journal, the reattach waits for that answer, and
    // every CREATESESSION behind it waits its turn.
    client.write(
      Buffer.concat([
        encodePacket(RAW_SESSION_CHANNEL, {
          type: PacketType.SESS_SEND,
          message: durable,
          requiresResponse: true,
        }),
        encodePacket(1, {
          type: PacketType.REATTACH_SESSION,
          name: 'pipelined',
          lastConfirmedCommandId: -1,
          extension: null,
        }),
        ...Array.from({ length: MAX_UNANSWERED_SESSION_REQUESTS }, (_, i) =>
          encodePacket(1, createSessionPacket(RAW_SESSION_CHANNEL + 1 + i)),
        ),
      ]),
    );
    await waitFor(() => client.closed, 'the broker to close the connection');
    expect(
      logger.find(/CREATESESSION\(30\) while 16 session requests are unanswered on channel 1/, ['warn']),
    ).toHaveLength(1);
  });

  it('reattaches an extended session only with its secret and its user: the name alone, or a wrong secret, is refused', async () => {
    const broker = await env.startBroker();
    const secret = newReattachSecret();
    await detachedSession(broker, { name: 'ours', reattachSecret: secret });
    const refused = { type: PacketType.REATTACH_SESSION_RESP, lastConfirmedCommandId: -1, reattached: false };
    const intruder = await raw(broker);
    expect(await reattach(intruder, 'ours', null)).toEqual(refused);
    expect(
      await reattach(intruder, 'ours', {
        reattachSecret: newReattachSecret(),
        username: null,
        password: null,
      }),
    ).toEqual(refused);
    expect(
      await reattach(intruder, 'ours', { reattachSecret: secret, username: 'someone-else', password: null }),
    ).toEqual(refused);
    const client = await raw(broker);
    const answer = await reattach(client, 'ours', { reattachSecret: secret, username: null, password: null });
    expect(answer).toMatchObject({ type: PacketType.REATTACH_SESSION_RESP, reattached: true });
  });
});

describe('session packets', () => {
  it('answers ADD_METADATA (104) uncounted, ADD_METADATA2 (105) counted and answered only with its flag', async () => {
    const broker = await env.startBroker({
      queues: [{ name: 'q', address: 'q', filter: null, durable: false }],
    });
    const client = await raw(broker);
    // Window 0: the broker confirms every counted packet it handles, so its confirmations show its count.
    await client.createSession(RAW_SESSION_CHANNEL, { windowSize: 0 });
    expect(
      await client.request(RAW_SESSION_CHANNEL, { type: PacketType.SESS_ADD_METADATA, key: 'a', data: '1' }),
    ).toEqual({
      type: PacketType.NULL_RESPONSE,
    });
    client.send(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_ADD_METADATA2,
      key: 'jms-session',
      data: '',
      requiresConfirmation: false,
    });
    const counted = await client.request(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_ADD_METADATA2,
      key: 'b',
      data: '2',
      requiresConfirmation: true,
    });
    expect(counted).toEqual({ type: PacketType.NULL_RESPONSE });
    const query = await client.request(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_QUEUEQUERY,
      queueName: 'q',
    });
    expectPacket(query, PacketType.SESS_QUEUEQUERY_RESP);
    const answers = client
      .packetsOn(RAW_SESSION_CHANNEL)
      .filter((packet) => packet.type !== PacketType.PACKETS_CONFIRMED);
    // One answer per answered request: the uncounted 105 got none.
    expect(answers.map((packet) => packet.type)).toEqual([
      PacketType.NULL_RESPONSE,
      PacketType.NULL_RESPONSE,
      PacketType.SESS_QUEUEQUERY_RESP,
    ]);
    // Counted: the flagged 105 (command 0) and the query (1); 104 and the unflagged 105 are not.
    await waitFor(() => lastConfirmed(client) === 1, 'the broker to confirm command 1');
  });

  it('answers UNIQUE_ADD_METADATA, and refuses a pair another session holds with DUPLICATE_METADATA', async () => {
    const broker = await env.startBroker();
    const first = await raw(broker);
    await first.createSession();
    const claim = {
      type: PacketType.SESS_UNIQUE_ADD_METADATA,
      key: 'jms-client-id',
      data: 'c1',
      requiresConfirmation: true,
    } as const;
    expect(await first.request(RAW_SESSION_CHANNEL, claim)).toEqual({ type: PacketType.NULL_RESPONSE });
    const second = await raw(broker);
    await second.createSession();
    expect(await second.request(RAW_SESSION_CHANNEL, claim)).toMatchObject({
      type: PacketType.EXCEPTION,
      code: 'DUPLICATE_METADATA',
    });
  });

  it('answers UNIQUE_ADD_METADATA whatever its flag says, and one past the key bound claims nothing', async () => {
    const broker = await env.startBroker();
    const full = await raw(broker);
    await full.createSession();
    for (let i = 0; i < MAX_METADATA_KEYS_PER_SESSION; i++) {
      const add = { type: PacketType.SESS_ADD_METADATA, key: `k${i}`, data: 'v' } as const;
      expect(await full.request(RAW_SESSION_CHANNEL, add)).toEqual({ type: PacketType.NULL_RESPONSE });
    }
    const claim = {
      type: PacketType.SESS_UNIQUE_ADD_METADATA,
      key: 'jms-client-id',
      data: 'c1',
      requiresConfirmation: false,
    } as const;
    expect(await full.request(RAW_SESSION_CHANNEL, claim)).toMatchObject({
      type: PacketType.EXCEPTION,
      code: 'ILLEGAL_STATE',
    });
    const other = await raw(broker);
    await other.createSession();
    expect(await other.request(RAW_SESSION_CHANNEL, claim)).toEqual({ type: PacketType.NULL_RESPONSE });
  });

  it('creates a shared queue once and takes it again alike; another filter or address is INVALID_TRANSIENT_QUEUE_USE, as on HornetQ 2.4', async () => {
    const broker = await env.startBroker();
    const client = await raw(broker);
    await client.createSession();
    const shared = {
      type: PacketType.CREATE_SHARED_QUEUE,
      address: 'jms.topic.t',
      queueName: 'shared',
      filter: null,
      durable: false,
      requiresResponse: true,
    } as const;
    expect(await client.request(RAW_SESSION_CHANNEL, shared)).toEqual({ type: PacketType.NULL_RESPONSE });
    expect(await client.request(RAW_SESSION_CHANNEL, shared)).toEqual({ type: PacketType.NULL_RESPONSE });
    expect(await client.request(RAW_SESSION_CHANNEL, { ...shared, filter: "color = 'red'" })).toMatchObject({
      type: PacketType.EXCEPTION,
      code: 'INVALID_TRANSIENT_QUEUE_USE',
      message: expect.stringContaining('Queue shared has a different filter than requested'),
    });
    expect(await client.request(RAW_SESSION_CHANNEL, { ...shared, address: 'jms.topic.u' })).toMatchObject({
      type: PacketType.EXCEPTION,
      code: 'INVALID_TRANSIENT_QUEUE_USE',
      message: expect.stringContaining('Queue shared already exists on another subscription'),
    });
    expect(broker.listQueues().filter((queue) => queue.name === 'shared')).toHaveLength(1);
  });

  it('deletes a non-durable shared queue with its last consumer (HornetQ 2.4: transient); a durable one stays', async () => {
    const broker = await env.startBroker({ persistenceEnabled: false });
    const client = await raw(broker);
    await client.createSession();
    const shared = (queueName: string, durable: boolean): Packet => ({
      type: PacketType.CREATE_SHARED_QUEUE,
      address: 'jms.topic.t',
      queueName,
      filter: null,
      durable,
      requiresResponse: true,
    });
    const consume = (consumerId: number, queueName: string): Packet => ({
      type: PacketType.SESS_CREATECONSUMER,
      consumerId,
      queueName,
      filter: null,
      browseOnly: false,
      requiresResponse: true,
    });
    const names = (): string[] => broker.listQueues().map((queue) => queue.name);
    for (const [name, durable] of [
      ['nonDurable.sub', false],
      ['sub', true],
    ] as const) {
      expect(await client.request(RAW_SESSION_CHANNEL, shared(name, durable))).toEqual({
        type: PacketType.NULL_RESPONSE,
      });
    }
    expectPacket(
      await client.request(RAW_SESSION_CHANNEL, consume(1, 'nonDurable.sub')),
      PacketType.SESS_QUEUEQUERY_RESP,
    );
    expectPacket(
      await client.request(RAW_SESSION_CHANNEL, consume(2, 'nonDurable.sub')),
      PacketType.SESS_QUEUEQUERY_RESP,
    );
    expectPacket(
      await client.request(RAW_SESSION_CHANNEL, consume(3, 'sub')),
      PacketType.SESS_QUEUEQUERY_RESP,
    );
    const close = (consumerId: number): Packet => ({ type: PacketType.SESS_CONSUMER_CLOSE, consumerId });
    expect(await client.request(RAW_SESSION_CHANNEL, close(1))).toEqual({ type: PacketType.NULL_RESPONSE });
    expect(names()).toContain('nonDurable.sub'); // one consumer is left
    expect(await client.request(RAW_SESSION_CHANNEL, close(2))).toEqual({ type: PacketType.NULL_RESPONSE });
    expect(await client.request(RAW_SESSION_CHANNEL, close(3))).toEqual({ type: PacketType.NULL_RESPONSE });
    await waitFor(
      () => !names().includes('nonDurable.sub'),
      'the transient queue to go with its last consumer',
    );
    expect(names()).toContain('sub');
  });

  it('sends a plain session no EXCEPTION for a failed one-way packet (it logs it); an extended one gets SESS_ASYNC_EXCEPTION', async () => {
    const logger = new CapturingLogger();
    const broker = await env.startBroker({
      logger,
      queues: [{ name: 'q', address: 'q', filter: null, durable: false }],
    });
    const oneWayFailure: Packet = { type: PacketType.SESS_FLOWTOKEN, consumerId: 99, credits: 10 };
    const query: Packet = { type: PacketType.SESS_QUEUEQUERY, queueName: 'q' };

    const plain = await raw(broker);
    await plain.createSession();
    plain.send(RAW_SESSION_CHANNEL, oneWayFailure);
    expectPacket(await plain.request(RAW_SESSION_CHANNEL, query), PacketType.SESS_QUEUEQUERY_RESP);
    expect(plain.packetsOn(RAW_SESSION_CHANNEL).map((packet) => packet.type)).toEqual([
      PacketType.SESS_QUEUEQUERY_RESP,
    ]);
    expect(logger.find(/SESS_FLOWTOKEN.* failed: Consumer 99 does not exist/, ['warn'])).toHaveLength(1);

    const ours = await raw(broker);
    await ours.createSession(RAW_SESSION_CHANNEL, { reattachSecret: newReattachSecret() });
    ours.send(RAW_SESSION_CHANNEL, oneWayFailure);
    await ours.request(RAW_SESSION_CHANNEL, query);
    const [asyncFailure, answer] = ours.packetsOn(RAW_SESSION_CHANNEL);
    expect(asyncFailure).toMatchObject({ type: PacketType.SESS_ASYNC_EXCEPTION, code: 'ILLEGAL_STATE' });
    expectPacket(answer, PacketType.SESS_QUEUEQUERY_RESP);
  });

  it('refuses extension requests on a plain session: SESS_QUEUE_STATS answered with an EXCEPTION, one-way ones only logged, all counted', async () => {
    const logger = new CapturingLogger();
    const broker = await env.startBroker({ logger });
    const client = await raw(broker);
    await client.createSession(RAW_SESSION_CHANNEL, { windowSize: 0 });
    client.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_CREATEPRODUCER, producerId: 1, address: null });
    const stats = await client.request(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_QUEUE_STATS,
      start: 0,
      maxCount: 10,
    });
    expect(stats).toMatchObject({ type: PacketType.EXCEPTION, code: 'UNSUPPORTED_PACKET' });
    expect(logger.find(/SESS_CREATEPRODUCER.* failed: .*extension packet/, ['warn'])).toHaveLength(1);
    await waitFor(() => lastConfirmed(client) === 1, 'the broker to confirm both packets');
  });
});

/** The last command the broker confirmed on the raw session's channel (-1 before any). */
function lastConfirmed(client: RawClient): number {
  let last = -1;
  for (const packet of client.packetsOn(RAW_SESSION_CHANNEL)) {
    if (packet.type === PacketType.PACKETS_CONFIRMED) last = packet.commandId;
  }
  return last;
}
