import type { CoreMessage } from '../../core/protocol';
import type {
  StorageLoadReport,
  StorageManager,
  StoredDuplicateIds,
  StoredQueue,
  StoredReference,
} from './storage-manager';

interface StoredEntry {
  message: CoreMessage;
  deliveryCount: number;
  scheduledDeliveryTime: number;
}

/**
 * Durable state kept in this process: it outlives a broker's stop and start (an embedded broker
 * restarted with the same storage finds its durable queues and messages), not the process. What
 * persistence-enabled false gives, and what tests use. Nothing waits for a disk: syncRequests stays
 * 0, afterSync calls back at once, and it never fails.
 */
export class InMemoryStorage implements StorageManager {
  readonly syncRequests = 0;
  private lastMessageId = 0;
  private inTransaction = false;
  private readonly queues = new Map<string, StoredQueue>();
  private readonly messages = new Map<string, Map<number, StoredEntry>>();
  /** A Set keeps insertion order, so ids load back oldest first. */
  private readonly duplicateIds = new Map<string, Set<string>>();

  async open(): Promise<StorageLoadReport> {
    const messageIds = new Set<number>();
    for (const entries of this.messages.values()) for (const id of entries.keys()) messageIds.add(id);
    return {
      location: 'in memory',
      queues: this.queues.size,
      messages: messageIds.size,
      bytes: 0,
      milliseconds: 0,
      notes: [],
    };
  }

  async close(): Promise<void> {
    this.inTransaction = false;
  }

  afterSync(done: (error: Error | null) => void): void {
    done(null);
  }

  onFailure(): void {
    // Memory does not fail: there is nothing to report, ever.
  }

  /** Stores take effect at once; only the bracketing is checked, as a journal would. */
  beginTransaction(): void {
    if (this.inTransaction)
      throw new Error('storage transactions do not nest: beginTransaction called inside one');
    this.inTransaction = true;
  }

  commitTransaction(): void {
    if (!this.inTransaction) throw new Error('commitTransaction called outside a storage transaction');
    this.inTransaction = false;
  }

  generateMessageId(): number {
    return ++this.lastMessageId;
  }

  storeQueue(queue: StoredQueue): void {
    this.queues.set(queue.name, { ...queue });
    if (!this.messages.has(queue.name)) this.messages.set(queue.name, new Map());
  }

  deleteQueue(name: string): void {
    if (this.inTransaction) throw new Error(`deleteQueue(${name}) inside a storage transaction`);
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

  loadReferences(queueName: string): Iterable<StoredReference> {
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
