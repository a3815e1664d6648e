import * as path from 'node:path';
import type { Logger } from '../../core/remoting';
import type { JournalFile, JournalFileSystem } from './journal/journal-file-system';
import { GroupedDirectorySync } from './grouped-directory-sync';
import { StorageError } from './storage-error';

const EXTENSION = '.msg';

/**
 * The files of large-messages-directory: one `<message id>.msg` per message too large for a journal
 * record (HornetQ's layout), holding the message's encoding. The journal keeps a header record that
 * says what the file must hold. Writes run in the background, each file's fdatasync alongside the
 * others' (a commit of several waits for one sync, not one per file); `write` and `afterWrites`
 * say when they are on disk (written, fdatasync'd, and the directory synced so the name survives).
 */
export class LargeMessageStore {
  private started = 0;
  /** Writes not yet on disk. */
  private readonly pending = new Set<Promise<void>>();
  /** The last operation on each message's file, so that a removal follows its write. */
  private readonly lastOperation = new Map<number, Promise<void>>();
  private failure: Error | null = null;
  private readonly failureListeners: Array<(error: Error) => void> = [];
  /** The files created together share one sync of the directory. */
  private readonly directorySync: GroupedDirectorySync;

  constructor(
    readonly directory: string,
    private readonly fileSystem: JournalFileSystem,
    /** create-journal-dir: create the directory when missing, else refuse to open. */
    private readonly createDirectory: boolean,
    private readonly logger: Logger,
  ) {
    this.directorySync = new GroupedDirectorySync(() => this.fileSystem.syncDirectory(this.directory));
  }

  /** Writes started so far: it only grows, so that it can count in Durability.syncRequests. */
  get writesStarted(): number {
    return this.started;
  }

  /** Opens the directory and returns the message ids that have a file, in no particular order. */
  async open(): Promise<number[]> {
    if (!(await this.fileSystem.exists(this.directory))) {
      if (!this.createDirectory)
        throw new StorageError(
          `large-messages-directory ${this.directory} does not exist (create-journal-dir is false)`,
        );
      await this.fileSystem.mkdir(this.directory);
    }
    const ids: number[] = [];
    for (const name of await this.fileSystem.list(this.directory)) {
      const id = messageIdOf(name);
      if (id !== null) ids.push(id);
    }
    return ids;
  }

  /**
   * The message ids that have a file, writing nothing: none when the directory does not exist yet
   * (open() creates it), as a load that may still be refused must leave no trace.
   */
  async existingIds(): Promise<number[]> {
    if (!(await this.fileSystem.exists(this.directory))) return [];
    const ids: number[] = [];
    for (const name of await this.fileSystem.list(this.directory)) {
      const id = messageIdOf(name);
      if (id !== null) ids.push(id);
    }
    return ids;
  }

  /**
   * Starts writing a message's file. The promise resolves once it is on disk and rejects when the
   * write failed (which fails the store too: onFailure); `afterWrites` covers it as well.
   */
  write(messageId: number, encoding: Buffer): Promise<void> {
    if (this.failure !== null) throw this.failure;
    this.started++;
    const written = this.after(messageId, () => this.writeFile(messageId, encoding));
    this.pending.add(written);
    written.then(
      () => this.pending.delete(written),
      (error: unknown) => {
        this.pending.delete(written);
        this.fail(error instanceof Error ? error : new Error(String(error)));
      },
    );
    return written;
  }

  /** Calls `done` once every write started so far is on disk: at once when none is pending. */
  afterWrites(done: (error: Error | null) => void): void {
    if (this.failure !== null || this.pending.size === 0) {
      done(this.failure);
      return;
    }
    Promise.all([...this.pending]).then(
      () => done(this.failure),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  }

  onFailure(listener: (error: Error) => void): void {
    this.failureListeners.push(listener);
  }

  /** A message's file, or null when there is none. */
  async read(messageId: number): Promise<Buffer | null> {
    const filePath = this.pathOf(messageId);
    if (!(await this.fileSystem.exists(filePath))) return null;
    const file = await this.fileSystem.open(filePath, false);
    try {
      const size = await file.size();
      const bytes = Buffer.allocUnsafe(size);
      let read = 0;
      while (read < size) {
        const count = await file.read(bytes, read, size - read, read);
        if (count === 0) break;
        read += count;
      }
      return bytes.subarray(0, read);
    } finally {
      await file.close();
    }
  }

  /**
   * Removes a message's file once any write of it is done. Not synced (as HornetQ's DELETE): a
   * file that comes back after a crash has no header left, and the next open removes it.
   */
  remove(messageId: number): void {
    const filePath = this.pathOf(messageId);
    this.after(messageId, () => this.fileSystem.remove(filePath)).catch((error: unknown) => {
      // A file that could not be removed is an orphan the next open removes: nothing is lost.
      if (!isMissing(error))
        this.logger.warn({ err: error, file: filePath }, 'could not remove a large-message file');
    });
  }

  /** Removes a file now (an orphan found at open). */
  async removeNow(messageId: number): Promise<void> {
    await this.after(messageId, () => this.fileSystem.remove(this.pathOf(messageId))).catch(
      (error: unknown) => {
        if (!isMissing(error)) throw error;
      },
    );
  }

  /** Waits for every write and removal started so far. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.lastOperation.values()]);
    if (this.failure !== null) throw this.failure;
  }

  pathOf(messageId: number): string {
    return path.join(this.directory, `${messageId}${EXTENSION}`);
  }

  /**
   * The directory is synced alongside the file's own fdatasync rather than after it (and once for
   * the files created together): the name exists once the file is open, and both being on disk
   * is all that is needed, in either order.
   */
  private async writeFile(messageId: number, encoding: Buffer): Promise<void> {
    const file = await this.fileSystem.open(this.pathOf(messageId), true);
    const [contents, name] = await Promise.allSettled([
      writeAndSync(file, encoding),
      this.directorySync.request(),
    ]);
    if (contents.status === 'rejected') throw contents.reason;
    if (name.status === 'rejected') throw name.reason;
  }

  /** Runs `operation` after the last one on the same message's file, whatever that one's outcome. */
  private after(messageId: number, operation: () => Promise<void>): Promise<void> {
    const previous = this.lastOperation.get(messageId) ?? Promise.resolve();
    const next = previous.then(operation, operation);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.lastOperation.set(messageId, settled);
    void settled.then(() => {
      if (this.lastOperation.get(messageId) === settled) this.lastOperation.delete(messageId);
    });
    return next;
  }

  private fail(error: Error): void {
    if (this.failure !== null) return;
    this.failure = error;
    for (const listener of this.failureListeners) listener(error);
  }
}

/** Replaces the file's contents with `encoding` and syncs it; closes it whatever happens. */
async function writeAndSync(file: JournalFile, encoding: Buffer): Promise<void> {
  try {
    await file.truncate(0);
    await file.write(encoding, 0, encoding.length, 0);
    await file.datasync();
  } finally {
    await file.close();
  }
}

/** `<id>.msg` → id; null for any other name (a stray file is left alone). */
function messageIdOf(name: string): number | null {
  if (!name.endsWith(EXTENSION)) return null;
  const digits = name.slice(0, -EXTENSION.length);
  if (!/^[0-9]{1,16}$/.test(digits)) return null;
  const id = Number(digits);
  return Number.isSafeInteger(id) ? id : null;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}
