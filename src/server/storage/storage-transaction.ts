import type { JournalTransactionRecord } from './journal/journal';

/**
 * The records of one storage transaction, collected until its commit writes them to the journal
 * together, with what the storage changed in its own bookkeeping meanwhile: undone if that write
 * is refused (a record too large, a journal that failed), so that the storage
 * stays as if the transaction had never begun. Work that only a written commit allows (removing
 * a large message's file) waits for it.
 */
export class StorageTransaction {
  readonly records: JournalTransactionRecord[] = [];
  private readonly undoSteps: Array<() => void> = [];
  private readonly commitSteps: Array<() => void> = [];

  add(record: JournalTransactionRecord): void {
    this.records.push(record);
  }

  /** How to take back a change the transaction made to the storage's bookkeeping. */
  onUndo(step: () => void): void {
    this.undoSteps.push(step);
  }

  /** What to do once the commit is written. */
  onCommit(step: () => void): void {
    this.commitSteps.push(step);
  }

  committed(): void {
    for (const step of this.commitSteps) step();
  }

  /** Takes back every change, the last first. */
  undo(): void {
    for (let i = this.undoSteps.length - 1; i >= 0; i--) this.undoSteps[i]?.();
  }
}
