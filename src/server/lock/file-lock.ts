import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { outOfRange } from '../../lang/argument-errors';
import { StorageError } from '../storage/storage-error';

/**
 * One program that locks a descriptor it inherits as its fd 3 with flock(2) and exits: 0 when it
 * took the lock, 1 with nothing on stderr when another open file holds it.
 */
interface Locker {
  readonly program: string;
  readonly args: readonly string[];
}

/**
 * util-linux flock(1) (BusyBox's takes the same arguments), else perl, which macOS and nearly every
 * Linux have, calling the same flock(2).
 */
const LOCKERS: readonly Locker[] = [
  { program: 'flock', args: ['-n', '3'] },
  {
    program: 'perl',
    args: [
      '-MFcntl=:flock',
      '-e',
      'open(my $f, "+<&=", 3) or die "descriptor 3: $!\\n"; exit 0 if flock($f, LOCK_EX | LOCK_NB); exit 1 if $!{EWOULDBLOCK}; die "flock: $!\\n";',
    ],
  },
];

/** How often lock() tries again while another holds the file, unless told (HornetQ's interval). */
export const DEFAULT_LOCK_POLL_MS = 500;
/** A wait that tries less often than once a minute would leave a backup idle long after a crash. */
const MAX_LOCK_POLL_MS = 60_000;
/** What a locker may print on stderr that is kept for the error message. */
const STDERR_LIMIT = 1024;

/**
 * An exclusive lock on a file, held by this process for as long as the file stays open here: the
 * OS lets it go when the process ends in any way (kill -9 included), so a lock is never stale.
 *
 * Node's fs has no lock call, so a short-lived child locks the descriptor it inherits from us:
 * flock(2) locks belong to the open file description, which we still hold after the child exits.
 * Two opens of the file conflict, in one process (two brokers) or in two (node:cluster workers,
 * PM2), as they should; the descriptor is close-on-exec, so no other child of ours inherits it.
 * Waiting is a try every poll interval rather than a child blocked in flock(2), which would
 * outlive us (and then take the lock) if we died while it waited.
 */
export class FileLock {
  private locked = false;
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
    private readonly env: NodeJS.ProcessEnv | undefined,
  ) {}

  /**
   * Opens (creating it if absent, mode 644) `file` without locking it. `env` is the environment the
   * locking child runs in, whose PATH finds flock or perl: process.env unless given.
   */
  static async open(file: string, options: { env?: NodeJS.ProcessEnv } = {}): Promise<FileLock> {
    const handle = await open(file, constants.O_RDWR | constants.O_CREAT, 0o644);
    return new FileLock(file, handle, options.env);
  }

  /** The open file, for reading and writing what it holds (the lock does not stop anyone's I/O). */
  get fileHandle(): FileHandle {
    this.checkOpen();
    return this.handle;
  }

  get held(): boolean {
    return this.locked;
  }

  /** Takes the lock if no other open file holds it; true when it is ours (already ours included). */
  async tryLock(): Promise<boolean> {
    this.checkOpen();
    if (this.locked) return true;
    this.locked = await lockDescriptor(this.handle.fd, this.file, this.env);
    return this.locked;
  }

  /**
   * Takes the lock, waiting for the holder to let go: a try every `pollMs` (HornetQ's node
   * manager tries every 500 ms too). An abort, seen between tries, closes the file (letting go of
   * whatever the wait took) and rejects with the signal's reason; open the file again to go on.
   */
  async lock(options: { signal?: AbortSignal; pollMs?: number } = {}): Promise<void> {
    const { signal, pollMs = DEFAULT_LOCK_POLL_MS } = options;
    if (!Number.isSafeInteger(pollMs) || pollMs < 1 || pollMs > MAX_LOCK_POLL_MS) {
      throw outOfRange(`pollMs must be an integer in 1..${MAX_LOCK_POLL_MS} (actual value: ${pollMs})`);
    }
    try {
      signal?.throwIfAborted();
      while (!(await this.tryLock())) await sleep(pollMs, undefined, { signal });
      signal?.throwIfAborted();
    } catch (error) {
      if (signal?.aborted !== true) throw error;
      await this.release();
      throw signal.reason;
    }
  }

  /** Closes the file, which lets go of the lock; the FileLock is done with. */
  async release(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.locked = false;
    await this.handle.close();
  }

  private checkOpen(): void {
    if (this.closed) throw new StorageError(`the lock on ${this.file} was released`);
  }
}

/** Runs the first locker this system has on `fd`: true when it took the lock, false when it is held. */
async function lockDescriptor(
  fd: number,
  file: string,
  env: NodeJS.ProcessEnv | undefined,
): Promise<boolean> {
  for (const locker of LOCKERS) {
    const outcome = await runLocker(locker, fd, env);
    if (outcome === 'missing') continue;
    if (outcome.exitCode === 0) return true;
    if (outcome.exitCode === 1 && outcome.stderr === '') return false;
    throw new StorageError(
      `cannot lock ${file}: ${locker.program} exited with ${outcome.exitCode ?? outcome.signal}` +
        (outcome.stderr === '' ? '' : ` (${outcome.stderr.trim().split('\n')[0]})`),
    );
  }
  throw new StorageError(
    `cannot lock ${file}: neither flock (util-linux) nor perl is on the PATH, and Node has no file lock of its own; install one of them`,
  );
}

type LockerOutcome = 'missing' | { exitCode: number | null; signal: NodeJS.Signals | null; stderr: string };

function runLocker(locker: Locker, fd: number, env: NodeJS.ProcessEnv | undefined): Promise<LockerOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(locker.program, locker.args, { stdio: ['ignore', 'ignore', 'pipe', fd], env });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(0, STDERR_LIMIT);
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') resolve('missing');
      else reject(new StorageError(`cannot run ${locker.program}: ${error.message}`, { cause: error }));
    });
    child.once('close', (exitCode, signal) => resolve({ exitCode, signal, stderr }));
  });
}
