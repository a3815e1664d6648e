import { type CoreMessage } from '../../core/protocol';
import { MessageHeader } from '../../core/protocol/message-header';
import { PropertyKind } from '../../core/protocol/typed-properties';

export { MessageHeader };

/** True once a message with an expiration has reached it. */
export function isExpired(message: CoreMessage, now: number): boolean {
  return message.expiration > 0 && message.expiration <= now;
}

/** The scheduled delivery time, or 0 when the message has none (or one that is not a number). */
export function scheduledDeliveryTime(message: CoreMessage): number {
  const value = message.properties.get(MessageHeader.SCHEDULED_DELIVERY_TIME);
  if (value === undefined) return 0;
  if (value.kind !== PropertyKind.LONG && value.kind !== PropertyKind.INT) return 0;
  // A LONG beyond the safe-integer range (a Java peer's Long.MAX_VALUE) is as good as never.
  if (typeof value.value === 'bigint') return value.value > 0n ? Number.MAX_SAFE_INTEGER : 0;
  return value.value > 0 ? value.value : 0;
}

/**
 * A string key for a STRING or BYTES property, or null when absent or of another type. The kind
 * is part of the key: the string 'ab' and the bytes 0x61 0x62 are different ids, as in HornetQ.
 */
function propertyKey(message: CoreMessage, name: string): string | null {
  const value = message.properties.get(name);
  if (value === undefined) return null;
  if (value.kind === PropertyKind.STRING) return `s:${value.value}`;
  if (value.kind === PropertyKind.BYTES) return `b:${value.value.toString('hex')}`;
  return null;
}

/**
 * The length of the duplicate-detection id as its address would keep it: characters of a STRING
 * id, bytes of a BYTES one; 0 when the message has none (or one of another type, which is ignored).
 */
export function duplicateIdLength(message: CoreMessage): number {
  const value = message.properties.get(MessageHeader.DUPLICATE_DETECTION_ID);
  if (value === undefined) return 0;
  if (value.kind === PropertyKind.STRING || value.kind === PropertyKind.BYTES) return value.value.length;
  return 0;
}

/** The duplicate-detection id as a cache key (see propertyKey), or null. */
export function duplicateIdKey(message: CoreMessage): string | null {
  return propertyKey(message, MessageHeader.DUPLICATE_DETECTION_ID);
}

/** The message group as a key, or null for an ungrouped message. */
export function groupKey(message: CoreMessage): string | null {
  return propertyKey(message, MessageHeader.GROUP_ID);
}

/** The last-value name as a key, or null when the message has none. */
export function lastValueKey(message: CoreMessage): string | null {
  return propertyKey(message, MessageHeader.LAST_VALUE_NAME);
}
