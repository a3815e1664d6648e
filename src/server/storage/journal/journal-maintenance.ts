import type { JournalOptions } from './journal';
import { JournalCompactor } from './journal-compactor';
import type { JournalDataFile } from './journal-data-file';
import type { JournalFiles } from './journal-files';
import type { JournalWriter } from './journal-writer';
import type { LiveRecord, LiveRecords } from './live-records';
import type { ReadyFiles } from './ready-files';
import { selectReclaimable } from './select-reclaimable';

/** What maintenance works on: the journal's own structures, shared, not copied. */
export interface MaintainedJournal {
  options: JournalOptions;
  files: JournalFiles;
  live: LiveRecords;
  ready: ReadyFiles;
  /** Files holding records, in journal order; the writer's current file is the last. */
  dataFiles: JournalDataFile[];
  writer: JournalWriter;
  chunkSize: number;
  /**
   * Writes the journal's state file listing these files (in journal order) unless it lists them
   * already: before any of its files goes, and after a roll-over.
   */
  recordFiles(names: string[]): Promise<void>;
  /** False once the journal closes or fails: a queued pass then does nothing. */
  isRunning(): boolean;
  fail(error: Error): void;
}

/**
 * Reclaim, then compaction when worth it, in the background after a roll-over (or a closed file's
 * last flush), one pass at a time, never blocking appends. Any failure is fatal to the journal.
 */
export class JournalMaintenance {
  private chain: Promise<void> = Promise.resolve();
  private queued = false;
  /** The compaction running, if any: deletes appended meanwhile must reach its copies. */
  private compactor: JournalCompactor | null = null;

  constructor(private readonly journal: MaintainedJournal) {}

  /** Settles when the passes queued so far are done (close waits for it). */
  get idle(): Promise<void> {
    return this.chain;
  }

  schedule(): void {
    if (this.queued) return;
    this.queued = true;
    this.chain = this.chain
      .then(async () => {
        this.queued = false;
        if (!this.journal.isRunning()) return;
        // A roll-over added a file: listed, a later load knows it was there.
        await this.journal.recordFiles(this.journal.dataFiles.map((file) => file.name));
        await this.reclaim();
        await this.compactIfWorthIt();
      })
      .catch((error: Error) => this.journal.fail(error));
  }

  /** A delete was appended (after `live` was updated): `killed` is what it killed. */
  noteDelete(killed: LiveRecord | undefined, deletingFile: JournalDataFile): void {
    this.compactor?.noteDelete(killed, deletingFile);
  }

  private async reclaim(): Promise<void> {
    const { dataFiles, files, ready, options, writer } = this.journal;
    const reclaimable = selectReclaimable(dataFiles, writer.currentFile);
    if (reclaimable.length === 0) return;
    // The deletes that killed these records may still be in a buffer: they must be on disk before
    // the records go, or a crash would lose the records without their deletes (not a prefix).
    await writer.drain();
    // Unlisted first: a file that is listed and not there at load is a lost file, not a reclaimed one.
    const kept = dataFiles.filter((file) => !reclaimable.includes(file)).map((file) => file.name);
    await this.journal.recordFiles(kept);
    for (const file of reclaimable) {
      dataFiles.splice(dataFiles.indexOf(file), 1);
      file.freed = true;
      for (const other of dataFiles) other.deletesInto.delete(file);
      const reuse = await files.retire(file, ready.count < options.minFiles);
      if (reuse !== null) ready.prepare(reuse);
    }
  }

  /**
   * HornetQ's trigger: more data files than journal-compact-min-files, and live records filling
   * less than journal-compact-percentage of them. The closed files are compacted, not the current.
   */
  private async compactIfWorthIt(): Promise<void> {
    const { options, dataFiles, live, writer } = this.journal;
    const count = dataFiles.length;
    if (options.compactMinFiles === 0 || count <= options.compactMinFiles) return;
    if (live.liveBytes >= (options.compactPercentage / 100) * count * options.fileSize) return;
    const current = writer.currentFile;
    const sources = dataFiles.slice(0, dataFiles.indexOf(current));
    if (sources.length === 0) return;
    const settings = { ...options, chunkSize: this.journal.chunkSize };
    const compactor = new JournalCompactor(settings, this.journal.files, live, sources, current);
    this.compactor = compactor;
    try {
      // The snapshot leaves out records already deleted: those deletes (and the sources' last
      // flushes) must be on disk before the old files go.
      await writer.drain();
      await compactor.run(
        (outputs) => {
          dataFiles.splice(0, sources.length, ...outputs);
          for (const source of sources) source.freed = true;
          for (const file of dataFiles) for (const source of sources) file.deletesInto.delete(source);
        },
        (outputs) =>
          this.journal.recordFiles([...outputs, ...dataFiles.slice(sources.length).map((file) => file.name)]),
      );
    } finally {
      this.compactor = null;
    }
  }
}
