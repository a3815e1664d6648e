import type { JournalFileSystem } from '../storage/journal/journal-file-system';

/**
 * The file layer the page store runs on: the journal's (so that tests put the same fault-injecting
 * layer under both), and removing the empty directory of an address that no longer pages.
 */
export interface PageFileSystem extends JournalFileSystem {
  /** Removes an empty directory; resolves when it is already gone. */
  removeDirectory(directory: string): Promise<void>;
}
