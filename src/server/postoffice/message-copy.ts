import { type CoreMessage } from '../../core/protocol';
import { simpleStringBytes } from '../../core/protocol/short-strings';
import { PropertyKind } from '../../core/protocol/typed-properties';
import { MessageHeader } from './message-headers';

/**
 * Records where a message came from before it moves to another address (HornetQ's
 * setOriginalHeaders). A message that has moved before keeps its first origin, so a message
 * expired out of a dead-letter queue still names the queue it was first sent to.
 */
export function setOriginalHeaders(message: CoreMessage, from: CoreMessage, queueName: string | null): void {
  const properties = message.properties;
  const originalQueue = from.properties.get(MessageHeader.ORIGINAL_QUEUE);
  if (originalQueue !== undefined) properties.set(MessageHeader.ORIGINAL_QUEUE, originalQueue);
  else if (queueName !== null)
    properties.set(MessageHeader.ORIGINAL_QUEUE, { kind: PropertyKind.STRING, value: queueName });
  const originalId = from.properties.get(MessageHeader.ORIGINAL_MESSAGE_ID);
  const originalAddress = from.properties.get(MessageHeader.ORIGINAL_ADDRESS);
  if (originalId !== undefined && originalAddress !== undefined) {
    properties.set(MessageHeader.ORIGINAL_MESSAGE_ID, originalId);
    properties.set(MessageHeader.ORIGINAL_ADDRESS, originalAddress);
  } else {
    properties.set(MessageHeader.ORIGINAL_MESSAGE_ID, { kind: PropertyKind.LONG, value: from.messageId });
    properties.set(MessageHeader.ORIGINAL_ADDRESS, { kind: PropertyKind.STRING, value: from.address });
  }
}

export interface MoveCopyOptions {
  /** The id the copy gets (a moved message is a new message). */
  messageId: number;
  /** Where the copy goes. */
  address: string;
  /** The queue the original leaves. */
  queueName: string;
  /** Set for an expiry move: becomes _HQ_ACTUAL_EXPIRY. */
  expiredAt?: number;
}

/**
 * The copy of a message that goes to a dead-letter or expiry address: a new id, the original
 * headers, no expiration (so that it does not expire again) and no scheduled time.
 */
export function copyForMove(original: CoreMessage, options: MoveCopyOptions): CoreMessage {
  const copy = original.copy();
  copy.messageId = options.messageId;
  copy.address = options.address;
  copy.expiration = 0;
  copy.properties.delete(MessageHeader.SCHEDULED_DELIVERY_TIME);
  setOriginalHeaders(copy, original, options.queueName);
  if (options.expiredAt !== undefined) {
    copy.properties.set(MessageHeader.ACTUAL_EXPIRY_TIME, {
      kind: PropertyKind.LONG,
      value: options.expiredAt,
    });
  }
  return copy;
}

/** Where moves can take a message: the longest dead-letter and expiry addresses (see AddressSettingsRepository). */
export interface MoveTargets {
  deadLetterAddress: string | null;
  expiryAddress: string | null;
}

/**
 * The origin headers a move sets, their string values aside: each is its name (an int length and
 * the bytes) and a kind byte, then an int length (the two strings) or 8 bytes (the two longs).
 */
const ORIGIN_HEADER_BYTES =
  [
    MessageHeader.ORIGINAL_QUEUE,
    MessageHeader.ORIGINAL_ADDRESS,
    MessageHeader.ORIGINAL_MESSAGE_ID,
    MessageHeader.ACTUAL_EXPIRY_TIME,
  ].reduce((sum, name) => sum + 4 + simpleStringBytes(name) + 1, 0) +
  2 * 4 +
  2 * 8;

/**
 * The largest copies `message` can become on its way to dead-letter and expiry addresses, once
 * routed to the queues named `queueNames`: copyForMove of it, leaving the queue with the longest
 * name, for the longest address. The first move sets the origin headers and later moves keep
 * them; what a later move changes is the address and _HQ_ACTUAL_EXPIRY. So the largest are a
 * dead-letter copy (the properties as sent, any _HQ_ACTUAL_EXPIRY among them) and, where expiry
 * addresses exist, an expiry copy (a LONG _HQ_ACTUAL_EXPIRY) at the longest address of either
 * kind, since an expiry copy may later be dead-lettered. None when no queue takes the message or
 * no address setting names a dead-letter or expiry address.
 */
export function largestMoveCopies(
  message: CoreMessage,
  queueNames: readonly string[],
  targets: MoveTargets,
): CoreMessage[] {
  const queueName = longestOf(queueNames);
  if (queueName === null) return [];
  const copies: CoreMessage[] = [];
  const moved = { messageId: message.messageId, queueName };
  if (targets.deadLetterAddress !== null)
    copies.push(copyForMove(message, { ...moved, address: targets.deadLetterAddress }));
  const anyTarget = longestTarget(targets);
  if (targets.expiryAddress !== null && anyTarget !== null)
    copies.push(copyForMove(message, { ...moved, address: anyTarget, expiredAt: Date.now() }));
  return copies;
}

/**
 * At least how many bytes any move adds to `message` (see largestMoveCopies), found without
 * copying it: the longest address, and every origin header in full, as if none were there yet.
 */
export function moveGrowthBound(
  message: CoreMessage,
  queueNames: readonly string[],
  targets: MoveTargets,
): number {
  const queueName = longestOf(queueNames);
  const target = longestTarget(targets);
  if (queueName === null || target === null) return 0;
  return (
    simpleStringBytes(target) +
    ORIGIN_HEADER_BYTES +
    simpleStringBytes(queueName) +
    simpleStringBytes(message.address)
  );
}

function longestTarget({ deadLetterAddress, expiryAddress }: MoveTargets): string | null {
  if (deadLetterAddress === null) return expiryAddress;
  if (expiryAddress === null) return deadLetterAddress;
  return simpleStringBytes(expiryAddress) > simpleStringBytes(deadLetterAddress)
    ? expiryAddress
    : deadLetterAddress;
}

/** The longest of `names` in encoded bytes (SimpleStrings: two per UTF-16 unit), or null when there is none. */
function longestOf(names: readonly string[]): string | null {
  let longest: string | null = null;
  for (const name of names)
    if (longest === null || simpleStringBytes(name) > simpleStringBytes(longest)) longest = name;
  return longest;
}
