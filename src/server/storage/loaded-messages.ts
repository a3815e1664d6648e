import { BufferReader, CoreMessage } from '../../core/protocol';
import type { LoadedReference, MessageJournalLoader } from './message-journal-loader';
import { StorageError } from './storage-error';
import type { StoredDuplicateIds, StoredReference } from './storage-manager';
import type { MessageReferences } from './message-references';

/** One load-time message: its bytes until every queue that references it has taken it. */
interface PendingMessage {
  encoding: Buffer;
  /** Queues yet to take it (take). */
  queuesLeft: number;
  /** Decoded by the first queue to take it; the others share it, as they did before the restart. */
  decoded: CoreMessage | null;
}

/** What adopt needs of the live references: it counts the loaded ones in. */
export type AdoptingReferences = Pick<MessageReferences, 'hasQueue' | 'adopt' | 'count'>;

/**
 * What a storage's load found and the broker has not taken yet: each queue's references, the
 * bytes of the messages they reference, and the stored duplicate ids. Everything here is handed
 * over once and then let go, so that a loaded journal's bytes are held only until the broker has
 * its own copy of them.
 */
export class LoadedMessages {
  /** Queue id → its loaded references in queue order, until the broker takes them. */
  private readonly references = new Map<number, Map<number, LoadedReference>>();
  private readonly pending = new Map<number, PendingMessage>();
  private duplicateIds: StoredDuplicateIds[] = [];

  /** The messages still to be taken. */
  get messageCount(): number {
    return this.pending.size;
  }

  /**
   * Takes over what the message journal holds: every reference whose message is there (counted
   * in `live`), and every message that some queue still references. Returns the messages no
   * queue references, which the caller deletes (HornetQ deletes them at load).
   */
  adopt(load: MessageJournalLoader, live: AdoptingReferences): number[] {
    for (const [queueId, references] of load.references) {
      if (!live.hasQueue(queueId)) continue;
      for (const messageId of references.keys()) {
        if (!load.encodings.has(messageId)) {
          references.delete(messageId);
          continue;
        }
        live.adopt(queueId, messageId);
      }
      this.references.set(queueId, references);
    }
    const unreferenced: number[] = [];
    for (const [messageId, encoding] of load.encodings) {
      const queuesLeft = live.count(messageId);
      if (queuesLeft > 0) this.pending.set(messageId, { encoding, queuesLeft, decoded: null });
      else unreferenced.push(messageId);
    }
    load.encodings.clear();
    return unreferenced;
  }

  adoptDuplicateIds(duplicateIds: StoredDuplicateIds[]): void {
    this.duplicateIds = duplicateIds;
  }

  /** The stored duplicate ids, once. */
  takeDuplicateIds(): StoredDuplicateIds[] {
    const taken = this.duplicateIds;
    this.duplicateIds = [];
    return taken;
  }

  /** Decodes each of the queue's messages as the broker takes it, then lets go of its bytes (the message keeps them). */
  *take(queueId: number): Iterable<StoredReference> {
    const references = this.references.get(queueId);
    if (references === undefined) return;
    this.references.delete(queueId);
    for (const [messageId, reference] of references) {
      const message = this.takeMessage(messageId);
      if (message === null) continue;
      yield {
        message,
        deliveryCount: reference.deliveryCount,
        scheduledDeliveryTime: reference.scheduledDeliveryTime,
      };
    }
  }

  /** The queue acknowledged a message it has not taken yet: it never will. */
  acknowledged(queueId: number, messageId: number): void {
    if (this.references.get(queueId)?.delete(messageId) === true) this.letGo(messageId);
  }

  /** The queue is deleted: it takes none of its loaded messages. */
  forgetQueue(queueId: number): void {
    for (const messageId of this.references.get(queueId)?.keys() ?? []) this.letGo(messageId);
    this.references.delete(queueId);
  }

  clear(): void {
    this.references.clear();
    this.pending.clear();
    this.duplicateIds = [];
  }

  private takeMessage(messageId: number): CoreMessage | null {
    const pending = this.pending.get(messageId);
    if (pending === undefined) return null;
    const message = pending.decoded ?? decodeStoredMessage(messageId, pending.encoding);
    pending.decoded = message;
    this.letGo(messageId);
    return message;
  }

  /**
   * One queue will not take a loaded message (it took it, or it went before the broker took it):
   * once none will, its bytes are let go (what the broker holds of them, it holds itself).
   */
  private letGo(messageId: number): void {
    const pending = this.pending.get(messageId);
    if (pending === undefined) return;
    pending.queuesLeft--;
    if (pending.queuesLeft <= 0) this.pending.delete(messageId);
  }
}

function decodeStoredMessage(messageId: number, encoding: Buffer): CoreMessage {
  try {
    // Not detached: the message keeps the bytes read from the journal as its own, no copy.
    const message = CoreMessage.decode(new BufferReader(encoding, 0, encoding.length));
    message.messageId = messageId;
    return message;
  } catch (error) {
    throw new StorageError(
      `message journal: message ${messageId} cannot be decoded: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}
