import type { JournalRecordVisitor } from './journal/journal';
import { recordError } from './record-error';
import {
  decodeDeliveryCount,
  decodeDuplicateId,
  decodeLargeMessageHeader,
  decodeQueueId,
  decodeScheduledTime,
  StorageRecordType,
  type DuplicateIdRecord,
  type LargeMessageHeader,
} from './storage-records';

/** A queue's reference to a message, as the journal left it. */
export interface LoadedReference {
  deliveryCount: number;
  scheduledDeliveryTime: number;
}

/**
 * Rebuilds what the message journal holds, record by record in append order (HornetQ's first
 * load pass): messages by id, each queue's references in ADD_REF order (its queue order) with
 * their delivery counts and schedule times, and the duplicate ids in the order they were stored.
 * A message's encoding is copied once, out of the read buffer, and kept as bytes: it is decoded
 * only when the broker takes it.
 */
export class MessageJournalLoader implements JournalRecordVisitor {
  /** Message id → its encoding (ADD_MESSAGE). */
  readonly encodings = new Map<number, Buffer>();
  /** Message id → its large-message header (ADD_LARGE_MESSAGE); the bytes are in its file. */
  readonly largeHeaders = new Map<number, LargeMessageHeader>();
  /** Queue id → message id → reference, in the order the references were added. */
  readonly references = new Map<number, Map<number, LoadedReference>>();
  /** Record id → duplicate id, in the order they were stored. */
  readonly duplicateIds = new Map<number, DuplicateIdRecord>();
  highestId = 0;
  /**
   * Queue id → message ids it references, for queues the bindings journal neither holds nor saw
   * deleted: the bindings journal is missing or older than the message journal.
   */
  private readonly unknownReferences = new Map<number, Set<number>>();

  /**
   * `queueIds`: the durable queues the bindings journal holds; references to others are left out
   * (and counted, unless `deletedQueueIds` says the queue was deleted).
   */
  constructor(
    private readonly queueIds: ReadonlySet<number>,
    private readonly deletedQueueIds: ReadonlySet<number> = new Set(),
  ) {}

  /** Live messages referenced by queues the bindings journal does not know, and those queues' ids. */
  unknownQueues(): { queueIds: number[]; messages: number } {
    const messages = new Set<number>();
    const queueIds: number[] = [];
    for (const [queueId, messageIds] of this.unknownReferences) {
      const live = [...messageIds].filter((messageId) => this.hasMessage(messageId));
      if (live.length === 0) continue;
      queueIds.push(queueId);
      for (const messageId of live) messages.add(messageId);
    }
    return { queueIds, messages: messages.size };
  }

  add(id: number, userType: number, body: Buffer): void {
    this.highestId = Math.max(this.highestId, id);
    try {
      switch (userType) {
        case StorageRecordType.ADD_MESSAGE:
          this.encodings.set(id, Buffer.from(body));
          return;
        case StorageRecordType.ADD_LARGE_MESSAGE:
          this.largeHeaders.set(id, decodeLargeMessageHeader(body));
          return;
        case StorageRecordType.DUPLICATE_ID:
          this.duplicateIds.set(id, decodeDuplicateId(body));
          return;
        default:
          throw new Error(`unknown record type ${userType} for an add`);
      }
    } catch (error) {
      throw recordError('message', id, userType, error);
    }
  }

  update(id: number, userType: number, body: Buffer): void {
    this.highestId = Math.max(this.highestId, id);
    try {
      this.applyUpdate(id, userType, body);
    } catch (error) {
      throw recordError('message', id, userType, error);
    }
  }

  delete(id: number): void {
    this.highestId = Math.max(this.highestId, id);
    this.encodings.delete(id);
    this.largeHeaders.delete(id);
    this.duplicateIds.delete(id);
  }

  /** Whether a message's add record is live. */
  hasMessage(id: number): boolean {
    return this.encodings.has(id) || this.largeHeaders.has(id);
  }

  private applyUpdate(messageId: number, userType: number, body: Buffer): void {
    switch (userType) {
      case StorageRecordType.ADD_REF: {
        const queueId = decodeQueueId(body);
        if (!this.hasMessage(messageId)) return;
        if (this.queueIds.has(queueId))
          this.referencesOf(queueId).set(messageId, { deliveryCount: 0, scheduledDeliveryTime: 0 });
        else if (!this.deletedQueueIds.has(queueId)) this.noteUnknownReference(queueId, messageId);
        return;
      }
      case StorageRecordType.ACKNOWLEDGE_REF: {
        const queueId = decodeQueueId(body);
        this.references.get(queueId)?.delete(messageId);
        this.unknownReferences.get(queueId)?.delete(messageId);
        return;
      }
      case StorageRecordType.UPDATE_DELIVERY_COUNT: {
        const { queueId, deliveryCount } = decodeDeliveryCount(body);
        const reference = this.references.get(queueId)?.get(messageId);
        if (reference !== undefined) reference.deliveryCount = deliveryCount;
        return;
      }
      case StorageRecordType.SET_SCHEDULED_DELIVERY_TIME: {
        const { queueId, time } = decodeScheduledTime(body);
        const reference = this.references.get(queueId)?.get(messageId);
        if (reference !== undefined) reference.scheduledDeliveryTime = time;
        return;
      }
      default:
        throw new Error(`unknown record type ${userType} for an update`);
    }
  }

  private noteUnknownReference(queueId: number, messageId: number): void {
    let messageIds = this.unknownReferences.get(queueId);
    if (messageIds === undefined) {
      messageIds = new Set();
      this.unknownReferences.set(queueId, messageIds);
    }
    messageIds.add(messageId);
  }

  private referencesOf(queueId: number): Map<number, LoadedReference> {
    let references = this.references.get(queueId);
    if (references === undefined) {
      references = new Map();
      this.references.set(queueId, references);
    }
    return references;
  }
}
