import fc from 'fast-check';
import {
  MessageEOFException,
  MessageFormatException,
  MessageNotReadableException,
  MessageNotWriteableException,
} from '../../../src/jms/exceptions';
import { HornetQBytesMessage } from '../../../src/jms/message/hornetq-bytes-message';
import { transfer } from './wire';

/**
 * HornetQ's BytesMessageTest and MessageBodyTest.testBytesMessage, and the layout of HornetQ's body
 * buffer (HornetQBytesMessage over ChannelBufferWrapper: true as 0xFF, writeUTF with UTF8Util).
 */

const HANGUL = '\uac00\ub098\ub2e4\ub77c\ub9c8\ubc14\uc0ac\uc544';
/** The research's reference string: 18 ASCII characters and 8 Hangul syllables of 3 bytes. */
const S = `abcdef&^*&!^ghijkl${HANGUL}`;
const BYTES = Uint8Array.from([1, 2, 3, 4, 5, 6]);

/** MessageBodyTest's payload (writeObject of Byte/Short/Float takes the typed writer here). */
function writeReference(message: HornetQBytesMessage): void {
  message.writeBoolean(true);
  message.writeByte(-3);
  message.writeShort(-1234);
  message.writeChar('ç');
  message.writeInt(-123456);
  message.writeLong(-1234567890123);
  message.writeFloat(1.5);
  message.writeDouble(-2.25e100);
  message.writeUTF(S);
  message.writeBytes(BYTES);
  message.writeBytes(BYTES, 2, 3);
  message.writeObject(true);
  message.writeByte(-3);
  message.writeShort(-1234);
  message.writeObject(-123456);
  message.writeObject(-1234567890123);
  message.writeFloat(1.5);
  message.writeObject(-2.25e100);
  message.writeObject(S);
  message.writeObject(BYTES);
}

function readReference(message: HornetQBytesMessage): void {
  expect(message.readBoolean()).toBe(true);
  expect(message.readByte()).toBe(-3);
  expect(message.readShort()).toBe(-1234);
  expect(message.readChar()).toBe('ç');
  expect(message.readInt()).toBe(-123456);
  expect(message.readLong()).toBe(-1234567890123);
  expect(message.readFloat()).toBe(1.5);
  expect(message.readDouble()).toBe(-2.25e100);
  expect(message.readUTF()).toBe(S);
  const six = new Uint8Array(6);
  expect(message.readBytes(six)).toBe(6);
  expect(six).toEqual(BYTES);
  const three = new Uint8Array(3);
  expect(message.readBytes(three)).toBe(3);
  expect(three).toEqual(Uint8Array.from([3, 4, 5]));
  expect(message.readBoolean()).toBe(true);
  expect(message.readByte()).toBe(-3);
  expect(message.readShort()).toBe(-1234);
  expect(message.readInt()).toBe(-123456);
  expect(message.readLong()).toBe(-1234567890123);
  expect(message.readFloat()).toBe(1.5);
  expect(message.readDouble()).toBe(-2.25e100);
  expect(message.readUTF()).toBe(S);
  expect(message.readBytes(six)).toBe(6);
  expect(six).toEqual(BYTES);
}

describe('MessageBodyTest.testBytesMessage', () => {
  it('the reference payload is 161 bytes and reads back exactly after the wire', () => {
    const message = new HornetQBytesMessage();
    writeReference(message);
    const received = transfer(message);
    expect(received.getBodyLength()).toBe(161);
    readReference(received);
  });

  it('every read in write-only mode is a MessageNotReadableException', () => {
    const message = new HornetQBytesMessage();
    writeReference(message);
    const reads: Array<() => unknown> = [
      () => message.getBodyLength(),
      () => message.readBoolean(),
      () => message.readByte(),
      () => message.readUnsignedByte(),
      () => message.readShort(),
      () => message.readUnsignedShort(),
      () => message.readChar(),
      () => message.readInt(),
      () => message.readLong(),
      () => message.readFloat(),
      () => message.readDouble(),
      () => message.readUTF(),
      () => message.readBytes(new Uint8Array(1)),
      () => message.readBytes(new Uint8Array(1), 1),
    ];
    for (const read of reads) expect(read).toThrow(MessageNotReadableException);
  });

  it('after the body: readBytes is -1 and every typed read a MessageEOFException', () => {
    const received = transfer(new HornetQBytesMessage());
    expect(received.readBytes(new Uint8Array(4))).toBe(-1);
    expect(received.readBytes(new Uint8Array(4), 2)).toBe(-1);
    const reads: Array<() => unknown> = [
      () => received.readBoolean(),
      () => received.readByte(),
      () => received.readUnsignedByte(),
      () => received.readShort(),
      () => received.readUnsignedShort(),
      () => received.readChar(),
      () => received.readInt(),
      () => received.readLong(),
      () => received.readFloat(),
      () => received.readDouble(),
      () => received.readUTF(),
    ];
    for (const read of reads) expect(read).toThrow(MessageEOFException);
  });

  it('a typed read with too few bytes left is an EOF and consumes nothing', () => {
    const message = new HornetQBytesMessage();
    message.writeShort(0x0102);
    message.reset();
    expect(() => message.readInt()).toThrow(MessageEOFException);
    expect(message.readShort()).toBe(0x0102);
  });

  it('every write on a received message is a MessageNotWriteableException', () => {
    const received = transfer(new HornetQBytesMessage());
    const writes: Array<() => void> = [
      () => received.writeBoolean(true),
      () => received.writeByte(1),
      () => received.writeShort(1),
      () => received.writeChar('a'),
      () => received.writeInt(1),
      () => received.writeLong(1),
      () => received.writeFloat(1),
      () => received.writeDouble(1),
      () => received.writeUTF('a'),
      () => received.writeBytes(BYTES),
      () => received.writeObject(1),
      // The mode is checked before the value.
      () => received.writeByte(1000),
    ];
    for (const write of writes) expect(write).toThrow(MessageNotWriteableException);
  });

  it('reset then readUnsignedByte and readUnsignedShort are the byte & 0xFF and short & 0xFFFF', () => {
    const message = new HornetQBytesMessage();
    message.writeByte(-3);
    message.writeShort(-1234);
    message.reset();
    expect(message.readUnsignedByte()).toBe(-3 & 0xff);
    expect(message.readUnsignedShort()).toBe(-1234 & 0xffff);
  });

  it('clearBody makes getBodyLength a MessageNotReadableException until reset, then 0', () => {
    const message = new HornetQBytesMessage();
    writeReference(message);
    message.reset();
    expect(message.getBodyLength()).toBe(161);
    message.clearBody();
    expect(() => message.getBodyLength()).toThrow(MessageNotReadableException);
    message.reset();
    expect(message.getBodyLength()).toBe(0);
  });

  it("the sender's message still reports 161 after the send and a reset; sent and received are distinct", () => {
    const message = new HornetQBytesMessage();
    writeReference(message);
    const received = transfer(message);
    message.reset();
    expect(message.getBodyLength()).toBe(161);
    expect(received).not.toBe(message);
    received.readInt();
    readReference(message);
  });
});

describe('BytesMessageTest (body)', () => {
  it('HornetQ writes in order then reads back, after an explicit reset', () => {
    const message = new HornetQBytesMessage();
    message.writeBoolean(true);
    message.writeByte(3);
    message.writeBytes(Uint8Array.from([4, 5, 6]));
    message.writeChar(String.fromCharCode(7));
    message.writeDouble(8.0);
    message.writeFloat(9.0);
    message.writeInt(10);
    message.writeLong(11);
    message.writeShort(12);
    message.writeUTF('this is an UTF String');
    message.reset();
    const received = transfer(message);
    expect(received.readBoolean()).toBe(true);
    expect(received.readByte()).toBe(3);
    const three = new Uint8Array(3);
    received.readBytes(three);
    expect([...three]).toEqual([4, 5, 6]);
    expect(received.readChar()).toBe(String.fromCharCode(7));
    expect(received.readDouble()).toBe(8);
    expect(received.readFloat()).toBe(9);
    expect(received.readInt()).toBe(10);
    expect(received.readLong()).toBe(11);
    expect(received.readShort()).toBe(12);
    expect(received.readUTF()).toBe('this is an UTF String');
  });
});

describe('Java DataOutput layout (C7.1)', () => {
  it.each<[string, (m: HornetQBytesMessage) => void, number[]]>([
    ['writeBoolean(true) as 0xFF', (m) => m.writeBoolean(true), [0xff]],
    ['writeBoolean(false)', (m) => m.writeBoolean(false), [0]],
    ['writeByte(-1)', (m) => m.writeByte(-1), [0xff]],
    ['writeShort(-2)', (m) => m.writeShort(-2), [0xff, 0xfe]],
    ['writeChar("A")', (m) => m.writeChar('A'), [0, 0x41]],
    ['writeInt(0x01020304)', (m) => m.writeInt(0x01020304), [1, 2, 3, 4]],
    ['writeLong(-2)', (m) => m.writeLong(-2), [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]],
    ['writeLong(2^32)', (m) => m.writeLong(2 ** 32), [0, 0, 0, 1, 0, 0, 0, 0]],
    ['writeFloat(1)', (m) => m.writeFloat(1), [0x3f, 0x80, 0, 0]],
    ['writeDouble(1)', (m) => m.writeDouble(1), [0x3f, 0xf0, 0, 0, 0, 0, 0, 0]],
    ['writeUTF("")', (m) => m.writeUTF(''), [0, 0]],
    ['writeUTF("a\\0")', (m) => m.writeUTF('a\u0000'), [0, 3, 0x61, 0xc0, 0x80]],
    ['writeUTF("\\x7f") as HornetQ writes DEL: C1 BF', (m) => m.writeUTF('\x7f'), [0, 2, 0xc1, 0xbf]],
    ['writeUTF("€")', (m) => m.writeUTF('€'), [0, 3, 0xe2, 0x82, 0xac]],
    [
      'writeUTF("😀") as two 3-byte surrogates',
      (m) => m.writeUTF('😀'),
      [0, 6, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80],
    ],
    ['writeObject(5) as an int', (m) => m.writeObject(5), [0, 0, 0, 5]],
    ['writeObject(2^40) as a long', (m) => m.writeObject(2 ** 40), [0, 0, 1, 0, 0, 0, 0, 0]],
    ['writeObject(0.5) as a double', (m) => m.writeObject(0.5), [0x3f, 0xe0, 0, 0, 0, 0, 0, 0]],
    ['writeObject("é") as UTF', (m) => m.writeObject('é'), [0, 2, 0xc3, 0xa9]],
    ['writeObject(false)', (m) => m.writeObject(false), [0]],
    ['writeObject(5n) as a long', (m) => m.writeObject(5n), [0, 0, 0, 0, 0, 0, 0, 5]],
    ['writeLong(Long.MIN_VALUE as a bigint)', (m) => m.writeLong(-(2n ** 63n)), [0x80, 0, 0, 0, 0, 0, 0, 0]],
  ])('%s', (_, write, expected) => {
    const message = new HornetQBytesMessage();
    write(message);
    expect([...message.encodeBody()]).toEqual(expected);
  });

  it('readBoolean treats any non-zero byte as true', () => {
    const message = new HornetQBytesMessage();
    message.writeByte(2);
    message.writeByte(0);
    message.reset();
    expect(message.readBoolean()).toBe(true);
    expect(message.readBoolean()).toBe(false);
  });
});

describe('values that do not fit', () => {
  it.each<[string, (m: HornetQBytesMessage) => void]>([
    ['writeByte(128)', (m) => m.writeByte(128)],
    ['writeShort(40000)', (m) => m.writeShort(40000)],
    ['writeInt(2^31)', (m) => m.writeInt(2 ** 31)],
    ['writeLong(2^53)', (m) => m.writeLong(2 ** 53)],
    ['writeChar("ab")', (m) => m.writeChar('ab')],
    ['writeChar("")', (m) => m.writeChar('')],
    ['writeUTF of 65536 bytes', (m) => m.writeUTF('a'.repeat(65536))],
    ['writeObject({})', (m) => m.writeObject({})],
    ['writeLong(2^63 as a bigint)', (m) => m.writeLong(2n ** 63n)],
    ['writeObject(a Date)', (m) => m.writeObject(new Date(0))],
  ])('%s is a MessageFormatException and writes nothing', (_, write) => {
    const message = new HornetQBytesMessage();
    expect(() => write(message)).toThrow(MessageFormatException);
    message.reset();
    expect(message.getBodyLength()).toBe(0);
  });

  it('writeUTF of exactly 65535 bytes is accepted', () => {
    const message = new HornetQBytesMessage();
    message.writeUTF('a'.repeat(65535));
    expect(transfer(message).readUTF()).toHaveLength(65535);
  });

  it('writeObject(null) is a TypeError (Java NullPointerException)', () => {
    expect(() => new HornetQBytesMessage().writeObject(null)).toThrow(TypeError);
  });

  it('writeBytes and readBytes bounds are RangeErrors', () => {
    const message = new HornetQBytesMessage();
    expect(() => message.writeBytes(BYTES, 4, 3)).toThrow(RangeError);
    expect(() => message.writeBytes(BYTES, -1)).toThrow(RangeError);
    message.writeBytes(BYTES, 6, 0);
    message.writeBytes(BYTES, 0);
    message.reset();
    expect(() => message.readBytes(new Uint8Array(2), 3)).toThrow(RangeError);
  });

  it('a long beyond the safe-integer range read from a body is a MessageFormatException, not consumed', () => {
    const message = new HornetQBytesMessage();
    message.writeInt(0x7fffffff);
    message.writeInt(-1);
    message.reset();
    expect(() => message.readLong()).toThrow(MessageFormatException);
    expect(() => message.readLong()).toThrow(/\(9223372036854775807\)/);
    expect(message.readInt()).toBe(0x7fffffff);
  });
});

describe('readBytes chunks', () => {
  it('fills up to the length, returns the count, then -1', () => {
    const message = new HornetQBytesMessage();
    message.writeBytes(Uint8Array.from([1, 2, 3, 4, 5]));
    const received = transfer(message);
    const target = new Uint8Array(4);
    expect(received.readBytes(target, 2)).toBe(2);
    expect([...target]).toEqual([1, 2, 0, 0]);
    expect(received.readBytes(target)).toBe(3);
    expect([...target.subarray(0, 3)]).toEqual([3, 4, 5]);
    expect(received.readBytes(target)).toBe(-1);
  });

  it('reset rewinds a received body', () => {
    const message = new HornetQBytesMessage();
    message.writeInt(42);
    const received = transfer(message);
    expect(received.readInt()).toBe(42);
    received.reset();
    expect(received.readInt()).toBe(42);
  });
});

describe('readUTF on bad input', () => {
  function body(bytes: number[]): HornetQBytesMessage {
    const message = new HornetQBytesMessage();
    message.writeBytes(Uint8Array.from(bytes));
    return transfer(message);
  }

  it('a length beyond the body is an EOF and consumes nothing', () => {
    const message = body([0, 5, 0x61]);
    expect(() => message.readUTF()).toThrow(MessageEOFException);
    expect(message.readShort()).toBe(5);
  });

  it.each<[string, number[]]>([
    ['a continuation byte first', [0, 1, 0x80]],
    ['a 4-byte lead', [0, 4, 0xf0, 0x9f, 0x98, 0x80]],
    ['a sequence cut by the length', [0, 1, 0xc3, 0xa9]],
  ])('%s is a MessageFormatException and consumes nothing', (_, bytes) => {
    const message = body(bytes);
    expect(() => message.readUTF()).toThrow(MessageFormatException);
    expect(message.readUnsignedShort()).toBe(bytes[1]);
  });

  it('accepts what HornetQ, Artemis and Java write: a raw NUL byte, an overlong NUL, C1 BF for DEL', () => {
    expect(body([0, 1, 0]).readUTF()).toBe('\u0000');
    expect(body([0, 2, 0xc0, 0x80]).readUTF()).toBe('\u0000');
    expect(body([0, 2, 0xc1, 0xbf]).readUTF()).toBe('\x7f');
    expect(body([0, 1, 0x7f]).readUTF()).toBe('\x7f');
  });

  it('like HornetQ’s reader, takes a continuation byte by its low six bits', () => {
    expect(body([0, 2, 0xc3, 0x41]).readUTF()).toBe('\u00c1');
  });
});

describe('writeUTF / readUTF (the codec’s modified UTF-8)', () => {
  const anyUnits = fc
    .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 200 })
    .map((units) => String.fromCharCode(...units));

  it('writeUTF/readUTF round-trip through the wire', () => {
    fc.assert(
      fc.property(fc.array(anyUnits, { maxLength: 5 }), (texts) => {
        const message = new HornetQBytesMessage();
        for (const text of texts) message.writeUTF(text);
        const received = transfer(message);
        for (const text of texts) expect(received.readUTF()).toBe(text);
        expect(received.readBytes(new Uint8Array(1))).toBe(-1);
      }),
      { numRuns: 50 },
    );
  });
});
