/**
 * Short strings that recur in every message (addresses, property names) cost a UTF-8 encode or
 * decode and a new string each time. These caches keep the last few: a hit is a byte comparison
 * and no allocation, and equal strings decoded from different frames are the same string, which
 * Map lookups by address hash once. Bounded: a small direct-mapped table, each slot replaced by
 * the next string that maps to it.
 */
const MAX_CACHED_BYTES = 64;
const SLOTS = 64;

const decodedBytes: (Buffer | undefined)[] = new Array<Buffer | undefined>(SLOTS);
const decodedStrings: string[] = new Array<string>(SLOTS);

/** The string UTF-8 encoded in `buffer` from `start` to `end`. */
export function decodeShortString(buffer: Buffer, start: number, end: number): string {
  const length = end - start;
  if (length === 0) return '';
  if (length > MAX_CACHED_BYTES) return buffer.toString('utf8', start, end);
  const slot = (length * 31 + (buffer[start] as number) * 7 + (buffer[end - 1] as number)) & (SLOTS - 1);
  const cached = decodedBytes[slot];
  if (cached !== undefined && cached.length === length && sameBytes(cached, buffer, start)) {
    return decodedStrings[slot] as string;
  }
  const value = buffer.toString('utf8', start, end);
  decodedBytes[slot] = Buffer.from(buffer.subarray(start, end));
  decodedStrings[slot] = value;
  return value;
}

const encodedStrings = new Map<string, Buffer>();

/** The UTF-8 bytes of a short string (shared: never write into them), or null for a long one. */
export function encodeShortString(value: string): Buffer | null {
  if (value.length > MAX_CACHED_BYTES) return null;
  let bytes = encodedStrings.get(value);
  if (bytes === undefined) {
    if (encodedStrings.size >= SLOTS) encodedStrings.clear();
    bytes = Buffer.from(value, 'utf8');
    encodedStrings.set(value, bytes);
  }
  return bytes;
}

function sameBytes(cached: Buffer, buffer: Buffer, start: number): boolean {
  for (let i = 0; i < cached.length; i++) if (cached[i] !== buffer[start + i]) return false;
  return true;
}

/** Bytes of `value` in UTF-8 (from the cache when it is short). */
export function utf8Length(value: string): number {
  return encodeShortString(value)?.length ?? Buffer.byteLength(value, 'utf8');
}

/** Strings held by the encode cache (its bound is what the tests check). */
export function encodedShortStringCount(): number {
  return encodedStrings.size;
}
