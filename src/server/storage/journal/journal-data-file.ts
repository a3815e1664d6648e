import type { JournalFile } from './journal-file-system';
import { FileKind, recordFileId, sequenceOf } from './journal-file-header';

/**
 * One journal file in use, with the counts reclaim decides on (HornetQ's positives and negatives):
 * how many of its add/update records are still live, and into which files its deletes reach.
 * A file prepared in the background exists (name, id) before it is open: `opened` says when.
 */
export class JournalDataFile {
  liveRecords = 0;
  liveBytes = 0;
  /** Files holding records that deletes in this file killed, with how many such records. */
  readonly deletesInto = new Map<JournalDataFile, number>();
  /** Flushes queued or in flight for this file: it may not be reclaimed or compacted until 0. */
  unflushedBatches = 0;
  freed = false;
  private handle: JournalFile | null = null;
  readonly opened: Promise<JournalFile>;

  constructor(
    readonly name: string,
    readonly fileId: number,
    readonly kind: FileKind,
    opening: Promise<JournalFile>,
  ) {
    this.opened = opening.then((handle) => (this.handle = handle));
    // Whoever needs the file awaits `opened` and sees a failure there; this only keeps an unawaited
    // failure (a file prepared ahead, never used) from being an unhandled rejection.
    this.opened.catch(() => undefined);
  }

  /** The open file (only after `opened` resolved). */
  get file(): JournalFile {
    if (this.handle === null) throw new Error(`journal file ${this.name} is not open yet`);
    return this.handle;
  }

  get recordFileId(): number {
    return recordFileId(this.fileId);
  }

  get sequence(): number {
    return sequenceOf(this.fileId);
  }

  countDeleteInto(target: JournalDataFile): void {
    if (target !== this) this.deletesInto.set(target, (this.deletesInto.get(target) ?? 0) + 1);
  }
}
