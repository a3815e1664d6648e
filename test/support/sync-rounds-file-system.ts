import type { JournalFile, JournalFileSystem } from '../../src/server/storage/journal/journal-file-system';

/** A sync as the file system saw it: a file's fdatasync or a directory's fsync. */
export interface HeldSync {
  operation: 'datasync' | 'syncDirectory';
  path: string;
}

const QUIET_TURNS = 10;
const DEADLINE_MS = 10_000;

/**
 * A JournalFileSystem whose syncs (fdatasync and directory fsync), while `holding`, wait until the
 * test releases them, all those waiting at once: a round. How many rounds a piece of work needs
 * before it is on disk is how many sync waits it costs one after another (syncs that run side by
 * side share a round), whatever the disk's speed.
 */
export class SyncRoundsFileSystem implements JournalFileSystem {
  holding = false;
  private waiting: Array<HeldSync & { release: () => void }> = [];

  constructor(readonly inner: JournalFileSystem) {}

  mkdir(directory: string): Promise<void> {
    return this.inner.mkdir(directory);
  }

  list(directory: string): Promise<string[]> {
    return this.inner.list(directory);
  }

  exists(path: string): Promise<boolean> {
    return this.inner.exists(path);
  }

  async open(path: string, create: boolean): Promise<JournalFile> {
    return new RoundFile(this, await this.inner.open(path, create));
  }

  rename(from: string, to: string): Promise<void> {
    return this.inner.rename(from, to);
  }

  remove(path: string): Promise<void> {
    return this.inner.remove(path);
  }

  async syncDirectory(directory: string): Promise<void> {
    await this.held({ operation: 'syncDirectory', path: directory });
    await this.inner.syncDirectory(directory);
  }

  /** @internal Waits for the test's release while holding. */
  held(sync: HeldSync): Promise<void> {
    if (!this.holding) return Promise.resolve();
    return new Promise((release) => this.waiting.push({ ...sync, release }));
  }

  /**
   * Releases rounds until `finished` (checked between them), each once no more syncs join it;
   * returns the syncs of each round. Throws when the work waits for nothing, or past a deadline.
   */
  async roundsUntil(finished: () => boolean): Promise<HeldSync[][]> {
    const rounds: HeldSync[][] = [];
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      await this.quiet(finished, deadline);
      if (finished()) return rounds;
      if (this.waiting.length === 0) throw new Error('the work is not done, yet no sync waits');
      const round = this.waiting;
      this.waiting = [];
      rounds.push(round.map(({ operation, path }) => ({ operation, path })));
      for (const sync of round) sync.release();
    }
  }

  /** Waits until the syncs waiting stay the same for some turns (or the work is done). */
  private async quiet(finished: () => boolean, deadline: number): Promise<void> {
    let seen = -1;
    for (let stable = 0; stable < QUIET_TURNS && !finished();) {
      if (Date.now() > deadline) throw new Error('sync rounds: past the deadline');
      await new Promise((resolve) => setImmediate(resolve));
      stable = this.waiting.length === seen ? stable + 1 : 0;
      seen = this.waiting.length;
    }
  }
}

class RoundFile implements JournalFile {
  constructor(
    private readonly fileSystem: SyncRoundsFileSystem,
    private readonly inner: JournalFile,
  ) {}

  get path(): string {
    return this.inner.path;
  }

  size(): Promise<number> {
    return this.inner.size();
  }

  read(buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
    return this.inner.read(buffer, offset, length, position);
  }

  write(buffer: Buffer, offset: number, length: number, position: number): Promise<void> {
    return this.inner.write(buffer, offset, length, position);
  }

  async datasync(): Promise<void> {
    await this.fileSystem.held({ operation: 'datasync', path: this.inner.path });
    await this.inner.datasync();
  }

  truncate(size: number): Promise<void> {
    return this.inner.truncate(size);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
