import { randomBytes } from 'node:crypto';
import { invalidValue } from '../../lang/argument-errors';

/**
 * A message's user id (JMSMessageID without 'ID:'): HornetQ carries it as 16 raw UUID bytes and
 * shows it as their lowercase hex in the 8-4-4-4-12 form, which is what CoreMessage.userId holds.
 */
export const USER_ID_BYTES = 16;

const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isUserId(value: string): boolean {
  return CANONICAL.test(value);
}

/** Where the canonical form has its dashes. */
const DASHES: ReadonlySet<number> = new Set([8, 13, 18, 23]);
const CANONICAL_LENGTH = 36;

/**
 * Writes the 16 bytes of `userId` into `buffer` at `at` (room was made), parsing its hex digits
 * by hand: this runs for every message a JMS producer sends. Anything but the canonical form is a
 * RangeError.
 */
export function writeUserIdBytes(userId: string, buffer: Buffer, at: number): void {
  if (userId.length !== CANONICAL_LENGTH) throw notAUserId(userId);
  let offset = at;
  // Digit pairs never straddle a dash: step over each dash as it comes.
  for (let i = 0; i < CANONICAL_LENGTH; i += 2) {
    if (DASHES.has(i)) i++;
    const high = hexDigit(userId.charCodeAt(i));
    const low = hexDigit(userId.charCodeAt(i + 1));
    if (high < 0 || low < 0) throw notAUserId(userId);
    buffer[offset++] = (high << 4) | low;
  }
  for (const dash of DASHES) if (userId.charCodeAt(dash) !== DASH) throw notAUserId(userId);
}

const DASH = 0x2d;

/** The value of a lowercase hex digit, or -1. */
function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  return -1;
}

function notAUserId(userId: string): RangeError {
  return invalidValue(`message user id ${JSON.stringify(userId)} is not a lowercase UUID (8-4-4-4-12 hex)`);
}

/** The canonical form of 16 bytes given as their 32 lowercase hex digits. */
export function userIdFromHex(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A fresh user id that a Java peer shows as we do. HornetQ's reader forces the UUID's version
 * nibble to 1 (time-based) and its variant bits to 10 on every id it decodes, so an id with other
 * bits (a version 4 UUID) would get another JMSMessageID there: these have those bits already,
 * and 122 random bits besides.
 */
export function newUserId(): string {
  const bytes = randomBytes(USER_ID_BYTES);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x10;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  return userIdFromHex(bytes.toString('hex'));
}
