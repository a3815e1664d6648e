import { BufferReader } from '../../core/protocol/buffer-reader';
import type { BufferWriter } from '../../core/protocol/buffer-writer';
import { ProtocolError } from '../../core/protocol/protocol-error';
import {
  readTypedValue as readCoreTypedValue,
  writeTypedValue as writeCoreTypedValue,
  type TypedValue,
} from '../../core/protocol/typed-properties';
import { MessageFormatException } from '../exceptions';

/**
 * Typed values in Map and Stream bodies: a kind byte (core PropertyKind) and the value laid out as
 * core properties lay it out (big-endian numbers; strings and bytes as an int length, then UTF-8
 * or the bytes; nothing for null), except a char: its UTF-16 unit in 2 bytes, as Java writes a
 * char, so that a lone surrogate survives. Reads check every length against what is left;
 * `decodeBody` turns any problem into a MessageFormatException.
 */

export function writeTypedValue(writer: BufferWriter, typed: TypedValue): void {
  writeCoreTypedValue(writer, typed, 'utf16-unit');
}

export function readTypedValue(reader: BufferReader): TypedValue {
  return readCoreTypedValue(reader, 'utf16-unit');
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
