import type { Logger } from '../core/remoting';
import { resolvedPersistence, type BrokerConfiguration } from './broker-configuration';
import { NodeManager } from './ha/node-manager';
import { DataDirectoryLock } from './lock/data-directory-lock';
import { createJournalStorage, type JournalName } from './storage/create-journal-storage';
import { NodeFileSystem } from './storage/journal/node-file-system';
import type { StorageManager } from './storage/storage-manager';

/**
 * The broker's store when persistence is enabled: the bindings and message journals and the
 * large-message files, on node:fs, in the directories of the persistence settings (relative ones
 * under the data directory).
 */
export function createBrokerJournal(
  config: BrokerConfiguration,
  logger: Logger,
  onSync: (journal: JournalName, seconds: number) => void,
): StorageManager {
  return createJournalStorage(resolvedPersistence(config), new NodeFileSystem(), logger, {
    persistIdCache: config.persistIdCache,
    onSync,
  });
}

/**
 * Makes this broker the one live broker on its journal directory (server.lock, as HornetQ): to be
 * held from before the journals open until after they close. DataDirectoryLockedError when
 * another broker has it.
 */
export function lockBrokerJournal(config: BrokerConfiguration): Promise<DataDirectoryLock> {
  const { journalDirectory, createJournalDir } = resolvedPersistence(config);
  return DataDirectoryLock.acquire(journalDirectory, { createDirectory: createJournalDir });
}

/**
 * The node manager of the journal directory, without taking a lock: for a backup, or a live that
 * waits for its backup to hand back.
 */
export function openBrokerNodeManager(config: BrokerConfiguration): Promise<NodeManager> {
  const { journalDirectory, createJournalDir } = resolvedPersistence(config);
  return NodeManager.open(journalDirectory, {
    createDirectory: createJournalDir,
    pollMs: config.haLockPollPeriod,
  });
}
