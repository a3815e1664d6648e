import type { JournalDataFile } from './journal-data-file';

export interface RecordLocation {
  file: JournalDataFile;
  offset: number;
  length: number;
}

/** A live record id: where its add and every update since are (compaction copies them all). */
export interface LiveRecord {
  readonly id: number;
  readonly locations: RecordLocation[];
}

/**
 * The record ids not deleted, with the per-file counts reclaim and compaction need: every add or
 * update raises its file's live count, a delete lowers the count of each file holding the id's
 * records and notes, in the deleting file, which files it reached into.
 */
export class LiveRecords {
  private readonly records = new Map<number, LiveRecord>();
  private bytes = 0;

  get size(): number {
    return this.records.size;
  }

  /** Bytes of every live record's frames (the compaction trigger compares it to the files' size). */
  get liveBytes(): number {
    return this.bytes;
  }

  has(id: number): boolean {
    return this.records.has(id);
  }

  get(id: number): LiveRecord | undefined {
    return this.records.get(id);
  }

  values(): IterableIterator<LiveRecord> {
    return this.records.values();
  }

  /** An add, or an update of a live id: one more live record at `location`. */
  record(id: number, location: RecordLocation): void {
    let live = this.records.get(id);
    if (live === undefined) {
      live = { id, locations: [] };
      this.records.set(id, live);
    }
    live.locations.push(location);
    this.count(location, 1);
  }

  /** Kills every record of `id`; `deletingFile` holds the delete. Returns what was live. */
  delete(id: number, deletingFile: JournalDataFile): LiveRecord | undefined {
    const live = this.records.get(id);
    if (live === undefined) return undefined;
    this.records.delete(id);
    for (const location of live.locations) {
      this.count(location, -1);
      deletingFile.countDeleteInto(location.file);
    }
    return live;
  }

  /** Compaction moved a live record: the old location's count goes to the new one. */
  move(location: RecordLocation, to: RecordLocation): void {
    this.count(location, -1);
    this.count(to, 1);
    location.file = to.file;
    location.offset = to.offset;
    location.length = to.length;
  }

  private count(location: RecordLocation, sign: 1 | -1): void {
    location.file.liveRecords += sign;
    location.file.liveBytes += sign * location.length;
    this.bytes += sign * location.length;
  }
}
