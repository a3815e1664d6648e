import { ProtocolError } from './protocol-error';

/**
 * HornetQ's `writeUTF` form (its UTF8Util, close to Java's modified UTF-8): every UTF-16 unit on its
 * own, a surrogate of a pair included, so the bytes are not UTF-8 and Buffer's codecs cannot be used.
 * U+0001..U+007E take one byte; U+0000 and U+007F..U+07FF two (U+0000 as C0 80, so no byte is 0,
 * and U+007F as C1 BF: HornetQ's writer does this, and every reader takes it); the rest three.
 */

/** The most bytes an unsigned short length can announce. */
export const MAX_MODIFIED_UTF8_BYTES = 0xffff;

/** The bytes `value` takes in modified UTF-8. */
export function modifiedUtf8Length(value: string): number {
  let bytes = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0x01 && unit < 0x7f) bytes += 1;
    else if (unit >= 0x800) bytes += 3;
    else bytes += 2;
  }
  return bytes;
}

/** Writes `value` into `buffer` from `at` (room for modifiedUtf8Length bytes was made); returns the end. */
export function writeModifiedUtf8(buffer: Buffer, at: number, value: string): number {
  let offset = at;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0x01 && unit < 0x7f) {
      buffer[offset++] = unit;
    } else if (unit >= 0x800) {
      buffer[offset++] = 0xe0 | (unit >> 12);
      buffer[offset++] = 0x80 | ((unit >> 6) & 0x3f);
      buffer[offset++] = 0x80 | (unit & 0x3f);
    } else {
      buffer[offset++] = 0xc0 | (unit >> 6);
      buffer[offset++] = 0x80 | (unit & 0x3f);
    }
  }
  return offset;
}

/**
 * The string encoded from `start` to `end`. Lenient where writers differ: a raw 0x00 (Artemis
 * writes U+0000 that way) and overlong two-byte forms are taken; a byte that cannot start a unit
 * (a continuation byte, 0xF0 and above) or a unit cut off at `end` is a ProtocolError.
 */
export function readModifiedUtf8(buffer: Buffer, start: number, end: number): string {
  let ascii = true;
  for (let i = start; i < end; i++) {
    if ((buffer[i] as number) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return buffer.toString('latin1', start, end);
  const units: number[] = [];
  let offset = start;
  while (offset < end) {
    const lead = buffer[offset] as number;
    if (lead < 0x80) {
      units.push(lead);
      offset += 1;
    } else if (lead >= 0xc0 && lead < 0xe0) {
      requireUnit(offset, 2, end);
      units.push(((lead & 0x1f) << 6) | ((buffer[offset + 1] as number) & 0x3f));
      offset += 2;
    } else if (lead >= 0xe0 && lead < 0xf0) {
      requireUnit(offset, 3, end);
      const middle = (buffer[offset + 1] as number) & 0x3f;
      units.push(((lead & 0x0f) << 12) | (middle << 6) | ((buffer[offset + 2] as number) & 0x3f));
      offset += 3;
    } else {
      throw new ProtocolError(`invalid modified UTF-8 byte 0x${lead.toString(16)} at ${offset - start}`);
    }
  }
  return unitsToString(units);
}

function requireUnit(offset: number, bytes: number, end: number): void {
  if (offset + bytes > end) throw new ProtocolError('modified UTF-8 character cut off by its length');
}

/** Strings from code units in slices: fromCharCode's argument count is bounded by the stack. */
function unitsToString(units: number[]): string {
  const SLICE = 4096;
  if (units.length <= SLICE) return String.fromCharCode(...units);
  let value = '';
  for (let i = 0; i < units.length; i += SLICE) value += String.fromCharCode(...units.slice(i, i + SLICE));
  return value;
}
