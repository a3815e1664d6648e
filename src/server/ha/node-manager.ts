import { randomUUID } from 'node:crypto';
import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readLegacyNodeId } from '../node-id';
import { DEFAULT_LOCK_POLL_MS, FileLock } from '../lock/file-lock';
import { currentHolder, type LockHolder } from '../lock/lock-holder';
import { SERVER_LOCK_FILE, ServerLockFile, ServerLockState } from '../lock/server-lock-file';
import { StorageError } from '../storage/storage-error';

/**
 * The backup lock's file, beside server.lock. HornetQ takes its live and backup locks as byte
 * ranges of server.lock (bytes 1 and 2), with fcntl(2) underneath. Ours cannot: Node has no lock
 * call, so a short-lived child takes each lock for us, and only flock(2) locks outlive the child
 * (they belong to the open file we keep; fcntl locks belong to the process that took them and go
 * with it). flock locks the whole file, so the second lock needs a second file. server.lock keeps
 * HornetQ's layout (state byte, node id at byte 3): the live lock is the flock on server.lock.
 */
export const BACKUP_LOCK_FILE = 'backup.lock';

export interface NodeManagerOptions {
  /** create-journal-dir: make the directory if it is missing; otherwise a missing one is an error. */
  createDirectory: boolean;
  /**
   * How often a lock is tried while another holds it, and a state that says "wait" is read again
   * (ms): HornetQ's lock tries are 500 ms apart, its state reads 2 s.
   */
  pollMs?: number;
  /** The environment of the child that takes each lock (its PATH finds flock or perl). */
  env?: NodeJS.ProcessEnv;
}

/**
 * HornetQ's FileLockNodeManager for a shared store: which broker of a live/backup pair serves a
 * journal directory. server.lock holds the state (LIVE, FAILING_BACK, PAUSED, NOT_STARTED, first
 * start) and the pair's node id, which the backup serves with after it takes over; the flock on
 * server.lock is the live lock, held by whoever serves; the flock on backup.lock lets one backup
 * at a time wait for the live lock. The OS lets each lock go when its holder dies, kill -9
 * included: that is how a backup learns that its live crashed.
 *
 * One instance per broker; its methods are HornetQ's and are called in HornetQ's order
 * (startLive, or startBackup, awaitLiveNode, releaseBackup; then pauseLiveServer or
 * crashLiveServer). Waits end early, with the signal's reason, when their signal is aborted.
 */
export class NodeManager {
  private liveLock: FileLock | null = null;
  private backupLock: FileLock | null = null;
  private knownNodeId: string | null = null;
  private closed = false;

  private constructor(
    readonly directory: string,
    private stateHandle: FileHandle,
    private readonly pollMs: number,
    private readonly env: NodeJS.ProcessEnv | undefined,
  ) {}

  /**
   * Opens `directory`'s server.lock, making it (HornetQ's first-start header and a new node id,
   * or the id of a `node-id` file written before server.lock existed) when it is not there yet.
   * Takes no lock.
   */
  static async open(directory: string, options: NodeManagerOptions): Promise<NodeManager> {
    if (process.platform === 'win32') {
      throw new StorageError(
        `cannot lock the data directory ${directory}: Windows has no flock(2), and a broker never runs on a directory it has not locked`,
      );
    }
    const file = path.join(directory, SERVER_LOCK_FILE);
    let handle: FileHandle;
    try {
      if (options.createDirectory) await mkdir(directory, { recursive: true });
      await ServerLockFile.createIfAbsent(
        file,
        async () => (await readLegacyNodeId(directory)) ?? randomUUID(),
      );
      handle = await open(file, 'r+');
    } catch (error) {
      if (error instanceof StorageError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT' && !options.createDirectory
          ? `the directory does not exist (create-journal-dir is false)`
          : (error as Error).message;
      throw new StorageError(`cannot open the data directory lock ${file}: ${why}`, { cause: error });
    }
    const manager = new NodeManager(directory, handle, options.pollMs ?? DEFAULT_LOCK_POLL_MS, options.env);
    manager.knownNodeId = await manager.contents.readNodeId();
    return manager;
  }

  /** The pair's node id, as server.lock holds it (null only for a file an older version left without one). */
  get nodeId(): string | null {
    return this.knownNodeId;
  }

  get serverLockFile(): string {
    return path.join(this.directory, SERVER_LOCK_FILE);
  }

  /** Whether this manager holds the live lock (serves, or is about to). */
  get holdsLive(): boolean {
    return this.liveLock?.held === true;
  }

  /** Whether this manager holds the backup lock (is the one backup waiting for the live lock). */
  get holdsBackup(): boolean {
    return this.backupLock?.held === true;
  }

  async readState(): Promise<ServerLockState | null> {
    return this.contents.readState();
  }

  /** Who wrote themselves down as the live lock's holder (null if no one, or damaged). */
  async readHolder(): Promise<LockHolder | null> {
    return this.contents.readHolder();
  }

  /**
   * Becomes live if the live lock is free, without waiting: true when it is ours (LIVE written, and
   * this process written down as the holder), false when another holds it (nothing written).
   */
  async tryStartLive(): Promise<boolean> {
    const lock = await this.openLock(SERVER_LOCK_FILE);
    if (!(await releasedUnless(lock, () => lock.tryLock()))) return false;
    this.liveLock = lock;
    await this.becomeLive(undefined);
    return true;
  }

  /**
   * HornetQ's startLiveNode: FAILING_BACK, which asks a backup that serves in our place to stop
   * (if it allows fail-back), then the live lock, waited for, then LIVE.
   */
  async startLive(signal?: AbortSignal): Promise<void> {
    await this.contents.writeState(ServerLockState.FAILING_BACK);
    this.liveLock = await this.waitForLock(SERVER_LOCK_FILE, signal);
    await this.becomeLive(undefined);
  }

  /** HornetQ's startBackup: the backup lock, waited for (another backup may be waiting), then the node id. */
  async startBackup(signal?: AbortSignal): Promise<void> {
    this.backupLock = await this.waitForLock(BACKUP_LOCK_FILE, signal);
    this.knownNodeId ??= await this.contents.readNodeId();
  }

  /**
   * HornetQ's awaitLiveNode: returns holding the live lock once the live is gone, i.e. the lock is
   * free and the state still says LIVE (it died serving, or stopped with failover-on-shutdown).
   * PAUSED (a clean stop), FAILING_BACK (a live on its way back) and a directory no live has
   * served yet mean "wait": the state is read first, and the lock tried only after LIVE, so that
   * a waiting backup does not hold the lock (even for a moment) while a live starts.
   * The taker writes itself down as a backup serving in its live's place.
   */
  async awaitLiveNode(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      await this.followReplacedFile();
      if ((await this.contents.readState()) === ServerLockState.LIVE && (await this.tryTakeLiveLock())) {
        await this.becomeLive('backup');
        return;
      }
      await pause(this.pollMs, signal);
    }
  }

  /** HornetQ's releaseBackup: lets the next backup wait for the live lock. */
  async releaseBackup(): Promise<void> {
    const lock = this.backupLock;
    this.backupLock = null;
    await lock?.release();
  }

  /** A clean stop that keeps the backup waiting: PAUSED, then the live lock let go. */
  async pauseLiveServer(): Promise<void> {
    if (this.liveLock === null) return;
    await this.contents.writeState(ServerLockState.PAUSED);
    await this.crashLiveServer();
  }

  /**
   * Lets go of the live lock and writes nothing: the state stays LIVE, as after a crash, so a
   * waiting backup takes over (failover-on-shutdown, a store that failed, a backup handing back).
   */
  async crashLiveServer(): Promise<void> {
    const lock = this.liveLock;
    this.liveLock = null;
    await lock?.release();
  }

  /** HornetQ's isAwaitingFailback: a returning live has asked the one serving to hand back. */
  async isAwaitingFailback(): Promise<boolean> {
    return (await this.contents.readState()) === ServerLockState.FAILING_BACK;
  }

  /**
   * Why the live lock this manager holds no longer keeps other brokers out, or null while it
   * does. The flock stays with our open file whatever happens to the path, so what can go wrong
   * is the path: server.lock removed, replaced by another file (which anyone can lock), or its
   * file system gone (unmounted, a network mount that no longer answers). Any of those lets a
   * backup take a lock of its own while we still write.
   */
  async liveLockProblem(): Promise<string | null> {
    const lock = this.liveLock;
    if (lock === null) return 'this broker does not hold the live lock';
    const file = this.serverLockFile;
    let ours: { dev: number; ino: number };
    try {
      ours = await lock.fileHandle.stat();
    } catch (error) {
      return `server.lock can no longer be read through the open file (${(error as Error).message})`;
    }
    try {
      const current = await stat(file);
      if (current.dev !== ours.dev || current.ino !== ours.ino)
        return `${file} is no longer the file this broker locked (it was replaced, or its directory moved or was mounted over)`;
      return null;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT'
        ? `${file} was removed (or its directory)`
        : `${file} cannot be reached (${(error as Error).message})`;
    }
  }

  /** Lets go of every lock (writing nothing) and closes the files; the manager is done with. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([this.crashLiveServer(), this.releaseBackup()]);
    await this.stateHandle.close();
  }

  private get contents(): ServerLockFile {
    if (this.closed) throw new StorageError(`the node manager of ${this.directory} is closed`);
    return new ServerLockFile(this.stateHandle);
  }

  private openLock(name: string): Promise<FileLock> {
    return FileLock.open(path.join(this.directory, name), this.env === undefined ? {} : { env: this.env });
  }

  private async waitForLock(name: string, signal: AbortSignal | undefined): Promise<FileLock> {
    const lock = await this.openLock(name);
    await releasedUnless(lock, async () => {
      await lock.lock({ pollMs: this.pollMs, ...(signal === undefined ? {} : { signal }) });
      return true;
    });
    return lock;
  }

  /** The live lock, if free, kept only while the state (read again under it) still says LIVE. */
  private async tryTakeLiveLock(): Promise<boolean> {
    const lock = await this.openLock(SERVER_LOCK_FILE);
    const taken = await releasedUnless(
      lock,
      async () => (await lock.tryLock()) && (await this.contents.readState()) === ServerLockState.LIVE,
    );
    if (taken) this.liveLock = lock;
    return taken;
  }

  /** The id (made now for a file an older version left without one), this process as holder, LIVE. */
  private async becomeLive(role: 'backup' | undefined): Promise<void> {
    this.knownNodeId = await this.contents.loadOrCreateNodeId(
      async () => (await readLegacyNodeId(this.directory)) ?? randomUUID(),
    );
    await this.contents.writeHolder(currentHolder(new Date(), role));
    await this.contents.writeState(ServerLockState.LIVE);
  }

  /**
   * A waiting backup reads the state through the file at server.lock's path: when that is now
   * another file (an operator restored it, say), the state read must be the new file's.
   */
  private async followReplacedFile(): Promise<void> {
    const [ours, current] = await Promise.all([
      this.stateHandle.stat(),
      stat(this.serverLockFile).catch(() => null),
    ]);
    if (current === null || (current.dev === ours.dev && current.ino === ours.ino)) return;
    const replacement = await open(this.serverLockFile, 'r+');
    const previous = this.stateHandle;
    this.stateHandle = replacement;
    await previous.close();
  }
}

/** Runs `keep`; unless it says true, `lock` is released (also when it throws). */
async function releasedUnless(lock: FileLock, keep: () => Promise<boolean>): Promise<boolean> {
  let kept = false;
  try {
    kept = await keep();
    return kept;
  } finally {
    if (!kept) await lock.release();
  }
}

/** Waits `ms`; an abort rejects with the signal's reason (what the aborter said), not a generic AbortError. */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(ms, undefined, signal === undefined ? {} : { signal });
  } catch (error) {
    if (signal?.aborted === true) throw signal.reason;
    throw error;
  }
}
