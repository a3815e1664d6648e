import * as path from 'node:path';
import type { Logger } from '../../core/remoting';
import { FileJournal } from './journal/file-journal';
import type { Journal, JournalOptions } from './journal/journal';
import { FILE_HEADER_SIZE } from './journal/journal-file-header';
import type { JournalFileSystem } from './journal/journal-file-system';
import { JournalStorageManager, LARGE_MESSAGE_THRESHOLD } from './journal-storage-manager';
import { LargeMessageStore } from './large-message-store';
import { resolvePersistenceConfiguration, type PersistenceConfiguration } from './persistence-configuration';

/** HornetQ's bindings journal: 1 MiB files, 2 of them at least, whatever journal-file-size says. */
export const BINDINGS_FILE_SIZE = 1024 * 1024;
const BINDINGS_MIN_FILES = 2;

/** The two journals' settings from hornetq-configuration.xml's (HornetQ's file names). */
export function journalOptionsFor(
  config: PersistenceConfiguration,
  fileSystem: JournalFileSystem,
  logger: Logger,
): { bindings: JournalOptions; messages: JournalOptions } {
  const shared = {
    compactMinFiles: config.journalCompactMinFiles,
    compactPercentage: config.journalCompactPercentage,
    bufferTimeoutNs: config.journalBufferTimeout,
    bufferSize: config.journalBufferSize,
    skipCorruptRecords: config.skipCorruptRecords,
    fileSystem,
  };
  return {
    bindings: {
      ...shared,
      directory: config.bindingsDirectory,
      filePrefix: 'hornetq-bindings',
      fileExtension: 'bindings',
      fileSize: BINDINGS_FILE_SIZE,
      minFiles: BINDINGS_MIN_FILES,
      createDirectory: config.createBindingsDir,
      logger: logger.child({ journal: 'bindings' }),
    },
    messages: {
      ...shared,
      directory: config.journalDirectory,
      filePrefix: 'hornetq-data',
      fileExtension: 'hq',
      fileSize: config.journalFileSize,
      minFiles: config.journalMinFiles,
      createDirectory: config.createJournalDir,
      logger: logger.child({ journal: 'messages' }),
    },
  };
}

/** The broker's two journals, as metrics name them. */
export type JournalName = 'bindings' | 'messages';

export interface JournalStorageSettings {
  /** persist-id-cache (a broker setting): store the duplicate-id caches. */
  persistIdCache: boolean;
  /** Told how long each fdatasync of either journal took, in seconds (the broker's metrics). */
  onSync?: (journal: JournalName, seconds: number) => void;
  /** Makes a journal from its options: the file journal unless a test gives another. */
  createJournal?: (options: JournalOptions) => Journal;
}

/**
 * The broker's storage on two journals and a large-message directory, from the persistence
 * settings (checked first: a RangeError names each setting out of range).
 */
export function createJournalStorage(
  settings: Partial<PersistenceConfiguration>,
  fileSystem: JournalFileSystem,
  logger: Logger,
  { persistIdCache, onSync, createJournal = (options) => new FileJournal(options) }: JournalStorageSettings,
): JournalStorageManager {
  const config = resolvePersistenceConfiguration(settings);
  const { bindings, messages } = journalOptionsFor(config, fileSystem, logger);
  const options =
    onSync === undefined
      ? { bindings, messages }
      : {
          bindings: { ...bindings, onSync: (seconds: number) => onSync('bindings', seconds) },
          messages: { ...messages, onSync: (seconds: number) => onSync('messages', seconds) },
        };
  const largeMessages = new LargeMessageStore(
    config.largeMessagesDirectory,
    fileSystem,
    config.createJournalDir,
    logger.child({ store: 'large-messages' }),
  );
  return new JournalStorageManager(
    () => ({ bindings: createJournal(options.bindings), messages: createJournal(options.messages) }),
    largeMessages,
    {
      syncTransactional: config.journalSyncTransactional,
      syncNonTransactional: config.journalSyncNonTransactional,
      persistIdCache,
      largeMessageThreshold: LARGE_MESSAGE_THRESHOLD,
      // The file journal takes a record, or a transaction with its commit, as large as this.
      maxRecordBytes: Math.min(config.journalBufferSize, config.journalFileSize - FILE_HEADER_SIZE),
      location: storageLocation(config),
      bindingsDirectory: path.resolve(config.bindingsDirectory),
      journalDirectory: path.resolve(config.journalDirectory),
      acceptDamage: config.acceptDamage,
      logger,
    },
  );
}

/** Where everything is, for the startup log. */
function storageLocation(config: PersistenceConfiguration): string {
  return (
    `bindings in ${path.resolve(config.bindingsDirectory)}, messages in ${path.resolve(config.journalDirectory)}, ` +
    `large messages in ${path.resolve(config.largeMessagesDirectory)}`
  );
}
