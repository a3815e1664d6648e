import type { JournalRecordVisitor } from './journal/journal';
import type { StoredQueue } from './storage-manager';
import { decodeIdCounter, decodeQueueBinding, StorageRecordType } from './storage-records';
import { recordError } from './record-error';

/** What the bindings journal holds: the durable queues and the id reservation's checkpoints. */
export class BindingsJournalLoader implements JournalRecordVisitor {
  /** Queue id → queue, in the order the queues were created. */
  readonly queues = new Map<number, StoredQueue>();
  /** Live ID_COUNTER records: the next checkpoint deletes them. */
  readonly counterRecordIds: number[] = [];
  /** The highest checkpointed high-water mark. */
  highWaterMark = 0;
  /** The highest record id seen: ids in use continue above it. */
  highestId = 0;
  /**
   * Queues whose delete the load saw: the message journal may still reference them (the delete
   * is synced before the acknowledgements of the queue's messages are), and that is no damage.
   */
  readonly deletedQueueIds = new Set<number>();

  add(id: number, userType: number, body: Buffer): void {
    this.record(id, userType, body);
  }

  update(id: number, userType: number, body: Buffer): void {
    this.record(id, userType, body);
  }

  delete(id: number): void {
    this.highestId = Math.max(this.highestId, id);
    if (this.queues.delete(id)) this.deletedQueueIds.add(id);
    const counter = this.counterRecordIds.indexOf(id);
    if (counter >= 0) this.counterRecordIds.splice(counter, 1);
  }

  private record(id: number, userType: number, body: Buffer): void {
    this.highestId = Math.max(this.highestId, id);
    try {
      switch (userType) {
        case StorageRecordType.QUEUE_BINDING:
          this.queues.set(id, decodeQueueBinding(body));
          return;
        case StorageRecordType.ID_COUNTER:
          this.highWaterMark = Math.max(this.highWaterMark, decodeIdCounter(body));
          if (!this.counterRecordIds.includes(id)) this.counterRecordIds.push(id);
          return;
        default:
          throw new Error(`unknown record type ${userType}`);
      }
    } catch (error) {
      throw recordError('bindings', id, userType, error);
    }
  }
}
