import { dirname } from 'node:path';
import type { JournalFile, JournalFileSystem } from '../../src/server/storage/journal/journal-file-system';

/** A file's bytes, shared by every handle on it (an inode: a handle survives rename and remove). */
class MemoryInode {
  bytes = Buffer.alloc(0);
  size = 0;

  ensure(size: number): void {
    if (size > this.bytes.length) {
      const grown = Buffer.alloc(Math.max(size, this.bytes.length * 2));
      this.bytes.copy(grown, 0, 0, this.size);
      this.bytes = grown;
    }
    this.size = Math.max(this.size, size);
  }
}

/**
 * A JournalFileSystem in memory, for fast journal tests (under FaultFileSystem, which adds what a
 * crash does). Everything it holds counts as durable.
 */
export class MemoryFileSystem implements JournalFileSystem {
  private readonly files = new Map<string, MemoryInode>();
  private readonly directories = new Set<string>();

  async mkdir(directory: string): Promise<void> {
    for (let path = directory; !this.directories.has(path) && path !== dirname(path); path = dirname(path)) {
      this.directories.add(path);
    }
  }

  async list(directory: string): Promise<string[]> {
    return [...this.files.keys()]
      .filter((path) => dirname(path) === directory)
      .map((path) => path.slice(directory.length + 1));
  }

  async exists(path: string): Promise<boolean> {
    return this.files.has(path) || this.directories.has(path);
  }

  async open(path: string, create: boolean): Promise<JournalFile> {
    let inode = this.files.get(path);
    if (inode === undefined) {
      if (!create) throw Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: 'ENOENT' });
      if (!this.directories.has(dirname(path))) throw new Error(`ENOENT: no such directory for '${path}'`);
      inode = new MemoryInode();
      this.files.set(path, inode);
    }
    return new MemoryFile(path, inode);
  }

  async rename(from: string, to: string): Promise<void> {
    const inode = this.files.get(from);
    if (inode === undefined) throw new Error(`ENOENT: rename '${from}'`);
    this.files.delete(from);
    this.files.set(to, inode);
  }

  async remove(path: string): Promise<void> {
    this.files.delete(path);
  }

  async syncDirectory(): Promise<void> {}

  /** Total bytes held (tests check a journal's disk use). */
  get totalBytes(): number {
    let total = 0;
    for (const inode of this.files.values()) total += inode.size;
    return total;
  }
}

class MemoryFile implements JournalFile {
  private closed = false;

  constructor(
    readonly path: string,
    private readonly inode: MemoryInode,
  ) {}

  async size(): Promise<number> {
    this.checkOpen();
    return this.inode.size;
  }

  async read(buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
    this.checkOpen();
    const count = Math.max(0, Math.min(length, this.inode.size - position));
    if (count > 0) this.inode.bytes.copy(buffer, offset, position, position + count);
    return count;
  }

  async write(buffer: Buffer, offset: number, length: number, position: number): Promise<void> {
    this.checkOpen();
    this.inode.ensure(position + length);
    buffer.copy(this.inode.bytes, position, offset, offset + length);
  }

  async datasync(): Promise<void> {
    this.checkOpen();
  }

  async truncate(size: number): Promise<void> {
    this.checkOpen();
    if (size > this.inode.size) this.inode.ensure(size);
    else {
      this.inode.bytes.fill(0, size, this.inode.size);
      this.inode.size = size;
    }
  }

  async close(): Promise<void> {
    this.checkOpen();
    this.closed = true;
  }

  private checkOpen(): void {
    if (this.closed) throw new Error(`file ${this.path} is closed`);
  }
}
