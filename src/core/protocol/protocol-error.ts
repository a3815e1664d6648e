import { brandError, hasBrand } from '../../lang/brand';
import { CoreErrorCode } from './core-error-code';

/**
 * A frame or packet that breaks the wire format. The connection that sent it is closed; the
 * message says what was wrong so the log line explains why.
 */
export class ProtocolError extends Error {
  static readonly brand: string = 'ProtocolError';
  /** Never: a peer that broke the wire format breaks it again; its code must be fixed. */
  readonly retriable = false;
  readonly code = CoreErrorCode.PROTOCOL;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    brandError(this, new.target);
  }

  static is(value: unknown): value is ProtocolError {
    return hasBrand(value, ProtocolError);
  }
}
