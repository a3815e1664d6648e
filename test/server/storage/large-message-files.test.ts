import { silentLogger } from '../../../src/core/remoting/logger';
import { LargeMessageFiles, type LargeMessageJournal } from '../../../src/server/storage/large-message-files';
import { LargeMessageStore } from '../../../src/server/storage/large-message-store';
import { DamageReport } from '../../../src/server/storage/damage/damage-report';
import { MessageJournalLoader } from '../../../src/server/storage/message-journal-loader';
import { StorageTransaction } from '../../../src/server/storage/storage-transaction';
import {
  decodeLargeMessageHeader,
  encodeQueueId,
  largeMessageHeaderOf,
  StorageRecordType,
} from '../../../src/server/storage/storage-records';
import type { TransactionSteps } from '../../../src/server/storage/transaction-steps';
import { MemoryFileSystem } from '../../support/memory-file-system';

const DIRECTORY = '/broker/data/largemessages';

/** A message journal whose syncs the test completes, and which records its deletes. */
class HeldSyncJournal implements LargeMessageJournal {
  readonly deletes: number[] = [];
  /** What the appends after each header wait for. */
  readonly holds: Array<Promise<unknown>> = [];
  private readonly waiting: Array<(error: Error | null) => void> = [];

  appendDelete(id: number): void {
    this.deletes.push(id);
  }

  afterSync(done: (error: Error | null) => void): void {
    this.waiting.push(done);
  }

  holdAppendsUntil(ready: Promise<unknown>): void {
    this.holds.push(ready);
  }

  get waitingSyncs(): number {
    return this.waiting.length;
  }

  completeSyncs(error: Error | null = null): void {
    for (const done of this.waiting.splice(0)) done(error);
  }
}

describe('LargeMessageFiles', () => {
  let fileSystem: MemoryFileSystem;
  let store: LargeMessageStore;
  let journal: HeldSyncJournal;
  let transaction: StorageTransaction | null;
  let files: LargeMessageFiles;

  const steps: TransactionSteps = {
    changed: (undo) => transaction?.onUndo(undo),
    afterCommit: (step) => {
      if (transaction === null) step();
      else transaction.onCommit(step);
    },
  };

  beforeEach(async () => {
    fileSystem = new MemoryFileSystem();
    store = new LargeMessageStore(DIRECTORY, fileSystem, true, silentLogger);
    journal = new HeldSyncJournal();
    transaction = null;
    files = new LargeMessageFiles(store, () => journal, steps, {
      largeMessageThreshold: 1000,
      maxRecordBytes: 4096,
      logger: silentLogger,
    });
    await store.open();
  });

  afterEach(async () => {
    await store.close();
  });

  async function hasFile(messageId: number): Promise<boolean> {
    await store.close();
    return fileSystem.exists(store.pathOf(messageId));
  }

  it('keeps a message inline below the threshold and within one journal record', () => {
    expect(files.fitsInline(999)).toBe(true);
    expect(files.fitsInline(1000)).toBe(false);
    const small = new LargeMessageFiles(store, () => journal, steps, {
      largeMessageThreshold: 100_000,
      maxRecordBytes: 4096,
      logger: silentLogger,
    });
    expect(small.fitsInline(4096 - 64)).toBe(true);
    expect(small.fitsInline(4096 - 63)).toBe(false);
  });

  it('writes the file and returns the header the journal keeps instead', async () => {
    const encoding = Buffer.alloc(2000, 7);
    const header = files.write(5, encoding);
    expect(decodeLargeMessageHeader(header)).toEqual(largeMessageHeaderOf(encoding));
    expect(await hasFile(5)).toBe(true);
  });

  it('holds what the journal appends after the header until the file is whole on disk', async () => {
    const encoding = Buffer.alloc(2000, 7);
    files.write(5, encoding);
    expect(journal.holds).toHaveLength(1);
    await journal.holds[0];
    const file = await fileSystem.open(store.pathOf(5), false);
    const bytes = Buffer.alloc(await file.size());
    await file.read(bytes, 0, bytes.length, 0);
    await file.close();
    expect(bytes.equals(encoding)).toBe(true);
  });

  it("removes a deleted message's file only once its delete is synced", async () => {
    files.write(5, Buffer.alloc(2000, 7));
    files.deleted(5);
    expect(await hasFile(5)).toBe(true);
    journal.completeSyncs();
    expect(await hasFile(5)).toBe(false);
  });

  it('keeps the file when the sync of its delete failed', async () => {
    files.write(5, Buffer.alloc(2000, 7));
    files.deleted(5);
    journal.completeSyncs(new Error('disk gone'));
    expect(await hasFile(5)).toBe(true);
  });

  it('does nothing for the delete of a message that has no file', async () => {
    files.deleted(6);
    expect(journal.waitingSyncs).toBe(0);
  });

  it('removes a file written in a transaction whose commit was refused, and waits for a commit to delete one', async () => {
    transaction = new StorageTransaction();
    files.write(5, Buffer.alloc(2000, 7));
    transaction.undo();
    transaction = null;
    expect(await hasFile(5)).toBe(false);

    files.write(6, Buffer.alloc(2000, 8));
    transaction = new StorageTransaction();
    files.deleted(6);
    journal.completeSyncs();
    const committing = transaction;
    transaction = null;
    expect(await hasFile(6)).toBe(true);
    committing.committed();
    journal.completeSyncs();
    expect(await hasFile(6)).toBe(false);
  });

  it('recovers matching files, drops unreferenced headers without their bytes (never confirmed), and removes orphans', async () => {
    const good = Buffer.alloc(2000, 1);
    const torn = Buffer.alloc(2000, 2);
    store.write(1, good);
    store.write(2, torn.subarray(0, 1500));
    store.write(9, Buffer.alloc(2000, 9));
    await store.close();
    const load = new MessageJournalLoader(new Set());
    load.largeHeaders.set(1, largeMessageHeaderOf(good));
    load.largeHeaders.set(2, largeMessageHeaderOf(torn));
    load.largeHeaders.set(3, largeMessageHeaderOf(good));
    const notes: string[] = [];

    const damage = DamageReport.refusingAll();
    const checked = await files.check(load, damage);
    expect(damage.findings).toEqual([]);
    expect(await files.recover(checked, load, notes)).toBe(2000);
    expect(load.encodings.get(1)).toEqual(good);
    expect([...load.encodings.keys()]).toEqual([1]);
    expect(journal.deletes).toEqual([2, 3]);
    expect(notes).toEqual([
      `large message 2 dropped (never confirmed): its file ${store.pathOf(2)} holds 1500 bytes, not 2000`,
      `large message 3 dropped (never confirmed): its file ${store.pathOf(3)} is missing`,
      '1 large-message file(s) without a journal record removed',
    ]);
    expect(await hasFile(1)).toBe(true);
    expect(await hasFile(2)).toBe(false);
    expect(await hasFile(9)).toBe(false);
  });

  it('finds the file of a referenced (confirmed) large message missing or short as damage, writing nothing; accepted, drops it', async () => {
    const good = Buffer.alloc(2000, 1);
    store.write(2, good.subarray(0, 1500));
    await store.close();
    const load = new MessageJournalLoader(new Set([7]));
    load.largeHeaders.set(2, largeMessageHeaderOf(good));
    load.largeHeaders.set(3, largeMessageHeaderOf(good));
    load.update(2, StorageRecordType.ADD_REF, encodeQueueId(7));
    load.update(3, StorageRecordType.ADD_REF, encodeQueueId(7));

    const refusing = DamageReport.refusingAll();
    const checked = await files.check(load, refusing);
    expect(refusing.refused).toEqual([
      expect.objectContaining({ kind: 'large-message-file', file: store.pathOf(2), messages: 1 }),
      expect.objectContaining({ kind: 'large-message-file', file: store.pathOf(3), messages: 1 }),
    ]);
    expect(refusing.refused[0]!.detail).toContain('holds 1500 bytes, not 2000');
    expect(journal.deletes).toEqual([]);
    expect(await hasFile(2)).toBe(true);

    const notes: string[] = [];
    await files.recover(checked, load, notes);
    expect(journal.deletes).toEqual([2, 3]);
    expect(notes[0]).toMatch(/large message 2 dropped \(damage accepted\)/);
  });
});
