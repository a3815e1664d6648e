import type { JournalLoadReport } from './journal/journal';

/** At most this many notes of one kind in the load report; the rest are counted. */
const MAX_NOTES_PER_KIND = 10;

/** What a journal's load had to repair, one line each (the storage's load report). */
export function journalNotes(journal: 'bindings' | 'message', report: JournalLoadReport): string[] {
  const notes: string[] = [];
  if (report.truncatedAt !== null)
    notes.push(
      `${journal} journal: torn tail cut at ${report.truncatedAt.file}:${report.truncatedAt.offset}`,
    );
  const skipped = report.skipped.map(
    ({ file, offset }) => `${journal} journal: corrupt record skipped at ${file}:${offset}`,
  );
  notes.push(...boundedNotes(skipped, `${journal} journal corrupt records skipped`));
  if (report.rolledBackTransactions > 0)
    notes.push(
      `${journal} journal: ${report.rolledBackTransactions} transaction(s) without a commit rolled back`,
    );
  return notes;
}

/** The first notes of a kind, and how many more there were: the report stays short. */
export function boundedNotes(notes: string[], kind: string): string[] {
  if (notes.length <= MAX_NOTES_PER_KIND) return notes;
  return [...notes.slice(0, MAX_NOTES_PER_KIND), `... and ${notes.length - MAX_NOTES_PER_KIND} more ${kind}`];
}
