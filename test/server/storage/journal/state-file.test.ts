/**
 * The journal's state file: a file it lists that is missing is lost, not reclaimed; a file it does
 * not list (rolled over after its last write) must follow on in flush numbers, so a missing one
 * before it shows too; a journal without a state file (written before there was one) loads as
 * before.
 */
import { DamageReport } from '../../../../src/server/storage/damage/damage-report';
import { DataDamageError } from '../../../../src/server/storage/damage/data-damage-error';
import { FileJournal } from '../../../../src/server/storage/journal/file-journal';
import { JournalFiles } from '../../../../src/server/storage/journal/journal-files';
import { writeStateFile } from '../../../../src/server/storage/journal/journal-state-file';
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
} from './journal-test-kit';

const STATE_FILE = 'hornetq-data-state.ctr';

/** A journal of several files, left as a crash leaves it (no clean-stop mark); its data files in order. */
async function crashedJournal() {
  const fileSystem = new FaultFileSystem(new MemoryFileSystem());
  const options = journalOptions(fileSystem, { fileSize: 4096, bufferSize: 4096 });
  const { journal } = await openJournal(options);
  await filesPrepared(fileSystem);
  for (let id = 1; id <= 60; id++) {
    journal.appendAdd(id, 1, body(`record ${id} `.padEnd(200, '.')), true);
    await synced(journal);
  }
  fileSystem.crashWhen(() => true);
  await journal.close().catch(() => undefined);
  await fileSystem.crash('drop');
  const files = [...new Set((await scanJournal(fileSystem.inner)).map((record) => record.file))];
  return { fileSystem, options, files };
}

async function loadWith(options: ReturnType<typeof journalOptions>, damage: DamageReport) {
  const journal = new FileJournal(options);
  const state: JournalState = new Map();
  await journal.load(stateVisitor(state), damage);
  await journal.close();
  return state;
}

describe('the journal state file', () => {
  test('files rolled over after its last write load when their flushes follow on', async () => {
    const { fileSystem, options, files } = await crashedJournal();
    expect(files.length).toBeGreaterThanOrEqual(4);
    // As if the crash came before the state file listed anything after the first file.
    await writeStateFile(new JournalFiles(options), STATE_FILE, { files: [files[0]!], clean: null });
    const state = await loadWith(options, DamageReport.refusingAll());
    expect(state.size).toBe(60);
    expect(await fileSystem.exists(`${DIRECTORY}/${STATE_FILE}`)).toBe(true);
  });

  test('a missing file before an unlisted one is a flush gap no reclaim explains: missing-journal-file at its first record', async () => {
    const { fileSystem, options, files } = await crashedJournal();
    await writeStateFile(new JournalFiles(options), STATE_FILE, { files: [files[0]!], clean: null });
    await fileSystem.inner.remove(`${DIRECTORY}/${files[2]!}`);

    const refused = await loadWith(options, DamageReport.refusingAll()).catch((error: unknown) => error);
    expect(DataDamageError.is(refused)).toBe(true);
    expect((refused as DataDamageError).findings).toEqual([
      expect.objectContaining({
        kind: 'missing-journal-file',
        file: `${DIRECTORY}/${files[3]!}`,
        offset: 32,
        detail: expect.stringContaining(`a file between ${files[1]!} and ${files[3]!} is missing`),
      }),
    ]);

    const accepted = await loadWith(options, new DamageReport(new Set(['missing-journal-file']), null));
    expect(accepted.size).toBeLessThan(60);
  });

  test('without a state file (a journal written before it existed) a gap is taken as reclaimed, as before', async () => {
    const { fileSystem, options, files } = await crashedJournal();
    await fileSystem.inner.remove(`${DIRECTORY}/${STATE_FILE}`);
    await fileSystem.inner.remove(`${DIRECTORY}/${files[2]!}`);
    const state = await loadWith(options, DamageReport.refusingAll());
    expect(state.size).toBeLessThan(60);
  });

  test('a journal stopped cleanly with nothing in it, or after records, opens again without a finding, and again after that', async () => {
    const fileSystem = new FaultFileSystem(new MemoryFileSystem());
    const options = journalOptions(fileSystem);
    const empty = await openJournal(options);
    await empty.journal.close();
    const reopened = await openJournal(options);
    for (let id = 1; id <= 5; id++) reopened.journal.appendAdd(id, 1, body(`record ${id}`), id === 5);
    await synced(reopened.journal);
    await reopened.journal.close();
    const again = await openJournal(options);
    expect(again.state.size).toBe(5);
    await again.journal.close();
    const third = await openJournal(options);
    expect(third.report.truncatedAt).toBeNull();
    await third.journal.close();
  });
});
