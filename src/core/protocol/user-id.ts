import { randomBytes } from 'node:crypto';

/**
 * A message's user id (JMSMessageID without 'ID:'): HornetQ carries it as 16 raw UUID bytes and
 * shows it as their lowercase hex in the 8-4-4-4-12 form, which is what CoreMessage.userId holds.
 */
export const USER_ID_BYTES = 16;

const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isUserId(value: string): boolean {
  return CANONICAL.test(value);
}

/** Writes the 16 bytes of `userId` into `buffer` at `at`; anything but the canonical form is a RangeError. */
export function writeUserIdBytes(userId: string, buffer: Buffer, at: number): void {
  if (!CANONICAL.test(userId)) {
    throw new RangeError(
      `message user id ${JSON.stringify(userId)} is not a lowercase UUID (8-4-4-4-12 hex)`,
    );
  }
  buffer.write(userId.replace(/-/g, ''), at, USER_ID_BYTES, 'hex');
}

/** The canonical form of the 16 bytes in `buffer` from `at`. */
export function userIdFromBytes(buffer: Buffer, at: number): string {
  const hex = buffer.toString('hex', at, at + USER_ID_BYTES);
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
  return userIdFromBytes(bytes, 0);
}
