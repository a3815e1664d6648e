import { outOfRange } from '../../../lang/argument-errors';
import type { JournalDataFile } from './journal-data-file';
import { FILE_HEADER_SIZE } from './journal-file-header';
import { nextFlush } from './flush-number';
import type { RecordLocation } from './live-records';

/** Buffers kept for the next batches instead of allocating: one being filled, one in flight. */
const MAX_SPARE_BUFFERS = 2;

type SyncCallback = (error: Error | null) => void;

/** Writes a record (or a whole transaction) into `target` at `offset`, stamped with file id and flush number. */
export type RecordWriter = (target: Buffer, offset: number, recordFileId: number, flush: number) => void;

/** One flush: records bound for one contiguous range of one file, written and synced together. */
class Batch {
  used = 0;
  flush: number | null = null;
  syncRequested = false;
  readonly waiters: SyncCallback[] = [];
  /**
   * Settles once what this batch's records depend on (other files) is on disk, or null. It never
   * rejects: a failure to get there fails the writer instead.
   */
  barrier: Promise<unknown> | null = null;

  constructor(
    readonly file: JournalDataFile,
    readonly position: number,
    readonly buffer: Buffer,
  ) {}

  /** Room is bounded by the buffer and by what is left of the file. */
  room(fileSize: number): number {
    return Math.min(this.buffer.length, fileSize - this.position) - this.used;
  }
}

export interface WriterSettings {
  fileSize: number;
  bufferSize: number;
  /** Told how long each flush's fdatasync took, in seconds (the broker's journal sync histogram). */
  onSync?: ((seconds: number) => void) | undefined;
}

/**
 * Group commit. Appends go into one buffer; a flush is ONE write and ONE fdatasync covering every
 * record buffered, and only one flush is in flight at a time: what is appended meanwhile waits in
 * the next buffer and goes with the next flush. A requested sync is flushed at the end of the
 * current event-loop turn (setImmediate), so every append of that turn shares the fdatasync.
 * journal-buffer-timeout is not waited on: the flush in flight already gathers what arrives during
 * its fdatasync. Measured with bench/journal.mjs --flush-delay-ms (a 1 or 3 ms timer instead of
 * setImmediate): records per flush did not grow (≈450 with 1000 appends in flight, bounded by the
 * 490 KiB buffer; 16 with 16 in flight, as every callback appends again in the same turn) and
 * records/s stayed within the noise of the shared disk, so a timer would only add latency.
 * Each flush takes the next flush number and never spans two files. Any write or fdatasync error
 * is fatal (fsyncgate: a failed fsync may have dropped the dirty pages, so it is never retried).
 * Buffers filled while a flush is in flight queue behind it (appends are synchronous and cannot
 * wait); what bounds them is the broker, whose sessions hold their answers until afterSync.
 */
export class JournalWriter {
  private current: Batch;
  private readonly sealed: Batch[] = [];
  private inFlight: Batch | null = null;
  private scheduled = false;
  private failure: Error | null = null;
  private readonly spareBuffers: Buffer[] = [];
  private flushNumber: number;

  constructor(
    private readonly settings: WriterSettings,
    file: JournalDataFile,
    position: number,
    firstFlush: number,
    /** The current file is full: returns the next one (possibly still being prepared). */
    private readonly rollOver: (full: JournalDataFile) => JournalDataFile,
    /** A closed file's last flush completed: it may now be reclaimed. */
    private readonly onClosedFileFlushed: () => void,
    private readonly onFatal: (error: Error) => void,
  ) {
    this.flushNumber = firstFlush;
    this.current = new Batch(file, position, this.takeBuffer());
  }

  /** The largest record or transaction accepted: it must fit the buffer and an empty file. */
  get maxRecordSize(): number {
    return Math.min(this.settings.bufferSize, this.settings.fileSize - FILE_HEADER_SIZE);
  }

  get failed(): Error | null {
    return this.failure;
  }

  get currentFile(): JournalDataFile {
    return this.current.file;
  }

  /** Where the next record goes in the current file (after drain: where the last one ended). */
  get endPosition(): number {
    return this.current.position + this.current.used;
  }

  /**
   * Appends `length` bytes written by `write` as one unit (a record, or a transaction with its
   * commit: one file, one write). Returns where they went.
   */
  append(length: number, write: RecordWriter): RecordLocation {
    if (this.failure !== null)
      throw new Error(`journal failed earlier, no more appends: ${this.failure.message}`);
    if (length > this.maxRecordSize) {
      throw outOfRange(
        `journal record of ${length} bytes is larger than the largest allowed, ${this.maxRecordSize} bytes ` +
          `(journal-buffer-size ${this.settings.bufferSize}, journal-file-size ${this.settings.fileSize} ` +
          `less a ${FILE_HEADER_SIZE}-byte header)`,
      );
    }
    const batch = this.batchWithRoom(length);
    if (batch.flush === null) {
      batch.flush = this.flushNumber;
      this.flushNumber = nextFlush(this.flushNumber);
      batch.file.unflushedBatches++;
    }
    write(batch.buffer, batch.used, batch.file.recordFileId, batch.flush);
    const location = { file: batch.file, offset: batch.position + batch.used, length };
    batch.used += length;
    return location;
  }

  /**
   * Nothing appended from now on is written before `ready` resolves: the batch being filled waits
   * for it, and the batches after it wait behind that one (flushes go one at a time, in order).
   * Records already in that batch wait too; they wait for no more than their own sync would, since
   * a durable answer waits for the same files. A rejection fails the writer, as a failed write.
   */
  holdUntil(ready: Promise<unknown>): void {
    if (this.failure !== null)
      throw new Error(`journal failed earlier, no more appends: ${this.failure.message}`);
    // A rejection fails the writer at once, not when the held batch's turn to flush comes.
    const settled = ready.then(
      () => undefined,
      (error: unknown) => this.fail(error instanceof Error ? error : new Error(String(error))),
    );
    const batch = this.current;
    const earlier = batch.barrier;
    batch.barrier = earlier === null ? settled : Promise.all([earlier, settled]);
  }

  /** A synced append was made: flush at the end of this event-loop turn. */
  requestSync(): void {
    if (this.current.used > 0) this.current.syncRequested = true;
    this.schedule();
  }

  /** Calls `done` after the fdatasync of the flush holding everything appended so far. */
  afterSync(done: SyncCallback): void {
    if (this.failure !== null) return done(this.failure);
    const last = this.lastBatchWithRecords();
    if (last === null) return done(null);
    last.waiters.push(done);
    if (last === this.current) this.requestSync();
  }

  /** Flushes what is buffered; resolves when everything appended is synced. */
  drain(): Promise<void> {
    return new Promise((resolve, reject) =>
      this.afterSync((error) => (error === null ? resolve() : reject(error))),
    );
  }

  /** Any I/O failure elsewhere in the journal is fatal to the writer too. */
  fail(error: Error): void {
    if (this.failure !== null) return;
    this.failure = error;
    const batches = [...(this.inFlight === null ? [] : [this.inFlight]), ...this.sealed, this.current];
    this.sealed.length = 0;
    for (const batch of batches) for (const waiter of batch.waiters.splice(0)) waiter(error);
    this.onFatal(error);
  }

  private batchWithRoom(length: number): Batch {
    let batch = this.current;
    if (this.settings.fileSize - (batch.position + batch.used) < length) {
      // Does not fit the rest of the file: the file is closed and the record goes to the next one.
      // An empty batch is not sealed but replaced: what it was to wait for, its successor waits for.
      const barrier = batch.used === 0 ? batch.barrier : null;
      this.seal();
      const next = this.rollOver(batch.file);
      this.current = batch = new Batch(next, FILE_HEADER_SIZE, this.takeBuffer());
      batch.barrier = barrier;
      this.pump();
    } else if (batch.room(this.settings.fileSize) < length) {
      this.seal();
      batch = this.current;
      this.pump();
    }
    return batch;
  }

  /** Queues the current buffer for flushing and starts the next one right behind it in the file. */
  private seal(): void {
    const batch = this.current;
    if (batch.used === 0) return;
    this.sealed.push(batch);
    this.current = new Batch(batch.file, batch.position + batch.used, this.takeBuffer());
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  /** Starts the next flush unless one is in flight (its completion calls here again). */
  private pump(): void {
    if (this.inFlight !== null || this.failure !== null) return;
    if (this.sealed.length === 0 && this.current.syncRequested) this.seal();
    const batch = this.sealed.shift();
    if (batch === undefined) return;
    this.inFlight = batch;
    this.flush(batch).then(
      () => this.flushed(batch),
      (error: Error) => this.fail(error),
    );
  }

  private async flush(batch: Batch): Promise<void> {
    if (batch.barrier !== null) {
      await batch.barrier;
      if (this.failure !== null) throw this.failure;
    }
    const file = await batch.file.opened;
    await file.write(batch.buffer, 0, batch.used, batch.position);
    const onSync = this.settings.onSync;
    if (onSync === undefined) return file.datasync();
    const started = performance.now();
    await file.datasync();
    onSync((performance.now() - started) / 1000);
  }

  private flushed(batch: Batch): void {
    if (this.failure !== null) return;
    this.inFlight = null;
    batch.file.unflushedBatches--;
    const closedFileSettled = batch.file.unflushedBatches === 0 && batch.file !== this.current.file;
    if (this.spareBuffers.length < MAX_SPARE_BUFFERS) this.spareBuffers.push(batch.buffer);
    for (const waiter of batch.waiters.splice(0)) waiter(null);
    if (closedFileSettled) this.onClosedFileFlushed();
    this.pump();
  }

  private lastBatchWithRecords(): Batch | null {
    if (this.current.used > 0) return this.current;
    return this.sealed.at(-1) ?? this.inFlight;
  }

  private takeBuffer(): Buffer {
    return this.spareBuffers.pop() ?? Buffer.allocUnsafe(this.settings.bufferSize);
  }
}
