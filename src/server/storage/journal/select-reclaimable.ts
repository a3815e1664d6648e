import type { JournalDataFile } from './journal-data-file';

/**
 * HornetQ's Reclaimer criteria: a closed file may be freed when none of its add/update records is
 * live any more, and every file its deletes reach into is freed too (already, or in this same
 * pass) — else dropping its deletes would bring those records back at the next load. Returns the
 * files to free, in journal order (older first, the order they must be removed in).
 */
export function selectReclaimable(
  files: readonly JournalDataFile[],
  current: JournalDataFile,
): JournalDataFile[] {
  const candidates = new Set(
    files.filter((file) => file !== current && file.liveRecords === 0 && file.unflushedBatches === 0),
  );
  let changed = true;
  while (changed) {
    changed = false;
    for (const candidate of candidates) {
      for (const target of candidate.deletesInto.keys()) {
        if (!target.freed && !candidates.has(target)) {
          candidates.delete(candidate);
          changed = true;
          break;
        }
      }
    }
  }
  return files.filter((file) => candidates.has(file));
}
