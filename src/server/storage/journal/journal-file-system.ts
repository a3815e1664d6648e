/**
 * The file operations the journal, the large-message store and the page store use, and nothing
 * else: the seam where tests put a file layer that loses unsynced writes, tears the last one or
 * flips bits (as SQLite's test VFS does). Positions are explicit; nothing depends on a file offset.
 */
export interface JournalFileSystem {
  /** Creates the directory (and its parents). */
  mkdir(directory: string): Promise<void>;
  /** Names (not paths) of the entries of a directory; [] when it does not exist. */
  list(directory: string): Promise<string[]>;
  exists(path: string): Promise<boolean>;
  /** Opens a file for reading and writing, creating it (empty) when `create` and missing. */
  open(path: string, create: boolean): Promise<JournalFile>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  /** Makes created, renamed and removed entries of a directory durable (fsync of the directory). */
  syncDirectory(directory: string): Promise<void>;
}

export interface JournalFile {
  readonly path: string;
  size(): Promise<number>;
  /** Reads up to `length` bytes at `position`; returns how many were read (0 at the end). */
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<number>;
  /** Writes all `length` bytes at `position`. */
  write(buffer: Buffer, offset: number, length: number, position: number): Promise<void>;
  /** fdatasync: what was written is on disk when this resolves. Errors are fatal (fsyncgate). */
  datasync(): Promise<void>;
  truncate(size: number): Promise<void>;
  close(): Promise<void>;
}
