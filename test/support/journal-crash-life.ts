import { CoreMessage } from '../../src/core/protocol/core-message';
import { PropertyKind } from '../../src/core/protocol/typed-properties';
import { silentLogger } from '../../src/core/remoting/logger';
import {
  AddressSettingsRepository,
  type AddressSettings,
} from '../../src/server/postoffice/address-settings';
import { MessageHeader } from '../../src/server/postoffice/message-headers';
import { PostOffice } from '../../src/server/postoffice/post-office';
import type { Queue } from '../../src/server/postoffice/queue';
import { createJournalStorage } from '../../src/server/storage/create-journal-storage';
import type { JournalFileSystem } from '../../src/server/storage/journal/journal-file-system';
import type { JournalStorageManager } from '../../src/server/storage/journal-storage-manager';
import type { CrashPoint } from './crash-points';
import { CRASH_MODES, type CrashMode, type FaultFileSystem } from './fault-file-system';

/**
 * A post office on the file journal and the large-message store, over the fault file system: what
 * the crash-point tests of the storage and of management start, check and stop at every write and
 * sync boundary.
 */

const ROOT = '/hq';
const JOURNAL_DIRECTORY = `${ROOT}/journal`;
const BINDINGS_DIRECTORY = `${ROOT}/bindings`;
const LARGE_DIRECTORY = `${ROOT}/largemessages`;
const SLOW_SYNC_MS = 5;
/**
 * Every mode, then more tears at random bytes: a batch holds several records, and a tear between
 * two of them keeps the first alone (a duplicate id without its message, unless both are one
 * transaction).
 */
export const MODES: readonly CrashMode[] = [
  ...CRASH_MODES,
  ...Array.from({ length: 8 }, () => 'torn-byte' as const),
];
/** Above the 100 KiB large-message threshold: each goes to its own file. */
const LARGE_BYTES = 150 * 1024;
const NAME = 'name';
export const DUPLICATE_ID = 'order-1';

export interface Life {
  fileSystem: FaultFileSystem;
  storage: JournalStorageManager;
  office: PostOffice;
  notes: string[];
}

export async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** The journals prepare their next files in the background after open: a step starts once they are ready. */
async function filesPrepared(fileSystem: JournalFileSystem): Promise<void> {
  for (const directory of [JOURNAL_DIRECTORY, BINDINGS_DIRECTORY])
    await until(async () => {
      const names = await fileSystem.list(directory);
      return names.length >= 2 && !names.some((name) => name.endsWith('.tmp'));
    }, `the journal files of ${directory}`);
}

export function synced(life: Life): Promise<void> {
  return new Promise((resolve, reject) =>
    life.storage.afterSync((error) => (error === null ? resolve() : reject(error))),
  );
}

export async function start(
  fileSystem: FaultFileSystem,
  settings: Record<string, Partial<AddressSettings>>,
): Promise<Life> {
  // A large file syncs later than a journal batch would: only what waits for it comes after it.
  fileSystem.slowDatasyncs((path) => path.startsWith(LARGE_DIRECTORY), SLOW_SYNC_MS);
  const storage = createJournalStorage(
    {
      journalDirectory: JOURNAL_DIRECTORY,
      bindingsDirectory: BINDINGS_DIRECTORY,
      largeMessagesDirectory: LARGE_DIRECTORY,
      pagingDirectory: `${ROOT}/paging`,
      journalFileSize: 256 * 1024,
    },
    fileSystem,
    silentLogger,
    { persistIdCache: true },
  );
  const report = await storage.open();
  const repository = new AddressSettingsRepository();
  for (const [match, value] of Object.entries(settings)) repository.add(match, value);
  const office = new PostOffice(storage, repository, () => {
    throw new Error('no filters here');
  });
  office.load();
  await filesPrepared(fileSystem);
  return { fileSystem, storage, office, notes: report.notes };
}

export async function stop(life: Life): Promise<void> {
  life.office.stop();
  await life.storage.close().catch(() => undefined);
}

export function queue(life: Life, name: string): Queue {
  return life.office.createQueue({ name, address: name, filter: null, durable: true, temporary: false });
}

/** A durable message named `name`; large ones fill LARGE_BYTES with the name's first letter. */
export function message(
  address: string,
  name: string,
  options: { large?: boolean; duplicateId?: string; expiration?: number } = {},
): CoreMessage {
  const m = new CoreMessage();
  m.address = address;
  m.durable = true;
  m.body = options.large === true ? bodyOf(name) : Buffer.from(name);
  m.expiration = options.expiration ?? 0;
  m.properties.set(NAME, { kind: PropertyKind.STRING, value: name });
  if (options.duplicateId !== undefined)
    m.properties.set(MessageHeader.DUPLICATE_DETECTION_ID, {
      kind: PropertyKind.STRING,
      value: options.duplicateId,
    });
  return m;
}

function bodyOf(name: string): Buffer {
  return Buffer.alloc(LARGE_BYTES, name);
}

/** What a queue holds after a restart: each message's name, checked whole (a large body byte for byte). */
export function names(life: Life, queueName: string): string[] {
  return (life.office.getQueue(queueName)?.snapshot() ?? []).map(({ message: m }) => {
    const name = String(m.properties.get(NAME)?.value);
    const expected = m.body.length === LARGE_BYTES ? bodyOf(name) : Buffer.from(name);
    if (!m.body.equals(expected)) throw new Error(`message ${name} came back with a damaged body`);
    return name;
  });
}

/** No header may come back without its file: that is a large message the broker confirmed and lost. */
export function expectNoLargeMessageDropped(life: Life): void {
  expect(life.notes.filter((note) => /large message/.test(note) && /dropped/.test(note))).toEqual([]);
}

export function outcomeOf(
  state: Record<string, string[]>,
  expected: Record<string, Record<string, string[]>>,
  point: CrashPoint,
): string {
  const found = Object.entries(expected).find(([, states]) =>
    Object.entries(states).every(([queueName, queueNames]) => {
      const held = state[queueName] ?? [];
      return held.length === queueNames.length && held.every((name, i) => name === queueNames[i]);
    }),
  );
  if (found === undefined) throw new Error(`half a transaction after the restart: ${JSON.stringify(state)}`);
  if (point.confirmed && found[0] !== 'committed')
    throw new Error(`confirmed, yet found ${found[0]}: ${JSON.stringify(state)}`);
  return found[0];
}

export function expectBothSides(outcomes: Map<string, number>): void {
  expect([...outcomes.keys()].sort()).toEqual(['committed', 'not committed']);
}
