import { brandError, hasBrand } from '../../../lang/brand';
import { ServerErrorCode } from '../../server-error-code';
import { describeFinding, type DamageFinding } from './damage-kind';

/** What an operator can do about refused damage, in the error itself. */
const WHAT_TO_DO =
  'Nothing was changed. Put the missing or damaged files back (from where they were, or a backup), ' +
  'run `hornetq data check` to see every problem, or accept the loss explicitly with ' +
  '`hornetq server --accept-damage <kinds>` (acceptDamage in the configuration)';

/**
 * The broker's files are damaged or missing in a way that would lose confirmed messages: it does
 * not start, names every problem (file, offset, kind) and changes nothing on disk.
 */
export class DataDamageError extends Error {
  static readonly brand: string = 'DataDamageError';
  readonly code = ServerErrorCode.DATA_DAMAGE;

  constructor(readonly findings: readonly DamageFinding[]) {
    const kinds = [...new Set(findings.map((finding) => finding.kind))];
    super(
      `the broker's data is damaged and it did not start: ${findings.map(describeFinding).join('; ')}. ` +
        `${WHAT_TO_DO} (here: --accept-damage ${kinds.join(',')})`,
    );
    brandError(this, new.target);
  }

  static is(value: unknown): value is DataDamageError {
    return hasBrand(value, DataDamageError);
  }
}
