import fc from 'fast-check';
import { JournalCorruptionError } from '../../../../src/server/storage/journal/journal-corruption-error';
import type { JournalTransactionRecord } from '../../../../src/server/storage/journal/journal';
import { FileKind } from '../../../../src/server/storage/journal/journal-file-header';
import { RecordType } from '../../../../src/server/storage/journal/journal-record';
import {
  CRASH_MODES,
  FaultFileSystem,
  seededRandom,
  type CrashMode,
} from '../../../support/fault-file-system';
import { MemoryFileSystem } from '../../../support/memory-file-system';
import {
  DIRECTORY,
  journalOptions,
  openJournal,
  scanJournal,
  synced,
  type JournalState,
  type ScannedRecord,
} from './journal-test-kit';

/**
 * The crash property, SQLite test-VFS style: random adds, updates, deletes and transactions, some
 * synced, a crash in every mode at a random moment, then a reload must give the state after SOME
 * prefix of the appends that includes everything whose afterSync called back: nothing synced is
 * lost, nothing unsynced is required, a transaction is all or nothing, a torn tail never loads.
 * Then a bit flipped in a synced record before the tail must stop the load naming file and
 * offset, and with skipCorruptRecords the rest must load.
 */
const IDS = 12;
/** More runs or another seed for a longer search: JOURNAL_PROPERTY_RUNS, JOURNAL_PROPERTY_SEED. */
const RUNS = Number(process.env.JOURNAL_PROPERTY_RUNS ?? 2000);

type Part = { kind: 'add' | 'update' | 'delete'; pick: number; size: number };
type Step =
  | (Part & { sync: boolean })
  | { kind: 'tx'; parts: Part[]; sync: boolean }
  | { kind: 'turn' }
  | { kind: 'wait' };

const part: fc.Arbitrary<Part> = fc.record({
  kind: fc.constantFrom<Part['kind']>('add', 'add', 'update', 'delete'),
  pick: fc.nat(1000),
  size: fc.nat(100),
});
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constantFrom<Part['kind']>('add', 'add', 'update', 'delete'),
      pick: fc.nat(1000),
      size: fc.nat(100),
      sync: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('tx' as const),
      parts: fc.array(part, { maxLength: 4 }),
      sync: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'turn' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'wait' as const }) },
);

const scenario = fc.record({
  steps: fc.array(step, { minLength: 1, maxLength: 80, size: 'max' }),
  mode: fc.constantFrom<CrashMode>(...CRASH_MODES),
  turnsBeforeCrash: fc.nat(3),
  /** The crash comes at this file operation (mid-flush, mid-reclaim, mid-compaction), or after the steps. */
  crashAtOperation: fc.oneof(fc.nat(30), fc.nat(300)),
  /** Counting only datasyncs makes the crash land while a flush's write is not yet synced. */
  crashCounts: fc.constantFrom<'datasync' | 'any'>('datasync', 'any'),
  compact: fc.boolean(),
  flip: fc.boolean(),
  seed: fc.integer(),
});

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const render = (state: JournalState): string => JSON.stringify([...state].sort((a, b) => a[0] - b[0]));

function bodyOf(index: number, size: number): Buffer {
  return Buffer.alloc(size, index % 251);
}

/** Resolves a part against what is live: an add takes a free id, an update or delete a live one. */
function resolve(part: Part, live: Set<number>): number | null {
  const candidates = [...Array(IDS).keys()]
    .map((n) => n + 1)
    .filter((id) => (part.kind === 'add') !== live.has(id));
  return candidates.length === 0 ? null : candidates[part.pick % candidates.length]!;
}

function applyTo(state: JournalState, record: JournalTransactionRecord): void {
  if (record.kind === 'add') state.set(record.id, [`${record.userType}:${record.body.toString('hex')}`]);
  else if (record.kind === 'update')
    state.get(record.id)!.push(`${record.userType}:${record.body.toString('hex')}`);
  else state.delete(record.id);
}

function asRecord(part: Part, id: number, index: number): JournalTransactionRecord {
  return part.kind === 'delete'
    ? { kind: 'delete', id }
    : { kind: part.kind, id, userType: index % 256, body: bodyOf(index, part.size) };
}

/** Only a record some later record proves synced is "before the tail" (see the torn-tail rule). */
function beforeTheTail(records: readonly ScannedRecord[]): ScannedRecord[] {
  const lastFileIndex = Math.max(...records.map((record) => record.fileIndex));
  return records.filter((record, index) => {
    if (record.kind === FileKind.COMPACTED || record.fileIndex < lastFileIndex) return true;
    return new Set(records.slice(index + 1).map((later) => later.flush)).size >= 2;
  });
}

function idsTouchedBy(record: ScannedRecord, records: readonly ScannedRecord[]): Set<number> {
  const transactional = record.type >= RecordType.ADD_TX;
  if (!transactional) return new Set([record.id]);
  return new Set(
    records
      .filter(
        (other) =>
          other.file === record.file && other.txId === record.txId && other.type !== RecordType.COMMIT,
      )
      .map((other) => other.id),
  );
}

test('after a crash in any mode the journal loads a prefix holding everything synced; flips before the tail are caught', async () => {
  await fc.assert(
    fc.asyncProperty(
      scenario,
      async ({ steps, mode, turnsBeforeCrash, crashAtOperation, crashCounts, compact, flip, seed }) => {
        const random = seededRandom(seed);
        const fileSystem = new FaultFileSystem(new MemoryFileSystem());
        const options = journalOptions(fileSystem, {
          fileSize: 1024,
          bufferSize: 600,
          compactMinFiles: compact ? 2 : 0,
          compactPercentage: 60,
        });
        const { journal } = await openJournal(options);
        let operations = 0;
        const counted = (operation: string): boolean =>
          crashCounts === 'datasync'
            ? operation === 'datasync'
            : operation !== 'read' && operation !== 'open';
        fileSystem.crashWhen(({ operation }) => counted(operation) && ++operations > crashAtOperation);
        const model: JournalState = new Map();
        const states: string[] = [render(model)];
        let acked = 0;
        for (const current of steps) {
          if (current.kind === 'turn') await turn();
          else if (current.kind === 'wait') await synced(journal).catch(() => undefined);
          else if (fileSystem.isFrozen) break;
          else {
            const index = states.length;
            const live = new Set(model.keys());
            const records: JournalTransactionRecord[] = [];
            for (const each of current.kind === 'tx' ? current.parts : [current]) {
              const id = resolve(each, live);
              if (id === null) continue;
              const record = asRecord(each, id, index);
              records.push(record);
              if (record.kind === 'add') live.add(id);
              if (record.kind === 'delete') live.delete(id);
            }
            if (current.kind !== 'tx' && records.length === 0) continue;
            if (current.kind === 'tx') journal.appendTransaction(records, current.sync);
            else {
              const record = records[0]!;
              if (record.kind === 'add')
                journal.appendAdd(record.id, record.userType, record.body, current.sync);
              else if (record.kind === 'update')
                journal.appendUpdate(record.id, record.userType, record.body, current.sync);
              else journal.appendDelete(record.id, current.sync);
            }
            for (const record of records) applyTo(model, record);
            states.push(render(model));
            if (current.sync)
              journal.afterSync((error) => (acked = error === null ? Math.max(acked, index) : acked));
          }
        }
        for (let n = 0; n < turnsBeforeCrash; n++) await turn();
        const ackedAtCrash = acked;
        await fileSystem.crash(mode, random);
        await journal.close().catch(() => undefined);

        const reloaded = await openJournal(options);
        const loaded = render(reloaded.state);
        const prefix = states.findIndex((state, index) => index >= ackedAtCrash && state === loaded);
        expect({ loaded, prefixFound: prefix >= 0, ackedAtCrash }).toEqual({
          loaded,
          prefixFound: true,
          ackedAtCrash,
        });
        await reloaded.journal.close();
        if (!flip) return;

        const records = await scanJournal(fileSystem.inner);
        const candidates = records.length === 0 ? [] : beforeTheTail(records);
        if (candidates.length === 0) return;
        const target = candidates[Math.floor(random() * candidates.length)]!;
        await fileSystem.flipBit(
          `${DIRECTORY}/${target.file}`,
          target.offset + Math.floor(random() * target.length),
          Math.floor(random() * 8),
        );
        const refused = await openJournal(options).then(
          async (opened) => {
            await opened.journal.close();
            return null;
          },
          (error: unknown) => error,
        );
        expect(refused).toBeInstanceOf(JournalCorruptionError);
        expect({
          file: (refused as JournalCorruptionError).file,
          offset: (refused as JournalCorruptionError).offset,
        }).toEqual({ file: target.file, offset: target.offset });

        const skipping = await openJournal({ ...options, skipCorruptRecords: true });
        expect(skipping.report.skipped).toContainEqual({ file: target.file, offset: target.offset });
        const touched = idsTouchedBy(target, records);
        const untouched = (state: JournalState): string =>
          render(new Map([...state].filter(([id]) => !touched.has(id))));
        expect(untouched(skipping.state)).toBe(untouched(reloaded.state));
        await skipping.journal.close();
      },
    ),
    { seed: Number(process.env.JOURNAL_PROPERTY_SEED ?? 20261201), numRuns: RUNS },
  );
});
