const TWO_32 = 0x1_0000_0000;

/**
 * Appends big-endian values to a growing buffer. `toBuffer()` returns a view of the written bytes
 * without copying, so one writer is used for one frame.
 */
export class BufferWriter {
  private buffer: Buffer;
  private offset = 0;

  constructor(initialCapacity = 256) {
    this.buffer = Buffer.allocUnsafe(initialCapacity);
  }

  get length(): number {
    return this.offset;
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
    this.ensure(4);
    this.offset = this.buffer.writeInt32BE(value, this.offset);
  }

  /** A 64-bit signed integer; JavaScript numbers carry it exactly within the safe-integer range. */
  writeLong(value: number): void {
    if (!Number.isSafeInteger(value)) throw new RangeError(`long value ${value} is not a safe integer`);
    const high = Math.floor(value / TWO_32);
    this.ensure(8);
    this.offset = this.buffer.writeInt32BE(high, this.offset);
    this.offset = this.buffer.writeUInt32BE(value - high * TWO_32, this.offset);
  }

  writeFloat(value: number): void {
    this.ensure(4);
    this.offset = this.buffer.writeFloatBE(value, this.offset);
  }

  writeDouble(value: number): void {
    this.ensure(8);
    this.offset = this.buffer.writeDoubleBE(value, this.offset);
  }

  /** Int byte length, then UTF-8. */
  writeString(value: string): void {
    const byteLength = Buffer.byteLength(value, 'utf8');
    this.ensure(4 + byteLength);
    this.offset = this.buffer.writeInt32BE(byteLength, this.offset);
    this.offset += this.buffer.write(value, this.offset, byteLength, 'utf8');
  }

  writeNullableString(value: string | null): void {
    this.writeBoolean(value !== null);
    if (value !== null) this.writeString(value);
  }

  /** Int length, then the bytes. */
  writeBytes(value: Uint8Array): void {
    this.ensure(4 + value.length);
    this.offset = this.buffer.writeInt32BE(value.length, this.offset);
    this.buffer.set(value, this.offset);
    this.offset += value.length;
  }

  /** Overwrites an int already written, e.g. a length known only at the end. */
  patchInt(position: number, value: number): void {
    this.buffer.writeInt32BE(value, position);
  }

  toBuffer(): Buffer {
    return this.buffer.subarray(0, this.offset);
  }

  private ensure(extra: number): void {
    const needed = this.offset + extra;
    if (needed <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < needed) capacity *= 2;
    const grown = Buffer.allocUnsafe(capacity);
    this.buffer.copy(grown, 0, 0, this.offset);
    this.buffer = grown;
  }
}
