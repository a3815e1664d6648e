import { CoreMessage } from '../../../src/core/protocol/core-message';
import { HornetQException } from '../../../src/core/protocol/hornetq-exception';
import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import { silentLogger } from '../../../src/core/remoting/logger';
import {
  AddressSettingsRepository,
  type AddressSettings,
} from '../../../src/server/postoffice/address-settings';
import { MessageHeader } from '../../../src/server/postoffice/message-headers';
import type { MessageReference } from '../../../src/server/postoffice/message-reference';
import { PostOffice } from '../../../src/server/postoffice/post-office';
import { HandleStatus, type Queue, type QueueConsumer } from '../../../src/server/postoffice/queue';
import { Transaction } from '../../../src/server/session/transaction';
import { createJournalStorage } from '../../../src/server/storage/create-journal-storage';
import type { JournalFileSystem } from '../../../src/server/storage/journal/journal-file-system';
import type { JournalStorageManager } from '../../../src/server/storage/journal-storage-manager';
import { enumerateCrashPoints, type CrashPoint, type CrashPointScenario } from '../../support/crash-points';
import { CRASH_MODES, type CrashMode, type FaultFileSystem } from '../../support/fault-file-system';

/**
 * Finding 2 and 3 of issue 24: a transaction carrying large messages (and a duplicate id stored
 * with one) is all there after a crash or not at all, at every write and sync boundary, and a
 * send retried with its duplicate id after a crash is there exactly once. Driven through the post
 * office, on the file journal and the large-message store, over the fault file system.
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
const MODES: readonly CrashMode[] = [
  ...CRASH_MODES,
  ...Array.from({ length: 8 }, () => 'torn-byte' as const),
];
/** Above the 100 KiB large-message threshold: each goes to its own file. */
const LARGE_BYTES = 150 * 1024;
const NAME = 'name';
const DUPLICATE_ID = 'order-1';

interface Life {
  fileSystem: FaultFileSystem;
  storage: JournalStorageManager;
  office: PostOffice;
  notes: string[];
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
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

function synced(life: Life): Promise<void> {
  return new Promise((resolve, reject) =>
    life.storage.afterSync((error) => (error === null ? resolve() : reject(error))),
  );
}

async function start(
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

async function stop(life: Life): Promise<void> {
  life.office.stop();
  await life.storage.close().catch(() => undefined);
}

function queue(life: Life, name: string): Queue {
  return life.office.createQueue({ name, address: name, filter: null, durable: true, temporary: false });
}

/** A durable message named `name`; large ones fill LARGE_BYTES with the name's first letter. */
function message(
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
function names(life: Life, queueName: string): string[] {
  return (life.office.getQueue(queueName)?.snapshot() ?? []).map(({ message: m }) => {
    const name = String(m.properties.get(NAME)?.value);
    const expected = m.body.length === LARGE_BYTES ? bodyOf(name) : Buffer.from(name);
    if (!m.body.equals(expected)) throw new Error(`message ${name} came back with a damaged body`);
    return name;
  });
}

class Collector implements QueueConsumer {
  readonly received: MessageReference[] = [];
  handle(reference: MessageReference): HandleStatus {
    if (this.received.length > 0) return HandleStatus.BUSY;
    reference.deliveryCount++;
    this.received.push(reference);
    return HandleStatus.HANDLED;
  }
}

/** Delivers one message of `q`, as a consumer would, and detaches. */
async function takeOne(q: Queue): Promise<MessageReference> {
  const consumer = new Collector();
  q.addConsumer(consumer);
  await until(() => consumer.received.length > 0, `a message from ${q.name}`);
  q.removeConsumer(consumer);
  return consumer.received[0] as MessageReference;
}

/** No header may come back without its file: that is a large message the broker confirmed and lost. */
function expectNoLargeMessageDropped(life: Life): void {
  expect(life.notes.filter((note) => /large message/.test(note) && /dropped/.test(note))).toEqual([]);
}

function outcomeOf(
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

function expectBothSides(outcomes: Map<string, number>): void {
  expect([...outcomes.keys()].sort()).toEqual(['committed', 'not committed']);
}

describe('a transaction with large messages through every crash point', () => {
  const LARGE = ['B', 'C', 'D'];

  const scenario: CrashPointScenario<Life, MessageReference> = {
    start: (fileSystem) => start(fileSystem, {}),
    stop,
    async setUp(life) {
      const src = queue(life, 'src');
      queue(life, 'dst');
      life.office.send(life.office.prepare(message('src', 'A')));
      await synced(life);
      return takeOne(src);
    },
    step(life, consumed, done) {
      // Consume A from src, send B, C, D (large; B with a duplicate id) and e (small) to dst, commit.
      const tx = new Transaction();
      tx.addAcknowledgements([consumed]);
      for (const name of LARGE) {
        const duplicateId = name === 'B' ? DUPLICATE_ID : undefined;
        tx.addSend(
          life.office,
          life.office.prepare(message('dst', name, { large: true, ...(duplicateId ? { duplicateId } : {}) })),
        );
      }
      tx.addSend(life.office, life.office.prepare(message('dst', 'e')));
      tx.commit(life.office);
      life.storage.afterSync(done);
    },
    async check(life, point) {
      expectNoLargeMessageDropped(life);
      const outcome = outcomeOf(
        { src: names(life, 'src'), dst: names(life, 'dst') },
        {
          committed: { src: [], dst: [...LARGE, 'e'] },
          'not committed': { src: ['A'], dst: [] },
        },
        point,
      );
      // The client retries B with its duplicate id: refused if the commit is there, taken if not.
      const retry = new Transaction();
      retry.addSend(
        life.office,
        life.office.prepare(message('dst', 'B', { large: true, duplicateId: DUPLICATE_ID })),
      );
      let refusal: unknown = null;
      try {
        retry.commit(life.office);
      } catch (error) {
        refusal = error;
      }
      expect(HornetQException.is(refusal, 'DUPLICATE_ID_REJECTED')).toBe(outcome === 'committed');
      await synced(life);
      expect(names(life, 'dst').filter((name) => name === 'B')).toEqual(['B']);
      return outcome;
    },
  };

  it('is all there or not at all, and a retry with its duplicate id leaves B exactly once', async () => {
    expectBothSides(await enumerateCrashPoints(scenario));
  }, 120_000);
});

describe('a large message sent with a duplicate id, outside a transaction, through every crash point', () => {
  const scenario: CrashPointScenario<Life, null> = {
    start: (fileSystem) => start(fileSystem, {}),
    stop,
    async setUp(life) {
      queue(life, 'dst');
      await synced(life);
      return null;
    },
    step(life, _context, done) {
      life.office.send(life.office.prepare(message('dst', 'B', { large: true, duplicateId: DUPLICATE_ID })));
      life.storage.afterSync(done);
    },
    async check(life, point) {
      expectNoLargeMessageDropped(life);
      const outcome = outcomeOf(
        { dst: names(life, 'dst') },
        {
          committed: { dst: ['B'] },
          'not committed': { dst: [] },
        },
        point,
      );
      // The README's safe retry: the same send with the same duplicate id.
      life.office.send(life.office.prepare(message('dst', 'B', { large: true, duplicateId: DUPLICATE_ID })));
      await synced(life);
      expect(names(life, 'dst')).toEqual(['B']);
      return outcome;
    },
  };

  it('is there after the retry exactly once, never discarded as a duplicate of nothing', async () => {
    expectBothSides(await enumerateCrashPoints(scenario, MODES));
  }, 120_000);
});

describe('a large message moved to its dead-letter or expiry address, through every crash point', () => {
  interface Move {
    settings: Partial<AddressSettings>;
    /** Whether the message is delivered (and so in flight) before the move. */
    delivered: boolean;
    /** Starts the move: `delivered` is the delivered reference, or null. */
    move(life: Life, original: CoreMessage, delivered: MessageReference | null): void;
  }

  const moves: Record<string, Move> = {
    'dead-letter': {
      settings: { maxDeliveryAttempts: 1, deadLetterAddress: 'target' },
      delivered: true,
      move: (life, _original, delivered) => life.office.cancel(delivered === null ? [] : [delivered]),
    },
    expiry: {
      settings: { expiryAddress: 'target' },
      delivered: false,
      move: (life, original) => life.office.expireMessages(original.expiration + 1),
    },
  };

  it.each(Object.keys(moves))(
    '%s: the copy is there and the original gone, or the other way round',
    async (kind) => {
      const { settings, delivered, move } = moves[kind] as Move;
      const scenario: CrashPointScenario<
        Life,
        { original: CoreMessage; reference: MessageReference | null }
      > = {
        start: (fileSystem) => start(fileSystem, { src: settings }),
        stop,
        async setUp(life) {
          const src = queue(life, 'src');
          queue(life, 'target');
          const original = message('src', 'A', { large: true, expiration: Date.now() + 3_600_000 });
          life.office.send(life.office.prepare(original));
          await synced(life);
          return { original, reference: delivered ? await takeOne(src) : null };
        },
        step(life, { original, reference }, done) {
          move(life, original, reference);
          life.storage.afterSync(done);
        },
        async check(life, point) {
          expectNoLargeMessageDropped(life);
          for (const { message: copy } of life.office.getQueue('target')?.snapshot() ?? [])
            expect(copy.properties.get(MessageHeader.ORIGINAL_QUEUE)?.value).toBe('src');
          return outcomeOf(
            { src: names(life, 'src'), target: names(life, 'target') },
            {
              committed: { src: [], target: ['A'] },
              'not committed': { src: ['A'], target: [] },
            },
            point,
          );
        },
      };
      expectBothSides(await enumerateCrashPoints(scenario));
    },
    120_000,
  );
});
