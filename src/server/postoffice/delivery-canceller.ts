import type { AddressSettings, AddressSettingsRepository } from './address-settings';
import type { MessageReference } from './message-reference';
import type { Queue } from './queue';
import { deliveriesExhausted, redeliveryDelay } from './redelivery';
import type { StorageManager } from '../storage/storage-manager';

/** Where a delivery that failed max-delivery-attempts times goes (see MessageMover). */
export interface DeadLetterSink {
  sendToDeadLetter(reference: MessageReference, settings: AddressSettings): void;
}

/**
 * Returns references whose delivery did not complete to their queues, applying the redelivery
 * rules of their address settings: a failed delivery is counted (in storage too, when the message
 * is persistent, so that a restart does not forget it), then dead-lettered once it has had
 * max-delivery-attempts, held back for the redelivery delay, or put straight back.
 */
export class DeliveryCanceller {
  constructor(
    private readonly storage: Pick<StorageManager, 'updateDeliveryCount' | 'updateScheduledDeliveryTime'>,
    private readonly settings: Pick<AddressSettingsRepository, 'getMatch'>,
    private readonly deadLetters: DeadLetterSink,
    /** Stores `work` all or nothing: a dead-lettered copy and its original's removal go together. */
    private readonly atomically: (work: () => void) => void = (work) => work(),
  ) {}

  /**
   * `delivered` references reached the application: each is a failed delivery. `undelivered` ones
   * never left the client's buffer and go straight back. Per queue, what goes straight back keeps
   * its order at the head: delivered first, then undelivered.
   */
  cancel(
    delivered: readonly MessageReference[],
    undelivered: readonly MessageReference[],
    now: number,
  ): void {
    const back = new Map<Queue, MessageReference[]>();
    const add = (reference: MessageReference): void => {
      const list = back.get(reference.queue);
      if (list === undefined) back.set(reference.queue, [reference]);
      else list.push(reference);
    };
    for (const reference of delivered) if (this.failedDelivery(reference, now)) add(reference);
    for (const reference of undelivered) {
      // Its delivery was undone (see ServerConsumer.takeBackDelivering): storage forgets it too.
      reference.queue.countDelivery(reference);
      add(reference);
    }
    for (const [queue, list] of back) queue.cancelAll(list);
  }

  /** Applies the redelivery rules; true when the reference may go straight back to its queue. */
  private failedDelivery(reference: MessageReference, now: number): boolean {
    const queue = reference.queue;
    if (queue.isDeleted) return true;
    const persistent = reference.message.durable && queue.durable;
    if (persistent)
      this.storage.updateDeliveryCount(queue.name, reference.message.messageId, reference.deliveryCount);
    const settings = this.settings.getMatch(queue.address);
    if (deliveriesExhausted(settings, reference.deliveryCount)) {
      this.atomically(() => {
        this.deadLetters.sendToDeadLetter(reference, settings);
        queue.acknowledge(reference, 'killed');
      });
      return false;
    }
    const delay = redeliveryDelay(settings, reference.deliveryCount);
    if (delay <= 0) return true;
    if (persistent)
      this.storage.updateScheduledDeliveryTime(queue.name, reference.message.messageId, now + delay);
    queue.cancelUntil(reference, now + delay);
    return false;
  }
}
