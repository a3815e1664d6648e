import { randomBytes } from 'node:crypto';
import { USER_ID_BYTES, userIdFromBytes } from '../../core/protocol/user-id';

/** Where a UUID keeps its version (high nibble) and its variant (top two bits). */
const VERSION_BYTE = 6;
const VARIANT_BYTE = 8;
/** HornetQ's UUID.TYPE_TIME_BASED. */
const HORNETQ_UUID_VERSION = 1;

/**
 * A fresh user id for a message a producer sends (JMSMessageID is 'ID:' + it): 122 random bits
 * in a UUID marked version 1 with the RFC 4122 variant. The marks matter: HornetQ's client
 * rebuilds every user id it reads as a version-1 UUID (MessageImpl.decode: new UUID(TYPE_TIME_BASED,
 * bytes) overwrites the version nibble and the variant bits), so a version-4 id would show a
 * different JMSMessageID on a Java consumer than on the Node producer that sent it.
 */
export function newMessageUserId(): string {
  const bytes = randomBytes(USER_ID_BYTES);
  bytes[VERSION_BYTE] = ((bytes[VERSION_BYTE] as number) & 0x0f) | (HORNETQ_UUID_VERSION << 4);
  bytes[VARIANT_BYTE] = ((bytes[VARIANT_BYTE] as number) & 0x3f) | 0x80;
  return userIdFromBytes(bytes, 0);
}
