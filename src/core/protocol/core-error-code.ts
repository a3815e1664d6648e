import { ArgumentErrorCode } from '../../lang/argument-errors';

/**
 * The `code` of the core layer's errors besides HornetQException (whose code is HornetQ's name,
 * see error-code.ts), and Node's own codes, which this package's argument and option checks reuse
 * on the RangeError or TypeError they throw, as Node's own functions do.
 */
export const CoreErrorCode = {
  /** ProtocolError: bytes that break the wire format. */
  PROTOCOL: 'ERR_PROTOCOL',
  /** TlsConfigurationError: a TLS store, password or protocol that cannot be used. */
  TLS_CONFIGURATION: 'ERR_TLS_CONFIGURATION',
  /** An options object with values outside what is allowed (a RangeError listing every problem). */
  INVALID_ARG_VALUE: ArgumentErrorCode.INVALID_ARG_VALUE,
  /** A single number outside its range (a RangeError). */
  OUT_OF_RANGE: ArgumentErrorCode.OUT_OF_RANGE,
  /** An argument of the wrong type (a TypeError). */
  INVALID_ARG_TYPE: ArgumentErrorCode.INVALID_ARG_TYPE,
} as const;

export type CoreErrorCodeName = (typeof CoreErrorCode)[keyof typeof CoreErrorCode];
