import type { CoreMessage } from '../../src/core/protocol';
import { InMemoryStorage } from '../../src/server/storage/in-memory-storage';
import type {
  StorageLoadReport,
  StorageManager,
  StoredDuplicateIds,
  StoredQueue,
  StoredReference,
} from '../../src/server/storage/storage-manager';

type SyncWaiter = (error: Error | null) => void;

/**
 * A store whose syncs the test completes by hand: what it stores goes to an InMemoryStorage at
 * once, but `afterSync` callbacks wait until `releaseSyncs()` (or fail with `failSyncs(error)`).
 * It asks for a sync where a journal with HornetQ's default policy does (journal-sync-
 * non-transactional and journal-sync-transactional true): a durable message, an acknowledgement,
 * a queue created or deleted, a duplicate id, one per committed transaction; delivery counts and
 * scheduled times never do.
 */
export class DeferredSyncStorage implements StorageManager {
  readonly inner = new InMemoryStorage();
  private requests = 0;
  /** syncRequests when the last sync completed. */
  private syncedUpTo = 0;
  private inTransaction = false;
  private transactionStored = false;
  private waiters: SyncWaiter[] = [];
  private readonly failureListeners: Array<(error: Error) => void> = [];
  private failure: Error | null = null;
  /** Syncs complete as soon as they are asked for (until a test holds them again). */
  autoRelease = false;

  get syncRequests(): number {
    return this.requests;
  }

  /** afterSync callbacks waiting for `releaseSyncs`. */
  get pendingSyncs(): number {
    return this.waiters.length;
  }

  afterSync(done: SyncWaiter): void {
    if (this.autoRelease) this.syncedUpTo = this.requests;
    if (this.synced) done(null);
    else this.waiters.push(done);
  }

  /** Everything stored so far is "on disk": every waiting callback runs, in the order it came. */
  releaseSyncs(): void {
    this.syncedUpTo = this.requests;
    for (const waiter of this.waiters.splice(0)) waiter(null);
  }

  /** The sync failed: every waiting callback gets `error`. */
  failSyncs(error: Error): void {
    for (const waiter of this.waiters.splice(0)) waiter(error);
  }

  /**
   * The store failed on its own (a write, a background sync): its listeners hear of it, and what
   * waits for a sync gets the error (now, or when the broker closes the store).
   */
  fail(error: Error): void {
    this.failure = error;
    for (const listener of this.failureListeners) listener(error);
  }

  onFailure(listener: (error: Error) => void): void {
    this.failureListeners.push(listener);
  }

  async open(): Promise<StorageLoadReport> {
    const queues = this.inner.loadQueues();
    let messages = 0;
    for (const queue of queues) messages += [...this.inner.loadReferences(queue.name)].length;
    return {
      location: 'deferred-sync test store',
      queues: queues.length,
      messages,
      bytes: 0,
      milliseconds: 0,
      notes: [],
    };
  }

  async close(): Promise<void> {
    if (this.failure === null) this.releaseSyncs();
    else this.failSyncs(this.failure);
  }

  generateMessageId(): number {
    return this.inner.generateMessageId();
  }

  storeQueue(queue: StoredQueue): void {
    this.inner.storeQueue(queue);
    this.requestSync();
  }

  deleteQueue(name: string): void {
    this.inner.deleteQueue(name);
    this.requestSync();
  }

  storeMessage(message: CoreMessage, queueNames: readonly string[]): void {
    this.inner.storeMessage(message, queueNames);
    this.requestSync();
  }

  storeAcknowledge(queueName: string, messageId: number): void {
    this.inner.storeAcknowledge(queueName, messageId);
    this.requestSync();
  }

  updateDeliveryCount(queueName: string, messageId: number, deliveryCount: number): void {
    this.inner.updateDeliveryCount(queueName, messageId, deliveryCount);
  }

  updateScheduledDeliveryTime(queueName: string, messageId: number, time: number): void {
    this.inner.updateScheduledDeliveryTime(queueName, messageId, time);
  }

  storeDuplicateId(address: string, id: string): void {
    this.inner.storeDuplicateId(address, id);
    this.requestSync();
  }

  deleteDuplicateId(address: string, id: string): void {
    this.inner.deleteDuplicateId(address, id);
  }

  beginTransaction(): void {
    if (this.inTransaction) throw new Error('storage transactions do not nest');
    this.inTransaction = true;
    this.transactionStored = false;
  }

  commitTransaction(): void {
    if (!this.inTransaction) throw new Error('commitTransaction without beginTransaction');
    this.inTransaction = false;
    if (this.transactionStored) this.requests++;
  }

  /** True between beginTransaction and commitTransaction. */
  get transactionOpen(): boolean {
    return this.inTransaction;
  }

  loadQueues(): StoredQueue[] {
    return this.inner.loadQueues();
  }

  loadReferences(queueName: string): Iterable<StoredReference> {
    return this.inner.loadReferences(queueName);
  }

  loadDuplicateIds(): StoredDuplicateIds[] {
    return this.inner.loadDuplicateIds();
  }

  private get synced(): boolean {
    return this.syncedUpTo === this.requests;
  }

  /** Inside a transaction, the commit asks for the one sync. */
  private requestSync(): void {
    if (this.inTransaction) this.transactionStored = true;
    else this.requests++;
  }
}
