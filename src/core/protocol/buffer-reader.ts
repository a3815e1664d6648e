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

  readBoolean(): boolean {
    const value = this.readByte();
    if (value > 1) throw new ProtocolError(`invalid boolean byte ${value}`);
    return value === 1;
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

  readString(): string {
    const length = this.readLength('string');
    const value = this.buffer.toString('utf8', this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  /** readString() for a string that recurs (see BufferWriter.writeRecurringString). */
  readRecurringString(): string {
    const length = this.readLength('string');
    const value = decodeShortString(this.buffer, this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  readNullableString(): string | null {
    return this.readBoolean() ? this.readString() : null;
  }

  /** A copy, so that the frame's memory can be released independently of the value. */
  readBytes(): Buffer {
    const length = this.readLength('bytes');
    const value = Buffer.from(this.buffer.subarray(this.offset, this.offset + length));
    this.offset += length;
    return value;
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
