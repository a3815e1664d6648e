import { BufferReader } from '../../core/protocol/buffer-reader';
import type { BufferWriter } from '../../core/protocol/buffer-writer';
import { ProtocolError } from '../../core/protocol/protocol-error';
import { PropertyKind, type TypedValue } from '../../core/protocol/typed-properties';
import { MessageFormatException } from '../exceptions';

/**
 * One StreamMessage field as HornetQStreamMessage lays it out: HornetQ's type byte (DataConstants,
 * the PropertyKind numbers), then the value as its buffers write it: a boolean 0 / 0xFF, numbers
 * big-endian (float and double as their bits), a char as its UTF-16 unit in a short, bytes as an
 * int length and the bytes, and a string, unlike in a TypedProperties block, as a nullable
 * three-way String. There is no NULL field: a null is a STRING field holding null, as HornetQ
 * writes writeString(null) and writeObject(null).
 */
export function writeStreamField(writer: BufferWriter, field: TypedValue): void {
  if (field.kind === PropertyKind.NULL) {
    writer.writeByte(PropertyKind.STRING);
    return writer.writeNullableHqString(null);
  }
  writer.writeByte(field.kind);
  switch (field.kind) {
    case PropertyKind.BOOLEAN:
      return writer.writeBoolean(field.value);
    case PropertyKind.BYTE:
      return writer.writeByte(field.value);
    case PropertyKind.SHORT:
      return writer.writeShort(field.value);
    case PropertyKind.CHAR:
      return writer.writeShort((field.value.charCodeAt(0) << 16) >> 16);
    case PropertyKind.INT:
      return writer.writeInt(field.value);
    case PropertyKind.LONG:
      return writer.writeInt64(field.value);
    case PropertyKind.FLOAT:
      return writer.writeFloat(field.value);
    case PropertyKind.DOUBLE:
      return writer.writeDouble(field.value);
    case PropertyKind.STRING:
      return writer.writeNullableHqString(field.value);
    case PropertyKind.BYTES:
      return writer.writeBytes(field.value);
  }
}

/** Reads what writeStreamField wrote; a type HornetQ does not write there is a ProtocolError. */
export function readStreamField(reader: BufferReader): TypedValue {
  const kind = reader.readByte();
  switch (kind) {
    case PropertyKind.BOOLEAN:
      return { kind, value: reader.readBoolean() };
    case PropertyKind.BYTE:
      return { kind, value: (reader.readByte() << 24) >> 24 };
    case PropertyKind.SHORT:
      return { kind, value: reader.readShort() };
    case PropertyKind.CHAR:
      return { kind, value: String.fromCharCode(reader.readShort() & 0xffff) };
    case PropertyKind.INT:
      return { kind, value: reader.readInt() };
    case PropertyKind.LONG:
      return { kind, value: reader.readInt64() };
    case PropertyKind.FLOAT:
      return { kind, value: reader.readFloat() };
    case PropertyKind.DOUBLE:
      return { kind, value: reader.readDouble() };
    case PropertyKind.STRING: {
      const value = reader.readNullableHqString();
      return value === null ? { kind: PropertyKind.NULL, value } : { kind, value };
    }
    case PropertyKind.BYTES:
      return { kind, value: reader.readBytes() };
    default:
      throw new ProtocolError(`unknown stream field type ${kind}`);
  }
}

/** Runs a body decoder over the whole body, failing on trailing bytes; any problem is a MessageFormatException. */
export function decodeBody<T>(what: string, body: Buffer, decode: (reader: BufferReader) => T): T {
  try {
    const reader = new BufferReader(body);
    const result = decode(reader);
    reader.expectEnd(what);
    return result;
  } catch (error) {
    if (error instanceof ProtocolError || error instanceof RangeError) {
      throw new MessageFormatException(`corrupt ${what}: ${error.message}`, null, { cause: error });
    }
    throw error;
  }
}
