import type { Logger } from '../../../core/remoting';
import type { JournalLoadReport, JournalRecordVisitor } from './journal';
import { JournalCorruptionError } from './journal-corruption-error';
import type { JournalDataFile } from './journal-data-file';
import { FILE_HEADER_SIZE, FileKind } from './journal-file-header';
import { checkRecord, decodeRecord, FRAME_OVERHEAD, RecordType, type DecodedRecord } from './journal-record';
import { FileWindowReader } from './file-window-reader';
import { isNextFlush, isNewerFlush } from './flush-number';
import type { LiveRecords, RecordLocation } from './live-records';

export interface LoadingFile {
  data: JournalDataFile;
  size: number;
}

export interface LoaderOutcome {
  report: Omit<JournalLoadReport, 'files' | 'milliseconds'>;
  /** The newest flush number found, or null when no data file holds a record. */
  lastFlush: number | null;
  /** Where appends resume in the last file; `dirtyTail`: bytes after it must be zeroed first. */
  resumeAt: number;
  dirtyTail: boolean;
  nextTxId: number;
  /** What failed at each of report.skipped, in its order. */
  skippedChecks: string[];
}

export interface LoaderSettings {
  skipCorruptRecords: boolean;
  chunkSize: number;
  logger: Logger;
  /**
   * Whether the journal's state file vouches for `file` being there with whatever files were
   * before it (it listed the file): flush numbers may then jump over reclaimed files. A file it
   * does not list came after its last write, when nothing was reclaimed: its flushes must follow on.
   */
  listed: (file: JournalDataFile) => boolean;
  /** Told of a file missing between `before` and `after` (the load goes on: all damage is reported). */
  missingBetween: (before: JournalDataFile, after: JournalDataFile, offset: number, detail: string) => void;
}

interface PendingTx {
  txId: number;
  records: Array<{ record: DecodedRecord; location: RecordLocation }>;
}

type Invalid = { kind: 'end'; dirty: boolean } | { kind: 'skip'; next: number };

/**
 * Reads the files in order, validates every record and hands the live ones to the visitor (a
 * transaction's at its commit), keeping the live-record counts. Where a record fails a check it
 * decides, by what follows, between a torn tail (cut off) and corruption before the tail
 * (rejected, or skipped when the operator asked): flushes are serialized, so a valid record of a
 * later flush proves every earlier flush was synced and only the last flush may be torn.
 */
export class JournalLoader {
  private readonly report: LoaderOutcome['report'] = {
    records: 0,
    bytes: 0,
    truncatedAt: null,
    skipped: [],
    rolledBackTransactions: 0,
  };
  private previousFlush: number | null = null;
  private previousFlushFile: JournalDataFile | null = null;
  /** After a skipped record the next flush number may jump: the skipped span held the flushes between. */
  private flushResync = false;
  private pendingTx: PendingTx | null = null;
  private maxTxId = 0;
  /** What failed at each skipped record (report.skipped's order). */
  private readonly skippedChecks: string[] = [];

  constructor(
    private readonly settings: LoaderSettings,
    private readonly live: LiveRecords,
    private readonly visitor: JournalRecordVisitor,
  ) {}

  /** `files` in load order; `lastDataIndex`: the last file with anything written in it (-1: none). */
  async load(files: readonly LoadingFile[], lastDataIndex: number): Promise<LoaderOutcome> {
    let resumeAt = FILE_HEADER_SIZE;
    let dirtyTail = false;
    for (let index = 0; index <= lastDataIndex; index++) {
      const file = files[index]!;
      const end = await this.scanFile(file, index === lastDataIndex);
      resumeAt = end.position;
      dirtyTail = end.dirty;
    }
    // A transaction may span files; one still without its commit after the last file never had it.
    const last = files[lastDataIndex];
    if (last !== undefined) this.rollBackPending(last.data.name);
    return {
      report: this.report,
      lastFlush: this.previousFlush,
      resumeAt,
      dirtyTail,
      nextTxId: this.maxTxId + 1,
      skippedChecks: this.skippedChecks,
    };
  }

  private async scanFile(file: LoadingFile, isLast: boolean): Promise<{ position: number; dirty: boolean }> {
    const reader = new FileWindowReader(file.data.file, file.size, this.settings.chunkSize);
    let position = FILE_HEADER_SIZE;
    try {
      while (position < file.size) {
        const failure = await this.checkAt(reader, file.data, position);
        if (failure === null) {
          position = this.accept(reader, file.data, position);
          continue;
        }
        const outcome = await this.invalidAt(reader, file, position, failure, isLast);
        if (outcome.kind === 'end') return { position, dirty: outcome.dirty };
        position = outcome.next;
      }
      return { position, dirty: false };
    } finally {
      this.report.bytes += reader.bytesRead;
    }
  }

  /** null when a valid record starts at `position`; 'end' when its length is zero; else what failed. */
  private async checkAt(
    reader: FileWindowReader,
    file: JournalDataFile,
    position: number,
  ): Promise<string | null> {
    let offset = reader.offsetOf(position, FRAME_OVERHEAD);
    if (offset < 0) offset = await reader.load(position, this.settings.chunkSize);
    const available = reader.available(position);
    if (available < 4) return 'end';
    const length = reader.buffer.readUInt32BE(offset);
    if (length === 0)
      return isZero(reader.buffer, offset, Math.min(available, FRAME_OVERHEAD))
        ? 'end'
        : 'length is zero but record bytes follow';
    if (length > FRAME_OVERHEAD && length <= reader.fileSize - position) {
      offset = reader.offsetOf(position, length);
      if (offset < 0) offset = await reader.load(position, length);
    }
    return checkRecord(reader.buffer, offset, reader.available(position), file.recordFileId);
  }

  /** Takes the valid record at `position` (checkAt loaded it); returns where the next one starts. */
  private accept(reader: FileWindowReader, file: JournalDataFile, position: number): number {
    const record = decodeRecord(reader.buffer, reader.offsetOf(position, FRAME_OVERHEAD));
    const flushProblem = this.checkFlush(file, record.flush);
    if (flushProblem !== null) {
      if (flushProblem.missingAfter === null) this.corruptionAt(file, position, flushProblem.check);
      else this.settings.missingBetween(flushProblem.missingAfter, file, position, flushProblem.check);
    }
    this.apply(record, { file, offset: position, length: record.length });
    return position + record.length;
  }

  /**
   * Flush numbers run consecutively over data files; a gap means synced data went missing. Over a
   * gap in file sequence that the state file vouches for (a reclaimed file) they may jump; over one
   * it does not, the file with the flushes between is missing (`missingAfter`: the file before it).
   */
  private checkFlush(
    file: JournalDataFile,
    flush: number,
  ): { check: string; missingAfter: JournalDataFile | null } | null {
    if (file.kind !== FileKind.DATA) return null;
    const previous = this.previousFlush;
    const previousFile = this.previousFlushFile;
    const resync = this.flushResync;
    this.previousFlush = flush;
    this.previousFlushFile = file;
    this.flushResync = false;
    if (previous === null || previousFile === null) return null;
    let valid: boolean;
    if (resync) valid = flush === previous || isNewerFlush(previous, flush);
    else if (previousFile === file) valid = flush === previous || isNextFlush(previous, flush);
    else if (file.sequence === previousFile.sequence + 1) valid = isNextFlush(previous, flush);
    else if (!isNewerFlush(previous, flush)) valid = false;
    // A reclaimed file between the two (a gap in file sequence) took its flushes with it; a file
    // the state file does not list came after any reclaim, so a jump before it is a lost file.
    else if (!isNextFlush(previous, flush) && !this.settings.listed(file)) {
      const check =
        `flush number ${flush} in ${file.name} follows flush ${previous} in ${previousFile.name}: ` +
        'the file(s) holding the flushes between are missing, and none was reclaimed';
      return { check, missingAfter: previousFile };
    } else valid = true;
    if (valid) return null;
    return {
      check: `flush number ${flush} follows flush ${previous}: a synced flush is missing`,
      missingAfter: null,
    };
  }

  private async invalidAt(
    reader: FileWindowReader,
    file: LoadingFile,
    position: number,
    failure: string,
    isLast: boolean,
  ): Promise<Invalid> {
    const after = await this.validRecordsAfter(reader, file.data, position);
    const zeroLength = failure === 'end';
    if (after.first === null && zeroLength) return { kind: 'end', dirty: false };
    const mayBeTorn = file.data.kind === FileKind.DATA && isLast;
    if (mayBeTorn && this.onlyLastFlushAfter(after.flushes)) {
      this.report.truncatedAt = { file: file.data.name, offset: position };
      this.settings.logger.warn(
        { file: file.data.name, offset: position, check: failure },
        'journal: torn tail cut off (the last flush did not complete)',
      );
      return { kind: 'end', dirty: true };
    }
    const check = zeroLength ? 'zero length before further valid records' : failure;
    this.corruptionAt(file.data, position, check);
    this.flushResync = true;
    return after.first === null ? { kind: 'end', dirty: true } : { kind: 'skip', next: after.first };
  }

  /** True when whatever valid follows belongs to one flush, the last one or the one after the last. */
  private onlyLastFlushAfter(flushes: ReadonlySet<number>): boolean {
    if (flushes.size === 0) return true;
    if (flushes.size > 1) return false;
    const [flush] = [...flushes] as [number];
    const previous = this.previousFlush;
    return previous === null || flush === previous || isNextFlush(previous, flush);
  }

  /** Throws, or (skipCorruptRecords) logs and notes the damage and goes on. */
  private corruptionAt(file: JournalDataFile, offset: number, check: string): void {
    if (!this.settings.skipCorruptRecords) throw new JournalCorruptionError(file.name, offset, check);
    this.settings.logger.error({ file: file.name, offset, check }, 'journal: corrupt record skipped');
    this.report.skipped.push({ file: file.name, offset });
    this.skippedChecks.push(check);
  }

  /**
   * Scans byte by byte after `position` for frames that pass every check; collects their flush
   * numbers (stopping once two differ: that already decides) and where the first one starts.
   */
  private async validRecordsAfter(
    reader: FileWindowReader,
    file: JournalDataFile,
    position: number,
  ): Promise<{ first: number | null; flushes: Set<number> }> {
    const flushes = new Set<number>();
    let first: number | null = null;
    let next = await this.findValid(reader, file, position + 1);
    while (next !== null && flushes.size < 2) {
      first ??= next;
      const offset = reader.offsetOf(next, FRAME_OVERHEAD);
      const length = reader.buffer.readUInt32BE(offset);
      flushes.add(reader.buffer.readUInt32BE(offset + 9));
      next = await this.findValid(reader, file, next + length);
    }
    return { first, flushes };
  }

  private async findValid(
    reader: FileWindowReader,
    file: JournalDataFile,
    from: number,
  ): Promise<number | null> {
    const fileId = file.recordFileId;
    for (let position = from; position + FRAME_OVERHEAD <= reader.fileSize; position++) {
      let offset = reader.offsetOf(position, FRAME_OVERHEAD);
      if (offset < 0) offset = await reader.load(position, this.settings.chunkSize);
      const buffer = reader.buffer;
      const type = buffer[offset + 4]!;
      if (type < RecordType.ADD || type > RecordType.COMMIT) continue;
      if (buffer.readUInt32BE(offset + 5) !== fileId) continue;
      const length = buffer.readUInt32BE(offset);
      if (length < FRAME_OVERHEAD || length > reader.fileSize - position) continue;
      offset = reader.offsetOf(position, length);
      if (offset < 0) offset = await reader.load(position, length);
      if (checkRecord(reader.buffer, offset, reader.available(position), fileId) === null) return position;
    }
    return null;
  }

  private apply(record: DecodedRecord, location: RecordLocation): void {
    if (record.type === RecordType.COMMIT) return this.commit(record, location);
    if (
      record.type === RecordType.ADD_TX ||
      record.type === RecordType.UPDATE_TX ||
      record.type === RecordType.DELETE_TX
    ) {
      return this.bufferTxRecord(record, location);
    }
    // A transaction's records and commit are appended with nothing in between: anything else after
    // them means no commit.
    this.rollBackPending(location.file.name);
    this.deliver(record, location);
  }

  private bufferTxRecord(record: DecodedRecord, location: RecordLocation): void {
    this.maxTxId = Math.max(this.maxTxId, record.txId);
    if (this.pendingTx !== null && this.pendingTx.txId !== record.txId)
      this.rollBackPending(location.file.name);
    this.pendingTx ??= { txId: record.txId, records: [] };
    // The read window is reused: a buffered transaction keeps its own copy of each body.
    const copy = { ...record, body: record.body === null ? null : Buffer.from(record.body) };
    this.pendingTx.records.push({ record: copy, location });
  }

  /**
   * The commit counts its transaction's records in its own file; those in earlier files were synced
   * before it was written (or compaction rewrote them as plain records, already delivered).
   */
  private commit(commit: DecodedRecord, location: RecordLocation): void {
    this.maxTxId = Math.max(this.maxTxId, commit.txId);
    const fileName = location.file.name;
    const pending = this.pendingTx;
    const inCommitFile = pending?.records.filter(
      (buffered) => buffered.location.file === location.file,
    ).length;
    if (pending !== null && pending.txId === commit.txId && inCommitFile === commit.count) {
      this.pendingTx = null;
      for (const { record, location } of pending.records) this.deliver(record, location);
      return;
    }
    this.rollBackPending(fileName);
    if (commit.count > 0) this.countRollback(fileName, commit.txId);
  }

  /**
   * No ROLLBACK record is written for it (HornetQ appends one): records and commit are appended
   * with nothing in between, so an incomplete transaction is either a torn tail (cut off and
   * zeroed, gone for good) or
   * damage skipped on purpose, which every later load finds and rolls back the same way.
   * Compaction copies live records only, so it never carries such records over; and a later
   * transaction cannot complete it, as its records must directly precede its commit.
   */
  private rollBackPending(fileName: string): void {
    if (this.pendingTx === null) return;
    this.countRollback(fileName, this.pendingTx.txId);
    this.pendingTx = null;
  }

  private countRollback(fileName: string, txId: number): void {
    this.report.rolledBackTransactions++;
    this.settings.logger.warn(
      { file: fileName, txId },
      'journal: transaction without a valid commit rolled back',
    );
  }

  private deliver(record: DecodedRecord, location: RecordLocation): void {
    switch (record.type) {
      case RecordType.ADD:
      case RecordType.ADD_TX:
        this.live.record(record.id, location);
        this.visitor.add(record.id, record.userType, record.body!);
        break;
      case RecordType.UPDATE:
      case RecordType.UPDATE_TX:
        // An update of an id deleted (and reclaimed) before is history: nothing to deliver.
        if (!this.live.has(record.id)) return;
        this.live.record(record.id, location);
        this.visitor.update(record.id, record.userType, record.body!);
        break;
      default:
        if (this.live.delete(record.id, location.file) === undefined) return;
        this.visitor.delete(record.id);
    }
    this.report.records++;
  }
}

function isZero(buffer: Buffer, offset: number, length: number): boolean {
  for (let index = offset; index < offset + length; index++) if (buffer[index] !== 0) return false;
  return true;
}
