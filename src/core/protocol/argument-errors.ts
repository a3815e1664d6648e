import { CoreErrorCode } from './core-error-code';

type ArgumentCode =
  | typeof CoreErrorCode.INVALID_ARG_VALUE
  | typeof CoreErrorCode.OUT_OF_RANGE
  | typeof CoreErrorCode.INVALID_ARG_TYPE;

/** A RangeError with Node's `code`: an options object or a value outside what is allowed. */
export function rangeError(
  message: string,
  code: typeof CoreErrorCode.INVALID_ARG_VALUE | typeof CoreErrorCode.OUT_OF_RANGE,
): RangeError & { code: ArgumentCode } {
  return Object.assign(new RangeError(message), { code });
}

/** A TypeError with Node's `code`: an argument of the wrong type, or a value of the right type that is refused. */
export function typeError(
  message: string,
  code: typeof CoreErrorCode.INVALID_ARG_TYPE | typeof CoreErrorCode.INVALID_ARG_VALUE,
): TypeError & { code: ArgumentCode } {
  return Object.assign(new TypeError(message), { code });
}
