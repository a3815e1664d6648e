import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import type { Logger } from '../../../src/core/remoting';
import {
  AddressSettingsRepository,
  type AddressSettings,
} from '../../../src/server/postoffice/address-settings';
import type { MessageReference } from '../../../src/server/postoffice/message-reference';
import { PostOffice } from '../../../src/server/postoffice/post-office';
import { HandleStatus, type Queue, type QueueConsumer } from '../../../src/server/postoffice/queue';
import { InMemoryStorage } from '../../../src/server/storage/in-memory-storage';
import type { StorageManager } from '../../../src/server/storage/storage-manager';
import { waitFor } from '../../support/wait';

const MAX_SIZE = 20 * 1024;
const BODY = 'x'.repeat(500);

async function eventually(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Takes every message offered; the test acknowledges them afterwards (as a client would). */
class Collector implements QueueConsumer {
  readonly references: MessageReference[] = [];
  private taken = 0;
  constructor(private readonly limit = Infinity) {}
  handle(reference: MessageReference): HandleStatus {
    if (this.taken >= this.limit) return HandleStatus.BUSY;
    this.taken++;
    this.references.push(reference);
    return HandleStatus.HANDLED;
  }
}

function message(address: string, index: number, durable = false): CoreMessage {
  const m = new CoreMessage();
  m.address = address;
  m.durable = durable;
  m.body = Buffer.from(`${index}:${BODY}`);
  return m;
}

function indexOf(reference: MessageReference): number {
  return Number(reference.message.body.toString().split(':')[0]);
}

/** Warnings and errors a post office logged. */
class Lines implements Logger {
  readonly warnings: string[] = [];
  readonly errors: string[] = [];
  debug(): void {}
  info(): void {}
  warn(_object: object, message?: string): void {
    this.warnings.push(message ?? '');
  }
  error(_object: object, message?: string): void {
    this.errors.push(message ?? '');
  }
  child(): Logger {
    return this;
  }
}

describe('PostOffice under address-full-policy PAGE', () => {
  let root: string;
  let offices: PostOffice[];
  let logger: Lines;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'post-office-paging-'));
    offices = [];
    logger = new Lines();
  });

  afterEach(async () => {
    for (const office of offices) {
      office.stop();
      await office.closePaging();
    }
    await rm(root, { recursive: true, force: true });
  });

  function postOffice(
    settings: Partial<AddressSettings> = {},
    storage: StorageManager = new InMemoryStorage() as unknown as StorageManager,
    pagingDirectory: string | null = root,
  ): PostOffice {
    const repository = new AddressSettingsRepository();
    repository.add('#', {
      maxSizeBytes: MAX_SIZE,
      addressFullPolicy: 'PAGE',
      pageSizeBytes: 4096,
      pageMaxCacheSize: 2,
      ...settings,
    });
    const office = new PostOffice(
      storage,
      repository,
      () => {
        throw new Error('no filters here');
      },
      { pagingDirectory, logger },
    );
    offices.push(office);
    return office;
  }

  function send(office: PostOffice, m: CoreMessage): void {
    office.route(office.prepare(m));
  }

  /** Consumes `count` messages from the queue, acknowledging as it goes; returns their indexes. */
  async function consume(
    office: PostOffice,
    queue: Queue,
    count: number,
    watch = (): void => undefined,
  ): Promise<number[]> {
    const consumer = new Collector(count);
    queue.addConsumer(consumer);
    const indexes: number[] = [];
    while (indexes.length < count) {
      await waitFor(
        () => consumer.references.length > 0,
        `message ${indexes.length + 1} of ${count} on ${queue.name}`,
      );
      for (const reference of consumer.references.splice(0)) {
        indexes.push(indexOf(reference));
        queue.acknowledge(reference);
        watch();
      }
    }
    queue.removeConsumer(consumer);
    return indexes;
  }

  const range = (count: number): number[] => Array.from({ length: count }, (_, i) => i);

  it('pages past max-size-bytes, keeps the address near its limit, and drains in order', async () => {
    const office = postOffice();
    const queue = office.createQueue({
      name: 'q',
      address: 'orders',
      filter: null,
      durable: false,
      temporary: false,
    });
    const oneMessage = message('orders', 0).memoryEstimate() + 250;
    // What the address holds undelivered: the queue reads back by what it has not delivered, so
    // messages delivered and not yet acknowledged come on top (the client's window bounds them).
    let maxSize = 0;
    const watch = (): void => {
      const delivering = queue.deliveringCount * oneMessage;
      maxSize = Math.max(maxSize, office.addressSize('orders').size - delivering);
    };
    for (let i = 0; i < 400; i++) {
      send(office, message('orders', i, i % 2 === 0));
      watch();
    }
    expect(maxSize).toBeLessThanOrEqual(MAX_SIZE + oneMessage);
    const stats = office.pagingStats('orders');
    expect(stats?.messages).toBeGreaterThan(300);
    expect(queue.messageCount).toBe(400);
    await waitFor(() => (office.pagingStats('orders')?.unwrittenPages ?? 0) === 0, 'the pages to be written');
    expect(office.pagingStats('orders')?.pagesInMemory).toBeLessThanOrEqual(3);

    expect(await consume(office, queue, 400, watch)).toEqual(range(400));
    expect(maxSize).toBeLessThanOrEqual(MAX_SIZE + oneMessage);
    expect(queue.messageCount).toBe(0);
    expect(office.pagingStats('orders')).toBeNull();
    // Routing is back in memory once the store is empty.
    send(office, message('orders', 400));
    expect(office.pagingStats('orders')).toBeNull();
    expect(logger.errors).toEqual([]);
  });

  it('a consumer that acknowledges nothing until the end still gets every message (reads back by what is undelivered)', async () => {
    const office = postOffice();
    const queue = office.createQueue({
      name: 'q',
      address: 'batch',
      filter: null,
      durable: false,
      temporary: false,
    });
    for (let i = 0; i < 400; i++) send(office, message('batch', i));
    expect(office.pagingStats('batch')?.messages).toBeGreaterThan(300);
    const consumer = new Collector();
    queue.addConsumer(consumer);
    await waitFor(() => consumer.references.length === 400, 'all 400 delivered before any acknowledgement');
    expect(consumer.references.map(indexOf)).toEqual(range(400));
    expect(queue.waitingBytes).toBe(0);
    for (const reference of consumer.references) queue.acknowledge(reference);
    expect(queue.messageCount).toBe(0);
    expect(office.pagingStats('batch')).toBeNull();
    expect(office.addressSize('batch').size).toBe(0);
  });

  it('a queue without a consumer keeps its share in memory and the rest in the pages while the other reads on', async () => {
    const office = postOffice();
    const options = { address: 'news', filter: null, durable: false, temporary: false };
    const live = office.createQueue({ name: 'live', ...options });
    const away = office.createQueue({ name: 'away', ...options });
    for (let i = 0; i < 400; i++) send(office, message('news', i));
    expect(await consume(office, live, 400)).toEqual(range(400));
    // Its share of max-size-bytes (half: two queues have entries in the pages) and what it held before paging.
    const oneMessage = message('news', 0).memoryEstimate() + 250;
    expect(away.waitingBytes).toBeLessThanOrEqual(MAX_SIZE + oneMessage);
    expect(away.pagedCount).toBeGreaterThan(300);
    expect(away.messageCount).toBe(400);
    expect(office.pagingStats('news')?.messages).toBe(away.pagedCount);
    expect(await consume(office, away, 400)).toEqual(range(400));
    expect(office.pagingStats('news')).toBeNull();
    expect(logger.errors).toEqual([]);
  });

  it('drops the paged entries of a deleted queue at once, so that its pages go', async () => {
    const office = postOffice();
    const options = { address: 'dropped', filter: null, durable: false, temporary: false };
    office.createQueue({ name: 'only', ...options });
    for (let i = 0; i < 200; i++) send(office, message('dropped', i));
    await waitFor(
      () => (office.pagingStats('dropped')?.unwrittenPages ?? 0) === 0,
      'the pages to be written',
    );
    office.deleteQueue('only');
    await waitFor(() => office.pagingStats('dropped') === null, "the deleted queue's pages to go");
    await eventually(async () => (await readdir(root)).length === 0, 'the address directory to be removed');
  });

  it('skips the paged entries of a deleted queue, and a queue re-created under its name gets only what came after', async () => {
    const office = postOffice();
    const options = { address: 'prices', filter: null, durable: false, temporary: false };
    const kept = office.createQueue({ name: 'kept', ...options });
    office.createQueue({ name: 'gone', ...options });
    for (let i = 0; i < 100; i++) send(office, message('prices', i));
    expect(office.pagingStats('prices')).not.toBeNull();
    office.deleteQueue('gone');
    const again = office.createQueue({ name: 'gone', ...options });
    for (let i = 100; i < 110; i++) send(office, message('prices', i));
    expect(again.messageCount).toBe(10);
    expect(await consume(office, kept, 110)).toEqual(range(110));
    expect(await consume(office, again, 10)).toEqual(range(10).map((i) => i + 100));
    expect(office.pagingStats('prices')).toBeNull();
  });

  it('removes page files as they are consumed, and the address directory once the store is empty', async () => {
    const office = postOffice();
    const queue = office.createQueue({
      name: 'q',
      address: 'files',
      filter: null,
      durable: false,
      temporary: false,
    });
    for (let i = 0; i < 300; i++) send(office, message('files', i));
    await waitFor(() => (office.pagingStats('files')?.unwrittenPages ?? 0) === 0, 'the pages to be written');
    const directories = await readdir(root);
    expect(directories).toHaveLength(1);
    const pageFiles = async (): Promise<number> =>
      (await readdir(join(root, directories[0] as string))).filter((name) => name.endsWith('.page')).length;
    const before = await pageFiles();
    expect(before).toBeGreaterThan(10);
    expect(await consume(office, queue, 150)).toEqual(range(150));
    await eventually(async () => (await pageFiles()) < before * 0.6, 'the consumed page files to be removed');
    expect(await pageFiles()).toBeGreaterThan(0);
    expect(await consume(office, queue, 150)).toEqual(range(150).map((i) => i + 150));
    expect(office.pagingStats('files')).toBeNull();
    await eventually(async () => (await readdir(root)).length === 0, 'the address directory to be removed');
  });

  it('expires paged messages when they are read back', async () => {
    const office = postOffice();
    const queue = office.createQueue({
      name: 'q',
      address: 'fresh',
      filter: null,
      durable: false,
      temporary: false,
    });
    for (let i = 0; i < 100; i++) send(office, message('fresh', i));
    const paged = office.pagingStats('fresh')?.messages ?? 0;
    expect(paged).toBeGreaterThan(50);
    // The next 20 paged messages expire while they wait in the page store.
    for (let i = 100; i < 120; i++) {
      const m = message('fresh', i);
      m.expiration = Date.now() + 20;
      send(office, m);
    }
    for (let i = 120; i < 130; i++) send(office, message('fresh', i));
    expect(queue.messageCount).toBe(130);
    await new Promise((resolve) => setTimeout(resolve, 60));
    const kept = [...range(100), ...range(10).map((i) => i + 120)];
    expect(await consume(office, queue, kept.length)).toEqual(kept);
    expect(queue.messagesExpired).toBe(20);
    expect(queue.messageCount).toBe(0);
  });

  it('a page that cannot be read back is given up, logged with its file and offset, and no longer counted', async () => {
    const office = postOffice();
    const queue = office.createQueue({
      name: 'q',
      address: 'broken',
      filter: null,
      durable: false,
      temporary: false,
    });
    for (let i = 0; i < 300; i++) send(office, message('broken', i));
    await waitFor(() => (office.pagingStats('broken')?.unwrittenPages ?? 0) === 0, 'the pages to be written');
    const [directory] = await readdir(root);
    // Page 5 is outside the cache window (2 pages), so it is read back from disk.
    const file = join(root, directory as string, '000000005.page');
    const bytes = await readFile(file);
    bytes[20] = (bytes[20] as number) ^ 0xff;
    await writeFile(file, bytes);

    const consumer = new Collector();
    queue.addConsumer(consumer);
    const indexes: number[] = [];
    await waitFor(() => {
      for (const reference of consumer.references.splice(0)) {
        indexes.push(indexOf(reference));
        queue.acknowledge(reference);
      }
      return queue.messageCount === 0;
    }, 'the queue to empty');
    expect(logger.errors).toHaveLength(1);
    expect(logger.errors[0]).toMatch(
      new RegExp(
        `^address broken: (\\d+) paged messages cannot be read back and are lost from memory \\(page file ${file.replace(/[.]/g, '\\.')} is corrupt at offset 0: checksum`,
      ),
    );
    const lost = Number(/: (\d+) paged/.exec(logger.errors[0] as string)?.[1]);
    expect(indexes.length + lost).toBe(300);
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
  });

  it('clears what an earlier run left in the paging directory, and nothing else', async () => {
    const stale = join(root, '0123456789abcdef0123456789abcdef');
    await mkdir(stale);
    await writeFile(join(stale, '000000001.page'), 'left over');
    await writeFile(join(stale, 'address.txt'), 'orders');
    await writeFile(join(root, 'notes.txt'), 'an operator file');
    const office = postOffice();
    office.stop();
    await office.closePaging();
    expect(await readdir(root)).toEqual(['notes.txt']);
  });

  it('BLOCK never pages, and PAGE without a paging directory keeps accepting in memory and says so', () => {
    const blocking = postOffice({ addressFullPolicy: 'BLOCK' });
    blocking.createQueue({ name: 'b', address: 'blocked', filter: null, durable: false, temporary: false });
    for (let i = 0; i < 100; i++) send(blocking, message('blocked', i));
    expect(blocking.pagingStats('blocked')).toBeNull();

    const nowhere = postOffice({}, undefined, null);
    const queue = nowhere.createQueue({
      name: 'n',
      address: 'nowhere',
      filter: null,
      durable: false,
      temporary: false,
    });
    for (let i = 0; i < 100; i++) send(nowhere, message('nowhere', i));
    expect(nowhere.pagingStats('nowhere')).toBeNull();
    expect(nowhere.addressSize('nowhere').size).toBeGreaterThan(MAX_SIZE * 2);
    expect(queue.messageCount).toBe(100);
    expect(logger.warnings).toEqual([
      'address nowhere is full under address-full-policy PAGE, but no paging directory is configured: its messages stay in memory',
    ]);
  });

  it('loads a stored backlog through the paging decision: bounded in memory, then drained in order with delivery counts kept', async () => {
    const storage = new InMemoryStorage() as unknown as StorageManager;
    storage.storeQueue({ name: 'durable', address: 'stored', filter: null });
    for (let i = 0; i < 300; i++) {
      const m = message('stored', i, true);
      m.messageId = storage.generateMessageId();
      storage.storeMessage(m, ['durable']);
      if (i === 250) storage.updateDeliveryCount('durable', m.messageId, 3);
    }
    const office = postOffice({}, storage);
    office.load();
    const queue = office.requireQueue('durable');
    expect(office.addressSize('stored').size).toBeLessThanOrEqual(
      MAX_SIZE + message('stored', 0).memoryEstimate() + 250,
    );
    expect(office.pagingStats('stored')?.messages).toBeGreaterThan(200);
    expect(queue.messageCount).toBe(300);

    const consumer = new Collector();
    queue.addConsumer(consumer);
    const seen: Array<{ index: number; deliveryCount: number }> = [];
    while (seen.length < 300) {
      await waitFor(() => consumer.references.length > 0, 'a loaded message');
      for (const reference of consumer.references.splice(0)) {
        seen.push({ index: indexOf(reference), deliveryCount: reference.deliveryCount });
        queue.acknowledge(reference);
      }
    }
    expect(seen.map((s) => s.index)).toEqual(range(300));
    expect(seen[250]?.deliveryCount).toBe(3);
    // Acknowledged from the page store like any other: nothing is left to reload.
    expect([...storage.loadReferences('durable')]).toEqual([]);
  });
});
