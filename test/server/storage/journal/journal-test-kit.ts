import { silentLogger } from '../../../../src/core/remoting';
import { FileJournal } from '../../../../src/server/storage/journal/file-journal';
import type {
  JournalLoadReport,
  JournalOptions,
  JournalRecordVisitor,
} from '../../../../src/server/storage/journal/journal';
import type { JournalFileSystem } from '../../../../src/server/storage/journal/journal-file-system';
import {
  decodeFileHeader,
  FILE_HEADER_SIZE,
  recordFileId,
} from '../../../../src/server/storage/journal/journal-file-header';
import { checkRecord, decodeRecord } from '../../../../src/server/storage/journal/journal-record';

export const DIRECTORY = '/journal';

export function journalOptions(
  fileSystem: JournalFileSystem,
  overrides: Partial<JournalOptions> = {},
): JournalOptions {
  return {
    directory: DIRECTORY,
    filePrefix: 'hornetq-data',
    fileExtension: 'hq',
    fileSize: 64 * 1024,
    minFiles: 2,
    compactMinFiles: 0,
    compactPercentage: 30,
    bufferTimeoutNs: 0,
    bufferSize: 16 * 1024,
    createDirectory: true,
    skipCorruptRecords: false,
    fileSystem,
    logger: silentLogger,
    ...overrides,
  };
}

/** What a load delivered: per id, its user type and the bodies of its add and updates, in order. */
export type JournalState = Map<number, string[]>;

export function stateVisitor(state: JournalState): JournalRecordVisitor {
  return {
    add: (id, userType, body) => {
      state.set(id, [`${userType}:${body.toString('hex')}`]);
    },
    update: (id, userType, body) => {
      state.get(id)!.push(`${userType}:${body.toString('hex')}`);
    },
    delete: (id) => {
      state.delete(id);
    },
  };
}

export async function openJournal(
  options: JournalOptions,
): Promise<{ journal: FileJournal; state: JournalState; report: JournalLoadReport }> {
  const journal = new FileJournal(options);
  const state: JournalState = new Map();
  const report = await journal.load(stateVisitor(state));
  return { journal, state, report };
}

export function synced(journal: FileJournal): Promise<void> {
  return new Promise((resolve, reject) =>
    journal.afterSync((error) => (error === null ? resolve() : reject(error))),
  );
}

export function body(text: string): Buffer {
  return Buffer.from(text);
}

/** A record as found on disk by `scanJournal` (the test's own reading, independent of the loader). */
export interface ScannedRecord {
  file: string;
  fileIndex: number;
  kind: number;
  offset: number;
  length: number;
  type: number;
  id: number;
  txId: number;
  flush: number;
  /** A commit's count of its transaction's records in its file. */
  count: number;
}

/** Every valid record of every journal file, in load order (files by header id), up to each file's first invalid frame. */
export async function scanJournal(
  fileSystem: JournalFileSystem,
  directory = DIRECTORY,
): Promise<ScannedRecord[]> {
  const headers: Array<{ name: string; fileId: number; kind: number; bytes: Buffer }> = [];
  for (const name of await fileSystem.list(directory)) {
    if (!/^hornetq-data-[0-9]+\.hq$/.test(name)) continue;
    const file = await fileSystem.open(`${directory}/${name}`, false);
    const bytes = Buffer.alloc(await file.size());
    await file.read(bytes, 0, bytes.length, 0);
    await file.close();
    const header = decodeFileHeader(bytes, bytes.length);
    if (typeof header === 'string') throw new Error(`${name}: ${header}`);
    headers.push({ name, fileId: header.fileId, kind: header.kind, bytes });
  }
  headers.sort((a, b) => a.fileId - b.fileId);
  const records: ScannedRecord[] = [];
  headers.forEach(({ name, fileId, kind, bytes }, fileIndex) => {
    let offset = FILE_HEADER_SIZE;
    while (offset + 4 <= bytes.length && bytes.readUInt32BE(offset) !== 0) {
      if (checkRecord(bytes, offset, bytes.length - offset, recordFileId(fileId)) !== null) break;
      const record = decodeRecord(bytes, offset);
      records.push({
        file: name,
        fileIndex,
        kind,
        offset,
        length: record.length,
        type: record.type,
        id: record.id,
        txId: record.txId,
        flush: record.flush,
        count: record.count,
      });
      offset += record.length;
    }
  });
  return records;
}

/** Files are prepared in the background after load: waits (with a deadline) until none is pending. */
export async function filesPrepared(fileSystem: JournalFileSystem, atLeast = 2): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const names = await fileSystem.list(DIRECTORY);
    if (names.length >= atLeast && !names.some((name) => name.endsWith('.tmp'))) return;
    if (Date.now() > deadline) throw new Error(`journal files still being prepared: ${names.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
