import { invalidArgType, outOfRange } from '../../lang/argument-errors';
import { MessageType } from '../../core/protocol/core-message';
import {
  MAX_MODIFIED_UTF8_BYTES,
  modifiedUtf8Length,
  readModifiedUtf8,
  writeModifiedUtf8,
} from '../../core/protocol/modified-utf8';
import { ProtocolError } from '../../core/protocol/protocol-error';
import { PropertyKind } from '../../core/protocol/typed-properties';
import {
  MessageEOFException,
  MessageFormatException,
  MessageNotReadableException,
  MessageNotWriteableException,
} from '../exceptions';
import type { BodyType } from './body-type';
import * as convert from './conversions';
import { HornetQMessage } from './hornetq-message';
import type { BytesMessage } from './message';

const EMPTY = Buffer.alloc(0);

/**
 * A BytesMessage: an untyped stream laid out as HornetQ's body buffer writes it (HornetQBytesMessage).
 * Body encoding: exactly the bytes written, big-endian (boolean 1 byte, true as 0xFF and any
 * non-zero byte read as true; byte 1, short 2, char 2 (a UTF-16 unit), int 4, long 8, float 4 and
 * double 8 IEEE-754; UTF an unsigned short length then HornetQ's modified UTF-8, the codec's
 * writeUTF). Nothing to decode, so no body is corrupt; reading past the end is a
 * MessageEOFException.
 *
 * Write-only when created and after clearBody (reads → MessageNotReadableException); reset()
 * switches to read-only at the start (writes → MessageNotWriteableException). A received
 * message and a sent one (as in HornetQ) are in read mode.
 */
export class HornetQBytesMessage extends HornetQMessage implements BytesMessage {
  static override readonly brand: string = 'HornetQBytesMessage';
  private writing = true;
  private written: Buffer = Buffer.alloc(64);
  private writtenLength = 0;
  private body: Buffer = EMPTY;
  private position = 0;

  protected override coreType(): number {
    return MessageType.BYTES;
  }

  // ───────────── modes ─────────────

  reset(): void {
    if (this.writing) {
      this.body = Buffer.from(this.written.subarray(0, this.writtenLength));
      this.written = EMPTY;
      this.writtenLength = 0;
      this.writing = false;
    }
    this.position = 0;
  }

  override clearBody(): void {
    super.clearBody();
    this.writing = true;
    this.written = Buffer.alloc(64);
    this.writtenLength = 0;
    this.body = EMPTY;
    this.position = 0;
  }

  /** Even an empty body is only bytes, as HornetQ decides (its BodyTest: not a String). */
  protected override bodyAssignableTo(type: BodyType): boolean {
    return type === Buffer || type === Uint8Array || type === Object;
  }

  /** The whole body, in either mode, without moving the read position; null when it is empty. */
  protected override bodyValue(): unknown {
    const bytes = this.writing ? this.written.subarray(0, this.writtenLength) : this.body;
    return bytes.length === 0 ? null : Buffer.from(bytes);
  }

  protected override kindName(): string {
    return 'BytesMessage';
  }

  /** The total body length; only in read mode. */
  getBodyLength(): number {
    this.checkReadable();
    return this.body.length;
  }

  override encodeBody(): Buffer {
    return this.writing ? Buffer.from(this.written.subarray(0, this.writtenLength)) : this.body;
  }

  protected override loadBody(body: Buffer): void {
    this.writing = false;
    this.body = body;
    this.written = EMPTY;
    this.writtenLength = 0;
    this.position = 0;
  }

  protected override beforeSend(): void {
    this.reset();
  }

  // ───────────── reading ─────────────

  /** Any non-zero byte is true, as in Java. */
  readBoolean(): boolean {
    return this.take(1, 'boolean')[0] !== 0;
  }

  readByte(): number {
    return this.take(1, 'byte').readInt8(0);
  }

  readUnsignedByte(): number {
    return this.take(1, 'unsigned byte').readUInt8(0);
  }

  readShort(): number {
    return this.take(2, 'short').readInt16BE(0);
  }

  readUnsignedShort(): number {
    return this.take(2, 'unsigned short').readUInt16BE(0);
  }

  readChar(): string {
    return String.fromCharCode(this.take(2, 'char').readUInt16BE(0));
  }

  readInt(): number {
    return this.take(4, 'int').readInt32BE(0);
  }

  /** A long outside the safe-integer range is a MessageFormatException naming it, and is not consumed. */
  readLong(): number {
    this.checkReadable();
    this.checkAvailable(8, 'long');
    const value = this.body.readBigInt64BE(this.position);
    const number = Number(value);
    if (!Number.isSafeInteger(number)) {
      throw new MessageFormatException(
        `the long at byte ${this.position} (${value}) is outside JavaScript's safe-integer range`,
      );
    }
    this.position += 8;
    return number;
  }

  readFloat(): number {
    return this.take(4, 'float').readFloatBE(0);
  }

  readDouble(): number {
    return this.take(8, 'double').readDoubleBE(0);
  }

  /** A 2-byte length then modified UTF-8; a truncated string is an EOF, a malformed one a format error, and neither is consumed. */
  readUTF(): string {
    this.checkReadable();
    this.checkAvailable(2, 'UTF length');
    const length = this.body.readUInt16BE(this.position);
    const start = this.position + 2;
    if (start + length > this.body.length) {
      throw new MessageEOFException(`UTF string of ${length} bytes, only ${this.body.length - start} left`);
    }
    let text: string;
    try {
      text = readModifiedUtf8(this.body, start, start + length);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      throw new MessageFormatException(`the UTF string at byte ${this.position}: ${error.message}`, null, {
        cause: error,
      });
    }
    this.position = start + length;
    return text;
  }

  /** Copies up to `length` bytes into `target`; returns how many, or -1 when nothing is left. */
  readBytes(target: Uint8Array, length: number = target.length): number {
    this.checkReadable();
    if (!(target instanceof Uint8Array)) throw invalidArgType('readBytes needs a Uint8Array to fill');
    if (!Number.isInteger(length) || length < 0 || length > target.length) {
      throw outOfRange(`length ${length} is outside the target of ${target.length} bytes`);
    }
    const left = this.body.length - this.position;
    if (left === 0) return -1;
    const count = Math.min(length, left);
    target.set(this.body.subarray(this.position, this.position + count));
    this.position += count;
    return count;
  }

  // ───────────── writing ─────────────

  writeBoolean(value: boolean): void {
    this.checkWritable();
    const converted = convert.toBoolean(value, 'writeBoolean');
    this.put(1)[0] = converted ? 0xff : 0;
  }

  writeByte(value: number): void {
    this.checkWritable();
    const converted = convert.toByte(value, 'writeByte');
    this.put(1).writeInt8(converted, 0);
  }

  writeShort(value: number): void {
    this.checkWritable();
    const converted = convert.toShort(value, 'writeShort');
    this.put(2).writeInt16BE(converted, 0);
  }

  writeChar(value: string): void {
    this.checkWritable();
    const converted = convert.toChar(value, 'writeChar').charCodeAt(0);
    this.put(2).writeUInt16BE(converted, 0);
  }

  writeInt(value: number): void {
    this.checkWritable();
    const converted = convert.toInt(value, 'writeInt');
    this.put(4).writeInt32BE(converted, 0);
  }

  writeLong(value: number | bigint): void {
    this.checkWritable();
    const long = convert.toLong(value, 'writeLong');
    this.put(8).writeBigInt64BE(BigInt(long), 0);
  }

  writeFloat(value: number): void {
    this.checkWritable();
    const converted = convert.toFloat(value, 'writeFloat');
    this.put(4).writeFloatBE(converted, 0);
  }

  writeDouble(value: number): void {
    this.checkWritable();
    const converted = convert.toDouble(value, 'writeDouble');
    this.put(8).writeDoubleBE(converted, 0);
  }

  /** At most 65535 bytes of modified UTF-8 (HornetQ's and Java's limit); longer is a MessageFormatException. */
  writeUTF(value: string): void {
    this.checkWritable();
    if (typeof value !== 'string')
      throw new MessageFormatException(`writeUTF: ${typeof value} is not a string`);
    const length = modifiedUtf8Length(value);
    if (length > MAX_MODIFIED_UTF8_BYTES) {
      throw new MessageFormatException(
        `writeUTF: the string encodes to ${length} bytes, more than ${MAX_MODIFIED_UTF8_BYTES}`,
      );
    }
    const target = this.put(2 + length);
    target.writeUInt16BE(length, 0);
    writeModifiedUtf8(target, 2, value);
  }

  writeBytes(value: Uint8Array, offset?: number, length?: number): void {
    this.checkWritable();
    if (!(value instanceof Uint8Array))
      throw new MessageFormatException('writeBytes: the value is not a Uint8Array');
    const [start, end] = convert.sliceBounds(value, offset, length);
    this.put(end - start).set(value.subarray(start, end));
  }

  /**
   * Writes a boolean, number, string (as UTF) or Uint8Array in its primitive encoding; a number is
   * an int if it is a 32-bit integer, a long if another safe integer, else a double. null is a
   * TypeError (Java's NullPointerException); other types a MessageFormatException.
   */
  writeObject(value: unknown): void {
    this.checkWritable();
    if (value === null || value === undefined) throw invalidArgType('writeObject: the value is null');
    if (typeof value === 'string') return this.writeUTF(value);
    if (value instanceof Uint8Array) return this.writeBytes(value);
    const typed = convert.objectValue(value, 'writeObject', false);
    switch (typed.kind) {
      case PropertyKind.BOOLEAN:
        return this.writeBoolean(typed.value);
      case PropertyKind.INT:
        return this.writeInt(typed.value);
      case PropertyKind.LONG:
        return this.writeLong(typed.value);
      case PropertyKind.DOUBLE:
        return this.writeDouble(typed.value);
      default:
        throw new MessageFormatException(`writeObject: cannot write a ${convert.kindName(typed.kind)}`);
    }
  }

  // ───────────── internals ─────────────

  private checkReadable(): void {
    if (this.writing)
      throw new MessageNotReadableException('the body is write-only; call reset() to read it');
  }

  private checkWritable(): void {
    if (!this.writing) {
      throw new MessageNotWriteableException('the body is read-only; call clearBody() to write it again');
    }
  }

  private checkAvailable(bytes: number, what: string): void {
    if (this.position + bytes > this.body.length) {
      throw new MessageEOFException(
        `end of the body: a ${what} needs ${bytes} bytes, ${this.body.length - this.position} left`,
      );
    }
  }

  /** The next `bytes` bytes to read, consumed. */
  private take(bytes: number, what: string): Buffer {
    this.checkReadable();
    this.checkAvailable(bytes, what);
    const view = this.body.subarray(this.position, this.position + bytes);
    this.position += bytes;
    return view;
  }

  /** Room for `bytes` more bytes at the end of what is written, returned as a view to fill. */
  private put(bytes: number): Buffer {
    this.checkWritable();
    const needed = this.writtenLength + bytes;
    if (needed > this.written.length) {
      let capacity = Math.max(64, this.written.length * 2);
      while (capacity < needed) capacity *= 2;
      const grown = Buffer.alloc(capacity);
      this.written.copy(grown, 0, 0, this.writtenLength);
      this.written = grown;
    }
    const view = this.written.subarray(this.writtenLength, needed);
    this.writtenLength = needed;
    return view;
  }
}
