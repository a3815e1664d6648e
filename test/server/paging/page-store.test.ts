import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import { NodePageFileSystem } from '../../../src/server/paging/node-page-file-system';
import type { PageFileSystem } from '../../../src/server/paging/page-file-system';
import type { JournalFile } from '../../../src/server/storage/journal/journal-file-system';
import { FaultFileSystem } from '../../support/fault-file-system';
import { PageCorruptError, type PageEntry } from '../../../src/server/paging/page-entry-codec';
import { ADDRESS_FILE, PageStore, type PagedRead } from '../../../src/server/paging/page-store';
import { waitFor } from '../../support/wait';

function entry(index: number, queueNames: string[] = ['q1']): PageEntry {
  const message = new CoreMessage();
  message.messageId = index + 1;
  message.address = 'orders';
  message.durable = index % 2 === 0;
  message.body = Buffer.from(`message ${index} `.padEnd(100, '.'));
  return {
    message,
    targets: queueNames.map((queueName) => ({ queueName, deliveryCount: index % 3, scheduledTime: 0 })),
  };
}

describe('PageStore', () => {
  let directory: string;
  let root: string;
  let lost: Array<{ error: Error; count: number; unread: ReadonlyMap<string, number> }>;
  let errors: string[];
  let stores: PageStore[];
  let readable: number;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'page-store-'));
    directory = join(root, 'orders');
    lost = [];
    errors = [];
    stores = [];
    readable = 0;
  });

  afterEach(async () => {
    await Promise.all(stores.map((store) => store.stop()));
    await rm(root, { recursive: true, force: true });
  });

  let written: number;
  let resumed: number;

  function store(
    pageSizeBytes: number,
    pageMaxCacheSize: number,
    fileSystem: PageFileSystem = new NodePageFileSystem(),
  ): PageStore {
    written = 0;
    resumed = 0;
    const created = new PageStore({
      directory,
      address: 'orders',
      pageSizeBytes,
      pageMaxCacheSize,
      fileSystem,
      retryDelayMs: 5,
      onWritesResumed: () => resumed++,
      ready: Promise.resolve(),
      onReadable: () => readable++,
      onWritten: () => written++,
      onLost: (error, count, unread) => lost.push({ error, count, unread }),
      onError: (error, activity) => errors.push(`${activity}: ${error.message}`),
    });
    stores.push(created);
    return created;
  }

  async function pageFiles(): Promise<string[]> {
    return (await readdir(directory)).filter((name) => name.endsWith('.page')).sort();
  }

  /** Waits for the store to say that a page has come in from disk since `before`. */
  async function pageCameIn(pages: PageStore, before: number, queue = 'q1'): Promise<void> {
    await waitFor(() => readable > before || pages.unreadOf(queue) === 0, 'a page to come in');
  }

  /** Reads every entry of `queue`, waiting for pages to come in from disk. */
  async function readAll(pages: PageStore, queue = 'q1'): Promise<PagedRead[]> {
    const read: PagedRead[] = [];
    while (pages.unreadOf(queue) > 0) {
      const before = readable;
      const next = pages.next(queue);
      if (next !== null) read.push(next);
      else await pageCameIn(pages, before, queue);
    }
    return read;
  }

  it('reads entries back in the order they were appended, across page files written to disk', async () => {
    const pages = store(1024, 2);
    for (let i = 0; i < 60; i++) pages.append(entry(i, i % 4 === 0 ? ['q1', 'q2'] : ['q1']));
    await pages.idle();
    expect(pages.size).toBe(60);
    const files = await pageFiles();
    expect(files.length).toBeGreaterThanOrEqual(5);
    expect(files[0]).toBe('000000001.page');
    expect(await readFile(join(directory, ADDRESS_FILE), 'utf8')).toBe('orders');
    // Only the cache window (2 pages) and the page still filling stay in memory.
    expect(pages.pagesInMemory).toBeLessThanOrEqual(3);

    const read = await readAll(pages);
    expect(read.map((e) => e.message.messageId)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(read[4]?.target).toEqual({ queueName: 'q1', deliveryCount: 1, scheduledTime: 0 });
    expect(read[4]?.sequence).toBe(4);
    // q2 reads its own 15 entries at its own pace; the pages go once both have read them.
    expect(pages.size).toBe(15);
    const second = await readAll(pages, 'q2');
    expect(second.map((r) => r.message.messageId)).toEqual(Array.from({ length: 15 }, (_, i) => 4 * i + 1));
    expect(second[1]?.target).toEqual({ queueName: 'q2', deliveryCount: 1, scheduledTime: 0 });
    expect(pages.isEmpty).toBe(true);
    await pages.idle();
    expect(await pageFiles()).toEqual([]);
    expect(read[7]?.message.body.toString()).toBe('message 7 '.padEnd(100, '.'));
    expect(read[7]?.message.durable).toBe(false);
    expect(lost).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('holds at most page-max-cache-size pages in memory while reading, and removes each page file once read', async () => {
    const pages = store(1024, 2);
    for (let i = 0; i < 80; i++) pages.append(entry(i));
    await pages.idle();
    const written = (await pageFiles()).length;
    let maxInMemory = 0;
    let read = 0;
    while (!pages.isEmpty) {
      maxInMemory = Math.max(maxInMemory, pages.pagesInMemory);
      const before = readable;
      if (pages.next('q1') !== null) read++;
      else await pageCameIn(pages, before);
    }
    expect(read).toBe(80);
    expect(maxInMemory).toBeLessThanOrEqual(3);
    await pages.idle();
    expect(written).toBeGreaterThan(5);
    expect(await pageFiles()).toEqual([]);
  });

  it('writes out a full page even while it is being read, and reads on from where it was', async () => {
    const pages = store(1024, 1);
    pages.append(entry(0));
    expect(pages.next('q1')?.message.messageId).toBe(1);
    for (let i = 1; i < 30; i++) pages.append(entry(i));
    const read = await readAll(pages);
    expect(read.map((e) => e.message.messageId)).toEqual(Array.from({ length: 29 }, (_, i) => i + 2));
    await pages.idle();
    expect(await pageFiles()).toEqual([]);
  });

  it('gives up a page whose entry is corrupt, naming the file and the offset', async () => {
    const pages = store(1024, 1);
    for (let i = 0; i < 40; i++) pages.append(entry(i));
    await pages.idle();
    const second = join(directory, '000000002.page');
    const bytes = await readFile(second);
    const firstLength = bytes.readUInt32BE(0) + 8;
    bytes[firstLength + 30] = (bytes[firstLength + 30] as number) ^ 0xff;
    await writeFile(second, bytes);

    const read = await readAll(pages);
    expect(lost).toHaveLength(1);
    const { error, count, unread } = lost[0] as (typeof lost)[number];
    expect(error).toBeInstanceOf(PageCorruptError);
    expect(error.message).toBe(
      `page file ${second} is corrupt at offset ${firstLength}: ${(error as PageCorruptError).message.split(': ').slice(1).join(': ')}`,
    );
    expect((error as PageCorruptError).file).toBe(second);
    expect((error as PageCorruptError).offset).toBe(firstLength);
    expect(error.message).toMatch(/checksum 0x[0-9a-f]{8} does not match the stored 0x[0-9a-f]{8}/);
    // The first entry of page 2 was read; the rest of it is lost, reported by queue.
    expect(unread.get('q1')).toBe(count);
    expect(read.length + count).toBe(40);
    const ids = read.map((e) => e.message.messageId);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('retires: its directory goes once its file operations are done', async () => {
    const pages = store(1024, 1);
    for (let i = 0; i < 20; i++) pages.append(entry(i));
    await readAll(pages);
    await pages.retire();
    await expect(readdir(directory)).rejects.toThrow(/ENOENT/);
    expect(errors).toEqual([]);
  });

  it('reads each queue through a cursor of its own: a page goes once every queue has read it', async () => {
    const pages = store(1024, 1);
    for (let i = 0; i < 40; i++) pages.append(entry(i, ['live', 'away']));
    await pages.idle();
    const files = (await pageFiles()).length;
    expect(files).toBeGreaterThan(3);
    const live = await readAll(pages, 'live');
    expect(live.map((r) => r.message.messageId)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // The other queue has read nothing: every entry and every page file is still there for it.
    expect(pages.size).toBe(40);
    expect(pages.unreadOf('away')).toBe(40);
    await pages.idle();
    expect((await pageFiles()).length).toBe(files);
    // Each read is a copy of its own.
    const away = await readAll(pages, 'away');
    expect(away.map((r) => r.message.messageId)).toEqual(live.map((r) => r.message.messageId));
    expect(away[0]?.message).not.toBe(live[0]?.message);
    expect(pages.isEmpty).toBe(true);
    await pages.idle();
    expect(await pageFiles()).toEqual([]);
  });

  it('cursors reading at many places keep at most twice page-max-cache-size written pages in memory', async () => {
    const queues = Array.from({ length: 10 }, (_, i) => `q${i}`);
    const pages = store(1024, 2);
    for (let i = 0; i < 100; i++) pages.append(entry(i, queues));
    await pages.idle();
    expect((await pageFiles()).length).toBeGreaterThan(12);
    // Queue qk reads 9k entries: the cursors stand on as many different pages.
    for (const [k, queue] of queues.entries()) {
      let read = 0;
      while (read < 9 * k) {
        const before = readable;
        if (pages.next(queue) !== null) read++;
        else await pageCameIn(pages, before, queue);
      }
      await pages.idle();
      // The cache window, as many pages where cursors read, and the page filling.
      expect(pages.pagesInMemory).toBeLessThanOrEqual(2 * 2 + 1);
    }
    for (const queue of queues)
      expect((await readAll(pages, queue)).length).toBe(100 - 9 * queues.indexOf(queue));
    expect(pages.isEmpty).toBe(true);
    await pages.idle();
    expect(await pageFiles()).toEqual([]);
  });

  it('a page that cannot be read for now (EIO) keeps its entries and is read again', async () => {
    let failing = true;
    class FlakyReads extends NodePageFileSystem {
      override async open(path: string, create: boolean): Promise<JournalFile> {
        if (failing && !create && path.endsWith('.page'))
          throw Object.assign(new Error(`EIO: i/o error, open '${path}'`), { code: 'EIO' });
        return super.open(path, create);
      }
    }
    const pages = store(1024, 1, new FlakyReads());
    for (let i = 0; i < 30; i++) pages.append(entry(i));
    await pages.idle();
    const read: PagedRead[] = [];
    for (let next = pages.next('q1'); next !== null; next = pages.next('q1')) read.push(next);
    await waitFor(() => errors.length > 0, 'the failed read to be reported');
    // The store asks its queues to try again (onReadable) a little later; each try fails meanwhile.
    for (let attempt = 0; attempt < 3; attempt++) {
      const tried = readable;
      await waitFor(() => readable > tried, 'the queues to be told to try again');
      expect(pages.next('q1')).toBeNull();
    }
    expect(lost).toEqual([]);
    expect(pages.unreadOf('q1')).toBe(30 - read.length);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/reading .*\.page \(its messages are kept.*EIO/);
    failing = false;
    read.push(...(await readAll(pages)));
    expect(read.map((r) => r.message.messageId)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(lost).toEqual([]);
  });

  it('a cursor caught up with the page still filling reads only what is appended after', () => {
    const pages = store(64 * 1024, 1);
    pages.append(entry(0, ['a']));
    pages.append(entry(1, ['b']));
    expect(pages.next('a')?.sequence).toBe(0);
    expect(pages.next('a')).toBeNull();
    pages.append(entry(2, ['a', 'b']));
    expect(pages.next('a')?.sequence).toBe(2);
    expect(pages.next('a')).toBeNull();
    expect(pages.next('b')?.sequence).toBe(1);
    expect(pages.next('b')?.sequence).toBe(2);
    expect(pages.isEmpty).toBe(true);
  });

  it('a page that cannot be written stays in memory, counted as unwritten, and is written once the disk has room', async () => {
    const inner = new NodePageFileSystem();
    const disk = Object.assign(new FaultFileSystem(inner), {
      removeDirectory: (path: string) => inner.removeDirectory(path),
    });
    disk.diskFull = true;
    const pages = store(1024, 1, disk);
    for (let i = 0; i < 30; i++) pages.append(entry(i));
    await waitFor(() => errors.length > 0, 'the failed write to be reported');
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Tried again meanwhile, reported once, and still counted: producers wait for it.
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/creating the page directory .*ENOSPC/);
    expect(errors[1]).toMatch(/writing .*000000001\.page .*producers wait for credits.*ENOSPC/);
    expect(pages.unwrittenPages).toBeGreaterThan(1);
    expect(pages.unwrittenBytes).toBeGreaterThan(1024);
    expect(written).toBe(0);

    disk.diskFull = false;
    await waitFor(() => pages.unwrittenPages === 0, 'the failed pages to be written');
    expect(resumed).toBe(1);
    expect(pages.unwrittenBytes).toBe(0);
    expect((await pageFiles()).length).toBeGreaterThan(1);
    const read = await readAll(pages);
    expect(read.map((r) => r.message.messageId)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    await pages.idle();
    expect(await pageFiles()).toEqual([]);
  });

  it('a page read to its end while its file opens leaves no file behind and no error', async () => {
    let opening = 0;
    class SlowOpen extends NodePageFileSystem {
      override async open(path: string, create: boolean): Promise<JournalFile> {
        if (path.endsWith('.page')) {
          opening++;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        return super.open(path, create);
      }
    }
    const pages = store(1024, 1, new SlowOpen());
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 12; i++) pages.append(entry(round * 12 + i));
      await waitFor(() => opening > round, 'a page write to open its file');
      // Read while the write is opening the page file: everything is still in memory.
      while (pages.next('q1') !== null);
    }
    await pages.idle();
    expect(errors).toEqual([]);
    expect(await pageFiles()).toEqual([]);
    expect(pages.unwrittenPages).toBe(0);
  });
});
