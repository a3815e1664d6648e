import type { ErrorCodeName } from './error-code';

/**
 * A failure with one of HornetQ's error codes: what the broker answers in an EXCEPTION packet and
 * what the core client throws. The JMS layer maps the code onto its exception classes.
 */
export class HornetQException extends Error {
  override readonly name = 'HornetQException';

  constructor(
    readonly code: ErrorCodeName,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  static is(value: unknown, code?: ErrorCodeName): value is HornetQException {
    return value instanceof HornetQException && (code === undefined || value.code === code);
  }
}
