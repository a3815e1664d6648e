import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { readLegacyNodeId } from '../node-id';
import { StorageError } from '../storage/storage-error';
import { DataDirectoryLockedError } from './data-directory-locked-error';
import { FileLock } from './file-lock';
import { currentHolder, type LockHolder } from './lock-holder';
import { SERVER_LOCK_FILE, ServerLockFile, ServerLockState } from './server-lock-file';

export interface DataDirectoryLockOptions {
  /** create-journal-dir: make the directory if it is missing; otherwise a missing one is an error. */
  createDirectory: boolean;
}

/**
 * A live broker's hold on its journal directory: server.lock locked for the broker's life, its
 * node id read from there (or made and written for a new directory; one written before
 * server.lock existed brings the id of its `node-id` file), its state LIVE while it runs
 * and PAUSED after a clean stop (a backup on a shared store reads a crash from LIVE left behind).
 * The state and node id are HornetQ's FileLockNodeManager's; the live/backup dance on them is not
 * here (one live broker only).
 */
export class DataDirectoryLock {
  private released = false;

  private constructor(
    readonly directory: string,
    readonly nodeId: string,
    private readonly lock: FileLock,
    private readonly contents: ServerLockFile,
  ) {}

  /**
   * Locks `directory`'s server.lock without waiting: DataDirectoryLockedError, naming the
   * directory and the holder, when another broker (in this process or another) has it.
   */
  static async acquire(directory: string, options: DataDirectoryLockOptions): Promise<DataDirectoryLock> {
    if (process.platform === 'win32') {
      throw new StorageError(
        `cannot lock the data directory ${directory}: Windows has no flock(2), and a broker never runs on a directory it has not locked`,
      );
    }
    const lock = await openLockFile(directory, options);
    try {
      const contents = new ServerLockFile(lock.fileHandle);
      if (!(await lock.tryLock()))
        throw new DataDirectoryLockedError(directory, await holderOnceWritten(contents));
      const nodeId = await contents.loadOrCreateNodeId(
        async () => (await readLegacyNodeId(directory)) ?? randomUUID(),
      );
      await contents.writeHolder(currentHolder());
      await contents.writeState(ServerLockState.LIVE);
      return new DataDirectoryLock(directory, nodeId, lock, contents);
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /**
   * Lets go of the directory. After a clean stop PAUSED is written and synced first, so that a
   * backup on the same store does not take over; after a failure (the store failed under the
   * broker) LIVE stays, as after a crash, and a backup would. Once only: a second call does nothing.
   */
  async release({ clean }: { clean: boolean }): Promise<void> {
    if (this.released) return;
    this.released = true;
    try {
      if (clean) await this.contents.writeState(ServerLockState.PAUSED);
    } finally {
      await this.lock.release();
    }
  }
}

/** How long a refused broker waits for the holder to write its line (see holderOnceWritten). */
const HOLDER_LINE_WAIT_MS = 500;
const HOLDER_LINE_POLL_MS = 25;

/**
 * The holder named in server.lock. A broker writes its line just after it takes the lock, so one
 * refused in between (two workers of node:cluster starting together) reads nothing yet: it looks
 * again for a moment before it says the holder did not write one (HornetQ's own broker never does).
 */
async function holderOnceWritten(contents: ServerLockFile): Promise<LockHolder | null> {
  const deadline = Date.now() + HOLDER_LINE_WAIT_MS;
  for (;;) {
    const holder = await contents.readHolder();
    if (holder !== null || Date.now() >= deadline) return holder;
    await new Promise((resolve) => setTimeout(resolve, HOLDER_LINE_POLL_MS));
  }
}

async function openLockFile(
  directory: string,
  { createDirectory }: DataDirectoryLockOptions,
): Promise<FileLock> {
  const file = path.join(directory, SERVER_LOCK_FILE);
  try {
    if (createDirectory) await mkdir(directory, { recursive: true });
    return await FileLock.open(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' && !createDirectory
        ? `the directory does not exist (create-journal-dir is false)`
        : (error as Error).message;
    throw new StorageError(`cannot open the data directory lock ${file}: ${why}`, { cause: error });
  }
}
