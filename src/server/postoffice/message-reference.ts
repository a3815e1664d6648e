import type { CoreMessage } from '../../core/protocol';
import { groupKey } from './message-headers';
import type { Queue } from './queue';

/** A message the broker has routed, shared by its references in every queue it went to. */
export class RoutedMessage {
  /** References still in some queue; the message leaves its address when this reaches 0. */
  referenceCount = 0;
  /** The message group (see groupKey), read once rather than on every delivery attempt. */
  readonly group: string | null;

  constructor(
    readonly message: CoreMessage,
    /** Bytes the message counts for in its address' size and in consumer credits. */
    readonly size: number,
  ) {
    this.group = groupKey(message);
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

  get size(): number {
    return this.routed.size;
  }
}
