import type { CoreMessage } from '../../core/protocol';
import { PropertyKind } from '../../core/protocol/typed-properties';
import type { QueueTarget } from '../paging/queue-target';
import type { StorageManager, StoredQueue } from '../storage/storage-manager';
import { MessageHeader } from './message-headers';
import { MessageReference, RoutedMessage } from './message-reference';
import type { Queue } from './queue';

/**
 * What loading needs from the post office: to recreate a durable queue, to count bytes in an
 * address, and to page a message out when its address is past max-size-bytes under PAGE.
 */
export interface LoadTarget {
  addQueue(stored: StoredQueue): Queue;
  countInAddress(address: string, bytes: number): void;
  /** Sends the message to its address' page store if the address pages; true when it did. */
  pageOut(message: CoreMessage, target: QueueTarget): boolean;
}

/**
 * Rebuilds the durable queues and their messages from storage (broker start). A message stored for
 * several queues becomes one routed message again, counted once in its address, as when it was
 * sent. A message whose scheduled (or redelivery) time is still ahead waits for it again. Loading
 * routes through the paging decision, so that a backlog larger than max-size-bytes loads with
 * bounded memory: only messages held in memory are kept for sharing between queues.
 */
export function loadStoredQueues(
  storage: Pick<StorageManager, 'loadQueues' | 'loadReferences'>,
  target: LoadTarget,
  now: number,
): void {
  const routed = new Map<number, RoutedMessage>();
  for (const stored of storage.loadQueues()) {
    const queue = target.addQueue(stored);
    for (const { message, deliveryCount, scheduledDeliveryTime } of storage.loadReferences(stored.name)) {
      restampScheduledDelivery(message, scheduledDeliveryTime, now);
      let shared = routed.get(message.messageId);
      if (shared === undefined) {
        if (target.pageOut(message, { queue, deliveryCount, scheduledTime: scheduledDeliveryTime })) continue;
        shared = new RoutedMessage(message, message.encodedSize());
        routed.set(message.messageId, shared);
      }
      target.countInAddress(message.address, shared.addressBytesFor(1));
      const reference = new MessageReference(shared, queue);
      reference.deliveryCount = deliveryCount;
      if (scheduledDeliveryTime > now) queue.schedule(reference, scheduledDeliveryTime);
      else queue.addTail(reference);
    }
  }
}

/**
 * A message's _HQ_SCHED_DELIVERY after loading, as HornetQ 2.4's journal loader leaves it: gone
 * when the stored time has passed (the broker was down through it), so a JMS 2.0 client reads
 * JMSDeliveryTime 0 as on HornetQ; the stored time when it is still ahead (a redelivery delay's
 * too); untouched when nothing was scheduled.
 */
function restampScheduledDelivery(message: CoreMessage, scheduledTime: number, now: number): void {
  if (scheduledTime === 0) return;
  if (scheduledTime <= now) message.properties.delete(MessageHeader.SCHEDULED_DELIVERY_TIME);
  else
    message.properties.set(MessageHeader.SCHEDULED_DELIVERY_TIME, {
      kind: PropertyKind.LONG,
      value: scheduledTime,
    });
}
