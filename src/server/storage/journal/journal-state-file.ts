import { StorageError } from '../storage-error';
import { crc32c } from './crc32c';
import type { JournalFiles } from './journal-files';

/**
 * The journal's state file, `<prefix>-state.ctr`: which files held its records when it last wrote
 * it, and whether it was stopped cleanly (and where it ended then). Written whole to a .tmp file,
 * synced, renamed, directory synced: it is never torn. It is written at each start (clearing the
 * clean mark: from then on the journal writes again, and only a crash can tear its tail), when the
 * set of files changes (roll-over, reclaim, compaction: before a file goes), and at a clean stop.
 *
 * At load it tells a reclaimed file from a missing one (a listed file that is not there was lost,
 * not reclaimed: a reclaim rewrites the list before it removes the file), and a crash's torn tail
 * from damage after a clean stop.
 */
export interface JournalState {
  /** Names of the files holding records (the current one last), in journal order. */
  files: string[];
  /** Set at a clean stop: where the last record ended. Null while the journal may be written. */
  clean: { file: string; offset: number } | null;
}

export function stateFileName(filePrefix: string): string {
  return `${filePrefix}-state.ctr`;
}

export async function writeStateFile(files: JournalFiles, name: string, state: JournalState): Promise<void> {
  const text = JSON.stringify(state);
  const content = Buffer.from(`${text}\n${crc32c(Buffer.from(text)).toString(16)}\n`);
  const temporary = files.path(`${name}.tmp`);
  const file = await files.fileSystem.open(temporary, true);
  try {
    await file.truncate(0);
    await file.write(content, 0, content.length, 0);
    await file.datasync();
  } finally {
    await file.close();
  }
  await files.fileSystem.rename(temporary, files.path(name));
  await files.syncDirectory();
}

/** The state, or null when there is no state file (a journal written before it existed, or a new one). */
export async function readStateFile(files: JournalFiles, name: string): Promise<JournalState | null> {
  const path = files.path(name);
  if (!(await files.fileSystem.exists(path))) return null;
  const file = await files.fileSystem.open(path, false);
  let content: string;
  try {
    const buffer = Buffer.alloc(Math.min(await file.size(), 64 * 1024 * 1024));
    content = buffer.subarray(0, await file.read(buffer, 0, buffer.length, 0)).toString();
  } finally {
    await file.close();
  }
  const [text, crc] = content.split('\n');
  const state = text !== undefined && crc === crc32c(Buffer.from(text)).toString(16) ? parse(text) : null;
  if (state === null)
    throw new StorageError(
      `journal state file ${path} does not read back (it is written whole and renamed into place, so ` +
        'something else changed it): restore it, or move it away to load without the checks it allows',
    );
  return state;
}

function parse(text: string): JournalState | null {
  try {
    const value = JSON.parse(text) as Partial<JournalState>;
    const files = value.files;
    const clean = value.clean;
    if (!Array.isArray(files) || !files.every((name) => typeof name === 'string')) return null;
    if (clean === null) return { files, clean };
    if (typeof clean?.file !== 'string' || !Number.isSafeInteger(clean.offset)) return null;
    return { files, clean: { file: clean.file, offset: clean.offset } };
  } catch {
    return null;
  }
}
