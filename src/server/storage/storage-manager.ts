import type { CoreMessage } from '../../core/protocol';

export interface StoredQueue {
  name: string;
  address: string;
  filter: string | null;
}

export interface StoredReference {
  message: CoreMessage;
  deliveryCount: number;
}

/**
 * Where durable state lives: durable queues, and durable messages in durable queues. The broker's
 * working state is in memory; this is what survives the broker being stopped and started again.
 * Calls are synchronous and complete in order, so a later implementation that journals to disk
 * must preserve that order.
 */
export interface StorageManager {
  /** Unique, increasing message ids, continuing after a restart. */
  generateMessageId(): number;
  storeQueue(queue: StoredQueue): void;
  deleteQueue(name: string): void;
  storeMessage(message: CoreMessage, queueNames: readonly string[]): void;
  storeAcknowledge(queueName: string, messageId: number): void;
  updateDeliveryCount(queueName: string, messageId: number, deliveryCount: number): void;
  loadQueues(): StoredQueue[];
  /** The durable messages of a queue, in the order they were stored. */
  loadReferences(queueName: string): StoredReference[];
}
