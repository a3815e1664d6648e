import fc from 'fast-check';
import { CoreMessage } from '../../src/core/protocol/core-message';
import { MessageHeader } from '../../src/core/protocol/message-header';
import { encodePacket } from '../../src/core/protocol/packet-codec';
import { PacketType, packetTypeName } from '../../src/core/protocol/packet-type';
import { EXTENSION_VERSION, type CreateSession, type Packet } from '../../src/core/protocol/packets';
import { PropertyKind } from '../../src/core/protocol/typed-properties';
import { anyPacket } from '../core/protocol/arbitraries';
import { seededRandom } from './fault-proxy';
import { below, mutateFrame, pick, randomBytes, type Random } from './frame-mutations';

/**
 * What one fuzz connection sends, as a pure function of its seed: a replayed seed sends the same
 * bytes. Frames come from the real codec (packets of every type, from the codec tests' fast-check
 * arbitraries, and session traffic aimed at the fuzz queues) and some are then mutated.
 */

/** Names the fuzz traffic aims at, so that it reaches real queues (never the honest client's). */
export interface FuzzNames {
  /** A queue that exists, bound to `address`. */
  readonly queue: string;
  readonly address: string;
  /** Prefix of the queues fuzz traffic creates and deletes. */
  readonly createdPrefix: string;
  /**
   * A user the broker knows (security enabled): half the CREATESESSIONs name it, always with a
   * wrong password, so that the fuzz never logs in. Without it they name nobody, as before.
   */
  readonly user?: string;
}

export interface PlannedFrame {
  readonly bytes: Buffer;
  /** What was encoded: the packet type and channel ('noise' for bytes that never were a frame). */
  readonly label: string;
  /** The mutation applied after encoding, if any. */
  readonly mutation: string | null;
}

export interface ConnectionPlan {
  readonly seed: number;
  readonly kind: 'session' | 'control' | 'noise';
  readonly frames: readonly PlannedFrame[];
  /** Where the stream is cut into writes: each write is what lies between two cuts. */
  readonly writeSizes: readonly number[];
}

export interface PlanLimits {
  readonly maxBytes: number;
  readonly maxFrames: number;
}

/** Session traffic; a session channel id, as a client picks it (see FIRST_SESSION_CHANNEL). */
const SESSION_CHANNELS = [10, 11, 12, 13];
const WINDOW_SIZES = [-1, -1, -1, 0, 4096, 65_536];
/** Chances that a frame is mutated, and that a session sends a packet of any type: one of each per connection. */
const MUTATION_RATES = [0, 0.02, 0.05, 0.1, 0.3];
const ANY_PACKET_RATES = [0, 0.05, 0.3];

/** The 7 bytes a HornetQ 2.4 client (Java's NettyConnector, ours over TCP) writes before its first frame. */
const HORNETQ_PREAMBLE: PlannedFrame = {
  bytes: Buffer.from('HORNETQ', 'ascii'),
  label: 'preamble',
  mutation: null,
};
/** What a native Artemis client writes instead: the broker refuses it, saying so. */
const ARTEMIS_PREAMBLE: PlannedFrame = {
  bytes: Buffer.from('ARTEMIS', 'ascii'),
  label: 'artemis preamble',
  mutation: null,
};

export function planConnection(seed: number, names: FuzzNames, limits: PlanLimits): ConnectionPlan {
  const random = seededRandom(seed);
  const roll = random();
  const kind = roll < 0.6 ? 'session' : roll < 0.85 ? 'control' : 'noise';
  const planned =
    kind === 'session'
      ? sessionFrames(random, seed, names, limits)
      : kind === 'control'
        ? controlFrames(random, seed, names, limits)
        : noiseFrames(random, limits);
  const frames = [...preamble(random), ...planned];
  return { seed, kind, frames, writeSizes: writeSizes(random, frames) };
}

/**
 * Most connections open as a HornetQ Java client's does, with its preamble; the others start with
 * a frame at once, as a client without one may (the broker takes both); now and then one opens
 * as a native Artemis client.
 */
function preamble(random: Random): PlannedFrame[] {
  const roll = random();
  if (roll < 0.65) return [HORNETQ_PREAMBLE];
  if (roll < 0.7) return [ARTEMIS_PREAMBLE];
  return [];
}

/**
 * A valid handshake, then session packets (mostly aimed at the fuzz queues). How many are mutated,
 * and how many are packets of any type (most of which a broker never expects), varies by
 * connection: some send only valid session traffic and reach deep, others fail early.
 */
function sessionFrames(random: Random, seed: number, names: FuzzNames, limits: PlanLimits): PlannedFrame[] {
  const channel = pick(random, SESSION_CHANNELS);
  const mutationRate = pick(random, MUTATION_RATES);
  const anyPacketRate = pick(random, ANY_PACKET_RATES);
  const frames: PlannedFrame[] = [
    {
      bytes: encodePacket(1, createSession(random, channel, seed, names)),
      label: 'CREATESESSION@1',
      mutation: null,
    },
  ];
  const sampled = fc.sample(anyPacket, { seed, numRuns: limits.maxFrames });
  let bytes = frames[0]?.bytes.length ?? 0;
  while (frames.length < limits.maxFrames && bytes < limits.maxBytes) {
    const packets =
      random() < anyPacketRate
        ? [sampled[below(random, sampled.length)] as Packet]
        : sessionPackets(random, names);
    for (const packet of packets) {
      const frame = plannedFrame(random, channelFor(random, channel, packet), packet, frames, mutationRate);
      frames.push(frame);
      bytes += frame.bytes.length;
    }
  }
  return frames;
}

/** Packets on the ping and handshake channels, before any session: the unauthenticated surface. */
function controlFrames(random: Random, seed: number, names: FuzzNames, limits: PlanLimits): PlannedFrame[] {
  const sampled = fc.sample(anyPacket, { seed, numRuns: limits.maxFrames });
  const frames: PlannedFrame[] = [];
  let bytes = 0;
  while (frames.length < limits.maxFrames && bytes < limits.maxBytes) {
    const packet =
      random() < 0.5 ? controlPacket(random, names) : (sampled[below(random, sampled.length)] as Packet);
    const frame = plannedFrame(random, random() < 0.5 ? 1 : 0, packet, frames, 0.5);
    frames.push(frame);
    bytes += frame.bytes.length;
  }
  return frames;
}

/** Bytes that are no frame at all, sometimes behind a length field that looks plausible. */
function noiseFrames(random: Random, limits: PlanLimits): PlannedFrame[] {
  const frames: PlannedFrame[] = [];
  const count = 1 + below(random, 3);
  for (let i = 0; i < count; i++) {
    const noise = randomBytes(random, 1 + below(random, Math.min(4096, limits.maxBytes)));
    if (random() < 0.5 && noise.length >= 4) noise.writeInt32BE(noise.length - 4, 0);
    frames.push({ bytes: noise, label: 'noise', mutation: null });
  }
  return frames;
}

function plannedFrame(
  random: Random,
  channelId: number,
  packet: Packet,
  before: readonly PlannedFrame[],
  mutationRate: number,
): PlannedFrame {
  const bytes = encodePacket(channelId, packet);
  const label = `${packetTypeName(packet.type)}@${channelId}`;
  if (random() >= mutationRate) return { bytes, label, mutation: null };
  const donor = before.length > 0 ? (before[below(random, before.length)] as PlannedFrame).bytes : bytes;
  const mutated = mutateFrame(bytes, random, donor);
  return { bytes: mutated.bytes, label, mutation: mutated.mutation };
}

/** Session packets on the session channel, connection packets where they belong, now and then elsewhere. */
function channelFor(random: Random, sessionChannel: number, packet: Packet): number {
  if (random() < 0.05) return pick(random, [0, 1, 5, sessionChannel + 1]);
  if (
    packet.type === PacketType.PING ||
    packet.type === PacketType.SUBSCRIBE_TOPOLOGY ||
    packet.type === PacketType.SUBSCRIBE_TOPOLOGY_V2
  ) {
    return 0;
  }
  if (packet.type === PacketType.CREATESESSION || packet.type === PacketType.REATTACH_SESSION) return 1;
  return sessionChannel;
}

/** HornetQ 2.4's client version, and now and then one the broker refuses. */
const CLIENT_VERSIONS = [124, 124, 124, 123, 122, 121, 125, 1];

/**
 * A CREATESESSION as a HornetQ 2.4 client (or, with the trailer, ours) sends it. Names are unique
 * per seed and channel, as clients' UUIDs are, with a few shared ones that collide on purpose.
 */
function createSession(random: Random, channel: number, seed: number, names: FuzzNames): CreateSession {
  const guess = names.user === undefined ? null : wrongLogin(random, names.user);
  return {
    type: PacketType.CREATESESSION,
    name: random() < 0.9 ? `fuzz-${seed}-${channel}` : `fuzz-shared-${below(random, 2)}`,
    sessionChannelId: channel,
    version: pick(random, CLIENT_VERSIONS),
    username: guess?.username ?? null,
    password: guess?.password ?? null,
    minLargeMessageSize: pick(random, [1, 1024, 100 * 1024]),
    xa: false,
    autoCommitSends: random() < 0.7,
    autoCommitAcks: random() < 0.7,
    preAcknowledge: random() < 0.2,
    windowSize: pick(random, WINDOW_SIZES),
    defaultAddress: null,
    extension:
      random() < 0.5 ? { version: EXTENSION_VERSION, reattachSecret: randomBytes(random, 16) } : null,
  };
}

/** The known user or nobody, with a password that is never the user's (a random hex string). */
function wrongLogin(random: Random, user: string): { username: string | null; password: string | null } {
  return {
    username: random() < 0.5 ? user : null,
    password: random() < 0.2 ? null : `guess-${randomBytes(random, 8).toString('hex')}`,
  };
}

function controlPacket(random: Random, names: FuzzNames): Packet {
  switch (below(random, 4)) {
    case 0:
      return { type: PacketType.PING, connectionTtl: pick(random, [-1, 0, 1, 1000, 60_000, 2 ** 40]) };
    case 1:
      return createSession(random, pick(random, [0, 1, 9, ...SESSION_CHANNELS]), below(random, 1000), names);
    case 2:
      return random() < 0.5
        ? {
            type: PacketType.SUBSCRIBE_TOPOLOGY_V2,
            clusterConnection: random() < 0.2,
            clientVersion: pick(random, CLIENT_VERSIONS),
          }
        : { type: PacketType.SUBSCRIBE_TOPOLOGY, clusterConnection: random() < 0.2 };
    default:
      return {
        type: PacketType.REATTACH_SESSION,
        name: random() < 0.5 ? `fuzz-shared-${below(random, 2)}` : randomBytes(random, 16).toString('hex'),
        lastConfirmedCommandId: pick(random, [-1, 0, 5, 0x7fff_ffff]),
        extension:
          random() < 0.5 ? { reattachSecret: randomBytes(random, 16), username: null, password: null } : null,
      };
  }
}

const CREDITS = [-1, 0, 1, 1024, 1024 * 1024, 0x7fff_ffff];
const MESSAGE_IDS = [0, 1, 2, 3, 100, -1, Number.MAX_SAFE_INTEGER];

/** A client's session traffic with ids and names that exist now and then, so that it gets past lookups. */
function sessionPackets(random: Random, names: FuzzNames): Packet[] {
  const consumerId = below(random, 4);
  const created = `${names.createdPrefix}${below(random, 4)}`;
  switch (below(random, 22)) {
    case 0:
      return [{ type: PacketType.SESS_CREATEPRODUCER, producerId: below(random, 4), address: names.address }];
    case 1:
      return [{ type: PacketType.SESS_CLOSEPRODUCER, producerId: below(random, 4) }];
    case 2:
    case 3:
    case 4:
      return [
        { type: PacketType.SESS_SEND, message: message(random, names), requiresResponse: random() < 0.5 },
      ];
    case 5:
      return largeSend(random, names);
    case 6:
    case 7:
      return [
        {
          type: PacketType.SESS_CREATECONSUMER,
          consumerId,
          queueName: random() < 0.8 ? names.queue : created,
          filter: random() < 0.7 ? null : pick(random, ['seq > 3', "color = 'red'", 'x IN (1,2', 'NOT']),
          browseOnly: random() < 0.2,
          requiresResponse: random() < 0.7,
        },
      ];
    case 8:
      return [{ type: PacketType.SESS_FLOWTOKEN, consumerId, credits: pick(random, CREDITS) }];
    case 9:
      return [{ type: pick(random, [PacketType.SESS_START, PacketType.SESS_STOP]) }];
    case 10:
      return [{ type: PacketType.SESS_COMMIT }];
    case 11:
      return [{ type: PacketType.SESS_ROLLBACK, considerLastMessageAsDelivered: random() < 0.5 }];
    case 12:
      return [
        {
          type: pick(random, [PacketType.SESS_ACKNOWLEDGE, PacketType.SESS_INDIVIDUAL_ACKNOWLEDGE]),
          consumerId,
          messageId: pick(random, MESSAGE_IDS),
          requiresResponse: random() < 0.5,
        },
      ];
    case 13:
      return [{ type: PacketType.SESS_EXPIRED, consumerId, messageId: pick(random, MESSAGE_IDS) }];
    case 14:
      return [{ type: PacketType.SESS_CONSUMER_CLOSE, consumerId }];
    case 15:
      return [{ type: PacketType.SESS_QUEUEQUERY, queueName: random() < 0.5 ? names.queue : created }];
    case 16:
      return [
        random() < 0.5
          ? { type: PacketType.SESS_BINDINGQUERY, address: names.address }
          : {
              type: PacketType.SESS_QUEUE_STATS,
              start: Math.floor(random() * 4),
              maxCount: 1 + Math.floor(random() * 2000),
            },
      ];
    case 17:
      return [
        {
          type: PacketType.CREATE_QUEUE,
          address: names.address,
          queueName: created,
          filter: null,
          durable: random() < 0.5,
          temporary: random() < 0.5,
          requiresResponse: random() < 0.7,
        },
      ];
    case 18:
      return [{ type: PacketType.DELETE_QUEUE, queueName: created }];
    case 19:
      return [
        {
          type: PacketType.SESS_PRODUCER_REQUEST_CREDITS,
          address: names.address,
          credits: pick(random, CREDITS),
        },
      ];
    case 20:
      return [
        { type: PacketType.SESS_FORCE_CONSUMER_DELIVERY, consumerId, sequence: below(random, 10) },
        { type: PacketType.PACKETS_CONFIRMED, commandId: below(random, 50) },
      ];
    default:
      return [metadataOrClose(random)];
  }
}

/** Session metadata of the three kinds (104 uncounted, 105 and 106 counted by their flag), or a close. */
function metadataOrClose(random: Random): Packet {
  const data = `fuzz-${below(random, 3)}`;
  switch (below(random, 4)) {
    case 0:
      return {
        type: PacketType.SESS_UNIQUE_ADD_METADATA,
        key: 'jms-client-id',
        data,
        requiresConfirmation: random() < 0.9,
      };
    case 1:
      return {
        type: PacketType.SESS_ADD_METADATA2,
        key: 'jms-session',
        data,
        requiresConfirmation: random() < 0.5,
      };
    case 2:
      return { type: PacketType.SESS_ADD_METADATA, key: `k${below(random, 20)}`, data };
    default:
      return { type: PacketType.SESS_CLOSE };
  }
}

function message(random: Random, names: FuzzNames): CoreMessage {
  const message = new CoreMessage();
  message.address = random() < 0.9 ? names.address : 'fuzz.nowhere';
  message.durable = random() < 0.5;
  message.priority = below(random, 10);
  message.expiration = random() < 0.2 ? Date.now() + below(random, 50) : 0;
  message.body = randomBytes(random, below(random, 2048));
  if (random() < 0.3) {
    message.properties.set(MessageHeader.DUPLICATE_DETECTION_ID, {
      kind: PropertyKind.STRING,
      value: `dup-${below(random, 8)}`,
    });
  }
  if (random() < 0.2) {
    message.properties.set(MessageHeader.GROUP_ID, {
      kind: PropertyKind.STRING,
      value: `g${below(random, 3)}`,
    });
  }
  if (random() < 0.2) {
    message.properties.set(MessageHeader.SCHEDULED_DELIVERY_TIME, {
      kind: PropertyKind.LONG,
      value: Date.now() + below(random, 200),
    });
  }
  return message;
}

/**
 * A large message's head and its chunks; the last states the body's size (HornetQ's head states
 * none), which agrees with the chunks unless the dice say otherwise.
 */
function largeSend(random: Random, names: FuzzNames): Packet[] {
  const body = randomBytes(random, below(random, 8192));
  const stated = random() < 0.8 ? body.length : pick(random, [0, body.length + 1, 2 ** 40]);
  const packets: Packet[] = [{ type: PacketType.SESS_SEND_LARGE, message: message(random, names) }];
  const chunkSize = 1 + below(random, 4096);
  for (let at = 0; at < body.length || packets.length === 1; at += chunkSize) {
    const chunk = body.subarray(at, at + chunkSize);
    const continues = at + chunkSize < body.length;
    packets.push({
      type: PacketType.SESS_SEND_CONTINUATION,
      chunk,
      continues,
      messageBodySize: continues ? -1 : stated,
      requiresResponse: random() < 0.5,
    });
  }
  return packets;
}

/** Whole frames one write each, or the stream cut at random places (frames split across writes). */
function writeSizes(random: Random, frames: readonly PlannedFrame[]): number[] {
  if (random() < 0.5) return frames.map((frame) => frame.bytes.length);
  let total = frames.reduce((sum, frame) => sum + frame.bytes.length, 0);
  const sizes: number[] = [];
  while (total > 0) {
    const size = Math.min(total, 1 + below(random, random() < 0.5 ? 16 : 8192));
    sizes.push(size);
    total -= size;
  }
  return sizes;
}
