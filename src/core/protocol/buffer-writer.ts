import { outOfRange } from '../../lang/argument-errors';
import { HQ_STRING_SHORT_LIMIT, HQ_STRING_UTF_LIMIT } from './hq-string';
import { MAX_MODIFIED_UTF8_BYTES, modifiedUtf8Length, writeModifiedUtf8 } from './modified-utf8';
import { encodeShortString } from './short-strings';

const TWO_32 = 0x1_0000_0000;
/** Up to this many UTF-16 units a loop writes a string faster than a call into Buffer's codec. */
const SHORT_STRING_UNITS = 24;

/**
 * Appends big-endian values to a buffer: its own, or a region of a larger one it was handed (see
 * FrameSlab), which it leaves for a buffer of its own only if it outgrows it. `toBuffer()` returns
 * a view of the written bytes without copying, so one writer is used for one frame.
 */
export class BufferWriter {
  private buffer: Buffer;
  private start: number;
  private offset: number;

  /** A writer of its own buffer, or with `room`, one that writes into `room` from `start` on. */
  constructor(initialCapacity = 256, room?: Buffer, start = 0) {
    this.buffer = room ?? Buffer.allocUnsafe(initialCapacity);
    this.start = room === undefined ? 0 : start;
    this.offset = this.start;
  }

  get length(): number {
    return this.offset - this.start;
  }

  /** True while the bytes written are in `buffer` (the writer has not outgrown the room it was given). */
  writesInto(buffer: Buffer): boolean {
    return this.buffer === buffer;
  }

  writeByte(value: number): void {
    this.ensure(1);
    this.buffer[this.offset++] = value & 0xff;
  }

  /** HornetQ writes true as 0xFF (Java's (byte) -1). */
  writeBoolean(value: boolean): void {
    this.writeByte(value ? 0xff : 0);
  }

  writeShort(value: number): void {
    this.ensure(2);
    this.offset = this.buffer.writeInt16BE(value, this.offset);
  }

  writeInt(value: number): void {
    if (value > 0x7fff_ffff || value < -0x8000_0000) throw outOfRange(`int value ${value} is out of range`);
    this.ensure(4);
    this.put32(value);
  }

  /** A 64-bit signed integer; JavaScript numbers carry it exactly within the safe-integer range. */
  writeLong(value: number): void {
    if (!Number.isSafeInteger(value)) throw outOfRange(`long value ${value} is not a safe integer`);
    const high = Math.floor(value / TWO_32);
    this.ensure(8);
    this.put32(high);
    this.put32(value - high * TWO_32);
  }

  writeFloat(value: number): void {
    this.ensure(4);
    this.offset = this.buffer.writeFloatBE(value, this.offset);
  }

  writeDouble(value: number): void {
    this.ensure(8);
    this.offset = this.buffer.writeDoubleBE(value, this.offset);
  }

  /**
   * Any 64-bit signed value: a number within the safe-integer range, a bigint outside it (what a
   * TypedProperties LONG may hold). Packet fields use writeLong.
   */
  writeInt64(value: number | bigint): void {
    if (typeof value === 'number') return this.writeLong(value);
    if (value > 0x7fff_ffff_ffff_ffffn || value < -0x8000_0000_0000_0000n) {
      throw outOfRange(`long value ${value} is out of range`);
    }
    this.ensure(8);
    this.offset = this.buffer.writeBigInt64BE(value, this.offset);
  }

  /** SimpleString: int byte length (two per UTF-16 unit), then the units little-endian. */
  writeSimpleString(value: string): void {
    const bytes = 2 * value.length;
    this.ensure(4 + bytes);
    this.put32(bytes);
    if (value.length > SHORT_STRING_UNITS) {
      this.offset += this.buffer.write(value, this.offset, bytes, 'utf16le');
      return;
    }
    const buffer = this.buffer;
    let at = this.offset;
    for (let i = 0; i < value.length; i++) {
      const unit = value.charCodeAt(i);
      buffer[at++] = unit;
      buffer[at++] = unit >>> 8;
    }
    this.offset = at;
  }

  /**
   * writeSimpleString() for a string that recurs (an address, a property name): its bytes come
   * from a small cache. Not for one-off strings (ids, values), which would only churn the cache.
   */
  writeRecurringSimpleString(value: string): void {
    const known = encodeShortString(value);
    if (known === null) return this.writeSimpleString(value);
    this.ensure(4 + known.length);
    this.put32(known.length);
    const buffer = this.buffer;
    const at = this.offset;
    for (let i = 0; i < known.length; i++) buffer[at + i] = known[i] as number;
    this.offset = at + known.length;
  }

  /** Byte 0 for null, else 1 and the SimpleString. */
  writeNullableSimpleString(value: string | null): void {
    this.writeByte(value === null ? 0 : 1);
    if (value !== null) this.writeSimpleString(value);
  }

  /** HornetQ's three-way String (see hq-string.ts): int char count, then one of three forms. */
  writeHqString(value: string): void {
    const count = value.length;
    if (count >= HQ_STRING_UTF_LIMIT) {
      this.writeInt(count);
      return this.writeSimpleString(value);
    }
    if (count >= HQ_STRING_SHORT_LIMIT) {
      this.writeInt(count);
      return this.writeUTF(value);
    }
    this.ensure(4 + 2 * count);
    this.put32(count);
    const buffer = this.buffer;
    let at = this.offset;
    for (let i = 0; i < count; i++) {
      const unit = value.charCodeAt(i);
      buffer[at++] = unit >>> 8;
      buffer[at++] = unit;
    }
    this.offset = at;
  }

  /** Byte 0 for null, else 1 and the three-way String. */
  writeNullableHqString(value: string | null): void {
    this.writeByte(value === null ? 0 : 1);
    if (value !== null) this.writeHqString(value);
  }

  /** Unsigned short byte length, then HornetQ's modified UTF-8 (see modified-utf8.ts). */
  writeUTF(value: string): void {
    const bytes = modifiedUtf8Length(value);
    if (bytes > MAX_MODIFIED_UTF8_BYTES) {
      throw outOfRange(
        `string of ${bytes} modified UTF-8 bytes exceeds writeUTF's ${MAX_MODIFIED_UTF8_BYTES}`,
      );
    }
    this.ensure(2 + bytes);
    const buffer = this.buffer;
    buffer[this.offset] = bytes >>> 8;
    buffer[this.offset + 1] = bytes;
    this.offset = writeModifiedUtf8(buffer, this.offset + 2, value);
  }

  /** Int length, then the bytes. */
  writeBytes(value: Uint8Array): void {
    this.ensure(4 + value.length);
    this.put32(value.length);
    this.buffer.set(value, this.offset);
    this.offset += value.length;
  }

  /** Bytes already encoded, as they are (no length prefix): `source` from `start` to `end`. */
  writeRaw(source: Buffer, start = 0, end = source.length): void {
    this.ensure(end - start);
    this.offset += source.copy(this.buffer, this.offset, start, end);
  }

  /**
   * `length` bytes that `write` puts into the buffer at the offset given (a UUID's 16 bytes from
   * its string): room is made first, and `value` is passed through so that no closure is needed.
   */
  writeFixed<T>(length: number, value: T, write: (value: T, buffer: Buffer, at: number) => void): void {
    this.ensure(length);
    write(value, this.buffer, this.offset);
    this.offset += length;
  }

  /** Overwrites a long already written (see writeLong). */
  patchLong(position: number, value: number): void {
    if (!Number.isSafeInteger(value)) throw outOfRange(`long value ${value} is not a safe integer`);
    const high = Math.floor(value / TWO_32);
    this.buffer.writeInt32BE(high, this.start + position);
    this.buffer.writeUInt32BE(value - high * TWO_32, this.start + position + 4);
  }

  /** Overwrites an int already written, e.g. a length known only at the end. */
  patchInt(position: number, value: number): void {
    this.buffer.writeInt32BE(value, this.start + position);
  }

  /** Big-endian, by hand: Buffer's checked writers cost more than the bytes (ensure() was called). */
  private put32(value: number): void {
    const buffer = this.buffer;
    const at = this.offset;
    buffer[at] = value >>> 24;
    buffer[at + 1] = value >>> 16;
    buffer[at + 2] = value >>> 8;
    buffer[at + 3] = value;
    this.offset = at + 4;
  }

  toBuffer(): Buffer {
    return this.buffer.subarray(this.start, this.offset);
  }

  private ensure(extra: number): void {
    if (this.offset + extra <= this.buffer.length) return;
    const needed = this.length + extra;
    let capacity = Math.max(64, this.length * 2);
    while (capacity < needed) capacity *= 2;
    const grown = Buffer.allocUnsafe(capacity);
    this.buffer.copy(grown, 0, this.start, this.offset);
    this.buffer = grown;
    this.offset = this.length;
    this.start = 0;
  }
}
