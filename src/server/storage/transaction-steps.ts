/**
 * What a part of the storage's bookkeeping needs of the open storage transaction, and no more:
 * the parts change their maps at once, and register how to take a change back should the commit
 * not be written, or what to do only once it is. The storage owns the transaction; its parts
 * never see it, so they stay usable (and testable) without the journal.
 */
export interface TransactionSteps {
  /** Within a transaction, how to take back a change just made; outside one, a change is final. */
  changed(undo: () => void): void;
  /** Runs `step` now, or within a transaction once its commit is written. */
  afterCommit(step: () => void): void;
}
