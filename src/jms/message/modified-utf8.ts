import { MessageFormatException } from '../exceptions';

/**
 * Java's modified UTF-8 (DataOutput.writeUTF / DataInput.readUTF): each UTF-16 code unit on its
 * own, U+0000 as two bytes (0xC0 0x80), U+0001..U+007F as one byte, up to U+07FF as two and
 * the rest, each surrogate included, as three. It carries any JavaScript string, lone
 * surrogates too, and the byte counts match Java's.
 */

export function modifiedUtf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    length += unit >= 0x0001 && unit <= 0x007f ? 1 : unit <= 0x07ff ? 2 : 3;
  }
  return length;
}

/** Writes `text` into `target` at `offset` (which must have modifiedUtf8Length(text) bytes free). */
export function writeModifiedUtf8(text: string, target: Buffer, offset: number): number {
  let at = offset;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x0001 && unit <= 0x007f) {
      target[at++] = unit;
    } else if (unit <= 0x07ff) {
      target[at++] = 0xc0 | (unit >> 6);
      target[at++] = 0x80 | (unit & 0x3f);
    } else {
      target[at++] = 0xe0 | (unit >> 12);
      target[at++] = 0x80 | ((unit >> 6) & 0x3f);
      target[at++] = 0x80 | (unit & 0x3f);
    }
  }
  return at;
}

const CHUNK = 8192;

/** Decodes `source[start, end)`; a malformed sequence is a MessageFormatException (Java's UTFDataFormatException). */
export function readModifiedUtf8(source: Buffer, start: number, end: number): string {
  const parts: string[] = [];
  let units: number[] = [];
  let at = start;
  while (at < end) {
    const first = source[at] as number;
    switch (first >> 4) {
      case 0x0:
      case 0x1:
      case 0x2:
      case 0x3:
      case 0x4:
      case 0x5:
      case 0x6:
      case 0x7:
        units.push(first);
        at += 1;
        break;
      case 0xc:
      case 0xd:
        units.push(((first & 0x1f) << 6) | continuation(source, at, 1, end));
        at += 2;
        break;
      case 0xe:
        units.push(
          ((first & 0x0f) << 12) | (continuation(source, at, 1, end) << 6) | continuation(source, at, 2, end),
        );
        at += 3;
        break;
      default:
        throw malformed(at);
    }
    if (units.length === CHUNK) {
      parts.push(String.fromCharCode(...units));
      units = [];
    }
  }
  parts.push(String.fromCharCode(...units));
  return parts.join('');
}

function continuation(source: Buffer, at: number, index: number, end: number): number {
  if (at + index >= end)
    throw new MessageFormatException(`modified UTF-8 sequence at byte ${at} is truncated`);
  const byte = source[at + index] as number;
  if ((byte & 0xc0) !== 0x80) throw malformed(at);
  return byte & 0x3f;
}

function malformed(at: number): MessageFormatException {
  return new MessageFormatException(`malformed modified UTF-8 sequence at byte ${at}`);
}
