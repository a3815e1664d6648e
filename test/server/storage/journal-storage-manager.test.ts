import * as path from 'node:path';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import { silentLogger } from '../../../src/core/remoting/logger';
import {
  JournalStorageManager,
  type JournalStorageOptions,
} from '../../../src/server/storage/journal-storage-manager';
import { LargeMessageStore } from '../../../src/server/storage/large-message-store';
import type { StorageManager, StoredReference } from '../../../src/server/storage/storage-manager';
import { encodeLargeMessageHeader, StorageRecordType } from '../../../src/server/storage/storage-records';
import { DataDamageError } from '../../../src/server/storage/damage/data-damage-error';
import type { DamageKind } from '../../../src/server/storage/damage/damage-kind';
import type { JournalFile, JournalFileSystem } from '../../../src/server/storage/journal/journal-file-system';
import { MemoryFileSystem } from '../../support/memory-file-system';
import { MemoryJournal, type MemoryJournalEntry } from '../../support/memory-journal';
import { waitFor } from '../../support/wait';

const LARGE_DIRECTORY = '/broker/data/largemessages';
const ADDRESS = 'jms.queue.orders';
/** Small settings, so that a few messages reach them. */
const LARGE_MESSAGE_THRESHOLD = 1000;
const MAX_RECORD_BYTES = 4096;

/**
 * Files in memory whose datasyncs a test may hold, to see that afterSync waits for them; with
 * helpers to put, read and cut a file as a crash or an operator would.
 */
class HeldSyncFileSystem implements JournalFileSystem {
  private readonly disk = new MemoryFileSystem();
  holdDatasyncs = false;
  private held: Array<() => void> = [];

  mkdir(directory: string): Promise<void> {
    return this.disk.mkdir(directory);
  }

  list(directory: string): Promise<string[]> {
    return this.disk.list(directory);
  }

  exists(filePath: string): Promise<boolean> {
    return this.disk.exists(filePath);
  }

  rename(from: string, to: string): Promise<void> {
    return this.disk.rename(from, to);
  }

  remove(filePath: string): Promise<void> {
    return this.disk.remove(filePath);
  }

  syncDirectory(): Promise<void> {
    return this.disk.syncDirectory();
  }

  async open(filePath: string, create: boolean): Promise<JournalFile> {
    const file = await this.disk.open(filePath, create);
    return {
      path: file.path,
      size: () => file.size(),
      read: (buffer, offset, length, position) => file.read(buffer, offset, length, position),
      write: (buffer, offset, length, position) => file.write(buffer, offset, length, position),
      datasync: async () => {
        if (this.holdDatasyncs) await new Promise<void>((resolve) => this.held.push(resolve));
        await file.datasync();
      },
      truncate: (size) => file.truncate(size),
      close: () => file.close(),
    };
  }

  get heldDatasyncs(): number {
    return this.held.length;
  }

  releaseDatasyncs(): void {
    for (const release of this.held.splice(0)) release();
  }

  async sizeOf(filePath: string): Promise<number> {
    const file = await this.disk.open(filePath, false);
    const size = await file.size();
    await file.close();
    return size;
  }

  async put(filePath: string, contents: Buffer): Promise<void> {
    await this.disk.mkdir(path.dirname(filePath));
    const file = await this.disk.open(filePath, true);
    await file.truncate(0);
    await file.write(contents, 0, contents.length, 0);
    await file.close();
  }

  async flipBit(filePath: string, offset: number): Promise<void> {
    const file = await this.disk.open(filePath, false);
    const byte = Buffer.alloc(1);
    await file.read(byte, 0, 1, offset);
    byte[0] = (byte[0] ?? 0) ^ 0x10;
    await file.write(byte, 0, 1, offset);
    await file.close();
  }

  async cut(filePath: string, size: number): Promise<void> {
    const file = await this.disk.open(filePath, false);
    await file.truncate(size);
    await file.close();
  }
}

/** Two journals and a file system that outlive the storage managers opened on them (restarts). */
class Disk {
  readonly bindings = new MemoryJournal('bindings');
  readonly messages = new MemoryJournal('messages', MAX_RECORD_BYTES);
  readonly fileSystem = new HeldSyncFileSystem();

  constructor(private readonly options: Partial<JournalStorageOptions> = {}) {}

  storage(overrides: Partial<JournalStorageOptions> = {}): JournalStorageManager {
    return new JournalStorageManager(
      () => ({ bindings: this.bindings, messages: this.messages }),
      new LargeMessageStore(LARGE_DIRECTORY, this.fileSystem, true, silentLogger),
      {
        syncTransactional: true,
        syncNonTransactional: true,
        persistIdCache: true,
        largeMessageThreshold: LARGE_MESSAGE_THRESHOLD,
        maxRecordBytes: MAX_RECORD_BYTES,
        location: 'memory journals',
        logger: silentLogger,
        ...this.options,
        ...overrides,
      },
    );
  }

  async opened(): Promise<JournalStorageManager> {
    const storage = this.storage();
    await storage.open();
    return storage;
  }

  /** A kill -9: what was not synced is gone; the old storage object is abandoned. */
  crash(): void {
    this.bindings.crash();
    this.messages.crash();
  }

  largeFile(messageId: number): string {
    return `${LARGE_DIRECTORY}/${messageId}.msg`;
  }
}

function message(storage: StorageManager, body = 'payload', address = ADDRESS): CoreMessage {
  const m = new CoreMessage();
  m.messageId = storage.generateMessageId();
  m.address = address;
  m.durable = true;
  m.priority = 7;
  m.timestamp = 1_700_000_000_000;
  m.userId = 'b8c0e2d4-0000-4000-8000-000000000001';
  m.properties.set('color', { kind: PropertyKind.STRING, value: 'blue' });
  m.properties.set('count', { kind: PropertyKind.INT, value: 42 });
  m.body = Buffer.from(body);
  return m;
}

function references(storage: StorageManager, queue: string): StoredReference[] {
  return [...storage.loadReferences(queue)];
}

function bodies(storage: StorageManager, queue: string): string[] {
  return references(storage, queue).map((reference) => reference.message.body.toString());
}

function afterSyncCalled(storage: StorageManager): { called: boolean; error: Error | null } {
  const state = { called: false, error: null as Error | null };
  storage.afterSync((error) => {
    state.called = true;
    state.error = error;
  });
  return state;
}

function recordsOfType(entries: MemoryJournalEntry[], userType: number): number {
  let count = 0;
  for (const entry of entries)
    for (const record of entry.kind === 'transaction' ? entry.records : [entry])
      if (record.kind !== 'delete' && record.userType === userType) count++;
  return count;
}

function deletes(entries: MemoryJournalEntry[]): number[] {
  const ids: number[] = [];
  for (const entry of entries)
    for (const record of entry.kind === 'transaction' ? entry.records : [entry])
      if (record.kind === 'delete') ids.push(record.id);
  return ids;
}

describe('JournalStorageManager', () => {
  it('brings every record type back through a restart', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: "color = 'blue'" });
    storage.storeQueue({ name: 'audit', address: ADDRESS, filter: null });
    const sent = message(storage, 'first');
    storage.storeMessage(sent, ['orders', 'audit']);
    storage.updateDeliveryCount('orders', sent.messageId, 3);
    storage.updateScheduledDeliveryTime('audit', sent.messageId, 1_800_000_000_000);
    storage.storeDuplicateId(ADDRESS, 'dup-1');
    storage.storeDuplicateId(ADDRESS, 'dup-2');
    storage.storeDuplicateId('jms.topic.news', 'dup-3');
    await storage.close();

    const reopened = disk.storage();
    const report = await reopened.open();
    expect(report).toMatchObject({ location: 'memory journals', queues: 2, messages: 1, notes: [] });
    expect(report.bytes).toBeGreaterThan(sent.encodedSize());
    expect(reopened.loadQueues()).toEqual([
      { name: 'orders', address: ADDRESS, filter: "color = 'blue'" },
      { name: 'audit', address: ADDRESS, filter: null },
    ]);
    const [orders] = references(reopened, 'orders');
    const [audit] = references(reopened, 'audit');
    expect(orders).toMatchObject({ deliveryCount: 3, scheduledDeliveryTime: 0 });
    expect(audit).toMatchObject({ deliveryCount: 0, scheduledDeliveryTime: 1_800_000_000_000 });
    // One message routed to two queues is one message again, as before the restart.
    expect(audit?.message).toBe(orders?.message);
    const loaded = orders?.message as CoreMessage;
    expect(loaded).toMatchObject({
      messageId: sent.messageId,
      address: ADDRESS,
      durable: true,
      priority: 7,
      timestamp: sent.timestamp,
      userId: sent.userId,
    });
    expect(loaded.body.toString()).toBe('first');
    expect(loaded.properties.get('color')).toEqual({ kind: PropertyKind.STRING, value: 'blue' });
    expect(loaded.properties.get('count')).toEqual({ kind: PropertyKind.INT, value: 42 });
    expect(reopened.loadDuplicateIds()).toEqual([
      { address: ADDRESS, ids: ['dup-1', 'dup-2'] },
      { address: 'jms.topic.news', ids: ['dup-3'] },
    ]);
    await reopened.close();
  });

  it('keeps each queue in the order its messages were stored', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    for (const body of ['a', 'b', 'c', 'd']) storage.storeMessage(message(storage, body), ['orders']);
    await storage.close();
    const reopened = await disk.opened();
    expect(bodies(reopened, 'orders')).toEqual(['a', 'b', 'c', 'd']);
    await reopened.close();
  });

  it('loses a transaction that was not committed, keeps one that was', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    storage.beginTransaction();
    storage.storeMessage(message(storage, 'committed'), ['orders']);
    storage.commitTransaction();
    storage.beginTransaction();
    storage.storeMessage(message(storage, 'never committed'), ['orders']);
    // The process dies before the commit: nothing of the transaction reached the journal.
    expect(disk.messages.entries.filter((entry) => entry.kind === 'transaction')).toHaveLength(1);
    disk.crash();

    const reopened = await disk.opened();
    expect(bodies(reopened, 'orders')).toEqual(['committed']);
    await reopened.close();
  });

  it('writes a transaction as one appendTransaction, synced per journal-sync-transactional', async () => {
    const disk = new Disk({ syncTransactional: true });
    const storage = await disk.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    const acked = message(storage, 'acked in the transaction');
    storage.storeMessage(acked, ['orders']);
    const before = storage.syncRequests;
    disk.messages.syncPending = true;
    storage.beginTransaction();
    storage.storeMessage(message(storage, 'sent in the transaction'), ['orders']);
    storage.storeAcknowledge('orders', acked.messageId);
    storage.commitTransaction();
    expect(storage.syncRequests).toBe(before + 1);
    const last = disk.messages.entries.at(-1);
    expect(last?.kind).toBe('transaction');
    // The acknowledgement of the message's last reference is its delete, in the transaction too.
    expect(last?.kind === 'transaction' && last.records.map((record) => record.kind)).toEqual([
      'add',
      'update',
      'delete',
    ]);
    const sync = afterSyncCalled(storage);
    expect(sync.called).toBe(false);
    // A crash before the commit's sync loses all of it, and the load says a transaction was rolled back.
    disk.crash();
    const reopened = disk.storage();
    const report = await reopened.open();
    expect(bodies(reopened, 'orders')).toEqual(['acked in the transaction']);
    expect(report.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^message journal: torn tail cut at messages:\d+$/),
        'message journal: 1 transaction(s) without a commit rolled back',
      ]),
    );
    await reopened.close();
  });

  it('leaves the storage as it was when the journal refuses a commit', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    const stored = Array.from({ length: 100 }, (_, i) => message(storage, `m${i}`));
    for (const m of stored) storage.storeMessage(m, ['orders']);
    storage.beginTransaction();
    for (const m of stored) storage.storeAcknowledge('orders', m.messageId);
    storage.storeDuplicateId(ADDRESS, 'sent in the transaction');
    const big = message(storage, 'b'.repeat(5000));
    storage.storeMessage(big, ['orders']);
    disk.messages.refuseNext(new RangeError('the journal refuses this write'));
    expect(() => storage.commitTransaction()).toThrow(RangeError);
    await waitFor(
      async () => !(await disk.fileSystem.exists(disk.largeFile(big.messageId))),
      'the file to go',
    );

    // As if the transaction had never begun: the references are there to acknowledge, the id to store.
    const appended = disk.messages.appendedRecords;
    storage.storeAcknowledge('orders', stored[0]?.messageId ?? 0);
    // Its only reference: the acknowledgement is the message's delete alone.
    expect(disk.messages.appendedRecords).toBe(appended + 1);
    storage.storeDuplicateId(ADDRESS, 'sent in the transaction');
    expect(disk.messages.appendedRecords).toBe(appended + 2);
    await storage.close();
    const reopened = await disk.opened();
    expect(bodies(reopened, 'orders')).toEqual(stored.slice(1).map((m) => m.body.toString()));
    expect(reopened.loadDuplicateIds()).toEqual([{ address: ADDRESS, ids: ['sent in the transaction'] }]);
    await reopened.close();
  });

  it('refuses to delete a queue inside a transaction', async () => {
    const storage = await new Disk().opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    storage.beginTransaction();
    expect(() => storage.deleteQueue('orders')).toThrow('deleteQueue(orders) inside a storage transaction');
    storage.commitTransaction();
    await storage.close();
  });

  it('refuses nested transactions and a commit outside one', async () => {
    const storage = await new Disk().opened();
    expect(() => storage.commitTransaction()).toThrow(/outside a storage transaction/);
    storage.beginTransaction();
    expect(() => storage.beginTransaction()).toThrow(/do not nest/);
    storage.commitTransaction();
    await storage.close();
  });

  it('does not bring acknowledged messages back, and deletes a message once no queue references it', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    storage.storeQueue({ name: 'audit', address: ADDRESS, filter: null });
    const both = message(storage, 'both');
    const ordersOnly = message(storage, 'orders only');
    storage.storeMessage(both, ['orders', 'audit']);
    storage.storeMessage(ordersOnly, ['orders']);
    storage.storeAcknowledge('orders', both.messageId);
    expect(deletes(disk.messages.entries)).toEqual([]);
    storage.storeAcknowledge('audit', both.messageId);
    expect(deletes(disk.messages.entries)).toEqual([both.messageId]);
    // A second acknowledgement of the same reference writes nothing.
    const appended = disk.messages.appendedRecords;
    storage.storeAcknowledge('audit', both.messageId);
    expect(disk.messages.appendedRecords).toBe(appended);
    disk.crash();

    const reopened = await disk.opened();
    expect(bodies(reopened, 'orders')).toEqual(['orders only']);
    expect(bodies(reopened, 'audit')).toEqual([]);
    await reopened.close();
  });

  it('syncs the last reference of a send and each acknowledgement per journal-sync-non-transactional', async () => {
    const synced = new Disk({ syncNonTransactional: true });
    const storage = await synced.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    storage.storeQueue({ name: 'audit', address: ADDRESS, filter: null });
    synced.messages.syncPending = true;
    const sent = message(storage);
    const before = storage.syncRequests;
    storage.storeMessage(sent, ['orders', 'audit']);
    expect(storage.syncRequests).toBe(before + 1);
    expect(synced.messages.entries.slice(-3).map((entry) => entry.sync)).toEqual([false, false, true]);
    const sync = afterSyncCalled(storage);
    expect(sync.called).toBe(false);
    synced.messages.completeSyncs();
    expect(sync).toEqual({ called: true, error: null });
    storage.storeAcknowledge('orders', sent.messageId);
    expect(storage.syncRequests).toBe(before + 2);
    synced.messages.completeSyncs();
    await storage.close();

    const unsynced = new Disk({ syncNonTransactional: false });
    const relaxed = await unsynced.opened();
    relaxed.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    const requests = relaxed.syncRequests;
    const other = message(relaxed);
    relaxed.storeMessage(other, ['orders']);
    relaxed.storeAcknowledge('orders', other.messageId);
    expect(relaxed.syncRequests).toBe(requests);
    expect(afterSyncCalled(relaxed).called).toBe(true);
    await relaxed.close();
  });

  it('brings delivery counts and schedule times back after a crash once something later was synced', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    const delivered = message(storage, 'delivered');
    const scheduled = message(storage, 'scheduled');
    storage.storeMessage(delivered, ['orders']);
    storage.storeMessage(scheduled, ['orders']);
    storage.updateDeliveryCount('orders', delivered.messageId, 2);
    storage.updateScheduledDeliveryTime('orders', scheduled.messageId, 1_900_000_000_000);
    disk.crash();

    const reopened = await disk.opened();
    expect(
      references(reopened, 'orders').map(({ message: m, deliveryCount, scheduledDeliveryTime }) => [
        m.body.toString(),
        deliveryCount,
        scheduledDeliveryTime,
      ]),
    ).toEqual([
      ['delivered', 2, 0],
      ['scheduled', 0, 1_900_000_000_000],
    ]);
    await reopened.close();
  });

  it('writes no record for a reference it does not hold', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    const appended = disk.messages.appendedRecords;
    storage.updateDeliveryCount('orders', 999, 1);
    storage.updateScheduledDeliveryTime('orders', 999, 5);
    storage.storeAcknowledge('orders', 999);
    storage.storeAcknowledge('no such queue', 999);
    storage.storeMessage(message(storage), ['no such queue']);
    storage.deleteDuplicateId(ADDRESS, 'never stored');
    expect(disk.messages.appendedRecords).toBe(appended);
    await storage.close();
  });

  it('brings duplicate ids back in the order they were stored, without the ones evicted', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    for (const id of ['a', 'b', 'c', 'd']) storage.storeDuplicateId(ADDRESS, id);
    storage.storeDuplicateId(ADDRESS, 'b');
    storage.deleteDuplicateId(ADDRESS, 'a');
    storage.storeDuplicateId(ADDRESS, 'e');
    await storage.close();

    const reopened = await disk.opened();
    expect(reopened.loadDuplicateIds()).toEqual([{ address: ADDRESS, ids: ['b', 'c', 'd', 'e'] }]);
    // An id loaded can be deleted again (the cache evicts it after the restart).
    reopened.deleteDuplicateId(ADDRESS, 'b');
    await reopened.close();
    const again = await disk.opened();
    expect(again.loadDuplicateIds()).toEqual([{ address: ADDRESS, ids: ['c', 'd', 'e'] }]);
    await again.close();
  });

  it('stores no duplicate ids when persist-id-cache is false, and deletes those stored before', async () => {
    const persisted = new Disk();
    const storage = await persisted.opened();
    storage.storeDuplicateId(ADDRESS, 'kept before');
    await storage.close();

    const off = persisted.storage({ persistIdCache: false });
    const report = await off.open();
    expect(report.notes).toEqual(['1 stored duplicate id(s) deleted: persist-id-cache is false']);
    expect(off.loadDuplicateIds()).toEqual([]);
    const appended = persisted.messages.appendedRecords;
    off.storeDuplicateId(ADDRESS, 'not stored');
    expect(persisted.messages.appendedRecords).toBe(appended);
    await off.close();
    const reopened = await persisted.opened();
    expect(reopened.loadDuplicateIds()).toEqual([]);
    await reopened.close();
  });

  it('refuses a message journal whose queues the bindings journal does not hold (an empty one in its place), appending nothing; accepted, drops their references', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    for (const text of ['one', 'two', 'three']) storage.storeMessage(message(storage, text), ['orders']);
    await storage.close();
    const appended = disk.messages.appendedRecords;
    const withoutBindings = (acceptDamage: DamageKind[]): JournalStorageManager =>
      new JournalStorageManager(
        () => ({ bindings: new MemoryJournal('other bindings'), messages: disk.messages }),
        new LargeMessageStore(LARGE_DIRECTORY, disk.fileSystem, true, silentLogger),
        {
          syncTransactional: true,
          syncNonTransactional: true,
          persistIdCache: true,
          largeMessageThreshold: LARGE_MESSAGE_THRESHOLD,
          maxRecordBytes: MAX_RECORD_BYTES,
          location: 'memory journals',
          bindingsDirectory: '/data/bindings',
          acceptDamage,
          logger: silentLogger,
        },
      );

    await expect(withoutBindings([]).open()).rejects.toMatchObject({
      code: 'ERR_DATA_DAMAGE',
      findings: [
        expect.objectContaining({ kind: 'unknown-queue', file: '/data/bindings', offset: null, messages: 3 }),
      ],
      message: expect.stringContaining('it holds no queue at all'),
    });
    expect(disk.messages.appendedRecords).toBe(appended);

    const accepting = withoutBindings(['unknown-queue']);
    const report = await accepting.open();
    expect(report.messages).toBe(0);
    expect(report.notes).toEqual([
      expect.stringMatching(/^damage accepted: unknown-queue: .*\(3 message\(s\)\)$/),
    ]);
    await accepting.close();
  });

  it("does not bring a deleted queue's messages back", async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    storage.storeQueue({ name: 'audit', address: ADDRESS, filter: null });
    const shared = message(storage, 'shared');
    const own = message(storage, 'orders only');
    storage.storeMessage(shared, ['orders', 'audit']);
    storage.storeMessage(own, ['orders']);
    const before = storage.syncRequests;
    storage.deleteQueue('orders');
    // The queue's delete is synced; the message left without references is deleted.
    expect(storage.syncRequests).toBe(before + 1);
    expect(deletes(disk.messages.entries)).toEqual([own.messageId]);
    disk.crash();

    const reopened = await disk.opened();
    expect(reopened.loadQueues().map((queue) => queue.name)).toEqual(['audit']);
    expect(bodies(reopened, 'orders')).toEqual([]);
    expect(bodies(reopened, 'audit')).toEqual(['shared']);
    await reopened.close();
  });

  it('hands over what is left when a queue goes or a message is acknowledged before the broker takes it', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    storage.storeQueue({ name: 'audit', address: ADDRESS, filter: null });
    const shared = message(storage, 'shared');
    const acked = message(storage, 'acked early');
    storage.storeMessage(shared, ['orders', 'audit']);
    storage.storeMessage(acked, ['audit']);
    await storage.close();

    const reopened = await disk.opened();
    reopened.deleteQueue('orders');
    reopened.storeAcknowledge('audit', acked.messageId);
    expect(bodies(reopened, 'audit')).toEqual(['shared']);
    expect(bodies(reopened, 'orders')).toEqual([]);
    await reopened.close();
  });

  it('ignores references to a queue whose delete reached the disk before its acknowledgements', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    storage.storeMessage(message(storage, 'lost with its queue'), ['orders']);
    disk.messages.syncPending = true;
    storage.deleteQueue('orders');
    disk.crash();

    const reopened = await disk.opened();
    expect(reopened.loadQueues()).toEqual([]);
    expect(bodies(reopened, 'orders')).toEqual([]);
    expect(reopened.loadDuplicateIds()).toEqual([]);
    // The message no queue references any more is deleted at load.
    expect(deletes(disk.messages.entries)).toHaveLength(1);
    await reopened.close();
  });

  it('keeps ids increasing across restarts, crashes and reclaimed journals', async () => {
    const disk = new Disk();
    let storage = await disk.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    const first = message(storage);
    storage.storeMessage(first, ['orders']);
    storage.storeAcknowledge('orders', first.messageId);
    let highest = first.messageId;
    for (let restart = 0; restart < 3; restart++) {
      await storage.close();
      // Every record of the message is dead and its files reclaimed: only the checkpoint says how far ids went.
      disk.messages.reclaim();
      disk.bindings.reclaim();
      storage = await disk.opened();
      const next = storage.generateMessageId();
      expect(next).toBeGreaterThan(highest);
      highest = next;
    }
    disk.crash();
    storage = await disk.opened();
    expect(storage.generateMessageId()).toBeGreaterThan(highest);
    await storage.close();
  });

  it('continues above the ids in the message journal when the last checkpoint did not reach the disk', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    // The bindings journal never syncs from here on: the id checkpoint below is lost in the crash.
    disk.bindings.syncPending = true;
    const sent = message(storage);
    storage.storeMessage(sent, ['orders']);
    disk.crash();

    const reopened = await disk.opened();
    expect(reopened.loadQueues()).toHaveLength(1);
    expect(reopened.generateMessageId()).toBeGreaterThan(sent.messageId);
    await reopened.close();
  });

  it('makes non-durable work wait for no sync and append nothing to the message journal', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    disk.bindings.syncPending = true;
    disk.messages.syncPending = true;
    const before = storage.syncRequests;
    const appended = disk.messages.appendedRecords;
    // Ids for non-durable messages: the batch's checkpoint is written, but no answer waits for it.
    for (let i = 0; i < 200_001; i++) storage.generateMessageId();
    expect(storage.syncRequests).toBe(before);
    expect(disk.messages.appendedRecords).toBe(appended);
    expect(recordsOfType(disk.bindings.entries, StorageRecordType.ID_COUNTER)).toBeGreaterThanOrEqual(2);
    // Whatever durable comes next waits for the checkpoint too: afterSync covers both journals.
    storage.storeMessage(message(storage), ['orders']);
    expect(storage.syncRequests).toBe(before + 1);
    const sync = afterSyncCalled(storage);
    disk.messages.completeSyncs();
    expect(sync.called).toBe(false);
    disk.bindings.completeSyncs();
    expect(sync).toEqual({ called: true, error: null });
    await storage.close();
  });

  it('keeps one live id checkpoint', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    for (let i = 0; i < 300_000; i++) storage.generateMessageId();
    const counters = recordsOfType(disk.bindings.entries, StorageRecordType.ID_COUNTER);
    expect(counters).toBeGreaterThanOrEqual(3);
    expect(deletes(disk.bindings.entries)).toHaveLength(counters - 1);
    await storage.close();
  });

  describe('large messages', () => {
    it('keeps the bytes of a large message in its own file and brings it back', async () => {
      const disk = new Disk();
      const storage = await disk.opened();
      storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
      const big = message(storage, 'x'.repeat(5000));
      storage.storeMessage(big, ['orders']);
      expect(recordsOfType(disk.messages.entries, StorageRecordType.ADD_LARGE_MESSAGE)).toBe(1);
      expect(recordsOfType(disk.messages.entries, StorageRecordType.ADD_MESSAGE)).toBe(0);
      await storage.close();
      expect(await disk.fileSystem.sizeOf(disk.largeFile(big.messageId))).toBe(big.encodedSize());

      const reopened = disk.storage();
      const report = await reopened.open();
      expect(report.messages).toBe(1);
      expect(report.bytes).toBeGreaterThanOrEqual(big.encodedSize());
      expect(bodies(reopened, 'orders')).toEqual(['x'.repeat(5000)]);
      await reopened.close();
    });

    it('holds afterSync until the large-message file is on disk', async () => {
      const disk = new Disk();
      const storage = await disk.opened();
      storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
      disk.fileSystem.holdDatasyncs = true;
      const before = storage.syncRequests;
      storage.storeMessage(message(storage, 'y'.repeat(5000)), ['orders']);
      // The journal's sync and the file's write both count.
      expect(storage.syncRequests).toBe(before + 2);
      const sync = afterSyncCalled(storage);
      await waitFor(() => disk.fileSystem.heldDatasyncs === 1, 'the datasync of the large-message file');
      expect(sync.called).toBe(false);
      disk.fileSystem.releaseDatasyncs();
      await waitFor(() => sync.called, 'afterSync');
      expect(sync.error).toBeNull();
      await storage.close();
    });

    it('removes the file once the message is acknowledged', async () => {
      const disk = new Disk();
      const storage = await disk.opened();
      storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
      const big = message(storage, 'z'.repeat(5000));
      storage.storeMessage(big, ['orders']);
      await new Promise<void>((resolve) => storage.afterSync(() => resolve()));
      storage.storeAcknowledge('orders', big.messageId);
      await storage.close();
      expect(await disk.fileSystem.exists(disk.largeFile(big.messageId))).toBe(false);
    });

    it('refuses a confirmed large message whose file is missing, torn or flipped, naming each file and appending nothing; accepted, drops it with a note', async () => {
      const disk = new Disk();
      const storage = await disk.opened();
      storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
      const missing = message(storage, 'm'.repeat(5000));
      const torn = message(storage, 't'.repeat(5000));
      const flipped = message(storage, 'f'.repeat(5000));
      const whole = message(storage, 'w'.repeat(5000));
      for (const m of [missing, torn, flipped, whole]) storage.storeMessage(m, ['orders']);
      await storage.close();
      await disk.fileSystem.remove(disk.largeFile(missing.messageId));
      const tornFile = disk.largeFile(torn.messageId);
      await disk.fileSystem.cut(tornFile, 100);
      const flippedFile = disk.largeFile(flipped.messageId);
      await disk.fileSystem.flipBit(flippedFile, 2500);
      const appended = disk.messages.appendedRecords;

      const refused = await disk
        .storage()
        .open()
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(DataDamageError.is(refused)).toBe(true);
      expect((refused as DataDamageError).findings).toEqual([
        expect.objectContaining({
          kind: 'large-message-file',
          file: disk.largeFile(missing.messageId),
          messages: 1,
        }),
        expect.objectContaining({ kind: 'large-message-file', file: tornFile, messages: 1 }),
        expect.objectContaining({ kind: 'large-message-file', file: flippedFile, messages: 1 }),
      ]);
      expect((refused as Error).message).toContain('--accept-damage large-message-file');
      expect(disk.messages.appendedRecords).toBe(appended);
      expect(await disk.fileSystem.exists(tornFile)).toBe(true);

      const reopened = disk.storage({ acceptDamage: ['large-message-file'] });
      const report = await reopened.open();
      expect(report.messages).toBe(1);
      expect(report.notes).toEqual(
        expect.arrayContaining([
          `large message ${missing.messageId} dropped (damage accepted): its file ${disk.largeFile(missing.messageId)} is missing`,
          `large message ${torn.messageId} dropped (damage accepted): its file ${tornFile} holds 100 bytes, not ${torn.encodedSize()}`,
          `large message ${flipped.messageId} dropped (damage accepted): its file ${flippedFile} does not match its checksum`,
        ]),
      );
      expect(bodies(reopened, 'orders')).toEqual(['w'.repeat(5000)]);
      await reopened.close();
      expect(await disk.fileSystem.exists(tornFile)).toBe(false);
      // Dropped for good: the next start, accepting nothing, finds nothing to drop.
      const again = disk.storage();
      expect((await again.open()).notes).toEqual([]);
      await again.close();
    });

    it('drops an unreferenced large message whose file is short (never confirmed), without asking', async () => {
      const disk = new Disk();
      const storage = await disk.opened();
      storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
      const unconfirmed = message(storage, 'u'.repeat(5000));
      // Its header without any reference: a crash before the reference was written.
      disk.messages.appendAdd(
        unconfirmed.messageId,
        StorageRecordType.ADD_LARGE_MESSAGE,
        encodeLargeMessageHeader({ length: 5000, crc: 1 }),
        true,
      );
      await storage.close();

      const reopened = disk.storage();
      const report = await reopened.open();
      expect(report.notes).toEqual([
        `large message ${unconfirmed.messageId} dropped (never confirmed): its file ${disk.largeFile(unconfirmed.messageId)} is missing`,
      ]);
      await reopened.close();
    });

    it('removes large-message files the journal has no record of', async () => {
      const disk = new Disk();
      await disk.fileSystem.put(disk.largeFile(77), Buffer.from('orphan of an upload cut short'));
      await disk.fileSystem.put(`${LARGE_DIRECTORY}/notes.txt`, Buffer.from('not ours'));
      const storage = disk.storage();
      const report = await storage.open();
      expect(report.notes).toEqual(['1 large-message file(s) without a journal record removed']);
      expect(await disk.fileSystem.exists(disk.largeFile(77))).toBe(false);
      expect(await disk.fileSystem.exists(`${LARGE_DIRECTORY}/notes.txt`)).toBe(true);
      await storage.close();
    });

    it('keeps messages of a transaction larger than one journal write in its records', async () => {
      const disk = new Disk();
      const storage = await disk.opened();
      storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
      storage.beginTransaction();
      // Six of 800 bytes do not fit one 4 KiB write: the journal writes the transaction in several.
      const sent = ['a', 'b', 'c', 'd', 'e', 'f'].map((letter) => message(storage, letter.repeat(800)));
      for (const m of sent) storage.storeMessage(m, ['orders']);
      storage.commitTransaction();
      expect(recordsOfType(disk.messages.entries, StorageRecordType.ADD_MESSAGE)).toBe(sent.length);
      expect(recordsOfType(disk.messages.entries, StorageRecordType.ADD_LARGE_MESSAGE)).toBe(0);
      await storage.close();
      const reopened = await disk.opened();
      expect(bodies(reopened, 'orders')).toEqual(sent.map((m) => m.body.toString()));
      await reopened.close();
    });

    it('writes the file of a message sent in a transaction, and drops it with the transaction', async () => {
      const disk = new Disk();
      const storage = await disk.opened();
      storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
      storage.beginTransaction();
      const big = message(storage, 'q'.repeat(5000));
      storage.storeMessage(big, ['orders']);
      await waitFor(() => disk.fileSystem.exists(disk.largeFile(big.messageId)), 'the file');
      disk.crash();
      const reopened = disk.storage();
      const report = await reopened.open();
      expect(report.notes).toEqual(['1 large-message file(s) without a journal record removed']);
      expect(bodies(reopened, 'orders')).toEqual([]);
      await reopened.close();
    });
  });

  it('forwards a journal failure to its listeners and to afterSync', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    const failures: Error[] = [];
    storage.onFailure((error) => failures.push(error));
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    disk.messages.syncPending = true;
    storage.storeMessage(message(storage), ['orders']);
    const sync = afterSyncCalled(storage);
    const broken = new Error('EIO: fdatasync failed');
    disk.messages.fail(broken);
    expect(failures).toEqual([broken]);
    expect(sync).toEqual({ called: true, error: broken });
    expect(() => storage.storeQueue({ name: 'audit', address: ADDRESS, filter: null })).toThrow(broken);
    await storage.close();
  });

  it('refuses to store before open, and to open twice', async () => {
    const storage = new Disk().storage();
    expect(() => storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null })).toThrow(/not open/);
    await storage.open();
    await expect(storage.open()).rejects.toThrow(/already open/);
    await storage.close();
  });

  it('stops loading at a record it cannot read, naming the journal, record and type', async () => {
    const disk = new Disk();
    const storage = await disk.opened();
    disk.messages.appendAdd(12345, 99, Buffer.from('from a newer broker'), true);
    await storage.close();
    await expect(disk.storage().open()).rejects.toThrow(
      'message journal: record 12345 (type 99) cannot be read: unknown record type 99 for an add',
    );
  });
});
