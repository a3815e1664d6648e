import { BufferWriter } from '../../../src/core/protocol/buffer-writer';
import { MessageType } from '../../../src/core/protocol/core-message';
import {
  MessageEOFException,
  MessageFormatException,
  MessageNotReadableException,
  MessageNotWriteableException,
  NumberFormatException,
} from '../../../src/jms/exceptions';
import { HornetQStreamMessage } from '../../../src/jms/message/hornetq-stream-message';
import { receivedWithBody, transfer } from './wire';

/** HornetQ's StreamMessageTest and MessageBodyTest.testStreamMessage; research §4 C6. */

type Reader =
  | 'readBoolean'
  | 'readByte'
  | 'readShort'
  | 'readChar'
  | 'readInt'
  | 'readLong'
  | 'readFloat'
  | 'readDouble'
  | 'readString';
const READERS: Reader[] = [
  'readBoolean',
  'readByte',
  'readShort',
  'readChar',
  'readInt',
  'readLong',
  'readFloat',
  'readDouble',
  'readString',
];

describe('StreamMessageTest', () => {
  it('every type round-trips in order', () => {
    const message = new HornetQStreamMessage();
    message.writeBoolean(true);
    message.writeByte(3);
    message.writeBytes(Uint8Array.from([4, 5, 6]));
    message.writeChar('7');
    message.writeDouble(8.5);
    message.writeFloat(9.5);
    message.writeInt(10);
    message.writeLong(11);
    message.writeShort(12);
    message.writeString('this is a String');
    message.writeObject(Uint8Array.from([1]));
    const received = transfer(message);
    expect(received.readBoolean()).toBe(true);
    expect(received.readByte()).toBe(3);
    const three = new Uint8Array(3);
    expect(received.readBytes(three)).toBe(3);
    expect([...three]).toEqual([4, 5, 6]);
    expect(received.readBytes(three)).toBe(-1);
    expect(received.readChar()).toBe('7');
    expect(received.readDouble()).toBe(8.5);
    expect(received.readFloat()).toBe(9.5);
    expect(received.readInt()).toBe(10);
    expect(received.readLong()).toBe(11);
    expect(received.readShort()).toBe(12);
    expect(received.readString()).toBe('this is a String');
    expect([...(received.readObject() as Uint8Array)]).toEqual([1]);
    expect(() => received.readObject()).toThrow(MessageEOFException);
  });

  it('testNullValue: writeString(null) reads back null', () => {
    const message = new HornetQStreamMessage();
    message.writeString(null);
    expect(transfer(message).readString()).toBeNull();
  });
});

describe('MessageBodyTest.testStreamMessage', () => {
  it('reads during write are MessageNotReadableException', () => {
    const message = new HornetQStreamMessage();
    message.writeInt(1);
    for (const reader of READERS) expect(() => message[reader]()).toThrow(MessageNotReadableException);
    expect(() => message.readObject()).toThrow(MessageNotReadableException);
    expect(() => message.readBytes(new Uint8Array(1))).toThrow(MessageNotReadableException);
  });

  it('readBytes: a 6-byte field into a 10-byte buffer gives 6 then -1; a 3-byte field 3 then -1', () => {
    const message = new HornetQStreamMessage();
    message.writeBytes(Uint8Array.from([1, 2, 3, 4, 5, 6]));
    message.writeBytes(Uint8Array.from([1, 2, 3, 4, 5, 6]), 2, 3);
    const received = transfer(message);
    const buffer = new Uint8Array(10);
    expect(received.readBytes(buffer)).toBe(6);
    expect([...buffer.subarray(0, 6)]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(received.readBytes(buffer)).toBe(-1);
    expect(received.readBytes(buffer)).toBe(3);
    expect([...buffer.subarray(0, 3)]).toEqual([3, 4, 5]);
    expect(received.readBytes(buffer)).toBe(-1);
    expect(() => received.readBytes(buffer)).toThrow(MessageEOFException);
  });

  it('past the end every read is a MessageEOFException', () => {
    const received = transfer(new HornetQStreamMessage());
    for (const reader of READERS) expect(() => received[reader]()).toThrow(MessageEOFException);
    expect(() => received.readObject()).toThrow(MessageEOFException);
  });

  it('a received stream is read-only; reset rewinds; clearBody makes it write-only', () => {
    const message = new HornetQStreamMessage();
    message.writeInt(1);
    const received = transfer(message);
    expect(() => received.writeInt(2)).toThrow(MessageNotWriteableException);
    expect(received.readInt()).toBe(1);
    received.reset();
    expect(received.readInt()).toBe(1);
    received.clearBody();
    expect(() => received.readBoolean()).toThrow(MessageNotReadableException);
    received.writeBoolean(true);
    received.reset();
    expect(received.readBoolean()).toBe(true);
  });

  it("the sender's copy is unaffected by the receiver", () => {
    const message = new HornetQStreamMessage();
    message.writeString('a');
    const received = transfer(message);
    expect(received.readString()).toBe('a');
    message.reset();
    expect(message.readString()).toBe('a');
  });
});

describe('conversion table (C6.1)', () => {
  const MFE = 'MFE';
  const NFE = 'NFE';
  const ROWS: Array<[string, (m: HornetQStreamMessage) => void, Partial<Record<Reader, unknown>>]> = [
    ['boolean', (m) => m.writeBoolean(true), { readBoolean: true, readString: 'true' }],
    ['byte', (m) => m.writeByte(1), { readByte: 1, readShort: 1, readInt: 1, readLong: 1, readString: '1' }],
    ['short', (m) => m.writeShort(1), { readShort: 1, readInt: 1, readLong: 1, readString: '1' }],
    ['char', (m) => m.writeChar('a'), { readChar: 'a', readString: 'a' }],
    ['int', (m) => m.writeInt(1), { readInt: 1, readLong: 1, readString: '1' }],
    ['long', (m) => m.writeLong(1), { readLong: 1, readString: '1' }],
    ['float', (m) => m.writeFloat(1.5), { readFloat: 1.5, readDouble: 1.5, readString: '1.5' }],
    ['double', (m) => m.writeDouble(1.5), { readDouble: 1.5, readString: '1.5' }],
    [
      'string "1"',
      (m) => m.writeString('1'),
      {
        readBoolean: false,
        readByte: 1,
        readShort: 1,
        readInt: 1,
        readLong: 1,
        readFloat: 1,
        readDouble: 1,
        readString: '1',
      },
    ],
    [
      'string "x"',
      (m) => m.writeString('x'),
      {
        readBoolean: false,
        readByte: NFE,
        readShort: NFE,
        readInt: NFE,
        readLong: NFE,
        readFloat: NFE,
        readDouble: NFE,
        readString: 'x',
      },
    ],
    ['bytes', (m) => m.writeBytes(Uint8Array.from([1])), {}],
  ];
  const CELLS = ROWS.flatMap(([type, write, row]) =>
    READERS.map((reader) => [type, write, reader, reader in row ? row[reader] : MFE] as const),
  );

  it.each(CELLS)(
    '%s read with %s; a failed read does not consume the field (C6.2)',
    (_, write, reader, expected) => {
      const message = new HornetQStreamMessage();
      write(message);
      const received = transfer(message);
      const read = (): unknown => received[reader]();
      if (expected === MFE || expected === NFE) {
        expect(read).toThrow(expected === MFE ? MessageFormatException : NumberFormatException);
        expect(received.readObject()).not.toBeUndefined();
        expect(() => received.readObject()).toThrow(MessageEOFException);
      } else {
        expect(read()).toEqual(expected);
        expect(() => received.readObject()).toThrow(MessageEOFException);
      }
    },
  );

  it('a null field: false, NumberFormatException, TypeError for char, null for string and object, -1 for bytes', () => {
    const message = new HornetQStreamMessage();
    for (let i = 0; i < 4; i++) message.writeObject(null);
    const received = transfer(message);
    for (const reader of [
      'readByte',
      'readShort',
      'readInt',
      'readLong',
      'readFloat',
      'readDouble',
    ] as const) {
      expect(() => received[reader]()).toThrow(NumberFormatException);
    }
    expect(() => received.readChar()).toThrow(TypeError);
    expect(received.readBoolean()).toBe(false);
    expect(received.readString()).toBeNull();
    expect(received.readObject()).toBeNull();
    expect(received.readBytes(new Uint8Array(1))).toBe(-1);
    expect(() => received.readObject()).toThrow(MessageEOFException);
  });
});

describe('readBytes chunk semantics (C6.3)', () => {
  it('reads a field in chunks, -1 once it is exhausted, then the next field', () => {
    const message = new HornetQStreamMessage();
    message.writeBytes(Uint8Array.from([1, 2, 3, 4, 5]));
    message.writeInt(9);
    const received = transfer(message);
    const two = new Uint8Array(2);
    expect(received.readBytes(two)).toBe(2);
    expect([...two]).toEqual([1, 2]);
    expect(received.readBytes(two)).toBe(2);
    expect([...two]).toEqual([3, 4]);
    expect(received.readBytes(two)).toBe(1);
    expect(two[0]).toBe(5);
    expect(received.readBytes(two)).toBe(-1);
    expect(received.readInt()).toBe(9);
  });

  it('an empty field gives 0, then -1', () => {
    const message = new HornetQStreamMessage();
    message.writeBytes(new Uint8Array(0));
    message.writeBoolean(true);
    const received = transfer(message);
    expect(received.readBytes(new Uint8Array(4))).toBe(0);
    expect(received.readBytes(new Uint8Array(4))).toBe(-1);
    expect(received.readBoolean()).toBe(true);
  });

  it('another read in the middle of a byte-array field is a MessageFormatException', () => {
    const message = new HornetQStreamMessage();
    message.writeBytes(Uint8Array.from([1, 2, 3]));
    message.writeInt(9);
    const received = transfer(message);
    expect(received.readBytes(new Uint8Array(1))).toBe(1);
    expect(() => received.readInt()).toThrow(MessageFormatException);
    expect(() => received.readObject()).toThrow(MessageFormatException);
    expect(received.readBytes(new Uint8Array(5))).toBe(2);
    expect(received.readBytes(new Uint8Array(5))).toBe(-1);
    expect(received.readInt()).toBe(9);
  });

  it('readBytes on a field of another type is a MessageFormatException and does not consume it', () => {
    const message = new HornetQStreamMessage();
    message.writeString('s');
    const received = transfer(message);
    expect(() => received.readBytes(new Uint8Array(1))).toThrow(MessageFormatException);
    expect(received.readString()).toBe('s');
  });

  it('readObject returns a byte-array field whole, as a copy', () => {
    const source = Uint8Array.from([1, 2]);
    const message = new HornetQStreamMessage();
    message.writeBytes(source);
    source[0] = 7;
    message.reset();
    const first = message.readObject() as Uint8Array;
    expect([...first]).toEqual([1, 2]);
    first[1] = 7;
    message.reset();
    expect([...(message.readObject() as Uint8Array)]).toEqual([1, 2]);
  });

  it('reset in the middle of a byte-array field starts over', () => {
    const message = new HornetQStreamMessage();
    message.writeBytes(Uint8Array.from([1, 2, 3]));
    message.reset();
    expect(message.readBytes(new Uint8Array(1))).toBe(1);
    message.reset();
    const all = new Uint8Array(3);
    expect(message.readBytes(all)).toBe(3);
    expect([...all]).toEqual([1, 2, 3]);
  });
});

describe('writeObject (C6.4)', () => {
  it('accepts boolean, number, string, bytes and null, typing numbers as int, long or double', () => {
    const message = new HornetQStreamMessage();
    for (const value of [true, 5, 2 ** 40, 0.5, 's', null]) message.writeObject(value);
    const received = transfer(message);
    expect(received.readBoolean()).toBe(true);
    expect(() => received.readShort()).toThrow(MessageFormatException);
    expect(received.readInt()).toBe(5);
    expect(() => received.readInt()).toThrow(MessageFormatException);
    expect(received.readLong()).toBe(2 ** 40);
    expect(() => received.readFloat()).toThrow(MessageFormatException);
    expect(received.readDouble()).toBe(0.5);
    expect(received.readString()).toBe('s');
    expect(received.readObject()).toBeNull();
  });

  it.each<[string, unknown]>([
    ['an object', {}],
    ['an array', [1]],
    ['a Date', new Date(0)],
    ['a bigint beyond the range of a long', 2n ** 63n],
    ['undefined', undefined],
  ])('%s is a MessageFormatException', (_, value) => {
    const message = new HornetQStreamMessage();
    expect(() => message.writeObject(value)).toThrow(MessageFormatException);
    message.reset();
    expect(() => message.readObject()).toThrow(MessageEOFException);
  });

  it.each<[string, (m: HornetQStreamMessage) => void]>([
    ['writeByte(-129)', (m) => m.writeByte(-129)],
    ['writeShort(2^15)', (m) => m.writeShort(2 ** 15)],
    ['writeInt(0.5)', (m) => m.writeInt(0.5)],
    ['writeLong(-(2^53))', (m) => m.writeLong(-(2 ** 53))],
    ['writeChar("")', (m) => m.writeChar('')],
    ['writeBytes("x")', (m) => m.writeBytes('x' as unknown as Uint8Array)],
  ])('%s is a MessageFormatException', (_, write) => {
    const message = new HornetQStreamMessage();
    expect(() => write(message)).toThrow(MessageFormatException);
  });
});

describe('stream body encoding (HornetQStreamMessage: type byte and value per field)', () => {
  function body(write: (w: BufferWriter) => void): Buffer {
    const writer = new BufferWriter();
    write(writer);
    return Buffer.from(writer.toBuffer());
  }

  it('is the fields one after another with HornetQ’s type bytes; a null is a STRING holding null', () => {
    const message = new HornetQStreamMessage();
    message.writeShort(2);
    message.writeString(null);
    message.writeBoolean(true);
    message.writeObject(null);
    message.writeByte(-1);
    message.writeInt(258);
    message.writeBytes(Uint8Array.from([7, 8]));
    expect([...message.encodeBody()]).toEqual([
      5, 0, 2, 10, 0, 2, 0xff, 10, 0, 3, 0xff, 6, 0, 0, 1, 2, 4, 0, 0, 0, 2, 7, 8,
    ]);
  });

  it('a string is a nullable three-way String: UTF-16BE units below 9 chars, writeUTF below 4095', () => {
    const message = new HornetQStreamMessage();
    message.writeString('ab');
    message.writeString('abcdefghé');
    expect([...message.encodeBody()]).toEqual([
      10, 1, 0, 0, 0, 2, 0, 0x61, 0, 0x62, 10, 1, 0, 0, 0, 9, 0, 10, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67,
      0x68, 0xc3, 0xa9,
    ]);
    const long = 'x'.repeat(5000);
    message.clearBody();
    message.writeString(long);
    const encoded = message.encodeBody();
    expect([...encoded.subarray(0, 10)]).toEqual([10, 1, 0, 0, 0x13, 0x88, 0, 0, 0x27, 0x10]);
    expect(encoded).toHaveLength(10 + 10000);
    expect(transfer(message).readString()).toBe(long);
  });

  it('a char is its UTF-16 unit in a short, so a lone surrogate survives', () => {
    const message = new HornetQStreamMessage();
    message.writeChar('A');
    message.writeChar('\ud800');
    expect([...message.encodeBody()]).toEqual([11, 0, 0x41, 11, 0xd8, 0x00]);
    const received = transfer(message);
    expect(received.readChar()).toBe('A');
    expect(received.readChar()).toBe('\ud800');
  });

  it('reads what a HornetQ producer writes, a long beyond ±2^53 as a bigint', () => {
    const bytes = body((w) => {
      w.writeByte(7);
      w.writeInt64(-(2n ** 63n));
      w.writeByte(2);
      w.writeByte(1);
      w.writeByte(10);
      w.writeByte(0);
      w.writeByte(9);
      w.writeDouble(1.5);
    });
    const message = receivedWithBody(MessageType.STREAM, bytes) as HornetQStreamMessage;
    expect(() => message.readLong()).toThrow(/stream field 0 = -9223372036854775808/);
    expect(message.readObject()).toBe(-(2n ** 63n));
    expect(message.readBoolean()).toBe(true);
    expect(message.readString()).toBeNull();
    expect(message.readDouble()).toBe(1.5);
  });

  it.each<[string, Buffer]>([
    ['an unknown type', Buffer.from([99])],
    ['a truncated double', Buffer.from([9, 0, 0, 0])],
    ['a string longer than the body', body((w) => (w.writeByte(10), w.writeByte(1), w.writeInt(50)))],
    ['a negative bytes length', body((w) => (w.writeByte(4), w.writeInt(-2)))],
  ])('%s is a corrupt body: MessageFormatException on first read', (_, bytes) => {
    const message = receivedWithBody(MessageType.STREAM, bytes) as HornetQStreamMessage;
    expect(() => message.readObject()).toThrow(MessageFormatException);
    expect(() => message.readBytes(new Uint8Array(1))).toThrow(MessageFormatException);
  });
});
