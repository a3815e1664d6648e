import { mkdtemp, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import { silentLogger } from '../../../src/core/remoting/logger';
import type { DamageKind } from '../../../src/server/storage/damage/damage-kind';
import { createJournalStorage } from '../../../src/server/storage/create-journal-storage';
import type { JournalFileSystem } from '../../../src/server/storage/journal/journal-file-system';
import { NodeFileSystem } from '../../../src/server/storage/journal/node-file-system';
import type { JournalStorageManager } from '../../../src/server/storage/journal-storage-manager';
import type { StorageManager } from '../../../src/server/storage/storage-manager';
import { CRASH_MODES, FaultFileSystem, seededRandom } from '../../support/fault-file-system';
import { MemoryFileSystem } from '../../support/memory-file-system';

const ADDRESS = 'jms.queue.orders';

function message(storage: StorageManager, body: string): CoreMessage {
  const m = new CoreMessage();
  m.messageId = storage.generateMessageId();
  m.address = ADDRESS;
  m.durable = true;
  m.body = Buffer.from(body);
  return m;
}

function bodies(storage: StorageManager, queue: string): string[] {
  return [...storage.loadReferences(queue)].map((reference) => reference.message.body.toString());
}

function synced(storage: StorageManager): Promise<void> {
  return new Promise((resolve, reject) =>
    storage.afterSync((error) => (error === null ? resolve() : reject(error))),
  );
}

/** Small files and a short buffer timeout, so that a test rolls files and syncs quickly. */
function storageIn(
  directory: string,
  fileSystem: JournalFileSystem,
  acceptDamage: DamageKind[] = [],
): JournalStorageManager {
  return createJournalStorage(
    {
      journalDirectory: path.join(directory, 'journal'),
      bindingsDirectory: path.join(directory, 'bindings'),
      largeMessagesDirectory: path.join(directory, 'largemessages'),
      pagingDirectory: path.join(directory, 'paging'),
      journalFileSize: 256 * 1024,
      journalBufferTimeout: 100_000,
      acceptDamage,
    },
    fileSystem,
    silentLogger,
    { persistIdCache: true },
  );
}

describe('JournalStorageManager on the file journal', () => {
  let directory: string;
  const open: JournalStorageManager[] = [];

  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'hq-store-'));
  });

  afterEach(async () => {
    for (const storage of open.splice(0)) await storage.close();
    await rm(directory, { recursive: true, force: true });
  });

  async function opened(
    acceptDamage: DamageKind[] = [],
  ): Promise<{ storage: JournalStorageManager; notes: string[] }> {
    const storage = storageIn(directory, new NodeFileSystem(), acceptDamage);
    const report = await storage.open();
    open.push(storage);
    return { storage, notes: report.notes };
  }

  async function restart(
    storage: JournalStorageManager,
  ): Promise<{ storage: JournalStorageManager; notes: string[] }> {
    await storage.close();
    open.splice(open.indexOf(storage), 1);
    return opened();
  }

  it('brings queues, messages, counts, schedule times and duplicate ids back', async () => {
    let { storage } = await opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: "color = 'blue'" });
    storage.storeQueue({ name: 'audit', address: ADDRESS, filter: null });
    const first = message(storage, 'first');
    const second = message(storage, 'second');
    const acked = message(storage, 'acked');
    storage.storeMessage(first, ['orders', 'audit']);
    storage.storeMessage(second, ['orders']);
    storage.storeMessage(acked, ['orders']);
    storage.storeAcknowledge('orders', acked.messageId);
    storage.updateDeliveryCount('orders', first.messageId, 4);
    storage.updateScheduledDeliveryTime('audit', first.messageId, 1_900_000_000_000);
    storage.storeDuplicateId(ADDRESS, 'a');
    storage.storeDuplicateId(ADDRESS, 'b');
    storage.beginTransaction();
    storage.storeMessage(message(storage, 'in a transaction'), ['audit']);
    storage.storeAcknowledge('orders', second.messageId);
    storage.commitTransaction();
    await synced(storage);
    const lastId = storage.generateMessageId();

    ({ storage } = await restart(storage));
    expect(storage.loadQueues()).toEqual([
      { name: 'orders', address: ADDRESS, filter: "color = 'blue'" },
      { name: 'audit', address: ADDRESS, filter: null },
    ]);
    expect(
      [...storage.loadReferences('orders')].map((r) => [r.message.body.toString(), r.deliveryCount]),
    ).toEqual([['first', 4]]);
    expect(
      [...storage.loadReferences('audit')].map((r) => [r.message.body.toString(), r.scheduledDeliveryTime]),
    ).toEqual([
      ['first', 1_900_000_000_000],
      ['in a transaction', 0],
    ]);
    expect(storage.loadDuplicateIds()).toEqual([{ address: ADDRESS, ids: ['a', 'b'] }]);
    expect(storage.generateMessageId()).toBeGreaterThan(lastId);
  });

  it("does not bring a deleted queue's messages back", async () => {
    let { storage } = await opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    storage.storeQueue({ name: 'audit', address: ADDRESS, filter: null });
    storage.storeMessage(message(storage, 'both'), ['orders', 'audit']);
    storage.storeMessage(message(storage, 'orders only'), ['orders']);
    storage.deleteQueue('orders');
    ({ storage } = await restart(storage));
    expect(storage.loadQueues().map((queue) => queue.name)).toEqual(['audit']);
    expect(bodies(storage, 'audit')).toEqual(['both']);
  });

  it('keeps large messages in files: reloaded, orphans removed, a torn one of a confirmed message refused, then dropped once accepted', async () => {
    let { storage } = await opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    const whole = message(storage, 'w'.repeat(150 * 1024));
    const torn = message(storage, 't'.repeat(150 * 1024));
    storage.storeMessage(whole, ['orders']);
    storage.storeMessage(torn, ['orders']);
    await synced(storage);
    await storage.close();
    open.splice(0);
    const large = path.join(directory, 'largemessages');
    expect((await readdir(large)).sort()).toEqual([`${whole.messageId}.msg`, `${torn.messageId}.msg`].sort());
    await truncate(path.join(large, `${torn.messageId}.msg`), 1000);
    await writeFile(path.join(large, '999999.msg'), 'orphan');

    await expect(storageIn(directory, new NodeFileSystem()).open()).rejects.toMatchObject({
      code: 'ERR_DATA_DAMAGE',
      findings: [
        {
          kind: 'large-message-file',
          file: path.join(large, `${torn.messageId}.msg`),
          offset: null,
          messages: 1,
        },
      ],
    });
    expect((await readdir(large)).length).toBe(3);

    const reopened = await opened(['large-message-file']);
    storage = reopened.storage;
    expect(reopened.notes).toEqual([
      expect.stringMatching(/^damage accepted: large-message-file: /),
      `large message ${torn.messageId} dropped (damage accepted): its file ${path.join(large, `${torn.messageId}.msg`)} holds 1000 bytes, not ${torn.encodedSize()}`,
      '1 large-message file(s) without a journal record removed',
    ]);
    expect(bodies(storage, 'orders')).toEqual(['w'.repeat(150 * 1024)]);
    storage.storeAcknowledge('orders', whole.messageId);
    ({ storage } = await restart(storage));
    expect(await readdir(large)).toEqual([]);
    expect(bodies(storage, 'orders')).toEqual([]);
  });

  it('keeps ids increasing after every record was deleted and its file reclaimed', async () => {
    let { storage } = await opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    let last = 0;
    // Enough traffic to roll several 256 KiB files, so that the early ones are reclaimed.
    for (let i = 0; i < 400; i++) {
      const m = message(storage, 'x'.repeat(2000));
      storage.storeMessage(m, ['orders']);
      storage.storeAcknowledge('orders', m.messageId);
      last = m.messageId;
    }
    await synced(storage);
    ({ storage } = await restart(storage));
    expect(bodies(storage, 'orders')).toEqual([]);
    expect(storage.generateMessageId()).toBeGreaterThan(last);
  });

  it.each(CRASH_MODES)(
    'keeps what was confirmed, and each transaction whole, through a crash (%s)',
    async (mode) => {
      const fileSystem = new FaultFileSystem(new MemoryFileSystem());
      const storage = storageIn('/hq', fileSystem);
      await storage.open();
      storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
      const sent = Array.from({ length: 30 }, (_, i) => message(storage, `confirmed ${i}`));
      for (const m of sent) storage.storeMessage(m, ['orders']);
      const big = message(storage, 'L'.repeat(120 * 1024));
      storage.storeMessage(big, ['orders']);
      await synced(storage);
      for (const m of sent.slice(0, 10)) storage.storeAcknowledge('orders', m.messageId);
      await synced(storage);
      storage.beginTransaction();
      for (const m of sent.slice(10, 20)) storage.storeAcknowledge('orders', m.messageId);
      storage.storeMessage(message(storage, 'confirmed in a transaction'), ['orders']);
      storage.commitTransaction();
      await synced(storage);
      // Not confirmed: the crash may keep any prefix of it, but the transaction whole or not at all.
      for (let i = 0; i < 20; i++) storage.storeMessage(message(storage, `unconfirmed ${i}`), ['orders']);
      storage.beginTransaction();
      for (const m of sent.slice(20, 30)) storage.storeAcknowledge('orders', m.messageId);
      storage.storeMessage(message(storage, 'unconfirmed in a transaction'), ['orders']);
      storage.commitTransaction();
      await fileSystem.crash(mode, seededRandom(CRASH_MODES.indexOf(mode) + 1));
      await storage.close().catch(() => undefined);

      const reopened = storageIn('/hq', fileSystem);
      await reopened.open();
      const loaded = bodies(reopened, 'orders');
      await reopened.close();
      const confirmedLeft = sent.slice(20).map((m) => m.body.toString());
      const unconfirmedTransactionKept = loaded.includes('unconfirmed in a transaction');
      expect(loaded.filter((body) => body.startsWith('confirmed'))).toEqual(
        unconfirmedTransactionKept
          ? ['confirmed in a transaction']
          : [...confirmedLeft, 'confirmed in a transaction'],
      );
      expect(loaded).toContain(big.body.toString());
      const unconfirmed = loaded.filter((body) => body.startsWith('unconfirmed '));
      expect(unconfirmed).toEqual(Array.from({ length: unconfirmed.length }, (_, i) => `unconfirmed ${i}`));
      if (unconfirmedTransactionKept) expect(unconfirmed).toHaveLength(20);
    },
  );
});
