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
  const opened = await openJournal(
    journalOptions(fileSystem, { fileSize: 256 * 1024, bufferSize: 64 * 1024, ...overrides }),
  );
  await filesPrepared(fileSystem);
  return { fileSystem, ...opened };
}

describe('group commit', () => {
  test('N synced appends in one turn take ONE write and ONE datasync; callbacks run in order after it', async () => {
    const { fileSystem, journal } = await journalOnFaultFileSystem();
    const order: number[] = [];
    for (let id = 1; id <= 100; id++) {
      journal.appendAdd(id, 1, body(`message ${id}`), true);
      journal.afterSync((error) => {
        expect(error).toBeNull();
        order.push(id);
      });
    }
    expect(journal.syncRequests).toBe(100);
    await synced(journal);
    expect(
      fileSystem
        .operationsOn(FIRST_FILE)
        .filter((operation) => operation === 'write' || operation === 'datasync'),
    ).toEqual(['write', 'datasync']);
    expect(order).toEqual(Array.from({ length: 100 }, (_, index) => index + 1));
    await journal.close();
  });

  test('one flush in flight at a time: appends made meanwhile go in the next flush, callbacks wait for their own', async () => {
    const { fileSystem, journal } = await journalOnFaultFileSystem();
    const release = fileSystem.holdDatasyncs();
    const done: string[] = [];
    journal.appendAdd(1, 1, body('a'), true);
    journal.afterSync(() => done.push('a'));
    await turn();
    await turn();
    journal.appendAdd(2, 1, body('b'), true);
    journal.afterSync(() => done.push('b'));
    journal.appendAdd(3, 1, body('c'), true);
    journal.afterSync(() => done.push('c'));
    await turn();
    await turn();
    expect(fileSystem.operationsOn(FIRST_FILE).filter((operation) => operation === 'write')).toHaveLength(1);
    expect(done).toEqual([]);
    release();
    await synced(journal);
    expect(done).toEqual(['a', 'b', 'c']);
    expect(
      fileSystem
        .operationsOn(FIRST_FILE)
        .filter((operation) => operation === 'write' || operation === 'datasync'),
    ).toEqual(['write', 'datasync', 'write', 'datasync']);
    const flushes = (await scanJournal(fileSystem.inner)).map((record) => record.flush);
    expect(flushes).toEqual([flushes[0], flushes[0]! + 1, flushes[0]! + 1]);
    await journal.close();
  });

  test('unsynced appends are not written until a sync is asked for or the buffer fills; afterSync flushes them', async () => {
    const { fileSystem, journal } = await journalOnFaultFileSystem({ bufferSize: 1024 });
    const immediate: string[] = [];
    journal.afterSync(() => immediate.push('nothing waited'));
    expect(immediate).toEqual(['nothing waited']);
    for (let id = 1; id <= 10; id++) journal.appendAdd(id, 1, body('x'), false);
    await turn();
    await turn();
    expect(fileSystem.operationsOn(FIRST_FILE)).not.toContain('write');
    expect(journal.syncRequests).toBe(0);
    await synced(journal);
    expect(
      fileSystem
        .operationsOn(FIRST_FILE)
        .filter((operation) => operation === 'write' || operation === 'datasync'),
    ).toEqual(['write', 'datasync']);
    for (let id = 11; id <= 60; id++) journal.appendAdd(id, 1, Buffer.alloc(40), false);
    await turn();
    expect(
      fileSystem.operationsOn(FIRST_FILE).filter((operation) => operation === 'write').length,
    ).toBeGreaterThan(1);
    await journal.close();
    expect((await scanJournal(fileSystem.inner)).length).toBe(60);
  });

  test('a failed datasync is fatal: every waiting callback gets the error, no retry, appends refused, onFailure told', async () => {
    const { fileSystem, journal } = await journalOnFaultFileSystem();
    const failures: Error[] = [];
    journal.onFailure((error) => failures.push(error));
    fileSystem.crashWhen(({ operation, path }) => operation === 'datasync' && path === FIRST_FILE);
    const results: Array<Error | null> = [];
    journal.appendAdd(1, 1, body('a'), true);
    journal.afterSync((error) => results.push(error));
    journal.appendAdd(2, 1, body('b'), true);
    journal.afterSync((error) => results.push(error));
    await expect(synced(journal)).rejects.toThrow(/crashed/);
    expect(results).toHaveLength(2);
    expect(results.every((error) => error instanceof Error && /crashed/.test(error.message))).toBe(true);
    expect(failures).toHaveLength(1);
    expect(() => journal.appendAdd(3, 1, body('c'), true)).toThrow(/journal failed earlier/);
    const late: Array<Error | null> = [];
    journal.afterSync((error) => late.push(error));
    expect(late).toEqual([failures[0]]);
    expect(fileSystem.operationsOn(FIRST_FILE).filter((operation) => operation === 'datasync')).toEqual([
      'datasync',
    ]);
    await journal.close();
  });

  test('a record larger than the buffer or the file is refused with an error naming the sizes', async () => {
    const { journal } = await journalOnFaultFileSystem({ fileSize: 4096, bufferSize: 2048 });
    expect(() => journal.appendAdd(1, 1, Buffer.alloc(3000), true)).toThrow(
      /record of 3030 bytes is larger than the largest allowed, 2048 bytes \(journal-buffer-size 2048, journal-file-size 4096/,
    );
    expect(() => journal.appendUpdate(7, 1, body('x'), true)).toThrow(/record 7 is not live/);
    journal.appendAdd(1, 1, body('x'), true);
    expect(() => journal.appendAdd(1, 1, body('x'), true)).toThrow(/record 1 is already live/);
    expect(() =>
      journal.appendTransaction(
        [
          { kind: 'delete', id: 1 },
          { kind: 'update', id: 1, userType: 1, body: body('y') },
        ],
        true,
      ),
    ).toThrow(/updates record 1, which is not live/);
    expect(() => journal.appendAdd(-1, 1, body('x'), true)).toThrow(/non-negative safe integer, got -1/);
    await journal.close();
  });
});
