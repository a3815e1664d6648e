import type { JournalFile, JournalFileSystem } from '../../src/server/storage/journal/journal-file-system';
import { seededRandom } from './seeded-random';

export { seededRandom };

/**
 * What a crash keeps of the writes made since a file's last datasync: nothing; a random prefix
 * of them; that prefix plus the next write torn at a random byte; or torn at a 512-byte sector
 * boundary (a disk writes whole sectors).
 */
export type CrashMode = 'drop' | 'prefix' | 'torn-byte' | 'torn-sector';
export const CRASH_MODES: readonly CrashMode[] = ['drop', 'prefix', 'torn-byte', 'torn-sector'];

const SECTOR_SIZE = 512;

export interface FileOperation {
  operation: 'open' | 'read' | 'write' | 'datasync' | 'rename' | 'remove' | 'syncDirectory' | 'truncate';
  path: string;
}

interface PendingWrite {
  position: number;
  data: Buffer;
}

/**
 * A JournalFileSystem that loses what a power cut loses, like SQLite's test VFS: every write since
 * a file's last datasync is held here (reads see it) and reaches the file underneath only at
 * datasync, or partly at `crash`. Directory changes (create, rename, remove) are durable at once:
 * the journal syncs the directory after each anyway. After `crash` the handles opened before it
 * fail, as a dead process's would; the file system is then used again as after a restart.
 * `crashWhen` freezes the file system at a chosen operation (it and everything after it fail), for
 * crashing at an exact point; `flipBit` damages a byte already on disk.
 */
export class FaultFileSystem implements JournalFileSystem {
  private readonly pending = new Map<string, PendingWrite[]>();
  private generation = 0;
  private trigger: ((operation: FileOperation) => boolean) | null = null;
  /** Every operation attempted (failed ones too), for tests that count writes and datasyncs. */
  readonly operations: FileOperation[] = [];
  private datasyncGate: Promise<void> | null = null;
  private slow: { matches: (path: string) => boolean; ms: number } | null = null;

  constructor(readonly inner: JournalFileSystem) {}

  /** The operations attempted on `path`, in order. */
  operationsOn(path: string): Array<FileOperation['operation']> {
    return this.operations
      .filter((operation) => operation.path === path)
      .map((operation) => operation.operation);
  }

  /** Holds every datasync (a slow disk) until the returned function is called. */
  holdDatasyncs(): () => void {
    let release!: () => void;
    this.datasyncGate = new Promise((resolve) => (release = resolve));
    return () => {
      this.datasyncGate = null;
      release();
    };
  }

  /**
   * The datasyncs of the paths `matches` takes start `ms` late (a large file takes longer to sync
   * than a journal batch), so that work which does not wait for them overtakes them.
   */
  slowDatasyncs(matches: (path: string) => boolean, ms: number): void {
    this.slow = { matches, ms };
  }

  /** @internal */
  async datasyncAllowed(path: string): Promise<void> {
    const slow = this.slow;
    if (slow !== null && slow.matches(path)) await new Promise((resolve) => setTimeout(resolve, slow.ms));
    while (this.datasyncGate !== null) await this.datasyncGate;
  }

  /**
   * A full disk while set: creating a file or directory and writing fail with ENOSPC (as node:fs
   * reports it), without freezing anything; reads, removes and renames go on. Cleared, space is back.
   */
  diskFull = false;

  /** Runs `action` just before each operation (a test acting at an exact point of the journal's work). */
  beforeOperation: ((operation: FileOperation) => void) | null = null;

  /** From the first operation matching `predicate`, every operation fails until `crash`. */
  crashWhen(predicate: (operation: FileOperation) => boolean): void {
    this.trigger = predicate;
  }

  get isFrozen(): boolean {
    return this.frozenAt !== null;
  }

  /** The operation the file system froze at (crashWhen), or null. */
  frozenAt: FileOperation | null = null;

  /** The power cut: persists what `mode` keeps of every unsynced write, drops the rest. */
  async crash(mode: CrashMode, random: () => number = Math.random): Promise<void> {
    this.generation++;
    this.frozenAt = null;
    this.trigger = null;
    const pending = [...this.pending.entries()];
    this.pending.clear();
    for (const [path, writes] of pending) await this.persist(path, survivors(writes, mode, random));
  }

  /** Flips bit `bit` (0..7) of the byte at `offset` of the durable contents of `path`. */
  async flipBit(path: string, offset: number, bit: number): Promise<void> {
    const file = await this.inner.open(path, false);
    try {
      const byte = Buffer.alloc(1);
      await file.read(byte, 0, 1, offset);
      byte[0] = byte[0]! ^ (1 << bit);
      await file.write(byte, 0, 1, offset);
    } finally {
      await file.close();
    }
  }

  async mkdir(directory: string): Promise<void> {
    this.check({ operation: 'open', path: directory }, this.generation);
    if (this.diskFull && !(await this.inner.exists(directory))) throw noSpace('mkdir', directory);
    await this.inner.mkdir(directory);
  }

  async list(directory: string): Promise<string[]> {
    this.check({ operation: 'read', path: directory }, this.generation);
    return this.inner.list(directory);
  }

  async exists(path: string): Promise<boolean> {
    this.check({ operation: 'read', path }, this.generation);
    return this.inner.exists(path);
  }

  async open(path: string, create: boolean): Promise<JournalFile> {
    this.check({ operation: 'open', path }, this.generation);
    if (this.diskFull && create && !(await this.inner.exists(path))) throw noSpace('open', path);
    return new FaultFile(this, await this.inner.open(path, create), path, this.generation);
  }

  async rename(from: string, to: string): Promise<void> {
    this.check({ operation: 'rename', path: from }, this.generation);
    await this.inner.rename(from, to);
    const writes = this.pending.get(from);
    this.pending.delete(from);
    if (writes !== undefined) this.pending.set(to, writes);
  }

  async remove(path: string): Promise<void> {
    this.check({ operation: 'remove', path }, this.generation);
    await this.inner.remove(path);
    this.pending.delete(path);
  }

  async syncDirectory(directory: string): Promise<void> {
    this.check({ operation: 'syncDirectory', path: directory }, this.generation);
    await this.inner.syncDirectory(directory);
  }

  /** @internal FaultFile's view of the unsynced writes of a path. */
  pendingOf(path: string): PendingWrite[] {
    let writes = this.pending.get(path);
    if (writes === undefined) {
      writes = [];
      this.pending.set(path, writes);
    }
    return writes;
  }

  /** @internal Fails the operation when frozen, crashed since the handle was opened, or triggered. */
  check(operation: FileOperation, generation: number): void {
    this.operations.push(operation);
    this.beforeOperation?.(operation);
    if (generation !== this.generation)
      throw new Error(`crashed: ${operation.operation} ${operation.path} after a crash`);
    if (this.frozenAt === null && this.trigger?.(operation) === true) this.frozenAt = operation;
    if (this.frozenAt !== null)
      throw new Error(`crashed: ${operation.operation} ${operation.path} (file system frozen)`);
  }

  /** @internal Fails when frozen or crashed since the handle was opened (no trigger: mid-operation). */
  checkAlive(path: string, generation: number): void {
    if (generation !== this.generation || this.frozenAt !== null)
      throw new Error(`crashed: datasync ${path} interrupted`);
  }

  /** @internal A datasync: the path's pending writes become durable. */
  async persist(path: string, writes: readonly PendingWrite[]): Promise<void> {
    if (writes.length === 0) return;
    const file = await this.inner.open(path, false).catch(() => null);
    if (file === null) return;
    try {
      for (const write of writes) await file.write(write.data, 0, write.data.length, write.position);
      await file.datasync();
    } finally {
      await file.close();
    }
  }
}

/** The error node:fs gives when the disk is full. */
function noSpace(syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${syscall} '${path}'`), {
    code: 'ENOSPC',
    errno: -28,
    syscall,
    path,
  });
}

function survivors(writes: PendingWrite[], mode: CrashMode, random: () => number): PendingWrite[] {
  if (mode === 'drop' || writes.length === 0) return [];
  const kept = Math.floor(random() * (writes.length + 1));
  if (mode === 'prefix' || kept === writes.length) return writes.slice(0, kept);
  const torn = writes[kept]!;
  let cut = Math.floor(random() * torn.data.length);
  if (mode === 'torn-sector') {
    const end = torn.position + cut;
    cut = Math.max(0, end - (end % SECTOR_SIZE) - torn.position);
  }
  return [...writes.slice(0, kept), { position: torn.position, data: torn.data.subarray(0, cut) }];
}

class FaultFile implements JournalFile {
  constructor(
    private readonly fileSystem: FaultFileSystem,
    private readonly inner: JournalFile,
    readonly path: string,
    private readonly generation: number,
  ) {}

  async size(): Promise<number> {
    this.check('read');
    let size = await this.inner.size();
    for (const write of this.fileSystem.pendingOf(this.path))
      size = Math.max(size, write.position + write.data.length);
    return size;
  }

  async read(buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
    this.check('read');
    const size = await this.size();
    const count = Math.max(0, Math.min(length, size - position));
    buffer.fill(0, offset, offset + count);
    await this.inner.read(buffer, offset, count, position);
    for (const write of this.fileSystem.pendingOf(this.path)) {
      const from = Math.max(position, write.position);
      const to = Math.min(position + count, write.position + write.data.length);
      if (from < to)
        write.data.copy(buffer, offset + from - position, from - write.position, to - write.position);
    }
    return count;
  }

  async write(buffer: Buffer, offset: number, length: number, position: number): Promise<void> {
    this.check('write');
    if (this.fileSystem.diskFull && length > 0) throw noSpace('write', this.path);
    this.fileSystem
      .pendingOf(this.path)
      .push({ position, data: Buffer.from(buffer.subarray(offset, offset + length)) });
  }

  async datasync(): Promise<void> {
    await this.fileSystem.datasyncAllowed(this.path);
    this.check('datasync');
    const writes = this.fileSystem.pendingOf(this.path);
    // A crash in the middle of a datasync stops it there: what is still pending is the crash's.
    while (writes.length > 0) {
      this.fileSystem.checkAlive(this.path, this.generation);
      const write = writes.shift()!;
      await this.inner.write(write.data, 0, write.data.length, write.position);
    }
    await this.inner.datasync();
    this.fileSystem.checkAlive(this.path, this.generation);
  }

  async truncate(size: number): Promise<void> {
    this.check('truncate');
    const writes = this.fileSystem.pendingOf(this.path);
    for (const write of writes)
      if (write.position + write.data.length > size)
        write.data = write.data.subarray(0, Math.max(0, size - write.position));
    await this.inner.truncate(size);
  }

  async close(): Promise<void> {
    // Closing never fails (a crashed process's files are closed by its death): release the handle.
    await this.inner.close();
  }

  private check(operation: FileOperation['operation']): void {
    this.fileSystem.check({ operation, path: this.path }, this.generation);
  }
}
