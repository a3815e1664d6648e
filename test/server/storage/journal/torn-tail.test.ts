import { DamageReport } from '../../../../src/server/storage/damage/damage-report';
import { DataDamageError } from '../../../../src/server/storage/damage/data-damage-error';
import { FileJournal } from '../../../../src/server/storage/journal/file-journal';
import { JournalCorruptionError } from '../../../../src/server/storage/journal/journal-corruption-error';
import { recordFileId } from '../../../../src/server/storage/journal/journal-file-header';
import { RecordType, writeRecord } from '../../../../src/server/storage/journal/journal-record';
import { FaultFileSystem } from '../../../support/fault-file-system';
import { MemoryFileSystem } from '../../../support/memory-file-system';
import {
  body,
  DIRECTORY,
  filesPrepared,
  journalOptions,
  openJournal,
  scanJournal,
  stateVisitor,
  synced,
  type JournalState,
  turn,
} from './journal-test-kit';

const FIRST = 'hornetq-data-1.hq';

async function setUp() {
  const fileSystem = new FaultFileSystem(new MemoryFileSystem());
  const options = journalOptions(fileSystem);
  const { journal } = await openJournal(options);
  await filesPrepared(fileSystem);
  return { fileSystem, options, journal };
}

/** Appends adds of `ids`, each in its own flush (synced before the next). */
async function addEachSynced(
  journal: Awaited<ReturnType<typeof setUp>>['journal'],
  ids: number[],
): Promise<void> {
  for (const id of ids) {
    journal.appendAdd(id, 1, body(`record ${id}`), true);
    await synced(journal);
  }
}

/** Every file of the journal directory with its bytes: what "nothing was written" compares. */
async function contents(fileSystem: FaultFileSystem): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of (await fileSystem.inner.list(DIRECTORY)).sort()) {
    const file = await fileSystem.inner.open(`${DIRECTORY}/${name}`, false);
    const bytes = Buffer.alloc(await file.size());
    await file.read(bytes, 0, bytes.length, 0);
    await file.close();
    files.set(name, bytes.toString('hex'));
  }
  return files;
}

async function recordAt(fileSystem: FaultFileSystem, id: number) {
  return (await scanJournal(fileSystem.inner)).find((record) => record.id === id)!;
}

describe('torn tail and corruption at load', () => {
  test('a torn last record is cut off and reported, never loaded; appends resume there over zeroed bytes', async () => {
    const { fileSystem, options, journal } = await setUp();
    await addEachSynced(journal, [1, 2, 3]);
    const release = fileSystem.holdDatasyncs();
    journal.appendAdd(4, 1, Buffer.alloc(300, 4), true);
    journal.appendAdd(5, 1, Buffer.alloc(300, 5), true);
    await turn();
    await turn();
    const tornAt = (await recordAt(fileSystem, 3)).offset + (await recordAt(fileSystem, 3)).length;
    // Keeps no whole write and tears the pending one half-way: record 4 whole-ish, 5 cut.
    const choices = [0, 0.7];
    await fileSystem.crash('torn-byte', () => choices.shift()!);
    release();
    await journal.close().catch(() => undefined);

    const reloaded = await openJournal(options);
    expect([...reloaded.state.keys()]).toEqual([1, 2, 3, 4]);
    expect(reloaded.report.truncatedAt).toEqual({
      file: FIRST,
      offset: tornAt + (await recordAt(fileSystem, 4)).length,
    });
    reloaded.journal.appendAdd(6, 1, body('after the cut'), true);
    await synced(reloaded.journal);
    await reloaded.journal.close();

    const again = await openJournal(options);
    expect([...again.state.keys()]).toEqual([1, 2, 3, 4, 6]);
    expect(again.report.truncatedAt).toBeNull();
    await again.journal.close();
  });

  test('a bit flipped in a synced record before the tail stops the load naming file, offset and check', async () => {
    const { fileSystem, options, journal } = await setUp();
    await addEachSynced(journal, [1, 2, 3, 4]);
    await journal.close();
    const damaged = await recordAt(fileSystem, 2);
    await fileSystem.flipBit(`${DIRECTORY}/${FIRST}`, damaged.offset + 20, 3);

    const refused = openJournal(options);
    await expect(refused).rejects.toBeInstanceOf(JournalCorruptionError);
    await expect(refused).rejects.toMatchObject({
      code: 'ERR_JOURNAL_CORRUPT',
      file: FIRST,
      offset: damaged.offset,
    });
    await expect(refused).rejects.toThrow(
      `journal file ${FIRST} is corrupt at offset ${damaged.offset}: CRC32C does not match`,
    );

    const skipping = await openJournal({ ...options, skipCorruptRecords: true });
    expect([...skipping.state.keys()]).toEqual([1, 3, 4]);
    expect(skipping.report.skipped).toEqual([{ file: FIRST, offset: damaged.offset }]);
    await skipping.journal.close();
  });

  test('after a crash, damage in the last flush cannot be told from a torn write: it is cut off (only the last flush may be torn)', async () => {
    const { fileSystem, options, journal } = await setUp();
    await addEachSynced(journal, [1]);
    for (const id of [2, 3, 4]) journal.appendAdd(id, 1, body(`record ${id}`), true);
    await synced(journal);
    // A crash: everything synced stays, the journal never closes (no clean-stop mark).
    fileSystem.crashWhen(() => true);
    await journal.close().catch(() => undefined);
    await fileSystem.crash('drop');
    const damaged = await recordAt(fileSystem, 3);
    await fileSystem.flipBit(`${DIRECTORY}/${FIRST}`, damaged.offset + 15, 0);

    const reloaded = await openJournal(options);
    expect([...reloaded.state.keys()]).toEqual([1, 2]);
    expect(reloaded.report.truncatedAt).toEqual({ file: FIRST, offset: damaged.offset });
    await reloaded.journal.close();
  });

  test('after a clean stop the same damage is refused, naming file and offset, and nothing is written; accepted, it is cut off', async () => {
    const { fileSystem, options, journal } = await setUp();
    await addEachSynced(journal, [1]);
    for (const id of [2, 3, 4]) journal.appendAdd(id, 1, body(`record ${id}`), true);
    await synced(journal);
    await journal.close();
    const damaged = await recordAt(fileSystem, 3);
    await fileSystem.flipBit(`${DIRECTORY}/${FIRST}`, damaged.offset + 15, 0);
    const before = await contents(fileSystem);

    const refused = await openJournal(options).then(
      () => null,
      (error: unknown) => error,
    );
    expect(DataDamageError.is(refused)).toBe(true);
    expect((refused as DataDamageError).findings).toEqual([
      expect.objectContaining({
        kind: 'damaged-tail',
        file: `${DIRECTORY}/${FIRST}`,
        offset: damaged.offset,
      }),
    ]);
    expect(await contents(fileSystem)).toEqual(before);

    const accepting = new FileJournal(options);
    const state: JournalState = new Map();
    await accepting.load(stateVisitor(state), new DamageReport(new Set(['damaged-tail']), null));
    expect([...state.keys()]).toEqual([1, 2]);
    await accepting.close();
  });

  test('a length zeroed before further valid records is corruption, not the end of the data', async () => {
    const { fileSystem, options, journal } = await setUp();
    await addEachSynced(journal, [1, 2, 3, 4]);
    await journal.close();
    const damaged = await recordAt(fileSystem, 2);
    const file = await fileSystem.inner.open(`${DIRECTORY}/${FIRST}`, false);
    await file.write(Buffer.alloc(4), 0, 4, damaged.offset);
    await file.close();

    await expect(openJournal(options)).rejects.toMatchObject({
      offset: damaged.offset,
      check: expect.stringMatching(/zero/),
    });
  });

  test('a flush number gap (a synced flush missing) is corruption', async () => {
    const { fileSystem, options, journal } = await setUp();
    await addEachSynced(journal, [1, 2, 3]);
    await journal.close();
    const second = await recordAt(fileSystem, 2);
    const headerFile = await fileSystem.inner.open(`${DIRECTORY}/${FIRST}`, false);
    const header = Buffer.alloc(32);
    await headerFile.read(header, 0, 32, 0);
    const fileId = header.readUInt32BE(16) * 2 ** 32 + header.readUInt32BE(20);
    const rewritten = Buffer.alloc(second.length);
    writeRecord(rewritten, 0, {
      type: RecordType.ADD,
      fileId: recordFileId(fileId),
      flush: second.flush + 5,
      txId: 0,
      id: 2,
      userType: 1,
      count: 0,
      body: body('record 2'),
    });
    await headerFile.write(rewritten, 0, rewritten.length, second.offset);
    await headerFile.close();

    await expect(openJournal(options)).rejects.toMatchObject({
      offset: second.offset,
      check: `flush number ${second.flush + 5} follows flush ${second.flush - 1}: a synced flush is missing`,
    });
  });

  test('a transaction whose commit is damaged is rolled back whole and counted', async () => {
    const { fileSystem, options, journal } = await setUp();
    await addEachSynced(journal, [1]);
    journal.appendTransaction(
      [
        { kind: 'add', id: 10, userType: 1, body: body('a') },
        { kind: 'add', id: 11, userType: 1, body: body('b') },
        { kind: 'delete', id: 1 },
      ],
      true,
    );
    await synced(journal);
    // Two later flushes: the damage is provably before the tail.
    await addEachSynced(journal, [2, 3]);
    await journal.close();
    const commit = (await scanJournal(fileSystem.inner)).find((record) => record.type === RecordType.COMMIT)!;
    await fileSystem.flipBit(`${DIRECTORY}/${FIRST}`, commit.offset + 14, 1);

    const skipping = await openJournal({ ...options, skipCorruptRecords: true });
    expect([...skipping.state.keys()]).toEqual([1, 2, 3]);
    expect(skipping.report.rolledBackTransactions).toBe(1);
    expect(skipping.report.skipped).toEqual([{ file: FIRST, offset: commit.offset }]);
    await skipping.journal.close();
  });
});
