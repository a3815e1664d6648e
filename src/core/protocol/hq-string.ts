import { modifiedUtf8Length } from './modified-utf8';

/**
 * HornetQ's "String" (its buffers' writeString) picks one of three forms from the char count n:
 * n < HQ_STRING_SHORT_LIMIT: n big-endian UTF-16 units; n < HQ_STRING_UTF_LIMIT: writeUTF (an
 * unsigned short byte length can hold 4094 units of three bytes); otherwise a SimpleString.
 */
export const HQ_STRING_SHORT_LIMIT = 9;
export const HQ_STRING_UTF_LIMIT = 0xfff;

/** Exactly the bytes writeHqString writes for `value`. */
export function hqStringBytes(value: string): number {
  const n = value.length;
  if (n < HQ_STRING_SHORT_LIMIT) return 4 + 2 * n;
  if (n < HQ_STRING_UTF_LIMIT) return 4 + 2 + modifiedUtf8Length(value);
  return 4 + 4 + 2 * n;
}

/** Exactly the bytes writeNullableHqString writes. */
export function nullableHqStringBytes(value: string | null): number {
  return value === null ? 1 : 1 + hqStringBytes(value);
}
