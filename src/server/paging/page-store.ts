import { join } from 'node:path';
import { BufferWriter, type CoreMessage } from '../../core/protocol';
import { StorageError } from '../storage/storage-error';
import type { PageFileSystem } from './page-file-system';
import {
  readPageEntryHeader,
  readPageMessage,
  writePageEntry,
  type PageEntry,
  type PagedTarget,
} from './page-entry-codec';

export interface PageStoreOptions {
  /** The address' own directory (see addressDirectoryName). */
  directory: string;
  address: string;
  /** A page is written out once it holds this many bytes (page-size-bytes). */
  pageSizeBytes: number;
  /** Pages at the head held in memory, read ahead of the slowest cursors (page-max-cache-size). */
  pageMaxCacheSize: number;
  fileSystem: PageFileSystem;
  /** The store's first file operation waits for this (the paging directory cleared at start). */
  ready: Promise<void>;
  /** A page has come into memory from disk: more entries can be read. */
  onReadable(): void;
  /** A sealed page's write is over (done, or no longer needed): unwrittenBytes fell. */
  onWritten(): void;
  /**
   * Entries that will never be read back (a page could not be read, or is corrupt from an entry
   * on), with the number of them each queue had.
   */
  onLost(error: Error, count: number, unreadByQueue: ReadonlyMap<string, number>): void;
  /** A file operation failed; the store carries on (a page whose write failed stays in memory). */
  onError(error: Error, activity: string): void;
  /** Page writes succeed again after failing: the backlog they held is being written. */
  onWritesResumed?(): void;
  /** The first wait before a failed page write is tried again; it doubles up to 2 s. */
  retryDelayMs?: number;
}

/** The name of the file in each address directory that says which address it is. */
export const ADDRESS_FILE = 'address.txt';
/** Page files are named by number, zero-padded so that names sort as numbers do. */
export const PAGE_FILE_PATTERN = /^\d{9}\.page$/;

const DEFAULT_RETRY_DELAY_MS = 50;
const MAX_RETRY_DELAY_MS = 2_000;

/** One entry as a queue's cursor reads it: its place in the address' order, its message, the queue's target. */
export interface PagedRead {
  /** The entry's number in the address' order (0 for the first appended). */
  sequence: number;
  /** A copy of its own: each queue reading the entry gets one. */
  message: CoreMessage;
  target: PagedTarget;
}

interface Page {
  readonly number: number;
  /** The sequence number of the page's first entry. */
  readonly firstSequence: number;
  /** Set while the page fills (it is the last page). */
  writer: BufferWriter | null;
  /** The page's bytes in memory once it is sealed; null while it is only on disk. */
  bytes: Buffer | null;
  /** Targets not yet read, per entry of the page: an entry is done when every queue has read it. */
  readonly targetsLeft: number[];
  /** Entries of the page some queue has still to read. */
  unreadEntries: number;
  /** Entries each queue has still to read here (what is lost per queue if the rest cannot be read). */
  readonly unreadByQueue: Map<string, number>;
  /** none: not written yet; failed: its last write failed (retried); written: on disk. */
  file: 'none' | 'writing' | 'failed' | 'written';
  /** Counted in unwrittenBytes: sealed, and neither written nor given up. */
  unwritten: boolean;
  /** The sealed page's bytes (0 while it fills). */
  sealedBytes: number;
  loading: boolean;
  consumed: boolean;
  /** When a cursor last read here (or the page came in for one): the least recent go first. */
  lastUsed: number;
}

/** Where one queue reads: the page it is in, the offset and index of its next entry there. */
interface Cursor {
  page: Page | null;
  offset: number;
  index: number;
}

/**
 * One address' page store: entries appended in order, each naming the queues it goes to, and read
 * back by a cursor per queue, so that each queue reads at its own pace (one subscription whose
 * consumer is away does not hold up the others). The last page fills in memory; once it holds
 * page-size-bytes it is sealed and written out (never synced: a memory-overflow spool, not a
 * durability store). A page's memory goes once it is written, unless it is among the first
 * page-max-cache-size pages (read ahead of the slowest cursors) or a cursor reads in it (of those,
 * the page-max-cache-size most recently read are kept; see trimCache); a page every queue has read
 * to its end is removed. A write that fails leaves its page in memory, counted as unwritten
 * (so producers wait), and is tried again until it succeeds or is no longer needed. Reads come from
 * memory only, so `next` is synchronous; pages come in from disk in the background, one file
 * operation at a time in order (so a page is never read before its write is done nor removed
 * before it).
 */
export class PageStore {
  private readonly pages: Page[] = [];
  private readonly cursors = new Map<string, Cursor>();
  /** Entries each queue has still to read, over every page. */
  private readonly unreadByQueue = new Map<string, number>();
  private nextPageNumber = 1;
  private appended = 0;
  private unreadEntries = 0;
  private io: Promise<void>;
  private retired = false;
  private stopped = false;
  private unwritten = 0;
  private unwrittenByteCount = 0;
  private directoryReady = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryDelay: number;
  private writesFailing = false;
  /** Ticks once per read and page load, for lastUsed. */
  private clock = 0;

  constructor(private readonly options: PageStoreOptions) {
    this.retryDelay = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    this.io = options.ready.then(() => this.createDirectory());
  }

  /** Entries some queue has still to read. */
  get size(): number {
    return this.unreadEntries;
  }

  get isEmpty(): boolean {
    return this.unreadEntries === 0;
  }

  /** Pages holding entries some queue has still to read (the filling one included). */
  get pageCount(): number {
    return this.pages.length;
  }

  /** Pages whose bytes are in memory now: cached, read in, filling, being written or failed. */
  get pagesInMemory(): number {
    let count = 0;
    for (const page of this.pages) if (page.bytes !== null || page.writer !== null) count++;
    return count;
  }

  /** Sealed pages whose write has not completed yet (failed ones included). */
  get unwrittenPages(): number {
    return this.unwritten;
  }

  /** Bytes of the sealed pages whose write has not completed yet (failed ones included). */
  get unwrittenBytes(): number {
    return this.unwrittenByteCount;
  }

  /** Queues with entries still to read, and how many each. */
  get queuesWithUnread(): ReadonlyMap<string, number> {
    return this.unreadByQueue;
  }

  /** The number the next appended entry gets (see PagedRead.sequence). */
  get nextSequence(): number {
    return this.appended;
  }

  /** Entries `queueName` has still to read. */
  unreadOf(queueName: string): number {
    return this.unreadByQueue.get(queueName) ?? 0;
  }

  append(entry: PageEntry): void {
    let page = this.pages[this.pages.length - 1];
    if (page?.writer == null) page = this.startPage();
    const writer = page.writer as BufferWriter;
    writePageEntry(writer, entry);
    this.appended++;
    page.targetsLeft.push(entry.targets.length);
    page.unreadEntries++;
    this.unreadEntries++;
    for (const { queueName } of entry.targets) {
      page.unreadByQueue.set(queueName, (page.unreadByQueue.get(queueName) ?? 0) + 1);
      this.unreadByQueue.set(queueName, (this.unreadByQueue.get(queueName) ?? 0) + 1);
    }
    if (writer.length >= this.options.pageSizeBytes) this.seal(page);
  }

  /**
   * The oldest entry `queueName` has not read, or null when there is none in memory now: it has
   * read everything, or its next page is still being read from disk (onReadable tells when it is in).
   */
  next(queueName: string): PagedRead | null {
    for (;;) {
      const cursor = this.cursorOf(queueName);
      const page = cursor?.page ?? null;
      if (cursor === undefined || page === null) return null;
      const bytes = page.writer?.toBuffer() ?? page.bytes;
      if (bytes === null) {
        this.load(page);
        return null;
      }
      try {
        const read = this.readAt(cursor, page, bytes, queueName);
        if (read !== null) return read;
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
    this.stopRetrying();
    for (const page of [...this.pages]) this.consume(page);
    this.enqueue('removing the page directory', async () => {
      await this.options.fileSystem.remove(join(this.options.directory, ADDRESS_FILE));
      await this.options.fileSystem.removeDirectory(this.options.directory);
    });
    return this.io;
  }

  /** The broker stops: no write is tried again. Resolves once the file operations under way are done. */
  stop(): Promise<void> {
    this.stopped = true;
    this.stopRetrying();
    return this.io;
  }

  /** Resolves once every file operation asked for so far is done. */
  idle(): Promise<void> {
    return this.io;
  }

  /**
   * The queue's cursor, on the first page where the queue has something to read; undefined when
   * it has nothing to read. A cursor stays on its page while the page is there (a page still
   * filling may get more entries for it), so that it never reads an entry twice.
   */
  private cursorOf(queueName: string): Cursor | undefined {
    if ((this.unreadByQueue.get(queueName) ?? 0) === 0) return undefined;
    let cursor = this.cursors.get(queueName);
    if (cursor === undefined) {
      cursor = { page: null, offset: 0, index: 0 };
      this.cursors.set(queueName, cursor);
    }
    const current = cursor.page;
    if (current !== null && (current.unreadByQueue.get(queueName) ?? 0) > 0) return cursor;
    const found = this.pages.find((page) => (page.unreadByQueue.get(queueName) ?? 0) > 0) ?? null;
    if (found === current) return cursor;
    cursor.page = found;
    cursor.offset = 0;
    cursor.index = 0;
    if (current !== null) this.releaseIfUnused(current);
    return cursor;
  }

  /**
   * Reads on from the cursor to the next entry for the queue; null when the page holds no more for
   * it (the cursor moves on at the next call).
   */
  private readAt(cursor: Cursor, page: Page, bytes: Buffer, queueName: string): PagedRead | null {
    const file = this.pathOf(page);
    while ((page.unreadByQueue.get(queueName) ?? 0) > 0) {
      const offset = cursor.offset;
      if (offset >= bytes.length)
        throw new StorageError(`page file ${file} ends at ${offset} before the entries counted in it`);
      const header = readPageEntryHeader(bytes, offset, file);
      const index = cursor.index;
      cursor.offset = header.next;
      cursor.index++;
      const target = header.targets.find((candidate) => candidate.queueName === queueName);
      if (target === undefined) continue;
      const message = readPageMessage(bytes, header, offset, file);
      page.lastUsed = ++this.clock;
      this.countRead(page, index, queueName);
      return { sequence: page.firstSequence + index, message, target };
    }
    return null;
  }

  private startPage(): Page {
    const page: Page = {
      number: this.nextPageNumber++,
      firstSequence: this.appended,
      writer: new BufferWriter(Math.min(this.options.pageSizeBytes + 64, 64 * 1024)),
      bytes: null,
      targetsLeft: [],
      unreadEntries: 0,
      unreadByQueue: new Map(),
      file: 'none',
      unwritten: false,
      sealedBytes: 0,
      loading: false,
      consumed: false,
      lastUsed: 0,
    };
    this.pages.push(page);
    return page;
  }

  /** The page is full: its bytes are copied to their exact size (the writer doubles) and written out. */
  private seal(page: Page): void {
    const bytes = Buffer.from((page.writer as BufferWriter).toBuffer());
    page.bytes = bytes;
    page.writer = null;
    page.sealedBytes = bytes.length;
    if (page.consumed) return;
    page.unwritten = true;
    this.unwritten++;
    this.unwrittenByteCount += bytes.length;
    this.scheduleWrite(page);
  }

  private scheduleWrite(page: Page): void {
    page.file = 'writing';
    this.enqueue(`writing ${this.pathOf(page)}`, () => this.write(page));
  }

  /**
   * Writes a sealed page. Its bytes are taken before the first await: the page may be read to its
   * end (and its memory let go) while the file opens, and then the file is removed at once. A
   * write that fails leaves no file behind and the page in memory, to be tried again.
   */
  private async write(page: Page): Promise<void> {
    const bytes = page.bytes;
    if (page.consumed || bytes === null || this.stopped) {
      this.settleWrite(page);
      return;
    }
    const { fileSystem } = this.options;
    const path = this.pathOf(page);
    let opened = false;
    try {
      if (!this.directoryReady) await this.makeDirectory();
      const file = await fileSystem.open(path, true);
      opened = true;
      try {
        await file.write(bytes, 0, bytes.length, 0);
      } finally {
        await file.close();
      }
    } catch (error) {
      if (opened) await this.removeQuietly(path);
      if (page.consumed || this.stopped) {
        this.settleWrite(page);
        return;
      }
      page.file = 'failed';
      this.writeFailed(error as Error, path);
      return;
    }
    if (page.consumed) {
      await fileSystem.remove(path);
    } else {
      page.file = 'written';
      if (!this.retains(page)) page.bytes = null;
      this.trimCache();
    }
    this.settleWrite(page);
    this.writeSucceeded();
  }

  /** The page's write is over (done, or no longer needed): producers waiting for it may go on. */
  private settleWrite(page: Page): void {
    if (!page.unwritten) return;
    page.unwritten = false;
    this.unwritten--;
    this.unwrittenByteCount -= page.sealedBytes;
    this.options.onWritten();
  }

  /** Reported once per run of failures; the failed pages are tried again after a growing wait. */
  private writeFailed(error: Error, path: string): void {
    if (!this.writesFailing) {
      this.writesFailing = true;
      this.options.onError(
        error,
        `writing ${path} (the page stays in memory and producers wait for credits until it is written; tried again every ${MAX_RETRY_DELAY_MS} ms at most)`,
      );
    }
    if (this.retryTimer !== null || this.retired || this.stopped) return;
    const delay = this.retryDelay;
    this.retryDelay = Math.min(this.retryDelay * 2, MAX_RETRY_DELAY_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      for (const page of this.pages) if (page.file === 'failed') this.scheduleWrite(page);
    }, delay);
  }

  private writeSucceeded(): void {
    this.retryDelay = this.options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    if (!this.writesFailing) return;
    this.writesFailing = false;
    this.options.onWritesResumed?.();
  }

  private stopRetrying(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** Asks for a page that is only on disk to be read in (and for the cache window ahead). */
  private load(page: Page): void {
    this.startLoad(page);
    this.fillCache();
  }

  /** Starts reading the pages of the cache window that are only on disk. */
  private fillCache(): void {
    const window = Math.min(this.pages.length, this.options.pageMaxCacheSize);
    for (let i = 0; i < window; i++) this.startLoad(this.pages[i] as Page);
  }

  private startLoad(page: Page): void {
    if (page.loading || page.consumed || page.bytes !== null || page.writer !== null) return;
    page.loading = true;
    this.enqueue(`reading ${this.pathOf(page)}`, () => this.loadPage(page));
  }

  private async loadPage(page: Page): Promise<void> {
    try {
      if (page.consumed) return;
      const bytes = await this.readFile(this.pathOf(page));
      // Given up meanwhile (read to its end, or the store retired): its bytes are not kept.
      if (!page.consumed) {
        page.bytes = bytes;
        page.lastUsed = ++this.clock;
        this.trimCache();
      }
    } catch (error) {
      this.lose(page, error as Error);
    } finally {
      page.loading = false;
    }
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

  private countRead(page: Page, index: number, queueName: string): void {
    decrement(page.unreadByQueue, queueName);
    decrement(this.unreadByQueue, queueName);
    const left = (page.targetsLeft[index] as number) - 1;
    page.targetsLeft[index] = left;
    if (left > 0) return;
    page.unreadEntries--;
    this.unreadEntries--;
    if (page.unreadEntries === 0 && page.writer === null) this.consume(page);
  }

  /** The rest of a page cannot be read: its entries are given up (and reported), the page removed. */
  private lose(page: Page, error: Error): void {
    if (page.consumed) return;
    const count = page.unreadEntries;
    this.unreadEntries -= count;
    page.unreadEntries = 0;
    const unread = new Map(page.unreadByQueue);
    for (const [queueName, left] of unread)
      for (let i = 0; i < left; i++) decrement(this.unreadByQueue, queueName);
    page.unreadByQueue.clear();
    this.consume(page);
    this.options.onLost(error, count, unread);
  }

  /** A page every queue has read (or given up) leaves; its file goes once written (see write). */
  private consume(page: Page): void {
    const index = this.pages.indexOf(page);
    if (index >= 0) this.pages.splice(index, 1);
    page.consumed = true;
    for (const [queueName, cursor] of this.cursors) if (cursor.page === page) this.cursors.delete(queueName);
    if (page.file !== 'writing') this.settleWrite(page);
    page.bytes = null;
    page.writer = null;
    if (page.file === 'written') {
      const path = this.pathOf(page);
      this.enqueue(`removing ${path}`, () => this.options.fileSystem.remove(path));
    }
    if (!this.retired) this.fillCache();
  }

  /** Whether a written page keeps its bytes: a cursor reads in it, or it is in the cache window. */
  private retains(page: Page): boolean {
    for (const cursor of this.cursors.values()) if (cursor.page === page) return true;
    const index = this.pages.indexOf(page);
    return index >= 0 && index < this.options.pageMaxCacheSize;
  }

  /**
   * Bounds the written pages kept in memory beyond the cache window to page-max-cache-size more
   * (those where cursors read most recently): however many queues read at different places, the
   * store holds at most twice page-max-cache-size written pages. A cursor whose page went reads
   * it in again when its queue wants more.
   */
  private trimCache(): void {
    const cap = this.options.pageMaxCacheSize;
    const held: Page[] = [];
    for (let i = cap; i < this.pages.length; i++) {
      const page = this.pages[i] as Page;
      if (page.bytes !== null && page.file === 'written') held.push(page);
    }
    if (held.length <= cap) return;
    held.sort((a, b) => a.lastUsed - b.lastUsed);
    for (const page of held.slice(0, held.length - cap)) page.bytes = null;
  }

  /** A cursor has left a written page: its memory goes unless something else keeps it. */
  private releaseIfUnused(page: Page): void {
    if (page.file === 'written' && !page.consumed && !this.retains(page)) page.bytes = null;
  }

  private async createDirectory(): Promise<void> {
    try {
      await this.makeDirectory();
    } catch (error) {
      this.options.onError(error as Error, `creating the page directory ${this.options.directory}`);
    }
  }

  private async makeDirectory(): Promise<void> {
    const { fileSystem, directory, address } = this.options;
    await fileSystem.mkdir(directory);
    const file = await fileSystem.open(join(directory, ADDRESS_FILE), true);
    try {
      const name = Buffer.from(address, 'utf8');
      await file.truncate(0);
      await file.write(name, 0, name.length, 0);
    } finally {
      await file.close();
    }
    this.directoryReady = true;
  }

  private async removeQuietly(path: string): Promise<void> {
    try {
      await this.options.fileSystem.remove(path);
    } catch {
      // What a failed write left is removed at the next start (clearDirectory) if not now.
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

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
