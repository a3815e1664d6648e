import type { CoreMessage } from '../../core/protocol';
import type { StorageManager, StoredDuplicateIds, StoredQueue, StoredReference } from './storage-manager';

interface StoredEntry {
  message: CoreMessage;
  deliveryCount: number;
  scheduledDeliveryTime: number;
}

/**
 * Durable state kept in this process: it outlives a broker's stop and start (an embedded broker
 * restarted with the same storage finds its durable queues and messages), not the process.
 */
export class InMemoryStorage implements StorageManager {
  private lastMessageId = 0;
  private readonly queues = new Map<string, StoredQueue>();
  private readonly messages = new Map<string, Map<number, StoredEntry>>();
  /** A Set keeps insertion order, so ids load back oldest first. */
  private readonly duplicateIds = new Map<string, Set<string>>();

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
      this.messages
        .get(name)
        ?.set(message.messageId, { message, deliveryCount: 0, scheduledDeliveryTime: 0 });
  }

  storeAcknowledge(queueName: string, messageId: number): void {
    this.messages.get(queueName)?.delete(messageId);
  }

  updateDeliveryCount(queueName: string, messageId: number, deliveryCount: number): void {
    const entry = this.messages.get(queueName)?.get(messageId);
    if (entry !== undefined) entry.deliveryCount = deliveryCount;
  }

  updateScheduledDeliveryTime(queueName: string, messageId: number, time: number): void {
    const entry = this.messages.get(queueName)?.get(messageId);
    if (entry !== undefined) entry.scheduledDeliveryTime = time;
  }

  loadQueues(): StoredQueue[] {
    return [...this.queues.values()].map((queue) => ({ ...queue }));
  }

  loadReferences(queueName: string): StoredReference[] {
    const entries = this.messages.get(queueName);
    return entries === undefined ? [] : [...entries.values()].map((entry) => ({ ...entry }));
  }

  storeDuplicateId(address: string, id: string): void {
    let ids = this.duplicateIds.get(address);
    if (ids === undefined) {
      ids = new Set();
      this.duplicateIds.set(address, ids);
    }
    ids.add(id);
  }

  deleteDuplicateId(address: string, id: string): void {
    const ids = this.duplicateIds.get(address);
    if (ids === undefined) return;
    ids.delete(id);
    if (ids.size === 0) this.duplicateIds.delete(address);
  }

  loadDuplicateIds(): StoredDuplicateIds[] {
    return [...this.duplicateIds].map(([address, ids]) => ({ address, ids: [...ids] }));
  }
}
