import type { Logger } from '../../../core/remoting';
import { StorageError } from '../storage-error';
import { crc32c } from './crc32c';
import type { JournalFiles } from './journal-files';

/**
 * The compaction control file (HornetQ's journal-rename-control.ctr): written and synced once the
 * compacted files are complete, before any old file is touched. At load, a complete control file
 * means "finish the job" (delete the old files, rename the .cmp outputs); an incomplete one (its
 * CRC does not match: the crash came while writing it) means the outputs are discarded.
 */
export interface CompactionPlan {
  /** Files the compacted ones replace. */
  old: string[];
  /** Compacted files, written as `<name>.cmp`, renamed to `<name>`. */
  outputs: string[];
}

export const COMPACTED_SUFFIX = '.cmp';

export function controlFileName(filePrefix: string): string {
  return `${filePrefix}-compaction.ctr`;
}

export async function writeControlFile(
  files: JournalFiles,
  name: string,
  plan: CompactionPlan,
): Promise<void> {
  const text = JSON.stringify(plan);
  const content = Buffer.from(`${text}\n${crc32c(Buffer.from(text)).toString(16)}\n`);
  const file = await files.fileSystem.open(files.path(name), true);
  try {
    await file.write(content, 0, content.length, 0);
    await file.datasync();
  } finally {
    await file.close();
  }
  await files.syncDirectory();
}

/** Deletes the old files and renames the outputs: idempotent, so a crash during it is finished at load. */
export async function applyCompactionPlan(
  files: JournalFiles,
  name: string,
  plan: CompactionPlan,
): Promise<void> {
  const fileSystem = files.fileSystem;
  for (const output of plan.outputs) {
    if (await fileSystem.exists(files.path(output + COMPACTED_SUFFIX))) {
      await fileSystem.rename(files.path(output + COMPACTED_SUFFIX), files.path(output));
    }
  }
  await files.syncDirectory();
  for (const old of plan.old) await fileSystem.remove(files.path(old));
  await files.syncDirectory();
  await fileSystem.remove(files.path(name));
  await files.syncDirectory();
}

/**
 * At load: finishes or discards a compaction a crash interrupted; removes stray .cmp files.
 * Returns the names of the files a finished compaction removed (gone legitimately).
 */
export async function recoverCompaction(
  files: JournalFiles,
  filePrefix: string,
  logger: Logger,
): Promise<string[]> {
  const name = controlFileName(filePrefix);
  let removed: string[] = [];
  if (await files.fileSystem.exists(files.path(name))) {
    const plan = await readControlFile(files, name);
    if (plan === null) {
      logger.warn({ file: name }, 'journal: incomplete compaction control file, compacted files discarded');
      await files.fileSystem.remove(files.path(name));
      await files.syncDirectory();
    } else {
      logger.info(
        { file: name, old: plan.old, outputs: plan.outputs },
        'journal: finishing an interrupted compaction',
      );
      await applyCompactionPlan(files, name, plan);
      removed = plan.old;
    }
  }
  await files.removeLeftovers(COMPACTED_SUFFIX);
  return removed;
}

async function readControlFile(files: JournalFiles, name: string): Promise<CompactionPlan | null> {
  const file = await files.fileSystem.open(files.path(name), false);
  let content: string;
  try {
    const buffer = Buffer.alloc(Math.min(await file.size(), 16 * 1024 * 1024));
    content = buffer.subarray(0, await file.read(buffer, 0, buffer.length, 0)).toString();
  } finally {
    await file.close();
  }
  const [text, crc] = content.split('\n');
  if (text === undefined || crc !== crc32c(Buffer.from(text)).toString(16)) return null;
  const plan = JSON.parse(text) as CompactionPlan;
  const names = [...plan.old, ...plan.outputs];
  // The plan names files to delete: only ever this journal's own files.
  const invalid = names.find((entry) => typeof entry !== 'string' || !files.isJournalFileName(entry));
  if (invalid !== undefined)
    throw new StorageError(
      `journal compaction control file ${name} names a file that is not the journal's: ${String(invalid)}`,
    );
  return plan;
}
