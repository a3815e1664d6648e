import { outOfRange } from '../../lang/argument-errors';

/**
 * Unique, increasing ids (messages, queues and duplicate-id records share them), reserved in
 * batches as HornetQ's BatchingIDGenerator does: before the first id of a batch is used, the
 * batch's high-water mark is checkpointed, so that after a restart ids continue above every id
 * handed out, even ids whose records were since deleted and their journal files reclaimed.
 */
export class IdReservation {
  private nextId = 1;
  /** Ids below this are reserved by the last checkpoint. */
  private highWaterMark = 1;

  constructor(
    private readonly batchSize: number,
    /** Stores a checkpoint; `recordId` is an id of the new batch, reserved for the record itself. */
    private readonly checkpoint: (recordId: number, highWaterMark: number) => void,
  ) {
    if (!(Number.isSafeInteger(batchSize) && batchSize >= 2))
      throw outOfRange(`id batch size must be an integer >= 2 (actual value: ${batchSize})`);
  }

  /**
   * Continues after what storage holds: above the last checkpoint and above every id still in a
   * journal (the last checkpoint may not have reached the disk while those records did).
   */
  restore(checkpointed: number, highestIdInUse: number): void {
    this.nextId = Math.max(checkpointed, highestIdInUse + 1, 1);
    this.highWaterMark = this.nextId;
  }

  next(): number {
    if (this.nextId >= this.highWaterMark) this.reserve();
    return this.nextId++;
  }

  private reserve(): void {
    const recordId = this.nextId++;
    this.highWaterMark = this.nextId + this.batchSize;
    this.checkpoint(recordId, this.highWaterMark);
  }
}
