import * as path from 'node:path';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import { silentLogger } from '../../../src/core/remoting/logger';
import {
  BINDINGS_FILE_SIZE,
  createJournalStorage,
  journalOptionsFor,
} from '../../../src/server/storage/create-journal-storage';
import type { JournalOptions } from '../../../src/server/storage/journal/journal';
import { DEFAULT_PERSISTENCE_CONFIGURATION } from '../../../src/server/storage/persistence-configuration';
import { StorageRecordType } from '../../../src/server/storage/storage-records';
import { MemoryFileSystem } from '../../support/memory-file-system';
import { MemoryJournal } from '../../support/memory-journal';

describe('createJournalStorage', () => {
  it("gives each journal HornetQ's names and the configured settings", () => {
    const fileSystem = new MemoryFileSystem();
    const { bindings, messages } = journalOptionsFor(
      { ...DEFAULT_PERSISTENCE_CONFIGURATION, journalFileSize: 2 * 1024 * 1024, createBindingsDir: false },
      fileSystem,
      silentLogger,
    );
    expect(bindings).toMatchObject({
      directory: 'data/bindings',
      filePrefix: 'hornetq-bindings',
      fileExtension: 'bindings',
      fileSize: BINDINGS_FILE_SIZE,
      minFiles: 2,
      createDirectory: false,
      bufferSize: 501_760,
      bufferTimeoutNs: 3_333_333,
      fileSystem,
    });
    expect(messages).toMatchObject({
      directory: 'data/journal',
      filePrefix: 'hornetq-data',
      fileExtension: 'hq',
      fileSize: 2 * 1024 * 1024,
      minFiles: 2,
      compactMinFiles: 10,
      compactPercentage: 30,
      createDirectory: true,
      skipCorruptRecords: false,
    });
  });

  it('builds a storage on the journals it is given, with the configured directories and sync policy', async () => {
    const fileSystem = new MemoryFileSystem();
    const journals = new Map<string, MemoryJournal>();
    const storage = createJournalStorage(
      {
        largeMessagesDirectory: '/hq/large',
        journalDirectory: '/hq/journal',
        bindingsDirectory: '/hq/bindings',
        journalSyncNonTransactional: false,
      },
      fileSystem,
      silentLogger,
      {
        persistIdCache: true,
        createJournal: (options: JournalOptions) => {
          const journal = new MemoryJournal(options.filePrefix);
          journals.set(options.filePrefix, journal);
          return journal;
        },
      },
    );
    const report = await storage.open();
    expect(report.location).toBe(
      `bindings in ${path.resolve('/hq/bindings')}, messages in ${path.resolve('/hq/journal')}, large messages in ${path.resolve('/hq/large')}`,
    );
    storage.storeQueue({ name: 'q', address: 'q', filter: null });
    const large = new CoreMessage();
    large.messageId = storage.generateMessageId();
    large.address = 'q';
    large.durable = true;
    large.body = Buffer.alloc(100 * 1024);
    const before = storage.syncRequests;
    storage.storeMessage(large, ['q']);
    // Not synced (journal-sync-non-transactional false); only the file's write counts.
    expect(storage.syncRequests).toBe(before + 1);
    const entry = journals.get('hornetq-data')?.entries.at(0);
    expect(entry?.kind === 'add' && entry.userType).toBe(StorageRecordType.ADD_LARGE_MESSAGE);
    await storage.close();
    expect(await fileSystem.exists(`/hq/large/${large.messageId}.msg`)).toBe(true);
  });

  it('makes new journals at each open (a journal loads once), and its sync requests only grow', async () => {
    const made: string[] = [];
    const storage = createJournalStorage({}, new MemoryFileSystem(), silentLogger, {
      persistIdCache: true,
      createJournal: (options: JournalOptions) => {
        made.push(options.filePrefix);
        return new MemoryJournal(options.filePrefix);
      },
    });
    await storage.open();
    storage.storeQueue({ name: 'q', address: 'q', filter: null });
    const afterFirst = storage.syncRequests;
    expect(afterFirst).toBeGreaterThan(0);
    await storage.close();
    expect(storage.syncRequests).toBe(afterFirst);
    await storage.open();
    expect(storage.syncRequests).toBe(afterFirst);
    storage.storeQueue({ name: 'r', address: 'r', filter: null });
    expect(storage.syncRequests).toBe(afterFirst + 1);
    await storage.close();
    expect(made).toEqual(['hornetq-bindings', 'hornetq-data', 'hornetq-bindings', 'hornetq-data']);
  });

  it('refuses settings out of range before making anything', () => {
    const createJournal = jest.fn();
    expect(() =>
      createJournalStorage({ journalMinFiles: 0 }, new MemoryFileSystem(), silentLogger, {
        persistIdCache: true,
        createJournal,
      }),
    ).toThrow('journalMinFiles (journal-min-files) must be an integer in 2..10000 (actual value: 0)');
    expect(createJournal).not.toHaveBeenCalled();
  });
});
