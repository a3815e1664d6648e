import type { CoreMessage } from '../../core/protocol';
import { groupKey } from './message-headers';
import type { Queue } from './queue';

/**
 * Heap bytes one reference costs in its address' size (HornetQ's MessageReferenceImpl estimate),
 * measured with bench/message-memory.mjs (Node 20, 64-bit): the MessageReference, its node in the
 * queue's list and, for a durable message, its entry in the in-memory storage. Counted per
 * reference, so that a message routed to many subscriptions counts for what each of them holds.
 */
export const REFERENCE_MEMORY_ESTIMATE = 250;

/** A message the broker has routed, shared by its references in every queue it went to. */
export class RoutedMessage {
  /** References still in some queue; the message leaves its address when this reaches 0. */
  referenceCount = 0;
  /** The message group (see groupKey), read once rather than on every delivery attempt. */
  readonly group: string | null;
  /**
   * What the message counts for in its address' size (CoreMessage.memoryEstimate), taken once
   * when it is routed so that leaving the address removes what arriving added. A message moved
   * to a dead-letter or expiry address is a new copy with its own.
   */
  readonly memoryEstimate: number;

  constructor(
    readonly message: CoreMessage,
    /** Bytes the message counts for in consumer credits: its encoding, as HornetQ counts them. */
    readonly size: number,
  ) {
    this.group = groupKey(message);
    this.memoryEstimate = message.memoryEstimate();
  }

  /**
   * What `references` references about to be made add to the address' size: the message itself
   * comes with the first.
   */
  addressBytesFor(references: number): number {
    const message = this.referenceCount === 0 ? this.memoryEstimate : 0;
    return message + references * REFERENCE_MEMORY_ESTIMATE;
  }

  /** One reference leaves its queue: what the address' size loses (the message itself with the last). */
  releaseReference(): number {
    const message = --this.referenceCount === 0 ? this.memoryEstimate : 0;
    return message + REFERENCE_MEMORY_ESTIMATE;
  }
}

/**
 * One message's place in one queue. A message routed to several queues (a topic's subscriptions)
 * is shared; each queue has its own reference with its own delivery count.
 */
export class MessageReference {
  /** Times this reference was handed to a consumer; JMSXDeliveryCount on the wire. */
  deliveryCount = 0;

  constructor(
    readonly routed: RoutedMessage,
    readonly queue: Queue,
  ) {
    routed.referenceCount++;
  }

  get message(): CoreMessage {
    return this.routed.message;
  }

  /** Bytes in consumer credits (RoutedMessage.size). */
  get size(): number {
    return this.routed.size;
  }
}
