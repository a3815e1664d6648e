import { HQ_STRING_SHORT_LIMIT, HQ_STRING_UTF_LIMIT } from './hq-string';
import { readModifiedUtf8 } from './modified-utf8';
import { ProtocolError } from './protocol-error';
import { decodeShortString } from './short-strings';

const TWO_32 = 0x1_0000_0000;

/**
 * Reads big-endian values from one frame's body. Every read, and every length field, is checked
 * against the bytes left in the frame before anything is allocated, so a lying length costs
 * nothing but a ProtocolError.
 */
export class BufferReader {
  private offset: number;

  constructor(
    private readonly buffer: Buffer,
    start = 0,
    private readonly end = buffer.length,
    /** viewFrom() copies: what is read may not keep the frame's memory (see decodeFrame). */
    private readonly detached = false,
  ) {
    this.offset = start;
  }

  get remaining(): number {
    return this.end - this.offset;
  }

  /** Where the next read starts, as an index into the frame. */
  get position(): number {
    return this.offset;
  }

  readByte(): number {
    this.require(1, 'byte');
    return this.buffer[this.offset++] as number;
  }

  /** Any non-zero byte is true, as HornetQ reads it (it writes 0xFF). */
  readBoolean(): boolean {
    return this.readByte() !== 0;
  }

  readShort(): number {
    this.require(2, 'short');
    const value = this.buffer.readInt16BE(this.offset);
    this.offset += 2;
    return value;
  }

  readInt(): number {
    this.require(4, 'int');
    const value = this.get32();
    this.offset += 4;
    return value;
  }

  /** A long packet field: ids, times and sizes, which a safe integer holds; anything else is a ProtocolError. */
  readLong(): number {
    this.require(8, 'long');
    const high = this.get32();
    this.offset += 4;
    const low = this.get32() >>> 0;
    this.offset += 4;
    const value = high * TWO_32 + low;
    if (!Number.isSafeInteger(value)) throw new ProtocolError('long value outside the safe-integer range');
    return value;
  }

  /** The int the next readInt() would return, without consuming it. */
  peekInt(): number {
    this.require(4, 'int');
    return this.get32();
  }

  readFloat(): number {
    this.require(4, 'float');
    const value = this.buffer.readFloatBE(this.offset);
    this.offset += 4;
    return value;
  }

  readDouble(): number {
    this.require(8, 'double');
    const value = this.buffer.readDoubleBE(this.offset);
    this.offset += 8;
    return value;
  }

  /** Any 64-bit signed value: a number within the safe-integer range, else a bigint (see writeInt64). */
  readInt64(): number | bigint {
    this.require(8, 'long');
    const high = this.get32();
    const low = this.buffer.readUInt32BE(this.offset + 4);
    const value = high * TWO_32 + low;
    if (Number.isSafeInteger(value)) {
      this.offset += 8;
      return value;
    }
    const exact = this.buffer.readBigInt64BE(this.offset);
    this.offset += 8;
    return exact;
  }

  /** Int byte length (even), then UTF-16LE units. */
  readSimpleString(): string {
    const length = this.readSimpleStringLength();
    const value = this.buffer.toString('utf16le', this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  /** readSimpleString() for a string that recurs (see BufferWriter.writeRecurringSimpleString). */
  readRecurringSimpleString(): string {
    const length = this.readSimpleStringLength();
    const value = decodeShortString(this.buffer, this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  /** Byte 0 for null; any other byte is followed by the SimpleString, as HornetQ reads it. */
  readNullableSimpleString(): string | null {
    return this.readByte() === 0 ? null : this.readSimpleString();
  }

  /** HornetQ's three-way String (see hq-string.ts); the char count must match what follows. */
  readHqString(): string {
    const count = this.readInt();
    if (count < 0) throw new ProtocolError(`negative string char count ${count}`);
    if (count < HQ_STRING_SHORT_LIMIT) return this.readBigEndianUnits(count);
    const value = count < HQ_STRING_UTF_LIMIT ? this.readUTF() : this.readSimpleString();
    if (value.length !== count) {
      throw new ProtocolError(`string announced ${count} chars but holds ${value.length}`);
    }
    return value;
  }

  /** Byte 0 for null; any other byte is followed by the three-way String. */
  readNullableHqString(): string | null {
    return this.readByte() === 0 ? null : this.readHqString();
  }

  /** Unsigned short byte length, then modified UTF-8, read leniently (see modified-utf8.ts). */
  readUTF(): string {
    this.require(2, 'UTF length');
    const length = ((this.buffer[this.offset] as number) << 8) | (this.buffer[this.offset + 1] as number);
    this.offset += 2;
    this.require(length, 'UTF string');
    const value = readModifiedUtf8(this.buffer, this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  /** `length` bytes as they are (no length prefix), copied: a UUID's 16 bytes. */
  readRaw(length: number): Buffer {
    this.require(length, `${length} raw bytes`);
    const value = Buffer.from(this.buffer.subarray(this.offset, this.offset + length));
    this.offset += length;
    return value;
  }

  private readBigEndianUnits(count: number): string {
    this.require(2 * count, 'string chars');
    const buffer = this.buffer;
    let value = '';
    for (let i = 0; i < count; i++) {
      const at = this.offset + 2 * i;
      value += String.fromCharCode(((buffer[at] as number) << 8) | (buffer[at + 1] as number));
    }
    this.offset += 2 * count;
    return value;
  }

  private readSimpleStringLength(): number {
    const length = this.readLength('SimpleString');
    if (length % 2 !== 0) throw new ProtocolError(`SimpleString of odd byte length ${length}`);
    return length;
  }

  /** A copy, so that the frame's memory can be released independently of the value. */
  readBytes(): Buffer {
    const length = this.readLength('bytes');
    const value = Buffer.from(this.buffer.subarray(this.offset, this.offset + length));
    this.offset += length;
    return value;
  }

  /** Steps over `length` bytes (checked against what is left). */
  skip(length: number): void {
    this.require(length, `${length} bytes`);
    this.offset += length;
  }

  /** Steps over a length-prefixed byte field; returns where its bytes start in the frame. */
  skipBytes(): number {
    const length = this.readLength('bytes');
    const start = this.offset;
    this.offset += length;
    return start;
  }

  /**
   * Where the bytes from `start` to the current position can be kept: the frame itself (they
   * start at `start`), or, when detached, a copy of just them (they start at 0; see decodeFrame).
   */
  keepFrom(start: number): Buffer {
    if (!this.detached) return this.buffer;
    const copy = Buffer.allocUnsafe(this.offset - start);
    this.buffer.copy(copy, 0, start, this.offset);
    return copy;
  }

  get detaching(): boolean {
    return this.detached;
  }

  /** A count of items that each take at least `minItemBytes`, checked against what is left. */
  readCount(what: string, minItemBytes: number): number {
    const count = this.readInt();
    if (count < 0) throw new ProtocolError(`negative ${what} count ${count}`);
    if (count * minItemBytes > this.remaining) {
      throw new ProtocolError(`${what} count ${count} exceeds the ${this.remaining} bytes left in the frame`);
    }
    return count;
  }

  /** Fails unless the whole frame was consumed: trailing bytes mean the peer and we disagree. */
  expectEnd(what: string): void {
    if (this.offset !== this.end) {
      throw new ProtocolError(`${this.end - this.offset} unexpected trailing bytes after ${what}`);
    }
  }

  private readLength(what: string): number {
    const length = this.readInt();
    if (length < 0) throw new ProtocolError(`negative ${what} length ${length}`);
    if (length > this.remaining) {
      throw new ProtocolError(
        `${what} length ${length} exceeds the ${this.remaining} bytes left in the frame`,
      );
    }
    return length;
  }

  /** A big-endian signed int at the offset, by hand (require() has checked the bounds). */
  private get32(): number {
    const buffer = this.buffer;
    const at = this.offset;
    return (
      ((buffer[at] as number) << 24) |
      ((buffer[at + 1] as number) << 16) |
      ((buffer[at + 2] as number) << 8) |
      (buffer[at + 3] as number)
    );
  }

  private require(bytes: number, what: string): void {
    if (this.offset + bytes > this.end) {
      throw new ProtocolError(
        `frame truncated: ${what} needs ${bytes} bytes, ${this.end - this.offset} left`,
      );
    }
  }
}
