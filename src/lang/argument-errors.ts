// Node's own idiom for a bad argument: a RangeError or TypeError with Node's code, so that callers
// test err.code the same way for this package's checks as for Node's. Every layer checks
// arguments, so this lives below them all, with Node's codes written here rather than read from a layer.

/** Node's codes for a bad argument, as its own functions set them. */
export const ArgumentErrorCode = {
  /** An options object with values outside what is allowed (a RangeError listing every problem). */
  INVALID_ARG_VALUE: 'ERR_INVALID_ARG_VALUE',
  /** A single number outside its range (a RangeError). */
  OUT_OF_RANGE: 'ERR_OUT_OF_RANGE',
  /** An argument of the wrong type (a TypeError). */
  INVALID_ARG_TYPE: 'ERR_INVALID_ARG_TYPE',
} as const;

/**
 * An options object with values that are not allowed (the message lists every one), or a value
 * of the right type in the wrong form: Node's ERR_INVALID_ARG_VALUE in its RangeError form.
 */
export function invalidValue(message: string): RangeError & { readonly code: 'ERR_INVALID_ARG_VALUE' } {
  return Object.assign(new RangeError(message), { code: ArgumentErrorCode.INVALID_ARG_VALUE });
}

/** A number (or a length) outside its range. */
export function outOfRange(message: string): RangeError & { readonly code: 'ERR_OUT_OF_RANGE' } {
  return Object.assign(new RangeError(message), { code: ArgumentErrorCode.OUT_OF_RANGE });
}

/** An argument of the wrong type, null where a value is needed included. */
export function invalidArgType(message: string): TypeError & { readonly code: 'ERR_INVALID_ARG_TYPE' } {
  return Object.assign(new TypeError(message), { code: ArgumentErrorCode.INVALID_ARG_TYPE });
}

/**
 * A property or map entry name that is not allowed (reserved, or not an identifier): a TypeError,
 * as Java's IllegalArgumentException maps onto, with ERR_INVALID_ARG_VALUE.
 */
export function invalidName(message: string): TypeError & { readonly code: 'ERR_INVALID_ARG_VALUE' } {
  return Object.assign(new TypeError(message), { code: ArgumentErrorCode.INVALID_ARG_VALUE });
}
