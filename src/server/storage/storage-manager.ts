import type { CoreMessage } from '../../core/protocol';

export interface StoredQueue {
  name: string;
  address: string;
  filter: string | null;
}

export interface StoredReference {
  message: CoreMessage;
  deliveryCount: number;
  /** Epoch ms before which the message is not delivered (scheduled or delayed); 0 for none. */
  scheduledDeliveryTime: number;
}

/** The duplicate-detection ids an address has seen, oldest first. */
export interface StoredDuplicateIds {
  address: string;
  ids: string[];
}

/**
 * Where durable state lives: durable queues, durable messages in durable queues, and the
 * duplicate-id caches. The broker's working state is in memory; this is what survives the broker
 * being stopped and started again. Calls are synchronous and complete in order, so a later
 * implementation that journals to disk must preserve that order.
 */
export interface StorageManager {
  /** Unique, increasing message ids, continuing after a restart. */
  generateMessageId(): number;
  storeQueue(queue: StoredQueue): void;
  deleteQueue(name: string): void;
  storeMessage(message: CoreMessage, queueNames: readonly string[]): void;
  storeAcknowledge(queueName: string, messageId: number): void;
  updateDeliveryCount(queueName: string, messageId: number, deliveryCount: number): void;
  updateScheduledDeliveryTime(queueName: string, messageId: number, time: number): void;
  loadQueues(): StoredQueue[];
  /** The durable messages of a queue, in the order they were stored. */
  loadReferences(queueName: string): StoredReference[];
  /** Records an id in an address' duplicate-id cache (persist-id-cache). */
  storeDuplicateId(address: string, id: string): void;
  /** Forgets an id the cache evicted. */
  deleteDuplicateId(address: string, id: string): void;
  loadDuplicateIds(): StoredDuplicateIds[];
}
