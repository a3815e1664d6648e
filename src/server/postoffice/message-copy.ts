import { type CoreMessage } from '../../core/protocol';
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
