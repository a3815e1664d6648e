import { BufferWriter, type CoreMessage } from '../../core/protocol';
import type { Logger } from '../../core/remoting';
import { BindingsJournalLoader } from './bindings-journal-loader';
import type { DamageFinding, DamageKind } from './damage/damage-kind';
import { DamageReport } from './damage/damage-report';
import { IdReservation } from './id-reservation';
import type { Journal, JournalLoadReport } from './journal/journal';
import { LargeMessageFiles } from './large-message-files';
import type { LargeMessageStore } from './large-message-store';
import { journalNotes } from './load-notes';
import { LoadedMessages } from './loaded-messages';
import { MessageJournalLoader } from './message-journal-loader';
import { MessageReferences } from './message-references';
import type {
  StorageLoadReport,
  StorageManager,
  StoredDuplicateIds,
  StoredQueue,
  StoredReference,
} from './storage-manager';
import { StorageTransaction } from './storage-transaction';
import {
  encodeDeliveryCount,
  encodeDuplicateId,
  encodeIdCounter,
  encodeQueueBinding,
  encodeQueueId,
  encodeScheduledTime,
  StorageRecordType,
} from './storage-records';
import type { TransactionSteps } from './transaction-steps';

/** HornetQ's min-large-message-size: a message encoded this large keeps its bytes in a file. */
export const LARGE_MESSAGE_THRESHOLD = 100 * 1024;

/**
 * Ids reserved by one checkpoint. Large, so that checkpoints are rare; a restart skips what is left
 * of the batch (2^53 ids last for ~9·10^10 restarts).
 */
const ID_BATCH_SIZE = 100_000;

/** What `hornetq data check` reports: what the files hold, and every problem found. */
export interface StorageCheckReport {
  location: string;
  /** Durable queues the bindings journal holds. */
  queues: number;
  /** Live message records (inline and large). */
  messages: number;
  /** Queue references to them, in queues the bindings journal holds. */
  references: number;
  findings: DamageFinding[];
}

/** The two journals the storage writes: queues and id checkpoints; messages and what refers to them. */
export interface StorageJournals {
  bindings: Journal;
  messages: Journal;
}

export interface JournalStorageOptions {
  /** journal-sync-transactional: a commit is on disk before it is answered. */
  syncTransactional: boolean;
  /** journal-sync-non-transactional: a durable send or acknowledgement outside a transaction too. */
  syncNonTransactional: boolean;
  /**
   * persist-id-cache: store duplicate-detection ids. When false none are stored, and any stored
   * earlier are deleted at open (nothing would ever read or delete them).
   */
  persistIdCache: boolean;
  /** A message whose encoding has at least this many bytes goes to a large-message file. */
  largeMessageThreshold: number;
  /**
   * The largest record, or transaction with its commit, the message journal takes (its buffer, or
   * a file less its header): a message that would not fit inline goes to a large-message file.
   */
  maxRecordBytes: number;
  /** Where the journals are, for the load report. */
  location: string;
  /** bindings-directory, named when the message journal references queues it does not hold. */
  bindingsDirectory?: string;
  /** journal-directory, named when it holds no journal file although the bindings hold queues. */
  journalDirectory?: string;
  /** Damage kinds the operator accepts at load (losing what they hold); any other found is refused. */
  acceptDamage?: readonly DamageKind[];
  logger: Logger;
}

/**
 * The broker's durable state on two journals, HornetQ's model (JournalStorageManager; research
 * note §1.4): queues and id checkpoints in the bindings journal; messages, their references,
 * acknowledgements, delivery counts, schedule times and duplicate ids in the message journal; the
 * bytes of large messages in files beside it. Sync policy: what a client is answered for (a
 * durable send's last reference, an acknowledgement, a commit, a queue) is synced per
 * journal-sync-*; what follows from it (a message's delete, a delivery count) is not.
 *
 * A facade over its parts: MessageReferences (which queue references which message),
 * LoadedMessages (what the load found until the broker takes it) and LargeMessageFiles (messages
 * whose bytes are in files); this class decides what is written to which journal, and owns the
 * storage transaction, which the parts reach only through TransactionSteps.
 */
export class JournalStorageManager implements StorageManager {
  private opened = false;
  private readonly ids: IdReservation;
  private liveCounterRecords: number[] = [];
  /** Checkpoint syncs, which no answer needs to wait for (see syncRequests). */
  private checkpointSyncs = 0;
  private readonly queueIds = new Map<string, number>();
  private storedQueues = new Map<number, StoredQueue>();
  /** The message is deleted when its last reference goes. */
  private readonly references: MessageReferences;
  private readonly largeMessageFiles: LargeMessageFiles;
  /** Address → duplicate id → its record id. */
  private readonly duplicateIdRecords = new Map<string, Map<string, number>>();
  /** The open transaction, or null outside one. */
  private transaction: StorageTransaction | null = null;
  /** What open() found and the broker has not taken yet (loadReferences, loadDuplicateIds). */
  private readonly loaded = new LoadedMessages();
  /** The open transaction's undo and commit steps, for the parts of the bookkeeping. */
  private readonly steps: TransactionSteps = {
    changed: (undo) => this.changed(undo),
    afterCommit: (step) => this.afterCommit(step),
  };
  private failure: Error | null = null;
  private readonly failureListeners: Array<(error: Error) => void> = [];
  /** The journals of this opening, or null while closed. */
  private journals: StorageJournals | null = null;
  /** Sync requests of the journals of earlier openings, so that syncRequests only grows. */
  private retiredSyncRequests = 0;

  constructor(
    /** Makes the two journals, at each open (a journal is loaded once: a reopened store needs new ones). */
    private readonly openJournals: () => StorageJournals,
    private readonly largeMessages: LargeMessageStore,
    private readonly options: JournalStorageOptions,
  ) {
    this.ids = new IdReservation(ID_BATCH_SIZE, (recordId, highWaterMark) =>
      this.checkpointIds(recordId, highWaterMark),
    );
    this.references = new MessageReferences(this.steps);
    this.largeMessageFiles = new LargeMessageFiles(largeMessages, () => this.messages, this.steps, options);
    largeMessages.onFailure((error) => this.fail(error));
  }

  /**
   * Both journals' sync requests and the large-message writes, less the id checkpoints: a
   * checkpoint is synced, but only what uses its ids needs it on disk, and whatever durable does
   * waits in afterSync for both journals, which covers the checkpoint too. So non-durable work
   * (which takes ids as well) never waits for a sync.
   */
  get syncRequests(): number {
    const journals = this.journals;
    const current =
      journals === null
        ? 0
        : journals.bindings.syncRequests - this.checkpointSyncs + journals.messages.syncRequests;
    return this.retiredSyncRequests + current + this.largeMessages.writesStarted;
  }

  afterSync(done: (error: Error | null) => void): void {
    const journals = this.journals;
    let waiting = journals === null ? 1 : 3;
    let firstError: Error | null = null;
    const oneDone = (error: Error | null): void => {
      firstError ??= error;
      if (--waiting === 0) done(firstError ?? this.failure);
    };
    journals?.bindings.afterSync(oneDone);
    journals?.messages.afterSync(oneDone);
    this.largeMessages.afterWrites(oneDone);
  }

  onFailure(listener: (error: Error) => void): void {
    this.failureListeners.push(listener);
  }

  async open(): Promise<StorageLoadReport> {
    if (this.journals !== null) throw new Error('the journal storage is already open');
    const started = Date.now();
    this.resetState();
    const journals = this.openJournals();
    this.journals = journals;
    const forward = (error: Error): void => {
      if (this.journals === journals) this.fail(error);
    };
    journals.bindings.onFailure(forward);
    journals.messages.onFailure(forward);
    try {
      return await this.load(started);
    } catch (error) {
      this.retire();
      await Promise.allSettled([journals.bindings.close(), journals.messages.close()]);
      throw error;
    }
  }

  /**
   * `hornetq data check`: reads both journals and the large-message files as a start would,
   * reading past every problem, and returns them all; writes nothing (not even what a start
   * repairs). Call on a closed storage, on files no running broker uses.
   */
  async check(): Promise<StorageCheckReport> {
    if (this.journals !== null) throw new Error('the journal storage is open: check a stopped one');
    const journals = this.openJournals();
    const damage = DamageReport.forCheck();
    try {
      const bindingsLoad = new BindingsJournalLoader();
      await journals.bindings.read(bindingsLoad, damage);
      const messageLoad = new MessageJournalLoader(
        new Set(bindingsLoad.queues.keys()),
        bindingsLoad.deletedQueueIds,
      );
      const messagesReport = await journals.messages.read(messageLoad, damage);
      this.checkMessageJournalPresent(messagesReport, bindingsLoad, damage);
      this.checkQueuesKnown(messageLoad, bindingsLoad, damage);
      await this.largeMessageFiles.check(messageLoad, damage);
      let references = 0;
      for (const queue of messageLoad.references.values()) references += queue.size;
      return {
        location: this.options.location,
        queues: bindingsLoad.queues.size,
        messages: messageLoad.encodings.size + messageLoad.largeHeaders.size,
        references,
        findings: damage.findings,
      };
    } finally {
      await Promise.allSettled([journals.bindings.close(), journals.messages.close()]);
    }
  }

  private async load(started: number): Promise<StorageLoadReport> {
    const damage = new DamageReport(new Set(this.options.acceptDamage ?? []), this.options.logger);
    const bindingsLoad = new BindingsJournalLoader();
    const bindingsReport = await this.bindings.read(bindingsLoad, damage);
    const messageLoad = new MessageJournalLoader(
      new Set(bindingsLoad.queues.keys()),
      bindingsLoad.deletedQueueIds,
    );
    const messagesReport = await this.messages.read(messageLoad, damage);
    this.checkMessageJournalPresent(messagesReport, bindingsLoad, damage);
    this.checkQueuesKnown(messageLoad, bindingsLoad, damage);
    const largeMessages = await this.largeMessageFiles.check(messageLoad, damage);
    // Nothing is written before this point: a refused start leaves the files as they were.
    damage.throwIfRefused();
    await this.bindings.open();
    await this.messages.open();
    const notes = [
      ...journalNotes('bindings', bindingsReport),
      ...journalNotes('message', messagesReport),
      ...damage.acceptedNotes(),
    ];
    const largeBytes = await this.largeMessageFiles.recover(largeMessages, messageLoad, notes);
    this.adoptQueues(bindingsLoad);
    this.adoptMessages(messageLoad);
    this.adoptDuplicateIds(messageLoad, notes);
    this.ids.restore(bindingsLoad.highWaterMark, Math.max(bindingsLoad.highestId, messageLoad.highestId));
    this.liveCounterRecords = [...bindingsLoad.counterRecordIds];
    this.opened = true;
    return {
      location: this.options.location,
      queues: this.storedQueues.size,
      messages: this.loaded.messageCount,
      bytes: bindingsReport.bytes + messagesReport.bytes + largeBytes,
      milliseconds: Date.now() - started,
      notes,
    };
  }

  async close(): Promise<void> {
    const journals = this.journals;
    if (journals === null) return;
    this.opened = false;
    this.transaction = null;
    // The journals first: their last sync lets the large-message files of deleted messages go,
    // and the store then waits for those removals as well as for its writes.
    const closed = await Promise.allSettled([journals.bindings.close(), journals.messages.close()]);
    this.retire();
    const files = await Promise.allSettled([this.largeMessages.close()]);
    this.resetState();
    for (const result of [...closed, ...files]) if (result.status === 'rejected') throw result.reason;
  }

  generateMessageId(): number {
    this.requireOpen();
    return this.ids.next();
  }

  storeQueue(queue: StoredQueue): void {
    this.requireOpen();
    const stored = { name: queue.name, address: queue.address, filter: queue.filter };
    const known = this.queueIds.get(queue.name);
    if (known !== undefined) {
      this.bindings.appendUpdate(known, StorageRecordType.QUEUE_BINDING, encodeQueueBinding(stored), true);
      this.storedQueues.set(known, stored);
      return;
    }
    const id = this.ids.next();
    this.bindings.appendAdd(id, StorageRecordType.QUEUE_BINDING, encodeQueueBinding(stored), true);
    this.queueIds.set(queue.name, id);
    this.storedQueues.set(id, stored);
    this.references.addQueue(id);
  }

  deleteQueue(name: string): void {
    this.requireOpen();
    // Its delete goes to the bindings journal, which no transaction spans: a commit deletes no queue.
    if (this.transaction !== null) throw new Error(`deleteQueue(${name}) inside a storage transaction`);
    const queueId = this.queueIds.get(name);
    if (queueId === undefined) return;
    this.bindings.appendDelete(queueId, true);
    for (const messageId of this.references.messagesOf(queueId)) {
      // Not synced: the queue's delete is, and at load references of a deleted queue are ignored.
      this.appendMessageUpdate(messageId, StorageRecordType.ACKNOWLEDGE_REF, encodeQueueId(queueId), false);
      this.release(messageId);
    }
    this.queueIds.delete(name);
    this.storedQueues.delete(queueId);
    this.references.removeQueue(queueId);
    this.loaded.forgetQueue(queueId);
  }

  storeMessage(message: CoreMessage, queueNames: readonly string[]): void {
    this.requireOpen();
    const messageId = message.messageId;
    const queues = this.queuesNotReferencing(messageId, queueNames);
    if (queues.length === 0) return;
    if (!this.references.isReferenced(messageId)) this.appendMessage(message);
    queues.forEach((queueId, index) => {
      // The last reference is what a blocking send waits for: HornetQ syncs it alone.
      const last = index === queues.length - 1;
      this.appendMessageUpdate(
        messageId,
        StorageRecordType.ADD_REF,
        encodeQueueId(queueId),
        last && this.options.syncNonTransactional,
      );
      this.references.add(queueId, messageId);
    });
    this.references.setCount(messageId, this.references.count(messageId) + queues.length);
  }

  storeAcknowledge(queueName: string, messageId: number): void {
    this.requireOpen();
    const queueId = this.queueIds.get(queueName);
    if (queueId === undefined || !this.references.remove(queueId, messageId)) return;
    this.afterCommit(() => this.loaded.acknowledged(queueId, messageId));
    const sync = this.options.syncNonTransactional;
    // The last reference's acknowledgement is the message's delete alone, synced as the
    // acknowledgement would be: one record fewer per message, and a delete says all it would.
    const last = this.references.count(messageId) <= 1;
    if (!last)
      this.appendMessageUpdate(messageId, StorageRecordType.ACKNOWLEDGE_REF, encodeQueueId(queueId), sync);
    this.release(messageId, sync);
  }

  updateDeliveryCount(queueName: string, messageId: number, deliveryCount: number): void {
    this.requireOpen();
    const queueId = this.referencingQueue(queueName, messageId);
    if (queueId === null) return;
    // Not synced (HornetQ): a count lost in a crash only makes a redelivery look like a first one.
    const body = encodeDeliveryCount({ queueId, deliveryCount });
    this.appendMessageUpdate(messageId, StorageRecordType.UPDATE_DELIVERY_COUNT, body, false);
  }

  updateScheduledDeliveryTime(queueName: string, messageId: number, time: number): void {
    this.requireOpen();
    const queueId = this.referencingQueue(queueName, messageId);
    if (queueId === null) return;
    const body = encodeScheduledTime({ queueId, time });
    this.appendMessageUpdate(
      messageId,
      StorageRecordType.SET_SCHEDULED_DELIVERY_TIME,
      body,
      this.options.syncNonTransactional,
    );
  }

  storeDuplicateId(address: string, id: string): void {
    this.requireOpen();
    if (!this.options.persistIdCache) return;
    let records = this.duplicateIdRecords.get(address);
    if (records === undefined) {
      records = new Map();
      this.duplicateIdRecords.set(address, records);
    }
    if (records.has(id)) return;
    const recordId = this.ids.next();
    records.set(id, recordId);
    this.changed(() => records.delete(id));
    const body = encodeDuplicateId({ address, id });
    this.appendMessageAdd(recordId, StorageRecordType.DUPLICATE_ID, body, this.options.syncNonTransactional);
  }

  deleteDuplicateId(address: string, id: string): void {
    this.requireOpen();
    const records = this.duplicateIdRecords.get(address);
    const recordId = records?.get(id);
    if (records === undefined || recordId === undefined) return;
    records.delete(id);
    if (records.size === 0) this.duplicateIdRecords.delete(address);
    this.changed(() => this.duplicateIdRecords.set(address, records.set(id, recordId)));
    this.appendMessageDelete(recordId);
  }

  beginTransaction(): void {
    this.requireOpen();
    if (this.transaction !== null)
      throw new Error('storage transactions do not nest: beginTransaction called inside one');
    this.transaction = new StorageTransaction();
  }

  /**
   * Writes the transaction's records and its commit. When the journal refuses them (too large for
   * one write, or failed), the storage is left as if the transaction had never begun, and the
   * error is thrown.
   */
  commitTransaction(): void {
    this.requireOpen();
    const transaction = this.transaction;
    if (transaction === null) throw new Error('commitTransaction called outside a storage transaction');
    this.transaction = null;
    if (transaction.records.length > 0) {
      try {
        this.messages.appendTransaction(transaction.records, this.options.syncTransactional);
      } catch (error) {
        transaction.undo();
        throw error;
      }
    }
    transaction.committed();
  }

  loadQueues(): StoredQueue[] {
    return [...this.storedQueues.values()].map((queue) => ({ ...queue }));
  }

  /** Decodes each message as the broker takes it, then lets go of its bytes (the message keeps them). */
  *loadReferences(queueName: string): Iterable<StoredReference> {
    const queueId = this.queueIds.get(queueName);
    if (queueId === undefined) return;
    yield* this.loaded.take(queueId);
  }

  loadDuplicateIds(): StoredDuplicateIds[] {
    return this.loaded.takeDuplicateIds();
  }

  /** Closed: the journals' sync requests count on in retiredSyncRequests. */
  private retire(): void {
    const journals = this.journals;
    if (journals === null) return;
    this.retiredSyncRequests +=
      journals.bindings.syncRequests - this.checkpointSyncs + journals.messages.syncRequests;
    this.checkpointSyncs = 0;
    this.journals = null;
    this.opened = false;
  }

  private get bindings(): Journal {
    return this.currentJournals().bindings;
  }

  private get messages(): Journal {
    return this.currentJournals().messages;
  }

  private currentJournals(): StorageJournals {
    if (this.journals === null) throw new Error('the journal storage is not open');
    return this.journals;
  }

  private requireOpen(): void {
    if (!this.opened) throw new Error('the journal storage is not open');
    if (this.failure !== null) throw this.failure;
  }

  private resetState(): void {
    this.queueIds.clear();
    this.storedQueues = new Map();
    this.references.clear();
    this.largeMessageFiles.clear();
    this.duplicateIdRecords.clear();
    this.transaction = null;
    this.loaded.clear();
    this.liveCounterRecords = [];
  }

  private fail(error: Error): void {
    if (this.failure !== null) return;
    this.failure = error;
    for (const listener of this.failureListeners) listener(error);
  }

  private checkpointIds(recordId: number, highWaterMark: number): void {
    this.bindings.appendAdd(recordId, StorageRecordType.ID_COUNTER, encodeIdCounter(highWaterMark), true);
    this.checkpointSyncs++;
    // Only the newest checkpoint counts: older ones are deleted so that their files can be reclaimed.
    for (const old of this.liveCounterRecords) this.bindings.appendDelete(old, false);
    this.liveCounterRecords = [recordId];
  }

  /** The stored queues among `queueNames` that do not reference the message yet. */
  private queuesNotReferencing(messageId: number, queueNames: readonly string[]): number[] {
    const queueIds: number[] = [];
    for (const name of queueNames) {
      const queueId = this.queueIds.get(name);
      if (queueId !== undefined) queueIds.push(queueId);
    }
    return this.references.queuesNotReferencing(messageId, queueIds);
  }

  private referencingQueue(queueName: string, messageId: number): number | null {
    const queueId = this.queueIds.get(queueName);
    return queueId !== undefined && this.references.references(queueId, messageId) ? queueId : null;
  }

  /** The message's add record, not synced: its last reference is. */
  private appendMessage(message: CoreMessage): void {
    const writer = new BufferWriter(message.encodedSize());
    message.encode(writer);
    const encoding = writer.toBuffer();
    if (this.largeMessageFiles.fitsInline(encoding.length)) {
      this.appendMessageAdd(message.messageId, StorageRecordType.ADD_MESSAGE, encoding, false);
      return;
    }
    const header = this.largeMessageFiles.write(message.messageId, encoding);
    this.appendMessageAdd(message.messageId, StorageRecordType.ADD_LARGE_MESSAGE, header, false);
  }

  /**
   * One queue let go of a message; the last one deletes it (synced only where it stands for an
   * acknowledgement: HornetQ never syncs a delete that follows its own synced acknowledgement).
   */
  private release(messageId: number, sync = false): void {
    if (!this.references.release(messageId)) return;
    this.appendMessageDelete(messageId, sync);
    this.largeMessageFiles.deleted(messageId);
  }

  /**
   * Within a transaction, how to take back a change to the bookkeeping just made, should the
   * commit not be written; outside one, a change is final.
   */
  private changed(undo: () => void): void {
    this.transaction?.onUndo(undo);
  }

  /** Runs `step` now, or within a transaction once its commit is written. */
  private afterCommit(step: () => void): void {
    if (this.transaction === null) step();
    else this.transaction.onCommit(step);
  }

  private appendMessageAdd(id: number, userType: number, body: Buffer, sync: boolean): void {
    if (this.transaction !== null) this.transaction.add({ kind: 'add', id, userType, body });
    else this.messages.appendAdd(id, userType, body, sync);
  }

  private appendMessageUpdate(id: number, userType: number, body: Buffer, sync: boolean): void {
    if (this.transaction !== null) this.transaction.add({ kind: 'update', id, userType, body });
    else this.messages.appendUpdate(id, userType, body, sync);
  }

  private appendMessageDelete(id: number, sync = false): void {
    if (this.transaction !== null) this.transaction.add({ kind: 'delete', id });
    else this.messages.appendDelete(id, sync);
  }

  /**
   * A message journal with no file at all beside bindings that hold queues: the first start makes
   * the message journal's files before any queue is written, so its directory was changed, its
   * volume is not mounted (an empty mount point), or it was not restored. Started as it is, the
   * queues would come back empty and new files would be written where the old ones belong.
   */
  private checkMessageJournalPresent(
    messagesReport: JournalLoadReport,
    bindingsLoad: BindingsJournalLoader,
    damage: DamageReport,
  ): void {
    if (messagesReport.files > 0 || bindingsLoad.queues.size === 0) return;
    damage.found({
      kind: 'missing-message-journal',
      file: this.options.journalDirectory ?? 'the message journal',
      offset: null,
      detail:
        `the message journal has no file, but the bindings journal holds ${bindingsLoad.queues.size} queue(s): ` +
        'was journal-directory changed, its volume not mounted, or only part of a backup restored?',
      messages: null,
    });
  }

  /**
   * References to queues the bindings journal neither holds nor saw deleted: the bindings journal
   * is missing, was moved, or is older than the message journal. Accepted, those references are
   * dropped (and messages no known queue references are deleted, as for a deleted queue).
   */
  private checkQueuesKnown(
    messageLoad: MessageJournalLoader,
    bindingsLoad: BindingsJournalLoader,
    damage: DamageReport,
  ): void {
    const unknown = messageLoad.unknownQueues();
    if (unknown.queueIds.length === 0) return;
    const directory = this.options.bindingsDirectory ?? 'the bindings journal';
    const held =
      bindingsLoad.queues.size === 0
        ? 'holds no queue at all'
        : `holds ${bindingsLoad.queues.size} other queue(s)`;
    damage.found({
      kind: 'unknown-queue',
      file: directory,
      offset: null,
      detail:
        `the message journal holds messages of ${unknown.queueIds.length} queue(s) (ids ${unknown.queueIds.slice(0, 10).join(', ')}) ` +
        `that the bindings journal does not hold; it ${held}: was bindings-directory changed, its volume not mounted, or only part of a backup restored?`,
      messages: unknown.messages,
    });
  }

  private adoptQueues(load: BindingsJournalLoader): void {
    for (const [queueId, queue] of load.queues) {
      this.queueIds.set(queue.name, queueId);
      this.storedQueues.set(queueId, queue);
      this.references.addQueue(queueId);
    }
  }

  /**
   * Takes over what the message journal holds; the messages left without references are deleted
   * now (HornetQ deletes them at load).
   */
  private adoptMessages(load: MessageJournalLoader): void {
    for (const messageId of this.loaded.adopt(load, this.references)) {
      this.messages.appendDelete(messageId, false);
      this.largeMessageFiles.deleted(messageId);
    }
  }

  private adoptDuplicateIds(load: MessageJournalLoader, notes: string[]): void {
    if (!this.options.persistIdCache) {
      for (const recordId of load.duplicateIds.keys()) this.messages.appendDelete(recordId, false);
      if (load.duplicateIds.size > 0)
        notes.push(`${load.duplicateIds.size} stored duplicate id(s) deleted: persist-id-cache is false`);
      return;
    }
    const byAddress = new Map<string, string[]>();
    for (const [recordId, { address, id }] of load.duplicateIds) {
      let records = this.duplicateIdRecords.get(address);
      if (records === undefined) {
        records = new Map();
        this.duplicateIdRecords.set(address, records);
        byAddress.set(address, []);
      }
      records.set(id, recordId);
      byAddress.get(address)?.push(id);
    }
    this.loaded.adoptDuplicateIds([...byAddress].map(([address, ids]) => ({ address, ids })));
  }
}
