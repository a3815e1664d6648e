import fc from 'fast-check';
import { BufferReader } from '../../../src/core/protocol/buffer-reader';
import { BufferWriter } from '../../../src/core/protocol/buffer-writer';
import { hqStringBytes } from '../../../src/core/protocol/hq-string';
import { ProtocolError } from '../../../src/core/protocol/protocol-error';

function bytesOf(write: (writer: BufferWriter) => void): string {
  const writer = new BufferWriter(4);
  write(writer);
  return writer.toBuffer().toString('hex');
}

function readerOf(hex: string): BufferReader {
  return new BufferReader(Buffer.from(hex, 'hex'));
}

describe('booleans', () => {
  it('write true as 0xFF and false as 0, as HornetQ does', () => {
    expect(bytesOf((w) => (w.writeBoolean(true), w.writeBoolean(false)))).toBe('ff00');
  });

  it('read any non-zero byte as true', () => {
    const reader = readerOf('00017fff80');
    expect([0, 1, 2, 3, 4].map(() => reader.readBoolean())).toEqual([false, true, true, true, true]);
  });
});

describe('SimpleString', () => {
  it('is an int byte length and UTF-16LE units, a lone surrogate kept', () => {
    expect(bytesOf((w) => w.writeSimpleString('a\u00e9\ud800'))).toBe('00000006' + '6100' + 'e900' + '00d8');
    expect(readerOf('00000006610000d8e900').readSimpleString()).toBe('a\ud800\u00e9');
  });

  it('nullable: byte 0, or 1 and the SimpleString; any non-zero marker reads as present', () => {
    expect(bytesOf((w) => (w.writeNullableSimpleString(null), w.writeNullableSimpleString('x')))).toBe(
      '00' + '01' + '00000002' + '7800',
    );
    expect(readerOf('ff000000027800').readNullableSimpleString()).toBe('x');
  });

  it('refuses an odd byte length and a length beyond the frame, naming what was wrong', () => {
    expect(() => readerOf('0000000361006200').readSimpleString()).toThrow(/odd byte length 3/);
    expect(() => readerOf('000000086100').readSimpleString()).toThrow(ProtocolError);
  });

  it('recurring and one-off forms write the same bytes and read back the same string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 100 }), (value) => {
        const plain = bytesOf((w) => w.writeSimpleString(value));
        expect(bytesOf((w) => w.writeRecurringSimpleString(value))).toBe(plain);
        expect(readerOf(plain).readRecurringSimpleString()).toBe(value);
        expect(readerOf(plain).readSimpleString()).toBe(value);
      }),
    );
  });
});

describe("HornetQ's three-way String", () => {
  it('below 9 chars: int count and big-endian UTF-16 units', () => {
    expect(bytesOf((w) => w.writeHqString('ab\ud83d'))).toBe('00000003' + '0061' + '0062' + 'd83d');
    expect(bytesOf((w) => w.writeHqString('12345678'))).toBe(
      '00000008' + '0031003200330034003500360037' + '0038',
    );
    expect(bytesOf((w) => w.writeHqString(''))).toBe('00000000');
  });

  it('from 9 chars: int count, then writeUTF', () => {
    expect(bytesOf((w) => w.writeHqString('123456789'))).toBe('00000009' + '0009' + '313233343536373839');
  });

  it('switches from writeUTF to a SimpleString at 4095 chars', () => {
    const utf = bytesOf((w) => w.writeHqString('x'.repeat(4094)));
    expect(utf.slice(0, 12)).toBe('00000ffe' + '0ffe');
    expect(utf.length / 2).toBe(4 + 2 + 4094);
    const simple = bytesOf((w) => w.writeHqString('x'.repeat(4095)));
    expect(simple.slice(0, 20)).toBe('00000fff' + '00001ffe' + '7800');
    expect(simple.length / 2).toBe(4 + 4 + 2 * 4095);
  });

  it('round-trips any string in every branch, with the size hqStringBytes gives', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 12 }),
          fc.string({ unit: 'binary', minLength: 4090, maxLength: 4100 }),
        ),
        (value) => {
          const hex = bytesOf((w) => w.writeHqString(value));
          expect(hex.length / 2).toBe(hqStringBytes(value));
          const reader = readerOf(hex);
          expect(reader.readHqString()).toBe(value);
          expect(reader.remaining).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('nullable: byte 0 or 1, then the String', () => {
    expect(bytesOf((w) => (w.writeNullableHqString(null), w.writeNullableHqString('a')))).toBe(
      '00' + '01' + '00000001' + '0061',
    );
    expect(readerOf('000100000001' + '0061').readNullableHqString()).toBeNull();
  });

  it('refuses a char count that disagrees with what follows', () => {
    expect(() => readerOf('0000000a' + '0009' + '313233343536373839').readHqString()).toThrow(
      /announced 10 chars but holds 9/,
    );
    expect(() => readerOf('ffffffff').readHqString()).toThrow(/negative/);
  });
});

describe('writeUTF / readUTF (modified UTF-8)', () => {
  it('writes NUL as C0 80 and DEL as C1 BF, as HornetQ does, 0x01-0x7E in one byte', () => {
    expect(bytesOf((w) => w.writeUTF('\u0000A\u007f~'))).toBe('0006' + 'c080' + '41' + 'c1bf' + '7e');
  });

  it('writes every surrogate on its own in three bytes, and U+0080..U+07FF in two', () => {
    expect(bytesOf((w) => w.writeUTF('\u00e9\u07ff\u0800\ud83d\ude00'))).toBe(
      '000d' + 'c3a9' + 'dfbf' + 'e0a080' + 'eda0bd' + 'edb880',
    );
  });

  it('reads leniently: a raw 0x00 and a raw 0x7F as themselves, overlong C0 80 as NUL', () => {
    expect(readerOf('0004' + '00' + '7f' + 'c080').readUTF()).toBe('\u0000\u007f\u0000');
  });

  it('refuses a byte that starts no character and a character cut off by the length', () => {
    expect(() => readerOf('0001' + '80').readUTF()).toThrow(/invalid modified UTF-8 byte 0x80/);
    expect(() => readerOf('0001' + 'f0').readUTF()).toThrow(/0xf0/);
    expect(() => readerOf('0002' + 'e0a0' + '80').readUTF()).toThrow(/cut off/);
  });

  it('refuses to write more than 65535 bytes', () => {
    expect(() => bytesOf((w) => w.writeUTF('\u0800'.repeat(21846)))).toThrow(RangeError);
  });

  it('round-trips any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (value) => {
        expect(readerOf(bytesOf((w) => w.writeUTF(value))).readUTF()).toBe(value);
      }),
    );
  });
});

describe('longs', () => {
  it('packet fields stay safe integers: readLong refuses anything else', () => {
    expect(() => readerOf('7fffffffffffffff').readLong()).toThrow(/safe-integer/);
    expect(readerOf('ffffffffffffffff').readLong()).toBe(-1);
  });

  it('readInt64 gives a number within the safe range and a bigint outside it', () => {
    expect(readerOf('001fffffffffffff').readInt64()).toBe(Number.MAX_SAFE_INTEGER);
    expect(readerOf('0020000000000000').readInt64()).toBe(2n ** 53n);
    expect(readerOf('8000000000000000').readInt64()).toBe(-(2n ** 63n));
    expect(readerOf('ffe0000000000001').readInt64()).toBe(-Number.MAX_SAFE_INTEGER);
  });

  it('writeInt64 takes both, and refuses a bigint beyond 64 bits', () => {
    expect(bytesOf((w) => w.writeInt64(2n ** 63n - 1n))).toBe('7fffffffffffffff');
    expect(bytesOf((w) => w.writeInt64(-2))).toBe('fffffffffffffffe');
    expect(() => bytesOf((w) => w.writeInt64(2n ** 63n))).toThrow(RangeError);
  });

  it('round-trips any 64-bit value', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (value) => {
        const read = readerOf(bytesOf((w) => w.writeInt64(value))).readInt64();
        expect(BigInt(read)).toBe(value);
        expect(typeof read).toBe(Number.isSafeInteger(Number(value)) ? 'number' : 'bigint');
      }),
    );
  });
});
