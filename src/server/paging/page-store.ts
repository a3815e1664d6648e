import { join } from 'node:path';
import { BufferWriter } from '../../core/protocol';
import { StorageError } from '../storage/storage-error';
import type { PageFileSystem } from './page-file-system';
import { readPageEntry, writePageEntry, type PageEntry } from './page-entry-codec';

export interface PageStoreOptions {
  /** The address' own directory (see addressDirectoryName). */
  directory: string;
  address: string;
  /** A page is written out once it holds this many bytes (page-size-bytes). */
  pageSizeBytes: number;
  /** Pages at the head held in memory, read ahead of the queues' need (page-max-cache-size). */
  pageMaxCacheSize: number;
  fileSystem: PageFileSystem;
  /** The store's first file operation waits for this (the paging directory cleared at start). */
  ready: Promise<void>;
  /** A page has come into memory from disk: more entries can be read. */
  onReadable(): void;
  /** A sealed page's write is over (done, failed, or no longer needed): unwrittenBytes fell. */
  onWritten(): void;
  /**
   * Entries that will never be read back (a page could not be read, or is corrupt from an entry
   * on), with the number of them each queue had.
   */
  onLost(error: Error, count: number, unreadByQueue: ReadonlyMap<string, number>): void;
  /** A file operation failed; the store carries on (a page whose write failed stays in memory). */
  onError(error: Error, activity: string): void;
}

/** The name of the file in each address directory that says which address it is. */
export const ADDRESS_FILE = 'address.txt';
/** Page files are named by number, zero-padded so that names sort as numbers do. */
export const PAGE_FILE_PATTERN = /^\d{9}\.page$/;

interface Page {
  readonly number: number;
  /** Set while the page fills (it is the last page). */
  writer: BufferWriter | null;
  /** The page's bytes in memory once it is sealed; null while it is only on disk. */
  bytes: Buffer | null;
  /** Where the next entry to read starts. */
  readOffset: number;
  /** Unread entries, and how many of them each queue has (what is lost if the rest cannot be read). */
  unread: number;
  readonly unreadByQueue: Map<string, number>;
  file: 'none' | 'writing' | 'written';
  loading: boolean;
  consumed: boolean;
}

/**
 * One address' page store: entries appended in order and read back in the same order. The last
 * page fills in memory; once it holds page-size-bytes it is sealed and written out (never synced:
 * a memory-overflow spool, not a durability store), and its memory goes once the write is done
 * unless it is within the first page-max-cache-size pages, which stay in memory (or are read back
 * into it) ahead of the reader. A page read to its end is removed. Reads come from memory only,
 * so `next` is synchronous; pages come in from disk in the background, one file operation at a
 * time in order (so a page is never read before its write is done nor removed before it).
 */
export class PageStore {
  private readonly pages: Page[] = [];
  private nextPageNumber = 1;
  private unreadEntries = 0;
  private io: Promise<void>;
  private retired = false;
  private unwritten = 0;
  private unwrittenByteCount = 0;

  constructor(private readonly options: PageStoreOptions) {
    this.io = options.ready.then(() => this.createDirectory());
  }

  /** Entries appended and not yet read back. */
  get size(): number {
    return this.unreadEntries;
  }

  get isEmpty(): boolean {
    return this.unreadEntries === 0;
  }

  /** Pages holding unread entries (the filling one included). */
  get pageCount(): number {
    return this.pages.length;
  }

  /** Pages whose bytes are in memory now: the cached ones, the filling one, those being written. */
  get pagesInMemory(): number {
    let count = 0;
    for (const page of this.pages) if (page.bytes !== null || page.writer !== null) count++;
    return count;
  }

  /** Sealed pages whose write has not completed yet. */
  get unwrittenPages(): number {
    return this.unwritten;
  }

  /** Bytes of the sealed pages whose write has not completed yet. */
  get unwrittenBytes(): number {
    return this.unwrittenByteCount;
  }

  append(entry: PageEntry): void {
    let page = this.pages[this.pages.length - 1];
    if (page?.writer == null) page = this.startPage();
    const writer = page.writer as BufferWriter;
    writePageEntry(writer, entry);
    page.unread++;
    this.unreadEntries++;
    for (const { queueName } of entry.targets)
      page.unreadByQueue.set(queueName, (page.unreadByQueue.get(queueName) ?? 0) + 1);
    if (writer.length >= this.options.pageSizeBytes) this.seal(page);
  }

  /**
   * The oldest unread entry, or null when there is none in memory now: the store is empty, or the
   * next page is still being read from disk (onReadable tells when it is in).
   */
  next(): PageEntry | null {
    for (;;) {
      const page = this.pages[0];
      if (page === undefined || page.unread === 0) return null;
      const bytes = page.writer?.toBuffer() ?? page.bytes;
      if (bytes === null) {
        this.fillCache();
        return null;
      }
      try {
        const { entry, next } = readPageEntry(bytes, page.readOffset, this.pathOf(page));
        page.readOffset = next;
        this.countRead(page, entry);
        if (page.unread === 0 && page.writer === null) this.consume(page);
        return entry;
      } catch (error) {
        this.lose(page, error as Error);
      }
    }
  }

  /**
   * The store holds nothing more and is let go: once its file operations are done, its directory
   * goes. Resolves when it has (errors are reported through onError, never thrown).
   */
  retire(): Promise<void> {
    this.retired = true;
    for (const page of [...this.pages]) this.consume(page);
    this.enqueue('removing the page directory', async () => {
      await this.options.fileSystem.remove(join(this.options.directory, ADDRESS_FILE));
      await this.options.fileSystem.removeDirectory(this.options.directory);
    });
    return this.io;
  }

  /** Resolves once every file operation asked for so far is done. */
  idle(): Promise<void> {
    return this.io;
  }

  private startPage(): Page {
    const page: Page = {
      number: this.nextPageNumber++,
      writer: new BufferWriter(Math.min(this.options.pageSizeBytes + 64, 64 * 1024)),
      bytes: null,
      readOffset: 0,
      unread: 0,
      unreadByQueue: new Map(),
      file: 'none',
      loading: false,
      consumed: false,
    };
    this.pages.push(page);
    return page;
  }

  /** The page is full: its bytes are copied to their exact size (the writer doubles) and written out. */
  private seal(page: Page): void {
    const bytes = Buffer.from((page.writer as BufferWriter).toBuffer());
    page.bytes = bytes;
    page.writer = null;
    page.file = 'writing';
    this.unwritten++;
    this.unwrittenByteCount += bytes.length;
    this.enqueue(`writing ${this.pathOf(page)}`, async () => {
      try {
        await this.write(page);
      } finally {
        this.unwritten--;
        this.unwrittenByteCount -= bytes.length;
        this.options.onWritten();
      }
    });
  }

  private async write(page: Page): Promise<void> {
    if (page.consumed || page.bytes === null) return;
    const { fileSystem } = this.options;
    const path = this.pathOf(page);
    try {
      const file = await fileSystem.open(path, true);
      try {
        await file.write(page.bytes, 0, page.bytes.length, 0);
      } finally {
        await file.close();
      }
    } catch (error) {
      // Nothing is lost: the page stays in memory, where it is read from.
      page.file = 'none';
      throw error;
    }
    page.file = 'written';
    if (page.consumed) await fileSystem.remove(path);
    else if (!this.inCacheWindow(page)) page.bytes = null;
  }

  /** Starts reading the next page of the cache window that is only on disk (one at a time). */
  private fillCache(): void {
    const window = Math.min(this.pages.length, this.options.pageMaxCacheSize);
    for (let i = 0; i < window; i++) {
      const page = this.pages[i] as Page;
      if (page.loading) return;
      if (page.bytes !== null || page.writer !== null) continue;
      page.loading = true;
      this.enqueue(`reading ${this.pathOf(page)}`, () => this.load(page));
      return;
    }
  }

  private async load(page: Page): Promise<void> {
    try {
      if (page.consumed) return;
      const bytes = await this.readFile(this.pathOf(page));
      // Given up meanwhile (the store retired): its bytes are not kept.
      if (!page.consumed) page.bytes = bytes;
    } catch (error) {
      this.lose(page, error as Error);
    } finally {
      page.loading = false;
    }
    this.fillCache();
    this.options.onReadable();
  }

  private async readFile(path: string): Promise<Buffer> {
    const file = await this.options.fileSystem.open(path, false);
    try {
      const bytes = Buffer.allocUnsafe(await file.size());
      let read = 0;
      while (read < bytes.length) {
        const count = await file.read(bytes, read, bytes.length - read, read);
        if (count === 0)
          throw new StorageError(`page file ${path} ended after ${read} of ${bytes.length} bytes`);
        read += count;
      }
      return bytes;
    } finally {
      await file.close();
    }
  }

  private countRead(page: Page, entry: PageEntry): void {
    page.unread--;
    this.unreadEntries--;
    for (const { queueName } of entry.targets) {
      const left = (page.unreadByQueue.get(queueName) ?? 1) - 1;
      if (left > 0) page.unreadByQueue.set(queueName, left);
      else page.unreadByQueue.delete(queueName);
    }
  }

  /** The rest of a page cannot be read: its entries are given up (and reported), the page removed. */
  private lose(page: Page, error: Error): void {
    const count = page.unread;
    this.unreadEntries -= count;
    page.unread = 0;
    const unread = new Map(page.unreadByQueue);
    page.unreadByQueue.clear();
    this.consume(page);
    this.options.onLost(error, count, unread);
  }

  /** A page read to its end (or given up) leaves; its file goes once written (see write). */
  private consume(page: Page): void {
    const index = this.pages.indexOf(page);
    if (index >= 0) this.pages.splice(index, 1);
    page.consumed = true;
    page.bytes = null;
    page.writer = null;
    if (page.file === 'written') {
      const path = this.pathOf(page);
      this.enqueue(`removing ${path}`, () => this.options.fileSystem.remove(path));
    }
    if (!this.retired) this.fillCache();
  }

  private inCacheWindow(page: Page): boolean {
    const index = this.pages.indexOf(page);
    return index >= 0 && index < this.options.pageMaxCacheSize;
  }

  private async createDirectory(): Promise<void> {
    const { fileSystem, directory, address } = this.options;
    try {
      await fileSystem.mkdir(directory);
      const file = await fileSystem.open(join(directory, ADDRESS_FILE), true);
      try {
        const name = Buffer.from(address, 'utf8');
        await file.truncate(0);
        await file.write(name, 0, name.length, 0);
      } finally {
        await file.close();
      }
    } catch (error) {
      this.options.onError(error as Error, `creating the page directory ${directory}`);
    }
  }

  /** Runs a file operation after those before it; a failure is reported and the next one runs. */
  private enqueue(activity: string, operation: () => Promise<void>): void {
    this.io = this.io.then(operation).catch((error: unknown) => {
      this.options.onError(error instanceof Error ? error : new Error(String(error)), activity);
    });
  }

  private pathOf(page: Page): string {
    return join(this.options.directory, `${String(page.number).padStart(9, '0')}.page`);
  }
}
