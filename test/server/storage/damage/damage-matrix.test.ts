/**
 * Issue 24, findings 4 and 5: each kind of damage to a stopped broker's files is refused at start,
 * naming the file (and offset where there is one), changing nothing on disk; a start that names the
 * kind in acceptDamage loads past it, the loss in its report with counts. A torn tail after a
 * crash, and a file reclaimed by the journal itself, are no damage.
 */
import { createHash } from 'node:crypto';
import {
  cp,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  truncate,
  unlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CoreMessage } from '../../../../src/core/protocol/core-message';
import { silentLogger } from '../../../../src/core/remoting/logger';
import { createJournalStorage } from '../../../../src/server/storage/create-journal-storage';
import type { DamageFinding, DamageKind } from '../../../../src/server/storage/damage/damage-kind';
import { DataDamageError } from '../../../../src/server/storage/damage/data-damage-error';
import { decodeFileHeader } from '../../../../src/server/storage/journal/journal-file-header';
import { NodeFileSystem } from '../../../../src/server/storage/journal/node-file-system';
import type { JournalStorageManager } from '../../../../src/server/storage/journal-storage-manager';
import { LARGE_MESSAGE_THRESHOLD } from '../../../../src/server/storage/journal-storage-manager';
import type { StorageManager } from '../../../../src/server/storage/storage-manager';

const ADDRESS = 'jms.queue.orders';
const SMALL_MESSAGES = 300;
const LARGE_MESSAGES = 3;
const ACKNOWLEDGED = 150;
const LATER_MESSAGES = 100;
/** Messages a whole golden directory loads. */
const STORED = SMALL_MESSAGES + LARGE_MESSAGES - ACKNOWLEDGED + LATER_MESSAGES;

function storageIn(directory: string, acceptDamage: DamageKind[] = []): JournalStorageManager {
  return createJournalStorage(
    {
      journalDirectory: path.join(directory, 'journal'),
      bindingsDirectory: path.join(directory, 'bindings'),
      largeMessagesDirectory: path.join(directory, 'largemessages'),
      pagingDirectory: path.join(directory, 'paging'),
      // Small files: the messages span several, and the first ones are reclaimed once acknowledged.
      journalFileSize: 32 * 1024,
      journalBufferSize: 16 * 1024,
      journalBufferTimeout: 100_000,
      acceptDamage,
    },
    new NodeFileSystem(),
    silentLogger,
    { persistIdCache: true },
  );
}

function message(storage: StorageManager, body: Buffer): CoreMessage {
  const m = new CoreMessage();
  m.messageId = storage.generateMessageId();
  m.address = ADDRESS;
  m.durable = true;
  m.body = body;
  return m;
}

function synced(storage: StorageManager): Promise<void> {
  return new Promise((resolve, reject) =>
    storage.afterSync((error) => (error === null ? resolve() : reject(error))),
  );
}

/** Every file and directory under `directory`, by relative path, with a hash of its bytes. */
async function hashTree(directory: string): Promise<Map<string, string>> {
  const tree = new Map<string, string>();
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await readdir(path.join(directory, relative), { withFileTypes: true })) {
      const name = path.join(relative, entry.name);
      if (entry.isDirectory()) {
        tree.set(`${name}/`, 'directory');
        await walk(name);
      } else {
        tree.set(
          name,
          createHash('sha256')
            .update(await readFile(path.join(directory, name)))
            .digest('hex'),
        );
      }
    }
  };
  await walk('');
  return tree;
}

/** The journal files of `directory` that hold records, in journal order (by file id). */
async function filesWithData(directory: string, extension: string): Promise<string[]> {
  const found: Array<{ name: string; fileId: number }> = [];
  for (const name of await readdir(directory)) {
    if (!name.endsWith(`.${extension}`)) continue;
    const bytes = await readFile(path.join(directory, name));
    const header = decodeFileHeader(bytes, bytes.length);
    if (typeof header === 'string' || bytes.readUInt32BE(32) === 0) continue;
    found.push({ name, fileId: header.fileId });
  }
  return found.sort((a, b) => a.fileId - b.fileId).map(({ name }) => name);
}

/** Where the last record of a journal file starts (records: a u32 length first; zeros after the last). */
async function lastRecordOffset(file: string): Promise<number> {
  const bytes = await readFile(file);
  let offset = 32;
  let last = offset;
  while (offset + 4 <= bytes.length && bytes.readUInt32BE(offset) !== 0) {
    last = offset;
    offset += bytes.readUInt32BE(offset);
  }
  return last;
}

async function flipByte(file: string, offset: number): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, offset);
    byte[0] = byte[0]! ^ 0x5a;
    await handle.write(byte, 0, 1, offset);
  } finally {
    await handle.close();
  }
}

async function refusal(directory: string): Promise<DataDamageError> {
  const storage = storageIn(directory);
  const error = await storage.open().then(
    async () => {
      await storage.close();
      return null;
    },
    (thrown: unknown) => thrown,
  );
  if (!DataDamageError.is(error)) throw new Error(`expected a DataDamageError, got ${String(error)}`);
  return error;
}

/** Opens accepting `kinds`: the messages loaded and the report's notes. */
async function accepted(
  directory: string,
  kinds: DamageKind[],
): Promise<{ messages: number; notes: string[] }> {
  const storage = storageIn(directory, kinds);
  const report = await storage.open();
  await storage.close();
  return { messages: report.messages, notes: report.notes };
}

describe('the damage matrix: refused with file and offset, nothing changed, accepted only when named', () => {
  let root: string;
  /** A cleanly stopped broker's files. */
  let golden: string;
  /** The same broker's files as a kill -9 left them (copied while it ran, everything synced). */
  let crashed: string;
  let largeIds: number[];
  let counter = 0;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'hornetq-damage-'));
    golden = path.join(root, 'golden');
    crashed = path.join(root, 'crashed');
    const storage = storageIn(golden);
    await storage.open();
    storage.storeQueue({ name: 'orders', address: ADDRESS, filter: null });
    const small: CoreMessage[] = [];
    for (let index = 0; index < SMALL_MESSAGES; index++) {
      const m = message(storage, Buffer.alloc(400, index % 256));
      storage.storeMessage(m, ['orders']);
      small.push(m);
    }
    largeIds = [];
    for (let index = 0; index < LARGE_MESSAGES; index++) {
      const m = message(storage, Buffer.alloc(LARGE_MESSAGE_THRESHOLD + 1000 * index, 0x40 + index));
      storage.storeMessage(m, ['orders']);
      largeIds.push(m.messageId);
    }
    await synced(storage);
    // The first files' messages acknowledged: those files are reclaimed (a gap that is no damage).
    for (const m of small.slice(0, ACKNOWLEDGED)) storage.storeAcknowledge('orders', m.messageId);
    // More messages roll the journal over: the pass after a roll-over reclaims the acknowledged files.
    for (let index = 0; index < LATER_MESSAGES; index++)
      storage.storeMessage(message(storage, Buffer.alloc(400, 1)), ['orders']);
    await synced(storage);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Last in the bindings journal: a queue without messages.
    storage.storeQueue({ name: 'audit', address: ADDRESS, filter: null });
    await synced(storage);
    await cp(golden, crashed, { recursive: true });
    await storage.close();
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function copyOf(source: string): Promise<string> {
    const directory = path.join(root, `case-${++counter}`);
    await cp(source, directory, { recursive: true });
    return directory;
  }

  /** Refused naming `expected`; the files hash the same before and after; accepted only with `kind`. */
  async function expectRefusedThenAccepted(
    directory: string,
    expected: Partial<DamageFinding>,
    lost: { messages: number | null },
  ): Promise<{ messages: number; notes: string[] }> {
    const before = await hashTree(directory);
    const error = await refusal(directory);
    expect(error.findings).toEqual([expect.objectContaining(expected)]);
    expect(error.message).toContain(expected.file!);
    if (expected.offset !== undefined && expected.offset !== null)
      expect(error.message).toContain(`offset ${expected.offset}`);
    expect(error.message).toContain(`--accept-damage ${expected.kind}`);
    expect(await hashTree(directory)).toEqual(before);
    // Another kind accepted changes nothing either.
    const other: DamageKind = expected.kind === 'corrupt-record' ? 'unknown-queue' : 'corrupt-record';
    await expect(storageIn(directory, [other]).open()).rejects.toMatchObject({ code: 'ERR_DATA_DAMAGE' });
    expect(await hashTree(directory)).toEqual(before);

    const outcome = await accepted(directory, [expected.kind!]);
    const note = outcome.notes.find((line) => line.startsWith(`damage accepted: ${expected.kind}: `));
    expect(note).toBeDefined();
    expect(note).toContain(
      lost.messages === null ? '(messages lost: not known)' : `(${lost.messages} message(s))`,
    );
    return outcome;
  }

  test('the golden files load whole, with a reclaimed gap in the file sequence that is no damage', async () => {
    const names = await filesWithData(path.join(golden, 'journal'), 'hq');
    expect(names.length).toBeGreaterThanOrEqual(4);
    const numbers = names.map((name) => Number(/-([0-9]+)\.hq$/.exec(name)![1]));
    expect(Math.min(...numbers)).toBeGreaterThan(1);
    const { messages, notes } = await accepted(await copyOf(golden), []);
    expect(messages).toBe(STORED);
    expect(notes).toEqual([]);
  });

  test.each([
    ['first', (names: string[]) => names[0]!],
    ['middle', (names: string[]) => names[Math.floor(names.length / 2)]!],
    ['last', (names: string[]) => names.at(-1)!],
  ])('a deleted %s message journal file: missing-journal-file', async (_which, pick) => {
    const directory = await copyOf(golden);
    const journal = path.join(directory, 'journal');
    const victim = path.join(journal, pick(await filesWithData(journal, 'hq')));
    await unlink(victim);
    const outcome = await expectRefusedThenAccepted(
      directory,
      { kind: 'missing-journal-file', file: victim, offset: null },
      { messages: null },
    );
    // Lost adds take messages away; lost deletes bring acknowledged ones back: never what was stored.
    expect(outcome.messages).not.toBe(STORED);
  });

  test('a flipped byte in the last record after a clean stop: damaged-tail, at its offset', async () => {
    const directory = await copyOf(golden);
    const journal = path.join(directory, 'journal');
    const last = path.join(journal, (await filesWithData(journal, 'hq')).at(-1)!);
    const offset = await lastRecordOffset(last);
    await flipByte(last, offset + 20);
    await expectRefusedThenAccepted(
      directory,
      { kind: 'damaged-tail', file: last, offset },
      { messages: null },
    );
  });

  test('a torn last record after a crash is a torn tail: cut off and noted, no damage to accept', async () => {
    const directory = await copyOf(crashed);
    const journal = path.join(directory, 'journal');
    const last = path.join(journal, (await filesWithData(journal, 'hq')).at(-1)!);
    const offset = await lastRecordOffset(last);
    const size = (await stat(last)).size;
    // The end of the last write never reached the disk: the file ends inside its last record.
    await truncate(last, offset + 10);
    expect((await stat(last)).size).toBeLessThan(size);
    const storage = storageIn(directory);
    const report = await storage.open();
    expect(report.notes).toContain(`message journal: torn tail cut at ${path.basename(last)}:${offset}`);
    await storage.close();
  });

  test.each([
    ['deleted', async (file: string) => unlink(file)],
    ['truncated', async (file: string) => truncate(file, 1000)],
    ['flipped', async (file: string) => flipByte(file, 5000)],
  ])('a %s large-message file of a confirmed message: large-message-file', async (_how, damage) => {
    const directory = await copyOf(golden);
    const file = path.join(directory, 'largemessages', `${largeIds[1]}.msg`);
    await damage(file);
    const outcome = await expectRefusedThenAccepted(
      directory,
      { kind: 'large-message-file', file, offset: null, messages: 1 },
      { messages: 1 },
    );
    expect(outcome.messages).toBe(STORED - 1);
  });

  test('a missing bindings directory while the message journal holds messages: unknown-queue, with the count', async () => {
    const directory = await copyOf(golden);
    const bindings = path.join(directory, 'bindings');
    await rm(bindings, { recursive: true });
    const outcome = await expectRefusedThenAccepted(
      directory,
      { kind: 'unknown-queue', file: bindings, offset: null, messages: STORED },
      { messages: STORED },
    );
    expect(outcome.messages).toBe(0);
  });

  test.each([
    ['a missing', async (journal: string) => rm(journal, { recursive: true })],
    [
      'an empty (a mount point without its volume)',
      async (journal: string) => {
        await rm(journal, { recursive: true });
        await mkdir(journal);
      },
    ],
  ])(
    'a %s message journal directory while the bindings hold queues: missing-message-journal',
    async (_how, damage) => {
      const directory = await copyOf(golden);
      const journal = path.join(directory, 'journal');
      await damage(journal);
      const outcome = await expectRefusedThenAccepted(
        directory,
        { kind: 'missing-message-journal', file: journal, offset: null },
        { messages: null },
      );
      expect(outcome.messages).toBe(0);
    },
  );

  test('a message journal directory moved away and put back after the refusal: every message is still there', async () => {
    const directory = await copyOf(golden);
    const journal = path.join(directory, 'journal');
    const elsewhere = path.join(directory, 'journal-unmounted');
    await rename(journal, elsewhere);
    await mkdir(journal);
    expect((await refusal(directory)).findings).toEqual([
      expect.objectContaining({ kind: 'missing-message-journal', file: journal }),
    ]);
    await rm(journal, { recursive: true });
    await rename(elsewhere, journal);
    expect((await accepted(directory, [])).messages).toBe(STORED);
  });

  test('a bindings directory moved away and put back after the refusal: every message is still there', async () => {
    const directory = await copyOf(golden);
    const bindings = path.join(directory, 'bindings');
    const elsewhere = path.join(directory, 'bindings-unmounted');
    await rename(bindings, elsewhere);
    expect((await refusal(directory)).findings).toEqual([
      expect.objectContaining({ kind: 'unknown-queue', file: bindings, messages: STORED }),
    ]);
    await rename(elsewhere, bindings);
    expect((await accepted(directory, [])).messages).toBe(STORED);
  });

  test('a flipped byte in the last bindings record after a clean stop: damaged-tail in the bindings journal', async () => {
    const directory = await copyOf(golden);
    const bindings = path.join(directory, 'bindings');
    const last = path.join(bindings, (await filesWithData(bindings, 'bindings')).at(-1)!);
    const offset = await lastRecordOffset(last);
    await flipByte(last, offset + 20);
    const outcome = await expectRefusedThenAccepted(
      directory,
      { kind: 'damaged-tail', file: last, offset },
      { messages: null },
    );
    // The last record was the audit queue's, which held no message: orders' are all there.
    expect(outcome.messages).toBe(STORED);
  });

  test('a flipped byte in a record before the tail: refused naming file and offset (JournalCorruptionError), accepted as corrupt-record', async () => {
    const directory = await copyOf(golden);
    const journal = path.join(directory, 'journal');
    const first = path.join(journal, (await filesWithData(journal, 'hq'))[0]!);
    await flipByte(first, 32 + 20);
    const before = await hashTree(directory);
    await expect(storageIn(directory).open()).rejects.toMatchObject({
      code: 'ERR_JOURNAL_CORRUPT',
      file: path.basename(first),
      offset: 32,
      message: expect.stringContaining('--accept-damage corrupt-record'),
    });
    expect(await hashTree(directory)).toEqual(before);
    const outcome = await accepted(directory, ['corrupt-record']);
    expect(outcome.notes).toContain(
      `damage accepted: corrupt-record: ${first} at offset 32: the record there does not read back (CRC32C does not match) and valid records follow it (messages lost: not known)`,
    );
  });

  test('a state file that does not read back is refused, naming it', async () => {
    const directory = await copyOf(golden);
    const state = path.join(directory, 'journal', 'hornetq-data-state.ctr');
    await writeFile(state, 'not what the journal wrote\n0\n');
    await expect(storageIn(directory).open()).rejects.toThrow(state);
  });
});
