import type { CoreMessage } from '../../core/protocol';

export interface StoredQueue {
  name: string;
  address: string;
  filter: string | null;
}

export interface StoredReference {
  message: CoreMessage;
  /** Deliveries made so far; a message delivered before a restart comes back redelivered. */
  deliveryCount: number;
  /** Epoch ms before which the message is not delivered (scheduled or delayed); 0 for none. */
  scheduledDeliveryTime: number;
}

/** The duplicate-detection ids an address has seen, oldest first. */
export interface StoredDuplicateIds {
  address: string;
  ids: string[];
}

/** What opening a store found, for the broker's startup log. */
export interface StorageLoadReport {
  /** Where the store lives (directories), or a short description ('in memory'). */
  location: string;
  queues: number;
  messages: number;
  /** Bytes of journal read. */
  bytes: number;
  milliseconds: number;
  /** Problems recovery handled (a torn tail cut off, a transaction rolled back, ...), one line each. */
  notes: string[];
}

/**
 * What the broker needs to hold an answer until what it confirms is on disk (DESIGN.md's reattach
 * contract, item 1). A session compares `syncRequests` before and after handling a packet: when
 * it grew, the packet wrote something the sync policy says must be on disk first, and its
 * confirmation and answer wait for `afterSync`.
 */
export interface Durability {
  /** Grows by one for every record appended that must be synced before the broker answers. */
  readonly syncRequests: number;
  /**
   * Calls `done` once everything appended so far is on disk: at once (synchronously) when nothing
   * waits for a sync. `done` gets the error when the store failed (the broker then stops).
   */
  afterSync(done: (error: Error | null) => void): void;
}

/**
 * Where durable state lives: durable queues, durable messages in durable queues, and the
 * duplicate-id caches. The broker's working state is in memory; this is what survives a restart.
 * Calls that store are synchronous and take effect in call order (a journal appends them to its
 * buffer); whether they are on disk yet is Durability's to say. Loading happens once, in `open`;
 * the load* calls then hand over what was found.
 *
 * Kept narrow on purpose: a second implementation (a database shared by a live/backup pair) has
 * to provide exactly this.
 */
export interface StorageManager extends Durability {
  /** Opens the store and reads what it holds (broker start); rejects when it cannot be loaded. */
  open(): Promise<StorageLoadReport>;
  /** Writes out and syncs what is pending, then closes (broker stop). The store may be opened again. */
  close(): Promise<void>;
  /**
   * Called when the store fails after opening (a write or a sync failed): nothing more can be
   * promised durable, so the broker stops.
   */
  onFailure(listener: (error: Error) => void): void;
  /** Unique, increasing message ids, continuing after a restart. */
  generateMessageId(): number;
  storeQueue(queue: StoredQueue): void;
  /** Deletes a durable queue and every reference it held. */
  deleteQueue(name: string): void;
  storeMessage(message: CoreMessage, queueNames: readonly string[]): void;
  storeAcknowledge(queueName: string, messageId: number): void;
  updateDeliveryCount(queueName: string, messageId: number, deliveryCount: number): void;
  updateScheduledDeliveryTime(queueName: string, messageId: number, time: number): void;
  /** Records an id in an address' duplicate-id cache (persist-id-cache). */
  storeDuplicateId(address: string, id: string): void;
  /** Forgets an id the cache evicted. */
  deleteDuplicateId(address: string, id: string): void;
  /**
   * What is stored from here to `commitTransaction` is one transaction: after a crash it is all
   * there or none of it is. Transactions do not nest, and a queue is not deleted inside one
   * (deleteQueue throws): queues live where no transaction spans.
   */
  beginTransaction(): void;
  /**
   * Ends the transaction. Throws when the store refuses it (a journal writes a transaction in one
   * write, so one too large for it is refused; or the store failed): then nothing of it is stored
   * and the store is as before beginTransaction.
   */
  commitTransaction(): void;
  loadQueues(): StoredQueue[];
  /**
   * The durable messages of a queue, in the order they were stored. An iterable, so that a store
   * may read each message from disk only when the broker takes it (a large journal is never held
   * in memory twice); read each once, queue by queue, in the order loadQueues gave.
   */
  loadReferences(queueName: string): Iterable<StoredReference>;
  loadDuplicateIds(): StoredDuplicateIds[];
}
