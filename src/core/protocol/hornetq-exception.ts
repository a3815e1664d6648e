import { brandError, hasBrand } from '../../lang/brand';
import type { ErrorCodeName } from './error-code';
import { isRetriableCode } from './retriable-error-codes';

/**
 * A failure with one of HornetQ's error codes: what the broker answers in an EXCEPTION packet and
 * what the core client throws. The JMS layer maps the code onto its exception classes. `code` is
 * HornetQ's name for it (`CONNECTION_TIMEDOUT`, `QUEUE_DOES_NOT_EXIST`...), as Node's `err.code`.
 */
export class HornetQException extends Error {
  static readonly brand: string = 'HornetQException';
  /**
   * True where retrying the same operation later can succeed (a link down, a failover, an address
   * full), false where something must change first (see RETRIABLE_ERROR_CODES).
   */
  readonly retriable: boolean;

  constructor(
    readonly code: ErrorCodeName,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.retriable = isRetriableCode(code);
    brandError(this, new.target);
  }

  /** True for a HornetQException from any copy of this package, and with `code` if given. */
  static is(value: unknown, code?: ErrorCodeName): value is HornetQException {
    return (
      hasBrand(value, HornetQException) && (code === undefined || (value as HornetQException).code === code)
    );
  }
}
