import { CoreMessage } from '../../../src/core/protocol/core-message';
import { silentLogger } from '../../../src/core/remoting/logger';
import { createJournalStorage } from '../../../src/server/storage/create-journal-storage';
import type { JournalStorageManager } from '../../../src/server/storage/journal-storage-manager';
import { MemoryFileSystem } from '../../support/memory-file-system';
import { SyncRoundsFileSystem, type HeldSync } from '../../support/sync-rounds-file-system';

/**
 * What a commit carrying large messages costs in sync waits: the files are synced side by side
 * (each file's fdatasync, and one fsync of their directory for all of them), then the journal
 * once. One wait more than a commit without them, however many files it carries.
 */

const ROOT = '/hq';
const JOURNAL_DIRECTORY = `${ROOT}/journal`;
const BINDINGS_DIRECTORY = `${ROOT}/bindings`;
const LARGE_DIRECTORY = `${ROOT}/largemessages`;
const ADDRESS = 'orders';

async function opened(): Promise<{ fileSystem: SyncRoundsFileSystem; storage: JournalStorageManager }> {
  const fileSystem = new SyncRoundsFileSystem(new MemoryFileSystem());
  const storage = createJournalStorage(
    {
      journalDirectory: JOURNAL_DIRECTORY,
      bindingsDirectory: BINDINGS_DIRECTORY,
      largeMessagesDirectory: LARGE_DIRECTORY,
      pagingDirectory: `${ROOT}/paging`,
      journalFileSize: 1024 * 1024,
    },
    fileSystem,
    silentLogger,
    { persistIdCache: true },
  );
  await storage.open();
  storage.storeQueue({ name: 'src', address: 'src', filter: null });
  storage.storeQueue({ name: 'dst', address: ADDRESS, filter: null });
  await synced(storage);
  await filesPrepared(fileSystem);
  return { fileSystem, storage };
}

function synced(storage: JournalStorageManager): Promise<void> {
  return new Promise((resolve, reject) =>
    storage.afterSync((error) => (error === null ? resolve() : reject(error))),
  );
}

async function filesPrepared(fileSystem: SyncRoundsFileSystem): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (const directory of [JOURNAL_DIRECTORY, BINDINGS_DIRECTORY]) {
    for (;;) {
      const names = await fileSystem.list(directory);
      if (names.length >= 2 && !names.some((name) => name.endsWith('.tmp'))) break;
      if (Date.now() > deadline) throw new Error(`journal files of ${directory} still being prepared`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
}

function message(storage: JournalStorageManager, bytes: number): CoreMessage {
  const m = new CoreMessage();
  m.messageId = storage.generateMessageId();
  m.address = ADDRESS;
  m.durable = true;
  m.body = Buffer.alloc(bytes, 'x');
  return m;
}

/**
 * Commits the acknowledgement of a message stored earlier with `large` large messages (150 KiB)
 * and a small one, and returns the sync rounds until the commit is on disk.
 */
async function commitRounds(large: number): Promise<HeldSync[][]> {
  const { fileSystem, storage } = await opened();
  try {
    const consumed = message(storage, 100);
    storage.storeMessage(consumed, ['src']);
    await synced(storage);
    fileSystem.holding = true;
    storage.beginTransaction();
    storage.storeAcknowledge('src', consumed.messageId);
    for (let i = 0; i < large; i++) storage.storeMessage(message(storage, 150 * 1024), ['dst']);
    storage.storeMessage(message(storage, 100), ['dst']);
    storage.commitTransaction();
    let done = false;
    storage.afterSync((error) => {
      expect(error).toBeNull();
      done = true;
    });
    const rounds = await fileSystem.roundsUntil(() => done);
    fileSystem.holding = false;
    return rounds;
  } finally {
    fileSystem.holding = false;
    await storage.close();
  }
}

function describeRound(round: HeldSync[]): string[] {
  return round
    .map(({ operation, path }) => `${operation} ${path.startsWith(LARGE_DIRECTORY) ? LARGE_DIRECTORY : path}`)
    .sort();
}

describe('the syncs a commit waits for', () => {
  it('without large messages: one, the journal', async () => {
    const rounds = await commitRounds(0);
    expect(rounds.map(describeRound)).toEqual([[`datasync ${JOURNAL_DIRECTORY}/hornetq-data-1.hq`]]);
  });

  it.each([1, 4])(
    'with %i large message(s): one more, the files and their directory (once) side by side',
    async (large) => {
      const rounds = await commitRounds(large);
      expect(rounds.map(describeRound)).toEqual([
        [
          ...Array.from({ length: large }, () => `datasync ${LARGE_DIRECTORY}`),
          `syncDirectory ${LARGE_DIRECTORY}`,
        ],
        [`datasync ${JOURNAL_DIRECTORY}/hornetq-data-1.hq`],
      ]);
    },
  );
});
