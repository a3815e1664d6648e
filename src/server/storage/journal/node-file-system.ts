import { open, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { JournalFile, JournalFileSystem } from './journal-file-system';

/** JournalFileSystem over node:fs/promises: explicit positions, FileHandle.datasync (fdatasync). */
export class NodeFileSystem implements JournalFileSystem {
  async mkdir(directory: string): Promise<void> {
    await mkdir(directory, { recursive: true });
  }

  async list(directory: string): Promise<string[]> {
    try {
      return await readdir(directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async exists(path: string): Promise<boolean> {
    try {
      await stat(path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  async open(path: string, create: boolean): Promise<JournalFile> {
    // 'r+' never creates; 'a+' would ignore positions on Linux, so create first with 'wx' when asked.
    if (create && !(await this.exists(path))) await (await open(path, 'wx')).close();
    return new NodeFile(path, await open(path, 'r+'));
  }

  async rename(from: string, to: string): Promise<void> {
    await rename(from, to);
  }

  async remove(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  /** A directory's entries become durable by fsync of the directory itself (opened read-only). */
  async syncDirectory(directory: string): Promise<void> {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

class NodeFile implements JournalFile {
  constructor(
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  async size(): Promise<number> {
    return (await this.handle.stat()).size;
  }

  async read(buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
    let total = 0;
    while (total < length) {
      const { bytesRead } = await this.handle.read(buffer, offset + total, length - total, position + total);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    return total;
  }

  async write(buffer: Buffer, offset: number, length: number, position: number): Promise<void> {
    let total = 0;
    while (total < length) {
      const { bytesWritten } = await this.handle.write(
        buffer,
        offset + total,
        length - total,
        position + total,
      );
      total += bytesWritten;
    }
  }

  async datasync(): Promise<void> {
    await this.handle.datasync();
  }

  async truncate(size: number): Promise<void> {
    await this.handle.truncate(size);
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
