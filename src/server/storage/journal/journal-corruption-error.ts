import { brandError, hasBrand } from '../../../lang/brand';
import { ServerErrorCode } from '../../server-error-code';

/** A journal file holds damage before its tail: the broker must not start on it unnoticed. */
export class JournalCorruptionError extends Error {
  static readonly brand: string = 'JournalCorruptionError';
  readonly code = ServerErrorCode.JOURNAL_CORRUPT;

  constructor(
    readonly file: string,
    readonly offset: number,
    readonly check: string,
  ) {
    super(
      `journal file ${file} is corrupt at offset ${offset}: ${check} ` +
        '(hornetq data check lists every problem; start with --accept-damage corrupt-record, or ' +
        'skip-corrupt-records, to skip damaged records and load the rest)',
    );
    brandError(this, new.target);
  }

  static is(value: unknown): value is JournalCorruptionError {
    return hasBrand(value, JournalCorruptionError);
  }
}
