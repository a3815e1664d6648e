/**
 * Short strings that recur in every message (addresses, property names) travel as SimpleStrings
 * (UTF-16LE) and would cost an encode or a decode and a new string each time. These caches keep
 * the last few: a hit is a byte comparison and no allocation, and equal strings decoded from
 * different frames are the same string, which Map lookups by address hash once. Bounded: a small
 * direct-mapped table for decoding, a map cleared when full for encoding.
 */
const MAX_CACHED_BYTES = 128;
const SLOTS = 64;

const decodedBytes: (Buffer | undefined)[] = new Array<Buffer | undefined>(SLOTS);
const decodedStrings: string[] = new Array<string>(SLOTS);

/** The string UTF-16LE encoded in `buffer` from `start` to `end` (an even number of bytes). */
export function decodeShortString(buffer: Buffer, start: number, end: number): string {
  const length = end - start;
  if (length === 0) return '';
  if (length > MAX_CACHED_BYTES) return buffer.toString('utf16le', start, end);
  // The last unit's low byte and the first's differ most between addresses and names.
  const slot = (length * 31 + (buffer[start] as number) * 7 + (buffer[end - 2] as number)) & (SLOTS - 1);
  const cached = decodedBytes[slot];
  if (cached !== undefined && cached.length === length && sameBytes(cached, buffer, start)) {
    return decodedStrings[slot] as string;
  }
  const value = buffer.toString('utf16le', start, end);
  decodedBytes[slot] = Buffer.from(buffer.subarray(start, end));
  decodedStrings[slot] = value;
  return value;
}

const encodedStrings = new Map<string, Buffer>();

/**
 * The UTF-16LE bytes of a short string (shared: never write into them), or null for a long one.
 * Every UTF-16 unit is kept as it is, a lone surrogate included, as Java's SimpleString does.
 */
export function encodeShortString(value: string): Buffer | null {
  if (value.length * 2 > MAX_CACHED_BYTES) return null;
  let bytes = encodedStrings.get(value);
  if (bytes === undefined) {
    if (encodedStrings.size >= SLOTS) encodedStrings.clear();
    bytes = Buffer.from(value, 'utf16le');
    encodedStrings.set(value, bytes);
  }
  return bytes;
}

function sameBytes(cached: Buffer, buffer: Buffer, start: number): boolean {
  for (let i = 0; i < cached.length; i++) if (cached[i] !== buffer[start + i]) return false;
  return true;
}

/** What a SimpleString of `value` takes after its int length: two bytes per UTF-16 unit. */
export function simpleStringBytes(value: string): number {
  return 2 * value.length;
}

/** Strings held by the encode cache (its bound is what the tests check). */
export function encodedShortStringCount(): number {
  return encodedStrings.size;
}
