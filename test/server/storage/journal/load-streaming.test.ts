import type {
  JournalFile,
  JournalFileSystem,
} from '../../../../src/server/storage/journal/journal-file-system';
import { MemoryFileSystem } from '../../../support/memory-file-system';
import { journalOptions, openJournal, synced } from './journal-test-kit';

const MiB = 1024 * 1024;

/** Records the largest single read: what a load holds of a file at once. */
class ReadMeter {
  largestRead = 0;

  wrap(fileSystem: JournalFileSystem): JournalFileSystem {
    return new Proxy(fileSystem, {
      get: (target, property, receiver) => {
        if (property !== 'open') return Reflect.get(target, property, receiver) as unknown;
        return async (path: string, create: boolean): Promise<JournalFile> => {
          const file = await target.open(path, create);
          const record = (length: number): void => {
            this.largestRead = Math.max(this.largestRead, length);
          };
          return {
            path: file.path,
            size: () => file.size(),
            read(buffer, offset, length, position) {
              record(length);
              return file.read(buffer, offset, length, position);
            },
            write: (buffer, offset, length, position) => file.write(buffer, offset, length, position),
            datasync: () => file.datasync(),
            truncate: (size) => file.truncate(size),
            close: () => file.close(),
          };
        };
      },
    });
  }
}

describe('load streams the files in bounded chunks', () => {
  test('a journal of several 8 MiB files loads reading at most 1 MiB at a time', async () => {
    const memory = new MemoryFileSystem();
    const options = journalOptions(memory, { fileSize: 8 * MiB, bufferSize: 490 * 1024 });
    const { journal } = await openJournal(options);
    const record = Buffer.alloc(1024, 9);
    for (let id = 1; id <= 20_000; id++) journal.appendAdd(id, 1, record, id % 1000 === 0);
    await synced(journal);
    await journal.close();

    const meter = new ReadMeter();
    const {
      state,
      report,
      journal: reloaded,
    } = await openJournal({ ...options, fileSystem: meter.wrap(memory) });
    expect(state.size).toBe(20_000);
    expect(report.files).toBeGreaterThanOrEqual(3);
    expect(report.bytes).toBeGreaterThan(20_000 * 1024);
    expect(meter.largestRead).toBeLessThanOrEqual(MiB);
    await reloaded.close();
  });

  test('a record larger than the read window still loads (the window grows to that record only)', async () => {
    const memory = new MemoryFileSystem();
    const options = journalOptions(memory, { fileSize: 4 * MiB, bufferSize: 3 * MiB });
    const { journal } = await openJournal(options);
    journal.appendAdd(1, 1, Buffer.alloc(2 * MiB, 1), true);
    journal.appendAdd(2, 1, Buffer.alloc(10, 2), true);
    await synced(journal);
    await journal.close();

    const meter = new ReadMeter();
    const { state, journal: reloaded } = await openJournal({ ...options, fileSystem: meter.wrap(memory) });
    expect(state.get(1)![0]!.length).toBe(2 + 2 * 2 * MiB);
    expect(state.has(2)).toBe(true);
    expect(meter.largestRead).toBeLessThan(4 * MiB);
    await reloaded.close();
  });
});
