/**
 * With security enabled, a connection whose login was refused has no session: whatever packet it
 * sends next, of any type other than the handshake's (CREATESESSION, REATTACH_SESSION, PING, the
 * topology subscriptions), on the handshake channels or on the session channel it asked for,
 * creates nothing on the broker: no session, queue, consumer or message, and nothing deleted.
 */
import fc from 'fast-check';
import { Broker, CoreMessage } from '../../src';
import { PacketType, type Packet } from '../../src/core/protocol';
import { FileSecurityManager } from '../../src/server/security/file-security-manager';
import { PERMISSIONS } from '../../src/server/security/permission';
import { packetKinds } from '../core/protocol/arbitraries';
import { RAW_SESSION_CHANNEL, RawClient, createSessionPacket } from '../support/raw-client';
import { CapturingLogger, waitFor } from '../support/test-broker';

const QUEUE = 'secured.queue';
const ADDRESS = 'secured.address';
const HANDSHAKE: readonly number[] = [
  PacketType.CREATESESSION,
  PacketType.REATTACH_SESSION,
  PacketType.PING,
  PacketType.SUBSCRIBE_TOPOLOGY,
  PacketType.SUBSCRIBE_TOPOLOGY_V2,
];

/** The packets that would change the broker, aimed at what exists; other types are sampled. */
function aimed(type: number): Packet | null {
  const message = new CoreMessage();
  message.address = ADDRESS;
  message.durable = true;
  const queue = {
    address: ADDRESS,
    queueName: 'made.by.nobody',
    filter: null,
    durable: true,
    requiresResponse: true,
  };
  switch (type) {
    case PacketType.CREATE_QUEUE:
      return { type: PacketType.CREATE_QUEUE, ...queue, temporary: false };
    case PacketType.CREATE_SHARED_QUEUE:
      return { type: PacketType.CREATE_SHARED_QUEUE, ...queue };
    case PacketType.DELETE_QUEUE:
      return { type: PacketType.DELETE_QUEUE, queueName: QUEUE };
    case PacketType.SESS_SEND:
      return { type: PacketType.SESS_SEND, message, requiresResponse: true };
    case PacketType.SESS_CREATECONSUMER:
      return {
        type: PacketType.SESS_CREATECONSUMER,
        consumerId: 0,
        queueName: QUEUE,
        filter: null,
        browseOnly: false,
        requiresResponse: true,
      };
    default:
      return null;
  }
}

const kinds = packetKinds
  .filter(([, type]) => !HANDSHAKE.includes(type))
  .map(
    ([name, type, arbitrary]) =>
      [name, aimed(type) ?? (fc.sample(arbitrary, { seed: type, numRuns: 1 })[0] as Packet)] as const,
  );

describe('an unauthenticated connection creates nothing, whatever it sends', () => {
  const logger = new CapturingLogger();
  let broker: Broker;

  beforeAll(async () => {
    broker = new Broker({
      securityEnabled: true,
      securityManager: new FileSecurityManager({
        defaultUser: null,
        users: [{ name: 'honest', password: 'honest-secret', roles: ['user'] }],
      }),
      securitySettings: [
        { match: '#', permissions: new Map(PERMISSIONS.map((permission) => [permission, ['user']])) },
      ],
      // The throttle is not the subject: every refusal is answered at once.
      loginThrottle: { freeFailures: 100_000 },
      acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port: 0 }],
      persistenceEnabled: false,
      logger,
      queues: [{ name: QUEUE, address: ADDRESS, filter: null, durable: true }],
    });
    await broker.start();
  });

  afterAll(() => broker.stop());

  test.each(
    kinds.flatMap(([name, packet]) =>
      [0, 1, RAW_SESSION_CHANNEL].map((channel) => [name, channel, packet] as const),
    ),
  )('%s on channel %d after a refused login', async (_name, channel, packet) => {
    const client = await RawClient.connect(broker.getPort());
    try {
      const refused = await client.request(1, {
        ...createSessionPacket(RAW_SESSION_CHANNEL, { username: 'honest' }),
        password: 'a-wrong-guess',
      });
      expect(refused).toMatchObject({ type: PacketType.EXCEPTION, code: 'SECURITY_EXCEPTION' });
      client.send(channel, packet);
      // A ping after it: its echo (or the close) says the broker has handled the packet.
      const pings = client.packetsOn(0).filter((p) => p.type === PacketType.PING).length;
      client.send(0, { type: PacketType.PING, connectionTtl: 60_000 });
      await waitFor(
        () => client.closed || client.packetsOn(0).filter((p) => p.type === PacketType.PING).length > pings,
        'the ping echo or the close',
      );
      const answers = client.frames.map((frame) => frame.packet.type);
      expect(answers).not.toContain(PacketType.SESS_RECEIVE_MSG);
      expect(answers).not.toContain(PacketType.NULL_RESPONSE);
      expect(broker.getSessionCount()).toBe(0);
      expect(
        broker.listQueues().map((queue) => [queue.name, queue.messageCount, queue.consumerCount]),
      ).toEqual([[QUEUE, 0, 0]]);
    } finally {
      await client.close();
    }
  });

  test('nothing was logged as an internal error', () => {
    expect(logger.find(/./, ['error']).map((line) => line.message)).toEqual([]);
  });
});
