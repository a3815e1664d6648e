import { FaultFileSystem } from '../../../support/fault-file-system';
import { MemoryFileSystem } from '../../../support/memory-file-system';
import {
  DIRECTORY,
  filesPrepared,
  journalOptions,
  openJournal,
  scanJournal,
  synced,
} from './journal-test-kit';

const FILE_SIZE = 4096;
const RECORD_BODY = Buffer.alloc(200, 7);

async function dataFileNames(fileSystem: FaultFileSystem): Promise<string[]> {
  return (await fileSystem.list(DIRECTORY)).filter((name) => name.endsWith('.hq')).sort();
}

/** Reclaim runs in the background after a roll: polls, with a deadline, until `done` holds. */
async function eventually(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('condition not reached before the deadline');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('roll-over, reclaim and file reuse', () => {
  test('records roll over to the next file; a transaction that does not fit the rest of a file goes whole to the next', async () => {
    const fileSystem = new FaultFileSystem(new MemoryFileSystem());
    const options = journalOptions(fileSystem, { fileSize: FILE_SIZE, bufferSize: 2048 });
    const { journal } = await openJournal(options);
    for (let id = 1; id <= 30; id++) journal.appendAdd(id, 1, RECORD_BODY, false);
    const records = Array.from({ length: 8 }, (_, index) => ({
      kind: 'add' as const,
      id: 100 + index,
      userType: 2,
      body: RECORD_BODY,
    }));
    journal.appendTransaction(records, true);
    await synced(journal);
    await journal.close();
    expect((await dataFileNames(fileSystem)).length).toBeGreaterThanOrEqual(3);
    const { state, report, journal: reloaded } = await openJournal(options);
    expect(state.size).toBe(38);
    expect(report.rolledBackTransactions).toBe(0);
    const transaction = (await scanJournal(fileSystem.inner)).filter((record) => record.txId !== 0);
    expect(transaction).toHaveLength(9);
    expect(new Set(transaction.map((record) => record.file)).size).toBe(1);
    await reloaded.close();
  });

  test('a file whose records are all deleted is reused under a new name and id; the journal does not grow', async () => {
    const fileSystem = new FaultFileSystem(new MemoryFileSystem());
    const options = journalOptions(fileSystem, { fileSize: FILE_SIZE, bufferSize: 2048, minFiles: 2 });
    const { journal } = await openJournal(options);
    await filesPrepared(fileSystem);
    let next = 1;
    for (let round = 0; round < 40; round++) {
      for (let n = 0; n < 10; n++) journal.appendAdd(next + n, 1, RECORD_BODY, false);
      for (let n = 0; n < 10; n++) journal.appendDelete(next + n, false);
      next += 10;
      await synced(journal);
    }
    await eventually(async () => (await dataFileNames(fileSystem)).length <= 4);
    const names = await dataFileNames(fileSystem);
    expect(names).not.toContain('hornetq-data-1.hq');
    expect(Math.max(...names.map((name) => Number(/-([0-9]+)\./.exec(name)![1])))).toBeGreaterThan(10);
    journal.appendAdd(1_000, 1, RECORD_BODY, true);
    await synced(journal);
    await journal.close();
    const { state, journal: reloaded } = await openJournal(options);
    expect([...state.keys()]).toEqual([1_000]);
    await reloaded.close();
  });

  test('a file is kept while a later file deletes into it, and freed files beyond min-files are deleted', async () => {
    const fileSystem = new FaultFileSystem(new MemoryFileSystem());
    const options = journalOptions(fileSystem, { fileSize: FILE_SIZE, bufferSize: 2048, minFiles: 2 });
    const { journal } = await openJournal(options);
    await filesPrepared(fileSystem);
    // One long-lived record in the first file keeps it; everything else dies.
    journal.appendAdd(1, 1, RECORD_BODY, true);
    for (let id = 2; id <= 200; id++) journal.appendAdd(id, 1, RECORD_BODY, false);
    await synced(journal);
    const grown = (await dataFileNames(fileSystem)).length;
    for (let id = 2; id <= 200; id++) journal.appendDelete(id, false);
    for (let id = 201; id <= 260; id++) journal.appendAdd(id, 1, RECORD_BODY, true);
    await synced(journal);
    await eventually(async () => (await dataFileNames(fileSystem)).length < grown);
    expect(await dataFileNames(fileSystem)).toContain('hornetq-data-1.hq');
    await journal.close();
    const { state, journal: reloaded } = await openJournal(options);
    expect([...state.keys()]).toEqual([1, ...Array.from({ length: 60 }, (_, index) => 201 + index)]);
    await reloaded.close();
  });
});
