import { BufferReader } from '../../core/protocol/buffer-reader';
import type { BufferWriter } from '../../core/protocol/buffer-writer';
import { ProtocolError } from '../../core/protocol/protocol-error';
import { PropertyKind, type TypedValue } from '../../core/protocol/typed-properties';
import { MessageFormatException } from '../exceptions';

/**
 * Typed values in Map and Stream bodies: a kind byte (core PropertyKind) and the value laid out as
 * core properties lay it out (big-endian numbers; strings and bytes as an int length, then UTF-8
 * or the bytes; nothing for null), except a char: its UTF-16 unit in 2 bytes, as Java writes a
 * char, so that a lone surrogate survives. Reads check every length against what is left;
 * `decodeBody` turns any problem into a MessageFormatException.
 */

export function writeTypedValue(writer: BufferWriter, typed: TypedValue): void {
  writer.writeByte(typed.kind);
  switch (typed.kind) {
    case PropertyKind.NULL:
      return;
    case PropertyKind.BOOLEAN:
      return writer.writeBoolean(typed.value);
    case PropertyKind.BYTE:
      return writer.writeByte(typed.value);
    case PropertyKind.SHORT:
      return writer.writeShort(typed.value);
    case PropertyKind.INT:
      return writer.writeInt(typed.value);
    case PropertyKind.LONG:
      return writer.writeLong(typed.value);
    case PropertyKind.FLOAT:
      return writer.writeFloat(typed.value);
    case PropertyKind.DOUBLE:
      return writer.writeDouble(typed.value);
    case PropertyKind.STRING:
      return writer.writeString(typed.value);
    case PropertyKind.CHAR:
      return writer.writeShort((typed.value.charCodeAt(0) << 16) >> 16);
    case PropertyKind.BYTES:
      return writer.writeBytes(typed.value);
  }
}

export function readTypedValue(reader: BufferReader): TypedValue {
  const kind = reader.readByte();
  switch (kind) {
    case PropertyKind.NULL:
      return { kind, value: null };
    case PropertyKind.BOOLEAN:
      return { kind, value: reader.readBoolean() };
    case PropertyKind.BYTE:
      return { kind, value: (reader.readByte() << 24) >> 24 };
    case PropertyKind.SHORT:
      return { kind, value: reader.readShort() };
    case PropertyKind.INT:
      return { kind, value: reader.readInt() };
    case PropertyKind.LONG:
      return { kind, value: reader.readLong() };
    case PropertyKind.FLOAT:
      return { kind, value: reader.readFloat() };
    case PropertyKind.DOUBLE:
      return { kind, value: reader.readDouble() };
    case PropertyKind.STRING:
      return { kind, value: reader.readString() };
    case PropertyKind.CHAR:
      return { kind, value: String.fromCharCode(reader.readShort() & 0xffff) };
    case PropertyKind.BYTES:
      return { kind, value: reader.readBytes() };
    default:
      throw new ProtocolError(`unknown value type ${kind}`);
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
