import type { CoreMessage } from '../../core/protocol';
import type { StorageManager, StoredQueue, StoredReference } from './storage-manager';

interface StoredEntry {
  message: CoreMessage;
  deliveryCount: number;
}

/**
 * Durable state kept in this process: it outlives a broker's stop and start (an embedded broker
 * restarted with the same storage finds its durable queues and messages), not the process.
 */
export class InMemoryStorage implements StorageManager {
  private lastMessageId = 0;
  private readonly queues = new Map<string, StoredQueue>();
  private readonly messages = new Map<string, Map<number, StoredEntry>>();

  generateMessageId(): number {
    return ++this.lastMessageId;
  }

  storeQueue(queue: StoredQueue): void {
    this.queues.set(queue.name, { ...queue });
    if (!this.messages.has(queue.name)) this.messages.set(queue.name, new Map());
  }

  deleteQueue(name: string): void {
    this.queues.delete(name);
    this.messages.delete(name);
  }

  storeMessage(message: CoreMessage, queueNames: readonly string[]): void {
    for (const name of queueNames)
      this.messages.get(name)?.set(message.messageId, { message, deliveryCount: 0 });
  }

  storeAcknowledge(queueName: string, messageId: number): void {
    this.messages.get(queueName)?.delete(messageId);
  }

  updateDeliveryCount(queueName: string, messageId: number, deliveryCount: number): void {
    const entry = this.messages.get(queueName)?.get(messageId);
    if (entry !== undefined) entry.deliveryCount = deliveryCount;
  }

  loadQueues(): StoredQueue[] {
    return [...this.queues.values()].map((queue) => ({ ...queue }));
  }

  loadReferences(queueName: string): StoredReference[] {
    const entries = this.messages.get(queueName);
    return entries === undefined ? [] : [...entries.values()].map((entry) => ({ ...entry }));
  }
}
