/** A journal file holds damage before its tail: the broker must not start on it unnoticed. */
export class JournalCorruptionError extends Error {
  readonly code = 'JOURNAL_CORRUPT';

  constructor(
    readonly file: string,
    readonly offset: number,
    readonly check: string,
  ) {
    super(
      `journal file ${file} is corrupt at offset ${offset}: ${check} ` +
        '(set skipCorruptRecords to skip damaged records and load the rest)',
    );
    this.name = 'JournalCorruptionError';
  }
}
