import { FaultFileSystem } from '../../../support/fault-file-system';
import { MemoryFileSystem } from '../../../support/memory-file-system';
import {
  body,
  DIRECTORY,
  filesPrepared,
  journalOptions,
  openJournal,
  scanJournal,
  synced,
  turn,
} from './journal-test-kit';

const FIRST_FILE = `${DIRECTORY}/hornetq-data-1.hq`;

async function journalOnFaultFileSystem(overrides: Parameters<typeof journalOptions>[1] = {}) {
  const fileSystem = new FaultFileSystem(new MemoryFileSystem());
  const options = journalOptions(fileSystem, { fileSize: 64 * 1024, bufferSize: 16 * 1024, ...overrides });
  const opened = await openJournal(options);
  await filesPrepared(fileSystem);
  return { fileSystem, options, ...opened };
}

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await turn();
}

describe('holdAppendsUntil', () => {
  test('nothing appended after the hold is written before its promise resolves; then all of it, in order', async () => {
    const { fileSystem, options, journal } = await journalOnFaultFileSystem();
    const file = deferred();
    journal.holdAppendsUntil(file.promise);
    journal.appendAdd(1, 1, body('header'), false);
    journal.appendTransaction([{ kind: 'add', id: 2, userType: 1, body: body('in a transaction') }], true);
    let synced2 = false;
    journal.afterSync((error) => {
      expect(error).toBeNull();
      synced2 = true;
    });
    await turns(20);
    expect(fileSystem.operationsOn(FIRST_FILE)).not.toContain('write');
    expect(synced2).toBe(false);

    file.resolve();
    await synced(journal);
    expect(synced2).toBe(true);
    await journal.close();
    const reloaded = await openJournal(options);
    expect([...reloaded.state.keys()]).toEqual([1, 2]);
    await reloaded.journal.close();
  });

  test('holds a record that rolls over to the next file as well', async () => {
    const { fileSystem, journal } = await journalOnFaultFileSystem();
    // Fill the first file nearly up, so that the held record opens the second one.
    for (let id = 1; id <= 6; id++) journal.appendAdd(id, 1, Buffer.alloc(9 * 1024, id), false);
    await synced(journal);
    const file = deferred();
    journal.holdAppendsUntil(file.promise);
    journal.appendAdd(100, 1, Buffer.alloc(12 * 1024, 100), true);
    await turns(40);
    const onDisk = async (): Promise<number[]> =>
      (await scanJournal(fileSystem.inner)).map((record) => record.id);
    expect(await onDisk()).toEqual([1, 2, 3, 4, 5, 6]);
    file.resolve();
    await synced(journal);
    const scanned = await scanJournal(fileSystem.inner);
    expect(scanned.map((record) => record.id)).toEqual([1, 2, 3, 4, 5, 6, 100]);
    expect(scanned.at(-1)?.fileIndex).toBe(1);
    await journal.close();
  });

  test('a hold that rejects fails the journal: nothing after it is written, every waiter gets the error', async () => {
    const { fileSystem, journal } = await journalOnFaultFileSystem();
    const failures: Error[] = [];
    journal.onFailure((error) => failures.push(error));
    const file = deferred();
    journal.holdAppendsUntil(file.promise);
    journal.appendAdd(1, 1, body('header of a file that was never written'), true);
    const waiting = new Promise<Error | null>((resolve) => journal.afterSync(resolve));
    const cause = new Error('ENOSPC: the large-message file could not be written');
    file.reject(cause);
    await expect(waiting).resolves.toBe(cause);
    expect(failures).toEqual([cause]);
    expect(fileSystem.operationsOn(FIRST_FILE)).not.toContain('write');
    expect(() => journal.appendAdd(2, 1, body('later'), false)).toThrow(/failed earlier/);
    await journal.close();
  });
});
