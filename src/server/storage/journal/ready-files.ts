import type { JournalDataFile } from './journal-data-file';
import type { JournalFiles } from './journal-files';

/**
 * Empty files waiting to become the current file, oldest id first. The next one is always being
 * prepared ahead in the background, so that rolling over never waits for a file to be created.
 */
export class ReadyFiles {
  private readonly files: JournalDataFile[] = [];

  constructor(
    private readonly directory: JournalFiles,
    private readonly onFailure: (error: Error) => void,
  ) {}

  get count(): number {
    return this.files.length;
  }

  /** Adds an empty file found at load (already open). */
  addFound(file: JournalDataFile): void {
    this.files.push(file);
  }

  /** Starts preparing a new file (or re-initialising a retired one, by its .tmp name). */
  prepare(reuse: string | null): void {
    const file = this.directory.prepareDataFile(reuse);
    file.opened.catch((error: Error) => this.onFailure(error));
    this.files.push(file);
  }

  /** The next file to append to, possibly still being prepared; one more is started behind it. */
  take(): JournalDataFile {
    if (this.files.length === 0) this.prepare(null);
    const next = this.files.shift()!;
    if (this.files.length === 0) this.prepare(null);
    return next;
  }

  /** Waits until every file being prepared is ready (close), closes them all. */
  async close(): Promise<void> {
    const files = this.files.splice(0);
    for (const file of files) {
      const handle = await file.opened.catch(() => null);
      await handle?.close();
    }
  }
}
