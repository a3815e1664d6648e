import { rmdir } from 'node:fs/promises';
import { NodeFileSystem } from '../storage/journal/node-file-system';
import type { PageFileSystem } from './page-file-system';

/** PageFileSystem on node:fs: the journal's file system, and removing an empty directory. */
export class NodePageFileSystem extends NodeFileSystem implements PageFileSystem {
  async removeDirectory(directory: string): Promise<void> {
    try {
      await rmdir(directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
