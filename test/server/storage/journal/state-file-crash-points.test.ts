/**
 * No false refusal: a crash at any file operation of a journal that rolls over and reclaims (each
 * of which rewrites the state file) leaves files a load accepts: a reclaimed file is never taken
 * for a missing one, whatever operation the crash cut.
 */
import { DataDamageError } from '../../../../src/server/storage/damage/data-damage-error';
import type { FileJournal } from '../../../../src/server/storage/journal/file-journal';
import { CRASH_MODES, FaultFileSystem, seededRandom } from '../../../support/fault-file-system';
import { MemoryFileSystem } from '../../../support/memory-file-system';
import { FileKind } from '../../../../src/server/storage/journal/journal-file-header';
import { body, journalOptions, openJournal, scanJournal, synced } from './journal-test-kit';

const RECORDS = 40;
/** Each record is deleted this many records later: the oldest files die and are reclaimed. */
const LIFETIME = 8;

/**
 * Adds records, deleting old ones (but every `keepEvery`th: the files then stay, sparse, and are
 * compacted), each synced; stops at the first failure (the crash).
 */
async function workload(journal: FileJournal, keepEvery: number): Promise<void> {
  for (let id = 1; id <= RECORDS; id++) {
    journal.appendAdd(id, 1, body(`record ${id} `.padEnd(300, '.')), true);
    const old = id - LIFETIME;
    if (old > 0 && old % keepEvery !== 0) journal.appendDelete(old, true);
    await synced(journal);
  }
}

/** Reclaim alone (every old record deleted), or compaction too (one in four kept, compacted past 3 files). */
const SHAPES = [
  { shape: 'reclaim', keepEvery: Infinity, compactMinFiles: 0 },
  { shape: 'compaction', keepEvery: 4, compactMinFiles: 3 },
];
type Shape = (typeof SHAPES)[number];

function optionsFor(fileSystem: FaultFileSystem, shape: Shape) {
  return journalOptions(fileSystem, {
    fileSize: 4096,
    bufferSize: 4096,
    compactMinFiles: shape.compactMinFiles,
  });
}

async function run(
  shape: Shape,
  crashAt: number | null,
): Promise<{ operations: number; fileSystem: FaultFileSystem }> {
  const fileSystem = new FaultFileSystem(new MemoryFileSystem());
  const options = optionsFor(fileSystem, shape);
  let operations = 0;
  fileSystem.crashWhen(() => ++operations === crashAt);
  try {
    const { journal } = await openJournal(options);
    await workload(journal, shape.keepEvery).catch(() => undefined);
    // Reclaim runs after a roll-over, in the background: give it its turn.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await journal.close().catch(() => undefined);
  } catch {
    // The crash came during the first load.
  }
  return { operations, fileSystem };
}

describe('the state file under crashes', () => {
  const cases = SHAPES.flatMap((shape) => CRASH_MODES.map((mode) => ({ ...shape, mode })));
  test.each(cases)(
    'a crash ($mode) at every file operation of roll-overs and $shape loads without a damage finding',
    async (shape) => {
      const { operations, fileSystem: whole } = await run(shape, null);
      // The dry run reclaimed or compacted files: the first is gone.
      expect(await whole.exists('/journal/hornetq-data-1.hq')).toBe(false);
      if (shape.shape === 'compaction')
        expect((await scanJournal(whole.inner)).some((record) => record.kind === FileKind.COMPACTED)).toBe(
          true,
        );
      expect(operations).toBeGreaterThan(100);
      const refused: string[] = [];
      const random = seededRandom(24);
      for (let crashAt = 1; crashAt <= operations; crashAt++) {
        const { fileSystem } = await run(shape, crashAt);
        await fileSystem.crash(shape.mode, random);
        try {
          const { journal } = await openJournal(optionsFor(fileSystem, shape));
          await journal.close();
        } catch (error) {
          const kind = DataDamageError.is(error) ? '' : 'not damage: ';
          refused.push(`crash at operation ${crashAt}: ${kind}${(error as Error).message}`);
        }
      }
      expect(refused).toEqual([]);
    },
  );
});
