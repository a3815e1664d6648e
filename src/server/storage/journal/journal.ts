import type { Logger } from '../../../core/remoting';
import type { DamageReport } from '../damage/damage-report';
import type { JournalFileSystem } from './journal-file-system';

/**
 * An append-only record journal, HornetQ's model (JournalImpl): records are added, updated and
 * deleted by a numeric id; a transaction's records become visible together with its commit. The
 * journal knows nothing of messages or queues: a user type byte and an opaque body are what it
 * keeps. The broker's storage manager maps its state onto records.
 */
export interface Journal {
  /**
   * Reads every record still live, in append order, handing them to `visitor`, then opens for
   * appending. Streams: files are read in bounded chunks. A torn or corrupt tail is cut off; a
   * corrupt record before the tail rejects with an error naming file and offset (unless the
   * journal was opened to skip corrupt records). Call once, before any append.
   */
  load(visitor: JournalRecordVisitor, damage?: DamageReport): Promise<JournalLoadReport>;
  /**
   * load()'s first half: reads every live record, notes damage in `damage` (by default refusing
   * all), and writes nothing. Then open() (or close()).
   */
  read(visitor: JournalRecordVisitor, damage?: DamageReport): Promise<JournalLoadReport>;
  /** load()'s second half, after read(): repairs a torn tail and takes appends. */
  open(): Promise<void>;
  appendAdd(id: number, userType: number, body: Buffer, sync: boolean): void;
  appendUpdate(id: number, userType: number, body: Buffer, sync: boolean): void;
  appendDelete(id: number, sync: boolean): void;
  /**
   * Appends a transaction's records and its commit, all in one file and one write: after a crash
   * either all of them load or none does.
   */
  appendTransaction(records: readonly JournalTransactionRecord[], sync: boolean): void;
  /**
   * Nothing appended from now on reaches the disk before `ready` resolves: a record that depends
   * on another file (a large message's header on its file) is written only after that file is on
   * disk, and so is everything after it, in order. A rejection of `ready` fails the journal.
   */
  holdAppendsUntil(ready: Promise<unknown>): void;
  /** Grows by one for each append made with `sync` (see Durability in storage-manager.ts). */
  readonly syncRequests: number;
  /** Calls `done` once everything appended so far is on disk; at once when nothing waits. */
  afterSync(done: (error: Error | null) => void): void;
  /** A write or sync failed: the journal takes no more appends and every waiting `done` got the error. */
  onFailure(listener: (error: Error) => void): void;
  /** Flushes and syncs what is pending and closes every file. */
  close(): Promise<void>;
}

export type JournalTransactionRecord =
  { kind: 'add' | 'update'; id: number; userType: number; body: Buffer } | { kind: 'delete'; id: number };

/**
 * Receives the live records at load, in append order (a committed transaction's records at its
 * commit). `body` is a view of a read buffer, valid during the call only: copy what you keep.
 */
export interface JournalRecordVisitor {
  add(id: number, userType: number, body: Buffer): void;
  update(id: number, userType: number, body: Buffer): void;
  delete(id: number): void;
}

export interface JournalLoadReport {
  files: number;
  records: number;
  bytes: number;
  milliseconds: number;
  /** Where a torn or corrupt tail was cut off, or null. */
  truncatedAt: { file: string; offset: number } | null;
  /** Corrupt records skipped before the tail (only when opened with skipCorruptRecords). */
  skipped: Array<{ file: string; offset: number }>;
  /** Transactions found without their commit, and so rolled back. */
  rolledBackTransactions: number;
}

/** hornetq-configuration.xml's journal settings, for one journal instance (HornetQ's defaults). */
export interface JournalOptions {
  directory: string;
  /** File names are `<prefix>-<n>.<extension>` (HornetQ: hornetq-data / hq, hornetq-bindings / bindings). */
  filePrefix: string;
  fileExtension: string;
  /** journal-file-size: 10 MiB (the bindings journal: 1 MiB). */
  fileSize: number;
  /** journal-min-files: 2. */
  minFiles: number;
  /** journal-compact-min-files: 10; 0 disables compaction. */
  compactMinFiles: number;
  /** journal-compact-percentage: 30. */
  compactPercentage: number;
  /** journal-buffer-timeout in nanoseconds: the longest a requested sync waits for more records. */
  bufferTimeoutNs: number;
  /** journal-buffer-size: 490 KiB; a record larger than this or the file is refused. */
  bufferSize: number;
  /** create-journal-dir / create-bindings-dir: create the directory when missing (else refuse). */
  createDirectory: boolean;
  /** Ours: skip a corrupt record before the tail (logged) instead of refusing to load. */
  skipCorruptRecords: boolean;
  fileSystem: JournalFileSystem;
  logger: Logger;
  /** Ours: told how long each group commit's fdatasync took, in seconds (metrics). */
  onSync?: ((seconds: number) => void) | undefined;
}
