import { encodeShortString } from './short-strings';

const TWO_32 = 0x1_0000_0000;

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

  writeBoolean(value: boolean): void {
    this.writeByte(value ? 1 : 0);
  }

  writeShort(value: number): void {
    this.ensure(2);
    this.offset = this.buffer.writeInt16BE(value, this.offset);
  }

  writeInt(value: number): void {
    if (value > 0x7fff_ffff || value < -0x8000_0000)
      throw new RangeError(`int value ${value} is out of range`);
    this.ensure(4);
    this.put32(value);
  }

  /** A 64-bit signed integer; JavaScript numbers carry it exactly within the safe-integer range. */
  writeLong(value: number): void {
    if (!Number.isSafeInteger(value)) throw new RangeError(`long value ${value} is not a safe integer`);
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
   * writeString() for a string that recurs (an address, a property name): its bytes come from a
   * small cache. Not for one-off strings (ids, values), which would only churn the cache.
   */
  writeRecurringString(value: string): void {
    const known = encodeShortString(value);
    if (known === null) return this.writeString(value);
    this.ensure(4 + known.length);
    this.put32(known.length);
    const buffer = this.buffer;
    const at = this.offset;
    for (let i = 0; i < known.length; i++) buffer[at + i] = known[i] as number;
    this.offset = at + known.length;
  }

  /** Int byte length, then UTF-8. */
  writeString(value: string): void {
    // Room for the worst case (3 bytes per UTF-16 unit) saves measuring the string first.
    this.ensure(4 + value.length * 3);
    const lengthAt = this.offset;
    const written = this.buffer.write(value, lengthAt + 4, 'utf8');
    this.put32(written);
    this.offset += written;
  }

  writeNullableString(value: string | null): void {
    this.writeBoolean(value !== null);
    if (value !== null) this.writeString(value);
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

  /** Overwrites a long already written (see writeLong). */
  patchLong(position: number, value: number): void {
    if (!Number.isSafeInteger(value)) throw new RangeError(`long value ${value} is not a safe integer`);
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
