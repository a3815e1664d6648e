import * as path from 'node:path';
import type { JournalFile, JournalFileSystem } from '../../src/server/storage/journal/journal-file-system';

/**
 * A JournalFileSystem in memory for unit tests of what sits on it (the large-message store). With
 * `holdDatasyncs` set, every datasync waits for `releaseDatasyncs()`, so that a test decides when
 * a file is on disk.
 */
export class MemoryFileSystem implements JournalFileSystem {
  readonly files = new Map<string, Buffer>();
  readonly directories = new Set<string>();
  holdDatasyncs = false;
  private held: Array<() => void> = [];

  async mkdir(directory: string): Promise<void> {
    let current = path.resolve(directory);
    while (!this.directories.has(current)) {
      this.directories.add(current);
      const parent = path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
  }

  async list(directory: string): Promise<string[]> {
    const resolved = path.resolve(directory);
    return [...this.files.keys()]
      .filter((file) => path.dirname(file) === resolved)
      .map((file) => path.basename(file));
  }

  async exists(filePath: string): Promise<boolean> {
    const resolved = path.resolve(filePath);
    return this.files.has(resolved) || this.directories.has(resolved);
  }

  async open(filePath: string, create: boolean): Promise<JournalFile> {
    const resolved = path.resolve(filePath);
    if (!this.files.has(resolved)) {
      if (!create) throw Object.assign(new Error(`ENOENT: ${resolved}`), { code: 'ENOENT' });
      if (!this.directories.has(path.dirname(resolved)))
        throw Object.assign(new Error(`ENOENT: no directory for ${resolved}`), { code: 'ENOENT' });
      this.files.set(resolved, Buffer.alloc(0));
    }
    return new MemoryFile(resolved, this);
  }

  async rename(from: string, to: string): Promise<void> {
    const contents = this.contentsOf(from);
    this.files.delete(path.resolve(from));
    this.files.set(path.resolve(to), contents);
  }

  async remove(filePath: string): Promise<void> {
    if (!this.files.delete(path.resolve(filePath)))
      throw Object.assign(new Error(`ENOENT: ${filePath}`), { code: 'ENOENT' });
  }

  async syncDirectory(): Promise<void> {
    return;
  }

  /** Lets every held datasync finish. */
  releaseDatasyncs(): void {
    const held = this.held;
    this.held = [];
    for (const release of held) release();
  }

  get heldDatasyncs(): number {
    return this.held.length;
  }

  contentsOf(filePath: string): Buffer {
    const contents = this.files.get(path.resolve(filePath));
    if (contents === undefined) throw Object.assign(new Error(`ENOENT: ${filePath}`), { code: 'ENOENT' });
    return contents;
  }

  setContents(filePath: string, contents: Buffer): void {
    this.files.set(path.resolve(filePath), contents);
  }

  datasync(): Promise<void> {
    if (!this.holdDatasyncs) return Promise.resolve();
    return new Promise((resolve) => this.held.push(resolve));
  }
}

class MemoryFile implements JournalFile {
  constructor(
    readonly path: string,
    private readonly fileSystem: MemoryFileSystem,
  ) {}

  async size(): Promise<number> {
    return this.fileSystem.contentsOf(this.path).length;
  }

  async read(buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
    const contents = this.fileSystem.contentsOf(this.path);
    return contents.copy(buffer, offset, position, Math.min(position + length, contents.length));
  }

  async write(buffer: Buffer, offset: number, length: number, position: number): Promise<void> {
    const contents = this.fileSystem.contentsOf(this.path);
    const grown = Buffer.alloc(Math.max(contents.length, position + length));
    contents.copy(grown);
    buffer.copy(grown, position, offset, offset + length);
    this.fileSystem.setContents(this.path, grown);
  }

  datasync(): Promise<void> {
    return this.fileSystem.datasync();
  }

  async truncate(size: number): Promise<void> {
    const contents = this.fileSystem.contentsOf(this.path);
    const resized = Buffer.alloc(size);
    contents.copy(resized, 0, 0, Math.min(size, contents.length));
    this.fileSystem.setContents(this.path, resized);
  }

  async close(): Promise<void> {
    return;
  }
}
