import type { Broker, ClientConsumer, ClientProducer } from '../../src';
import { CoreMessage, PacketType, encodePacket, type Packet } from '../../src/core/protocol';
import { RAW_SESSION_CHANNEL, RawClient, createSessionPacket } from '../support/raw-client';
import { CapturingLogger, seqOf, sequenced, useTestBrokers, waitFor } from '../support/test-broker';

const QUEUE = 'jms.queue.healthy';
const MAX_FRAME_BYTES = 256 * 1024;
const PRE_AUTH_MAX_FRAME_BYTES = 16 * 1024;

function queueQuery(): Packet {
  return { type: PacketType.SESS_QUEUEQUERY, queueName: QUEUE };
}

function send(bodyBytes: number): Packet {
  const message = new CoreMessage();
  message.address = QUEUE;
  message.body = Buffer.alloc(bodyBytes, 7);
  return { type: PacketType.SESS_SEND, message, requiresResponse: true };
}

/** Just a frame header announcing `length` bytes (length field included), and a few of them. */
function header(totalBytes: number): Buffer {
  const bytes = Buffer.alloc(16);
  bytes.writeInt32BE(totalBytes - 4, 0);
  bytes.writeUInt8(PacketType.SESS_SEND, 4);
  return bytes;
}

/** A valid frame, altered by `corrupt` (which gets a copy). */
function corrupted(channelId: number, packet: Packet, corrupt: (frame: Buffer) => Buffer | void): Buffer {
  const frame = Buffer.from(encodePacket(channelId, packet));
  return corrupt(frame) ?? frame;
}

interface Attack {
  /** Whether the raw client opens a session (and so lifts the pre-authentication cap) first. */
  readonly afterSession: boolean;
  readonly bytes: () => Buffer;
  /** The raw client half-closes after writing (a truncated frame followed by close). */
  readonly thenEnd?: boolean;
  /** What the broker's log line must say. */
  readonly reason: RegExp;
}

const ATTACKS: Record<string, Attack> = {
  'a frame length below the minimum': {
    afterSession: false,
    bytes: () => Buffer.from([0, 0, 0, 3, 1, 2, 3]),
    reason: /frame length 3 is below the minimum/,
  },
  'a negative frame length': {
    afterSession: true,
    bytes: () => Buffer.from([0xff, 0xff, 0xff, 0xf0, 0, 0, 0, 0]),
    reason: /frame length -16 is below the minimum/,
  },
  'a string length running past the end of the frame': {
    afterSession: false,
    // CREATESESSION: header (13), the name's char count (4), then (a 36-char UUID goes as
    // writeUTF) its unsigned short byte length, here 0x7fff.
    bytes: () => corrupted(1, createSessionPacket(), (frame) => void frame.writeInt32BE(0x7fffffff, 17)),
    reason: /malformed CREATESESSION\(30\) on channel 1: frame truncated: UTF string needs 32767 bytes/,
  },
  'trailing bytes after a packet': {
    afterSession: true,
    bytes: () =>
      corrupted(RAW_SESSION_CHANNEL, queueQuery(), (frame) => {
        const longer = Buffer.concat([frame, Buffer.from([1, 2, 3])]);
        longer.writeInt32BE(longer.length - 4, 0);
        return longer;
      }),
    reason: /malformed SESS_QUEUEQUERY\(45\) on channel 10: 3 unexpected trailing bytes/,
  },
  'a truncated frame followed by close': {
    afterSession: true,
    bytes: () => encodePacket(RAW_SESSION_CHANNEL, send(100)).subarray(0, 60),
    thenEnd: true,
    reason: /closed with 60 bytes of an incomplete \(truncated\) frame/,
  },
  'an unknown packet type': {
    afterSession: true,
    bytes: () => corrupted(RAW_SESSION_CHANNEL, queueQuery(), (frame) => void frame.writeUInt8(200, 4)),
    reason: /unknown packet type 200/,
  },
  'an oversized frame before any session (over the pre-authentication cap)': {
    afterSession: false,
    bytes: () => header(PRE_AUTH_MAX_FRAME_BYTES + 1),
    reason: new RegExp(
      `frame of ${PRE_AUTH_MAX_FRAME_BYTES + 1} bytes exceeds the maximum of ${PRE_AUTH_MAX_FRAME_BYTES} bytes`,
    ),
  },
  'an oversized frame in a session (over maxFrameBytes)': {
    afterSession: true,
    bytes: () => header(MAX_FRAME_BYTES + 1),
    reason: new RegExp(
      `frame of ${MAX_FRAME_BYTES + 1} bytes exceeds the maximum of ${MAX_FRAME_BYTES} bytes`,
    ),
  },
  'a frame announcing 2 GiB': {
    afterSession: true,
    bytes: () => Buffer.from([0x7f, 0xff, 0xff, 0xff, 71]),
    reason: /exceeds the maximum/,
  },
  'a packet for a session channel that does not exist': {
    afterSession: true,
    bytes: () => encodePacket(77, queueQuery()),
    reason: /SESS_QUEUEQUERY\(45\) for channel 77, which does not exist/,
  },
  'a packet for an unused control channel': {
    afterSession: true,
    bytes: () => encodePacket(5, { type: PacketType.PING, connectionTtl: 1000 }),
    reason: /PING\(10\) is not allowed on channel 5/,
  },
  'a session packet before CREATESESSION': {
    afterSession: false,
    bytes: () => encodePacket(RAW_SESSION_CHANNEL, send(10)),
    reason: /SESS_SEND\(71\) for channel 10, which does not exist/,
  },
  'a session packet on the handshake channel': {
    afterSession: false,
    bytes: () => encodePacket(1, queueQuery()),
    reason: /SESS_QUEUEQUERY\(45\) is not allowed on channel 1/,
  },
  'a non-ping packet on the ping channel': {
    afterSession: true,
    bytes: () => encodePacket(0, { type: PacketType.SESS_START }),
    reason: /SESS_START\(67\) is not allowed on channel 0/,
  },
};

describe('bad input closes only the connection that sent it', () => {
  const env = useTestBrokers();
  let logger: CapturingLogger;
  let broker: Broker;
  let producer: ClientProducer;
  let consumer: ClientConsumer;
  let nextSeq = 0;

  /** A message from the healthy client reaches the healthy consumer. */
  async function healthyRoundTrip(): Promise<void> {
    const seq = nextSeq++;
    await producer.send(sequenced(seq, { durable: true }));
    const received = await consumer.receive(10_000);
    expect(received === null ? null : seqOf(received)).toBe(seq);
    await received?.acknowledge();
  }

  beforeEach(async () => {
    logger = new CapturingLogger();
    broker = await env.startBroker({
      logger,
      maxFrameBytes: MAX_FRAME_BYTES,
      preAuthMaxFrameBytes: PRE_AUTH_MAX_FRAME_BYTES,
      queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: true }],
    });
    const session = await (await env.connect(broker)).createSession();
    producer = session.createProducer(QUEUE);
    consumer = await session.createConsumer(QUEUE);
    session.start();
    await healthyRoundTrip();
  });

  test.each(Object.entries(ATTACKS))('%s', async (_, attack) => {
    const raw = env.track(await RawClient.connect(broker.getPort()));
    if (attack.afterSession) {
      await raw.createSession();
      // The session works before the attack.
      expect(await raw.roundTrip(queueQuery())).toMatchObject({
        type: PacketType.SESS_QUEUEQUERY_RESP,
        exists: true,
      });
    }
    await waitFor(() => broker.getConnectionCount() === 2, 'the raw connection to be accepted');

    raw.write(attack.bytes());
    if (attack.thenEnd === true) raw.socket.end();
    await waitFor(() => raw.closed, 'the broker to close the raw connection');
    await waitFor(() => broker.getConnectionCount() === 1, 'the broker to forget the raw connection');
    await waitFor(() => broker.getSessionCount() === 1, "the broker to clear the raw connection's session");

    // The log says why, and names the connection (by the raw client's port).
    const lines = logger.find(attack.reason, ['warn']);
    if (lines.length === 0)
      throw new Error(`no warning matching ${attack.reason}; the log was:\n${logger.dump()}`);
    expect(lines.some((line) => line.message.includes(`127.0.0.1:${raw.port}`))).toBe(true);
    expect(logger.find(/./, ['error'])).toEqual([]);

    // Everyone else carries on.
    await healthyRoundTrip();
    const other = await (await env.connect(broker)).createSession();
    expect(await other.queueQuery(QUEUE)).toMatchObject({ exists: true, consumerCount: 1 });
  });

  test('a frame too big before a session is accepted once the session is open', async () => {
    const big = encodePacket(RAW_SESSION_CHANNEL, send(PRE_AUTH_MAX_FRAME_BYTES * 4));
    expect(big.length).toBeGreaterThan(PRE_AUTH_MAX_FRAME_BYTES);
    expect(big.length).toBeLessThan(MAX_FRAME_BYTES);

    const authenticated = env.track(await RawClient.connect(broker.getPort()));
    await authenticated.createSession();
    authenticated.write(big);
    await waitFor(
      () => authenticated.frames.some((frame) => frame.packet.type === PacketType.NULL_RESPONSE),
      'the big send to be answered',
    );
    expect(authenticated.closed).toBe(false);
    const received = await consumer.receive(10_000);
    expect(received?.message.body.length).toBe(PRE_AUTH_MAX_FRAME_BYTES * 4);
    await received?.acknowledge();

    const anonymous = env.track(await RawClient.connect(broker.getPort()));
    anonymous.write(big);
    await waitFor(() => anonymous.closed, 'the broker to refuse the big frame before a session');
    expect(authenticated.closed).toBe(false);
    expect(await authenticated.roundTrip(queueQuery())).toMatchObject({
      type: PacketType.SESS_QUEUEQUERY_RESP,
    });
  });

  test('many hostile connections at once leave the broker serving its clients', async () => {
    const attacks = Object.values(ATTACKS).filter(
      (attack) => !attack.afterSession && attack.thenEnd !== true,
    );
    const raws = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const raw = env.track(await RawClient.connect(broker.getPort()));
        raw.write((attacks[i % attacks.length] as Attack).bytes());
        return raw;
      }),
    );
    await waitFor(() => raws.every((raw) => raw.closed), 'every hostile connection to be closed');
    await waitFor(() => broker.getConnectionCount() === 1, 'the broker to forget them');
    expect(logger.find(/closing connection/, ['warn'])).toHaveLength(30);
    await healthyRoundTrip();
  });
});
