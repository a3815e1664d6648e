import { FRAME_HEADER_BYTES } from '../../src/core/protocol/frame-decoder';
import { PacketType } from '../../src/core/protocol/packet-type';

/**
 * Ways to spoil a valid frame, for the fuzzer (test/support/frame-fuzzer.ts) and the codec's own
 * fuzz test. Each takes a copy of an encoded frame and a seeded source of randomness and returns
 * the bytes to send instead. Most keep the length field true to the new size, so that the frame
 * decoder passes the frame on and the packet decoder meets the damage; the others lie about it.
 */

/** A seeded source of numbers in [0, 1): the same seed gives the same mutations. */
export type Random = () => number;

/** An integer in [0, bound). */
export function below(random: Random, bound: number): number {
  return Math.floor(random() * bound);
}

export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[below(random, items.length)];
  if (item === undefined) throw new RangeError('pick() from an empty list');
  return item;
}

export function randomBytes(random: Random, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) bytes[i] = below(random, 256);
  return bytes;
}

/**
 * Values that break length-prefixed fields and counts: negative, just past what is left, far past
 * it, and the extremes of an int.
 */
const HOSTILE_INTS = [-1, -2, 0x7fff_ffff, 0x4000_0000, 0x1000_0000, 0x10_0000, 65_536, 0x8000_0000 | 0];

/** Fields in a frame body sit at any offset: overwrite an int at one of them. */
function hugeCount(frame: Buffer, random: Random): Buffer {
  if (frame.length < FRAME_HEADER_BYTES + 4) return bitFlips(frame, random);
  const at = FRAME_HEADER_BYTES + below(random, frame.length - FRAME_HEADER_BYTES - 3);
  const remaining = frame.length - at - 4;
  const value = random() < 0.3 ? remaining + 1 + below(random, 16) : pick(random, HOSTILE_INTS);
  frame.writeInt32BE(value | 0, at);
  return frame;
}

function bitFlips(frame: Buffer, random: Random): Buffer {
  const flips = 1 + below(random, 4);
  for (let i = 0; i < flips; i++) {
    // Past the length field: a flipped length is its own mutation.
    const at = 4 + below(random, Math.max(1, frame.length - 4));
    if (at < frame.length) frame[at] = (frame[at] as number) ^ (1 << below(random, 8));
  }
  return frame;
}

/** Cut short and the length field fixed: a body that ends early. */
function truncatedBody(frame: Buffer, random: Random): Buffer {
  const length = FRAME_HEADER_BYTES + below(random, Math.max(1, frame.length - FRAME_HEADER_BYTES));
  return withTrueLength(frame.subarray(0, length));
}

/** Cut short, length field kept: the decoder waits for bytes that come from the next frame. */
function truncatedFrame(frame: Buffer, random: Random): Buffer {
  return frame.subarray(0, 1 + below(random, frame.length - 1));
}

function lengthField(frame: Buffer, random: Random): Buffer {
  const declared = frame.length - 4;
  const lengths = [0, 1, 8, declared - 1, declared + 1, declared + 100, -1, 0x7fff_ffff, 0x10_0000];
  frame.writeInt32BE(pick(random, lengths) | 0, 0);
  return frame;
}

function spliced(frame: Buffer, random: Random, donor: Buffer): Buffer {
  const head = frame.subarray(0, FRAME_HEADER_BYTES + below(random, frame.length - FRAME_HEADER_BYTES + 1));
  const tail = donor.subarray(Math.min(donor.length, 4 + below(random, Math.max(1, donor.length - 4))));
  return withTrueLength(Buffer.concat([head, tail]));
}

const CHANNEL_IDS = [0, 1, 2, 9, 10, 11, 13, 1000, -1, 2 ** 32, Number.MAX_SAFE_INTEGER];

function channelId(frame: Buffer, random: Random): Buffer {
  const id = pick(random, CHANNEL_IDS);
  frame.writeInt32BE(Math.floor(id / 2 ** 32), 5);
  frame.writeUInt32BE(id >>> 0, 9);
  return frame;
}

const PACKET_TYPES = Object.values(PacketType);

function typeByte(frame: Buffer, random: Random): Buffer {
  frame[4] = random() < 0.8 ? pick(random, PACKET_TYPES) : below(random, 256);
  return frame;
}

function insertedBytes(frame: Buffer, random: Random): Buffer {
  const at = FRAME_HEADER_BYTES + below(random, frame.length - FRAME_HEADER_BYTES + 1);
  const extra = randomBytes(random, 1 + below(random, 16));
  return withTrueLength(Buffer.concat([frame.subarray(0, at), extra, frame.subarray(at)]));
}

function deletedBytes(frame: Buffer, random: Random): Buffer {
  if (frame.length <= FRAME_HEADER_BYTES) return lengthField(frame, random);
  const at = FRAME_HEADER_BYTES + below(random, frame.length - FRAME_HEADER_BYTES);
  const count = 1 + below(random, Math.min(16, frame.length - at));
  return withTrueLength(Buffer.concat([frame.subarray(0, at), frame.subarray(at + count)]));
}

/** The frame's header kept, its body replaced by noise of the same length. */
function randomBody(frame: Buffer, random: Random): Buffer {
  randomBytes(random, frame.length - FRAME_HEADER_BYTES).copy(frame, FRAME_HEADER_BYTES);
  return frame;
}

type Mutation = (frame: Buffer, random: Random, donor: Buffer) => Buffer;

export const MUTATIONS: Readonly<Record<string, Mutation>> = {
  'bit flips': bitFlips,
  'huge count': hugeCount,
  'truncated body': truncatedBody,
  'truncated frame': truncatedFrame,
  'length field': lengthField,
  spliced,
  'channel id': channelId,
  'type byte': typeByte,
  'inserted bytes': insertedBytes,
  'deleted bytes': deletedBytes,
  'random body': randomBody,
};

const MUTATION_NAMES = Object.keys(MUTATIONS);

export interface MutatedFrame {
  readonly bytes: Buffer;
  /** Which mutation made it, for the report and for failure messages. */
  readonly mutation: string;
}

/** One mutation, picked at random, applied to a copy of `frame` (`donor`: another frame, for splices). */
export function mutateFrame(frame: Buffer, random: Random, donor: Buffer = frame): MutatedFrame {
  const mutation = pick(random, MUTATION_NAMES);
  const apply = MUTATIONS[mutation] as Mutation;
  return { bytes: apply(Buffer.from(frame), random, donor), mutation };
}

function withTrueLength(frame: Buffer): Buffer {
  const copy = Buffer.from(frame);
  if (copy.length >= 4) copy.writeInt32BE(copy.length - 4, 0);
  return copy;
}
