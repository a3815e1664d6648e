import type { JournalTransactionRecord } from '../../../../src/server/storage/journal/journal';
import { RecordType } from '../../../../src/server/storage/journal/journal-record';
import { FaultFileSystem } from '../../../support/fault-file-system';
import { MemoryFileSystem } from '../../../support/memory-file-system';
import { filesPrepared, journalOptions, openJournal, scanJournal, synced, turn } from './journal-test-kit';

/** 16 KiB writes, 64 KiB files: a transaction of 300 records of 500 bytes spans 10 writes and 3 files. */
const RECORDS = 300;
const BODY_BYTES = 500;

async function setUp(overrides: Parameters<typeof journalOptions>[1] = {}) {
  const fileSystem = new FaultFileSystem(new MemoryFileSystem());
  const options = journalOptions(fileSystem, overrides);
  const { journal } = await openJournal(options);
  await filesPrepared(fileSystem);
  return { fileSystem, options, journal };
}

function adds(firstId: number, count: number): JournalTransactionRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    kind: 'add' as const,
    id: firstId + i,
    userType: 1,
    body: Buffer.alloc(BODY_BYTES, i % 251),
  }));
}

describe('a transaction larger than one write', () => {
  test('goes in consecutive writes across files, its commit counting its records in its own file', async () => {
    const { fileSystem, options, journal } = await setUp();
    journal.appendTransaction(adds(1, RECORDS), true);
    await synced(journal);
    await journal.close();

    const scanned = await scanJournal(fileSystem.inner);
    const files = new Set(scanned.filter((record) => record.type === RecordType.ADD_TX).map((r) => r.file));
    expect(files.size).toBeGreaterThanOrEqual(3);
    const commit = scanned.find((record) => record.type === RecordType.COMMIT)!;
    const inCommitFile = scanned.filter((r) => r.type === RecordType.ADD_TX && r.file === commit.file);
    expect(commit.count).toBe(inCommitFile.length);
    expect(commit.count).toBeLessThan(RECORDS);

    const reloaded = await openJournal(options);
    expect(reloaded.state.size).toBe(RECORDS);
    expect(reloaded.report.rolledBackTransactions).toBe(0);
    await reloaded.journal.close();
  });

  test('is all or nothing after a crash before its last write was synced', async () => {
    const { fileSystem, options, journal } = await setUp();
    journal.appendAdd(1_000, 1, Buffer.from('before'), true);
    await synced(journal);
    // Slow disk: the first writes of the transaction go out and sync one by one; the crash comes
    // while the rest (with the commit) is unsynced.
    let datasyncs = 0;
    const release = fileSystem.holdDatasyncs();
    fileSystem.beforeOperation = (operation) => {
      if (operation.operation === 'datasync' && ++datasyncs === 4) fileSystem.crashWhen(() => true);
    };
    journal.appendTransaction(adds(1, RECORDS), true);
    const outcome = new Promise<Error | null>((resolve) => journal.afterSync(resolve));
    release();
    for (let i = 0; i < 50 && !fileSystem.isFrozen; i++) await turn();
    expect(fileSystem.isFrozen).toBe(true);
    await fileSystem.crash('drop');
    expect(await outcome).not.toBeNull();
    await journal.close().catch(() => undefined);

    const reloaded = await openJournal(options);
    expect([...reloaded.state.keys()]).toEqual([1_000]);
    expect(reloaded.report.rolledBackTransactions).toBe(1);
    await reloaded.journal.close();
  });

  test('survives compaction of the files holding its first records', async () => {
    const { options, journal } = await setUp({ compactMinFiles: 1, compactPercentage: 100 });
    journal.appendTransaction(adds(1, RECORDS), true);
    await synced(journal);
    // Deleting half of it makes the files holding it sparse: compaction rewrites them.
    for (let id = 1; id <= RECORDS; id += 2) journal.appendDelete(id, true);
    await synced(journal);
    for (let id = RECORDS + 1; id <= RECORDS + 300; id++) {
      journal.appendAdd(id, 1, Buffer.alloc(BODY_BYTES, 1), true);
      journal.appendDelete(id, false);
    }
    await synced(journal);
    await journal.close();

    const reloaded = await openJournal(options);
    expect([...reloaded.state.keys()].sort((a, b) => a - b)).toEqual(
      Array.from({ length: RECORDS / 2 }, (_, i) => 2 * i + 2),
    );
    expect(reloaded.report.rolledBackTransactions).toBe(0);
    await reloaded.journal.close();
  });
});
