import { invalidArgType } from '../../lang/argument-errors';
import { BufferWriter } from '../../core/protocol/buffer-writer';
import { MessageType } from '../../core/protocol/core-message';
import {
  PropertyKind,
  readTypedValue,
  type TypedValue,
  writeTypedValue,
} from '../../core/protocol/typed-properties';
import {
  MessageEOFException,
  MessageFormatException,
  MessageNotReadableException,
  MessageNotWriteableException,
} from '../exceptions';
import { decodeBody } from './body-codec';
import type { BodyType } from './body-type';
import * as convert from './conversions';
import { HornetQMessage } from './hornetq-message';
import type { StreamMessage } from './message';

/**
 * A StreamMessage: a sequence of typed fields read back in order, converting by the JMS stream
 * table (conversions.ts; a string is not readable as char). A read that fails to convert
 * (MessageFormatException, NumberFormatException) does not consume the field; reading past the
 * last field is a MessageEOFException. Body encoding, HornetQ's: the fields one after another, each
 * a type byte and its value in the codec's 'stream' form (a string a nullable three-way String, a
 * null a STRING holding null, a char its UTF-16 unit), with no count; an unknown type or
 * a truncated value makes it corrupt. A long beyond ±2^53 reads as a bigint from readObject and
 * readString, and readLong refuses it with a MessageFormatException naming it.
 *
 * A byte-array field is read in chunks with readBytes: each call copies up to the target's length
 * and returns the count; once the field is exhausted the next call returns -1 and moves to the
 * next field (an empty field gives 0, then -1; a null field gives -1 at once). Reading another
 * type in the middle of a byte-array field is a MessageFormatException.
 *
 * Modes as for BytesMessage: write-only when created and after clearBody, read-only after reset(),
 * on receipt and after a send.
 */
export class HornetQStreamMessage extends HornetQMessage implements StreamMessage {
  static override readonly brand: string = 'HornetQStreamMessage';
  private writing = true;
  private fields: TypedValue[] = [];
  /** A received body not yet decoded. */
  private pending: Buffer | null = null;
  private position = 0;
  /** Bytes already copied out of the byte-array field at `position`, or null outside one. */
  private bytesRead: number | null = null;

  protected override coreType(): number {
    return MessageType.STREAM;
  }

  // ───────────── modes ─────────────

  reset(): void {
    this.writing = false;
    this.position = 0;
    this.bytesRead = null;
  }

  /** JMS 2.0: a StreamMessage's body is assignable to nothing, not even Object. */
  protected override bodyAssignableTo(_type: BodyType): boolean {
    return false;
  }

  protected override kindName(): string {
    return 'StreamMessage';
  }

  override clearBody(): void {
    super.clearBody();
    this.writing = true;
    this.fields = [];
    this.pending = null;
    this.position = 0;
    this.bytesRead = null;
  }

  override encodeBody(): Buffer {
    if (this.pending !== null) return this.pending;
    const writer = new BufferWriter();
    for (const field of this.fields) writeTypedValue(writer, field, 'stream');
    return Buffer.from(writer.toBuffer());
  }

  protected override loadBody(body: Buffer): void {
    this.writing = false;
    this.fields = [];
    this.pending = body;
    this.position = 0;
    this.bytesRead = null;
  }

  protected override beforeSend(): void {
    this.reset();
  }

  // ───────────── reading ─────────────

  readBoolean(): boolean {
    return this.read((field, what) => convert.readBooleanValue(field, what));
  }

  readByte(): number {
    return this.read((field, what) => convert.readByteValue(field, what));
  }

  readShort(): number {
    return this.read((field, what) => convert.readShortValue(field, what));
  }

  readChar(): string {
    return this.read((field, what) => convert.readCharValue(field, what));
  }

  readInt(): number {
    return this.read((field, what) => convert.readIntValue(field, what));
  }

  readLong(): number {
    return this.read((field, what) => convert.readLongValue(field, what));
  }

  readFloat(): number {
    return this.read((field, what) => convert.readFloatValue(field, what));
  }

  readDouble(): number {
    return this.read((field, what) => convert.readDoubleValue(field, what));
  }

  readString(): string | null {
    return this.read((field, what) => convert.readStringValue(field, what));
  }

  /** boolean, number (a long beyond ±2^53 as a bigint), string, a copy of a byte array, or null. */
  readObject(): unknown {
    return this.read((field) => convert.readObjectValue(field));
  }

  readBytes(target: Uint8Array): number {
    const fields = this.readableFields();
    if (!(target instanceof Uint8Array)) throw invalidArgType('readBytes needs a Uint8Array to fill');
    const field = fields[this.position];
    if (field === undefined) throw this.endOfStream();
    if (field.kind !== PropertyKind.BYTES) {
      if (field.kind === PropertyKind.NULL && this.bytesRead === null) {
        this.position++;
        return -1;
      }
      throw new MessageFormatException(
        `${describe(this.position)} of type ${convert.kindName(field.kind)} cannot be read as bytes`,
      );
    }
    const bytes = field.value;
    if (this.bytesRead === null) {
      this.bytesRead = 0;
    } else if (this.bytesRead >= bytes.length) {
      this.bytesRead = null;
      this.position++;
      return -1;
    }
    const count = Math.min(target.length, bytes.length - this.bytesRead);
    target.set(bytes.subarray(this.bytesRead, this.bytesRead + count));
    this.bytesRead += count;
    return count;
  }

  // ───────────── writing ─────────────

  writeBoolean(value: boolean): void {
    this.write(value, convert.booleanValue);
  }

  writeByte(value: number): void {
    this.write(value, convert.byteValue);
  }

  writeShort(value: number): void {
    this.write(value, convert.shortValue);
  }

  writeChar(value: string): void {
    this.write(value, convert.charValue);
  }

  writeInt(value: number): void {
    this.write(value, convert.intValue);
  }

  writeLong(value: number | bigint): void {
    this.write(value, convert.longValue);
  }

  writeFloat(value: number): void {
    this.write(value, convert.floatValue);
  }

  writeDouble(value: number): void {
    this.write(value, convert.doubleValue);
  }

  writeString(value: string | null): void {
    this.write(value, convert.stringValue);
  }

  /** Writes a copy of `value[offset, offset + length)` as one byte-array field. */
  writeBytes(value: Uint8Array, offset?: number, length?: number): void {
    this.checkWritable();
    if (!(value instanceof Uint8Array))
      throw new MessageFormatException('writeBytes: the value is not a Uint8Array');
    this.write(value, (v, what) => convert.bytesValue(v, what, offset, length));
  }

  /**
   * boolean, number, bigint (a long), string, Uint8Array (copied) or null; anything else is a
   * MessageFormatException. A number is an int if it is a 32-bit integer, a long if another safe
   * integer, else a double.
   */
  writeObject(value: unknown): void {
    this.write(value, (v, what) => convert.objectValue(v, what, true));
  }

  // ───────────── internals ─────────────

  private readableFields(): TypedValue[] {
    if (this.writing)
      throw new MessageNotReadableException('the body is write-only; call reset() to read it');
    if (this.pending !== null) {
      this.fields = decodeStream(this.pending);
      this.pending = null;
    }
    return this.fields;
  }

  /** Converts the next field; the field is consumed only when the conversion succeeds. */
  private read<T>(convertField: (field: TypedValue, what: string) => T): T {
    const fields = this.readableFields();
    if (this.bytesRead !== null) {
      throw new MessageFormatException('a byte-array field is partly read: finish it with readBytes first');
    }
    const field = fields[this.position];
    if (field === undefined) throw this.endOfStream();
    const value = convertField(field, describe(this.position));
    this.position++;
    return value;
  }

  private write<T>(value: T, toTyped: (value: T, what: string) => TypedValue): void {
    this.checkWritable();
    this.fields.push(toTyped(value, describe(this.fields.length)));
  }

  private checkWritable(): void {
    if (!this.writing) {
      throw new MessageNotWriteableException('the body is read-only; call clearBody() to write it again');
    }
  }

  private endOfStream(): MessageEOFException {
    return new MessageEOFException(`end of the stream: all ${this.fields.length} fields have been read`);
  }
}

function describe(index: number): string {
  return `stream field ${index}`;
}

function decodeStream(body: Buffer): TypedValue[] {
  return decodeBody('stream body', body, (reader) => {
    const fields: TypedValue[] = [];
    while (reader.remaining > 0) fields.push(readTypedValue(reader, 'stream'));
    return fields;
  });
}
