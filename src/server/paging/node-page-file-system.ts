import { promises as fs } from 'node:fs';
import type { JournalFile } from '../storage/journal/journal-file-system';
import type { PageFileSystem } from './page-file-system';

/** PageFileSystem on node:fs: positioned reads and writes on file handles, nothing cached. */
export class NodePageFileSystem implements PageFileSystem {
  async mkdir(directory: string): Promise<void> {
    await fs.mkdir(directory, { recursive: true });
  }

  async list(directory: string): Promise<string[]> {
    try {
      return await fs.readdir(directory);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }

  async exists(path: string): Promise<boolean> {
    try {
      await fs.access(path);
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async open(path: string, create: boolean): Promise<JournalFile> {
    // 'r+' opens an existing file; 'a+' would force every write to the end, so a missing file
    // is created with 'wx' first (and one that appeared meanwhile is simply opened).
    if (create) {
      try {
        await (await fs.open(path, 'wx')).close();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    return new NodeFile(path, await fs.open(path, 'r+'));
  }

  async rename(from: string, to: string): Promise<void> {
    await fs.rename(from, to);
  }

  async remove(path: string): Promise<void> {
    await fs.rm(path, { force: true });
  }

  async removeDirectory(directory: string): Promise<void> {
    try {
      await fs.rmdir(directory);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  async syncDirectory(directory: string): Promise<void> {
    const handle = await fs.open(directory, 'r');
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
    private readonly handle: fs.FileHandle,
  ) {}

  async size(): Promise<number> {
    return (await this.handle.stat()).size;
  }

  async read(buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
    return (await this.handle.read(buffer, offset, length, position)).bytesRead;
  }

  async write(buffer: Buffer, offset: number, length: number, position: number): Promise<void> {
    let written = 0;
    while (written < length) {
      const { bytesWritten } = await this.handle.write(
        buffer,
        offset + written,
        length - written,
        position + written,
      );
      written += bytesWritten;
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

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}
