import { existsSync } from 'node:fs';
import path from 'node:path';
import { BufferReader } from '../../../src/core/protocol/buffer-reader';
import { BufferWriter } from '../../../src/core/protocol/buffer-writer';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import { FRAME_HEADER_BYTES } from '../../../src/core/protocol/frame-decoder';
import {
  decodeFrame,
  deliveryFrameBytes,
  encodePacket,
  sendFrameBytes,
} from '../../../src/core/protocol/packet-codec';
import { PacketType } from '../../../src/core/protocol/packet-type';
import type { Packet } from '../../../src/core/protocol/packets';
import {
  PropertyKind,
  readTypedValue,
  TypedProperties,
  writeTypedValue,
  type TypedValue,
} from '../../../src/core/protocol/typed-properties';
import {
  loadJmsBodyVectors,
  loadPacketVectors,
  loadValueVectors,
  type GoldenMessage,
  type GoldenPacket,
  type ValueVector,
} from '../../fixtures/hornetq-2.4.7/golden-vectors';
import { describePacket } from './arbitraries';

/**
 * Our codec against HornetQ 2.4.7's own bytes (test/fixtures/hornetq-2.4.7, printed by the real
 * jars): every vector is encoded by us and compared as hex, and its hex is decoded by us and
 * compared with its value. A missing fixture fails here: this suite never passes on nothing.
 */
const FIXTURES = path.join(__dirname, '../../fixtures/hornetq-2.4.7');

describe('the HornetQ 2.4.7 fixtures', () => {
  it.each(['values.json', 'packets.json', 'jms-bodies.json'])(
    '%s is there, from 2.4.7, with vectors',
    (file) => {
      expect(existsSync(path.join(FIXTURES, file))).toBe(true);
    },
  );

  it('come from HornetQ 2.4.7 (incrementing version 124) and are not empty', () => {
    for (const file of [loadValueVectors(), loadPacketVectors(), loadJmsBodyVectors()]) {
      expect(file.hornetq).toMatch(/^2\.4\.7\./);
      expect(file.hornetqIncrementingVersion).toBe(124);
      expect(file.vectors.length).toBeGreaterThan(0);
    }
  });
});

type Written = (writer: BufferWriter) => void;
type Read = (reader: BufferReader) => unknown;

function valueCodec(vector: ValueVector): { write: Written; read: Read } {
  const { value } = vector;
  switch (vector.write) {
    case 'writeSimpleString':
      return { write: (w) => w.writeSimpleString(value as string), read: (r) => r.readSimpleString() };
    case 'writeNullableSimpleString':
      return {
        write: (w) => w.writeNullableSimpleString(value as string | null),
        read: (r) => r.readNullableSimpleString(),
      };
    case 'writeHqString':
      return { write: (w) => w.writeHqString(value as string), read: (r) => r.readHqString() };
    case 'writeNullableHqString':
      return {
        write: (w) => w.writeNullableHqString(value as string | null),
        read: (r) => r.readNullableHqString(),
      };
    case 'writeUTF':
      return { write: (w) => w.writeUTF(value as string), read: (r) => r.readUTF() };
    case 'writeBoolean':
      return { write: (w) => w.writeBoolean(value as boolean), read: (r) => r.readBoolean() };
  }
}

function hexOf(write: Written): string {
  const writer = new BufferWriter(16);
  write(writer);
  return writer.toBuffer().toString('hex');
}

describe('values.json', () => {
  const vectors = loadValueVectors().vectors.map((vector, i) => [`${i}: ${vector.write}`, vector] as const);

  it.each(vectors)('%s writes HornetQ’s bytes and reads them back', (_name, vector) => {
    const codec = valueCodec(vector);
    expect(hexOf(codec.write)).toBe(vector.hex);
    const reader = new BufferReader(Buffer.from(vector.hex, 'hex'));
    expect(codec.read(reader)).toEqual(vector.value);
    expect(reader.remaining).toBe(0);
  });

  it('covers every value codec and the three-way String at its branch edges', () => {
    const all = loadValueVectors().vectors;
    const writers = new Set(all.map((vector) => vector.write));
    expect([...writers].sort()).toEqual([
      'writeBoolean',
      'writeHqString',
      'writeNullableHqString',
      'writeNullableSimpleString',
      'writeSimpleString',
      'writeUTF',
    ]);
    const lengths = all.filter((v) => v.write === 'writeHqString').map((v) => (v.value as string).length);
    expect(lengths).toEqual(expect.arrayContaining([8, 9, 4094, 4095]));
  });
});

function messageOf(golden: GoldenMessage): CoreMessage {
  const message = new CoreMessage();
  message.messageId = golden.messageId;
  message.address = golden.address;
  message.type = golden.type;
  message.durable = golden.durable;
  message.expiration = golden.expiration;
  message.timestamp = golden.timestamp;
  message.priority = golden.priority;
  message.userId = golden.userId;
  for (const [name, value] of golden.properties) message.properties.set(name, value);
  message.body = golden.body;
  return message;
}

/** The vector's literal as our Packet: its message (if any) as a CoreMessage. */
function packetOf(golden: GoldenPacket): Packet {
  if (!carriesMessage(golden)) return golden as unknown as Packet;
  return { ...golden, message: messageOf(golden.message) } as unknown as Packet;
}

/** EXCEPTION's `message` is its text; only the message packets carry a CoreMessage. */
function carriesMessage(golden: GoldenPacket): golden is GoldenPacket & { message: GoldenMessage } {
  return typeof golden.message === 'object' && golden.message !== null;
}

/** The packets whose message has a body and its positions (large-message heads have neither). */
const WHOLE_MESSAGE_TYPES: ReadonlySet<number> = new Set([PacketType.SESS_SEND, PacketType.SESS_RECEIVE_MSG]);

describe('packets.json', () => {
  const vectors = loadPacketVectors().vectors.map((vector) => [vector.name, vector] as const);

  it.each(vectors)('%s: we encode HornetQ’s frame', (_name, vector) => {
    expect(encodePacket(vector.channelId, packetOf(vector.packet)).toString('hex')).toBe(vector.hex);
  });

  it.each(vectors)('%s: we decode HornetQ’s frame to its fields', (_name, vector) => {
    const frame = decodeFrame(Buffer.from(vector.hex, 'hex'));
    expect(frame.channelId).toBe(vector.channelId);
    expect(frame.size).toBe(vector.hex.length / 2);
    expect(describePacket(frame.packet)).toStrictEqual(describePacket(packetOf(vector.packet)));
  });

  it.each(vectors.filter(([, vector]) => WHOLE_MESSAGE_TYPES.has(vector.packet.type)))(
    '%s: re-sends the received bytes as they are, and encodedSize() is HornetQ’s encode size',
    (_name, vector) => {
      const frame = decodeFrame(Buffer.from(vector.hex, 'hex'));
      const packet = frame.packet as Packet & { message: CoreMessage };
      expect(encodePacket(vector.channelId, packet).toString('hex')).toBe(vector.hex);
      const trailer = packet.type === PacketType.SESS_RECEIVE_MSG ? 8 + 4 : 1;
      expect(packet.message.encodedSize()).toBe(frame.size - FRAME_HEADER_BYTES - trailer);
      expect(messageOf(vector.packet.message as GoldenMessage).encodedSize()).toBe(
        frame.size - FRAME_HEADER_BYTES - trailer,
      );
      const frameBytes = packet.type === PacketType.SESS_RECEIVE_MSG ? deliveryFrameBytes : sendFrameBytes;
      expect(frameBytes(packet.message)).toBe(frame.size);
    },
  );
});

/** HornetQ writes a stream's null as a STRING that is null; ours is the NULL value. */
function streamValueOf(golden: TypedValue | { kind: 10; value: null }): TypedValue {
  return golden.value === null ? { kind: PropertyKind.NULL, value: null } : golden;
}

describe('jms-bodies.json (the value codecs the JMS bodies are made of)', () => {
  const vectors = loadJmsBodyVectors().vectors;
  const ofClass = (jmsClass: string) =>
    vectors.filter((vector) => vector.jmsClass === jmsClass).map((vector) => [vector.name, vector] as const);

  it.each(ofClass('TextMessage'))('%s: a nullable SimpleString', (_name, vector) => {
    const text = vector.content.text as string | null;
    expect(hexOf((w) => w.writeNullableSimpleString(text))).toBe(vector.body.toString('hex'));
    expect(new BufferReader(vector.body).readNullableSimpleString()).toBe(text);
  });

  it.each(ofClass('MapMessage'))('%s: a TypedProperties block', (_name, vector) => {
    const entries = vector.content.entries as Array<[string, TypedValue]>;
    const properties = new TypedProperties();
    for (const [name, value] of entries) properties.set(name, value);
    expect(hexOf((w) => properties.encode(w))).toBe(vector.body.toString('hex'));
    expect(properties.encodedSize()).toBe(vector.body.length);
    const reader = new BufferReader(vector.body);
    expect([...TypedProperties.decode(reader).entries()]).toEqual(entries);
    expect(reader.remaining).toBe(0);
  });

  it.each(ofClass('StreamMessage'))('%s: typed values in the stream form', (_name, vector) => {
    const entries = (vector.content.entries as TypedValue[]).map(streamValueOf);
    expect(hexOf((w) => entries.forEach((typed) => writeTypedValue(w, typed, 'stream')))).toBe(
      vector.body.toString('hex'),
    );
    const reader = new BufferReader(vector.body);
    const read: TypedValue[] = [];
    while (reader.remaining > 0) read.push(readTypedValue(reader, 'stream'));
    expect(read).toEqual(entries);
  });

  it.each(ofClass('BytesMessage'))('%s: the BufferWriter primitives', (_name, vector) => {
    const operations = vector.content.operations as Array<[string, unknown]>;
    const hex = hexOf((w) => {
      for (const [method, value] of operations) writeBytesOperation(w, method, value);
    });
    expect(hex).toBe(vector.body.toString('hex'));
  });
});

function writeBytesOperation(w: BufferWriter, method: string, value: unknown): void {
  switch (method) {
    case 'writeBoolean':
      return w.writeBoolean(value as boolean);
    case 'writeByte':
      return w.writeByte(value as number);
    case 'writeShort':
      return w.writeShort(value as number);
    case 'writeChar':
      return w.writeShort(((value as string).charCodeAt(0) << 16) >> 16);
    case 'writeInt':
      return w.writeInt(value as number);
    case 'writeLong':
      return w.writeInt64(value as number | bigint);
    case 'writeFloat':
      return w.writeFloat(value as number);
    case 'writeDouble':
      return w.writeDouble(value as number);
    case 'writeUTF':
      return w.writeUTF(value as string);
    case 'writeBytes':
      return w.writeRaw(value as Buffer);
    default:
      throw new Error(`a BytesMessage vector names an unknown method ${method}`);
  }
}
