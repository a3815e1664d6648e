import { NodeManager } from '../ha/node-manager';
import { DataDirectoryLockedError } from './data-directory-locked-error';
import type { LockHolder } from './lock-holder';

export interface DataDirectoryLockOptions {
  /** create-journal-dir: make the directory if it is missing; otherwise a missing one is an error. */
  createDirectory: boolean;
  /** The environment of the child that takes the lock (its PATH finds flock or perl). */
  env?: NodeJS.ProcessEnv;
}

/**
 * A live broker's hold on its journal directory: the live lock of its node manager (server.lock)
 * for the broker's life, its node id read from there (or made and written for a new directory;
 * one written before server.lock existed brings the id of its `node-id` file), its state LIVE
 * while it runs and PAUSED after a clean stop (a backup on a shared store reads a crash from LIVE
 * left behind).
 */
export class DataDirectoryLock {
  private released = false;

  private constructor(
    readonly directory: string,
    readonly nodeId: string,
    /** The node manager that holds the live lock (the broker's, for the rest of its life). */
    readonly nodeManager: NodeManager,
  ) {}

  /**
   * Locks `directory`'s server.lock without waiting: DataDirectoryLockedError, naming the
   * directory and the holder, when another broker (in this process or another) has it. Nothing is
   * written while refusing.
   */
  static async acquire(directory: string, options: DataDirectoryLockOptions): Promise<DataDirectoryLock> {
    const manager = await NodeManager.open(directory, options);
    try {
      if (!(await manager.tryStartLive()))
        throw new DataDirectoryLockedError(directory, await holderOnceWritten(manager));
      return new DataDirectoryLock(directory, manager.nodeId as string, manager);
    } catch (error) {
      await manager.close();
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
      if (clean) await this.nodeManager.pauseLiveServer();
    } finally {
      await this.nodeManager.close();
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
export async function holderOnceWritten(manager: NodeManager): Promise<LockHolder | null> {
  const deadline = Date.now() + HOLDER_LINE_WAIT_MS;
  for (;;) {
    const holder = await manager.readHolder();
    if (holder !== null || Date.now() >= deadline) return holder;
    await new Promise((resolve) => setTimeout(resolve, HOLDER_LINE_POLL_MS));
  }
}
