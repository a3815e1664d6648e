import { FileKind } from '../../../../src/server/storage/journal/journal-file-header';
import { FaultFileSystem } from '../../../support/fault-file-system';
import { MemoryFileSystem } from '../../../support/memory-file-system';
import { DIRECTORY, journalOptions, openJournal, scanJournal, synced } from './journal-test-kit';

const BODY = Buffer.alloc(100, 3);

/** Polls (with a deadline) until `done` holds: compaction runs in the background. */
async function eventually(done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('condition not reached before the deadline');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** 1000 adds, then 100 deletes, all synced, with compaction off (Artemis' CrashOnCompactTest data). */
async function journalOf900(fileSystem: FaultFileSystem) {
  const options = journalOptions(fileSystem, { fileSize: 16 * 1024, bufferSize: 4096 });
  const { journal } = await openJournal(options);
  for (let id = 1; id <= 1000; id++) journal.appendAdd(id, 1, BODY, false);
  for (let id = 1; id <= 1000; id += 10) journal.appendDelete(id, false);
  await synced(journal);
  await journal.close();
  const expected = Array.from({ length: 1000 }, (_, index) => index + 1).filter((id) => id % 10 !== 1);
  return { options: { ...options, compactMinFiles: 2, compactPercentage: 100 }, expected };
}

async function leftovers(fileSystem: FaultFileSystem): Promise<string[]> {
  // The state file is the journal's own; anything else is what compaction left.
  return (await fileSystem.list(DIRECTORY)).filter(
    (name) => !/^hornetq-data-[0-9]+\.hq$/.test(name) && name !== 'hornetq-data-state.ctr',
  );
}

describe('compaction', () => {
  test('sparse closed files are copied into dense ones before the current file; deletes arriving meanwhile are honoured', async () => {
    const fileSystem = new FaultFileSystem(new MemoryFileSystem());
    const options = journalOptions(fileSystem, {
      fileSize: 4096,
      bufferSize: 2048,
      compactMinFiles: 3,
      compactPercentage: 30,
    });
    const { journal } = await openJournal(options);
    for (let id = 1; id <= 400; id++) journal.appendAdd(id, 1, BODY, false);
    await synced(journal);
    let deletedMeanwhile = false;
    fileSystem.beforeOperation = ({ operation, path }) => {
      if (deletedMeanwhile || operation !== 'open' || !path.endsWith('.cmp')) return;
      deletedMeanwhile = true;
      for (const id of [10, 20, 30]) journal.appendDelete(id, true);
    };
    // Every tenth record stays: no file is all dead (reclaim cannot free one), the rest is sparse.
    for (let id = 1; id <= 400; id++) if (id % 10 !== 0) journal.appendDelete(id, id === 400);
    await synced(journal);
    await eventually(async () =>
      (await scanJournal(fileSystem.inner)).some((record) => record.kind === FileKind.COMPACTED),
    );
    await eventually(async () => (await leftovers(fileSystem)).length === 0);
    expect(deletedMeanwhile).toBe(true);
    journal.appendAdd(1_000, 1, BODY, true);
    await synced(journal);
    await journal.close();

    const expected = [
      ...Array.from({ length: 40 }, (_, index) => (index + 1) * 10).filter((id) => id > 30),
      1_000,
    ];
    const { state, journal: reloaded } = await openJournal(options);
    expect([...state.keys()]).toEqual(expected);
    expect([...state.values()].every((bodies) => bodies[0] === `1:${BODY.toString('hex')}`)).toBe(true);
    const onDisk = await scanJournal(fileSystem.inner);
    expect(
      onDisk.filter((record) => record.kind === FileKind.DATA && record.type === 1 && record.id < 1_000),
    ).toEqual([]);
    await reloaded.close();
  });

  test('a crash right after the control file: the load finishes the compaction and gives exactly the live records', async () => {
    const fileSystem = new FaultFileSystem(new MemoryFileSystem());
    const { options, expected } = await journalOf900(fileSystem);
    fileSystem.crashWhen(({ operation, path }) => operation === 'rename' && path.endsWith('.cmp'));
    const { journal } = await openJournal(options);
    await eventually(() => fileSystem.isFrozen);
    expect(await fileSystem.inner.list(DIRECTORY)).toContain('hornetq-data-compaction.ctr');
    await fileSystem.crash('drop');
    await journal.close().catch(() => undefined);

    const { state, report, journal: reloaded } = await openJournal({ ...options, compactMinFiles: 0 });
    expect([...state.keys()]).toEqual(expected);
    expect(report.records).toBe(900);
    expect(await leftovers(fileSystem)).toEqual([]);
    expect((await scanJournal(fileSystem.inner)).some((record) => record.kind === FileKind.COMPACTED)).toBe(
      true,
    );
    await reloaded.close();
  });

  test('a crash while the control file is written: the compacted files are discarded and the old ones load', async () => {
    const fileSystem = new FaultFileSystem(new MemoryFileSystem());
    const { options, expected } = await journalOf900(fileSystem);
    fileSystem.crashWhen(({ operation, path }) => operation === 'datasync' && path.endsWith('.ctr'));
    const { journal } = await openJournal(options);
    await eventually(() => fileSystem.isFrozen);
    const choices = [0, 0.5];
    await fileSystem.crash('torn-byte', () => choices.shift() ?? 0);
    await journal.close().catch(() => undefined);
    expect((await fileSystem.inner.list(DIRECTORY)).some((name) => name.endsWith('.cmp'))).toBe(true);

    const { state, journal: reloaded } = await openJournal({ ...options, compactMinFiles: 0 });
    expect([...state.keys()]).toEqual(expected);
    expect(await leftovers(fileSystem)).toEqual([]);
    expect((await scanJournal(fileSystem.inner)).every((record) => record.kind === FileKind.DATA)).toBe(true);
    await reloaded.close();
  });
});
