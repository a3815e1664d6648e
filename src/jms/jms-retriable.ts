import { ErrorCode, isRetriableCode, type ErrorCodeName } from '../core/protocol';
import { ownBrand, type ClassOf } from '../lang/brand';

/**
 * The JMS layer's own error codes that are retriable: an ExceptionListener's FAILOVER (the
 * connection carried on elsewhere) and DISCONNECT (it is gone: a new connection later can work).
 */
const RETRIABLE_JMS_CODES: ReadonlySet<string> = new Set(['FAILOVER', 'DISCONNECT']);

/**
 * The classes retriable without a code beneath (JMS' own reasons): an address full until consumers
 * catch up, a transaction a failover rolled back (do it again). Checked and unchecked alike.
 */
const RETRIABLE_CLASSES: ReadonlySet<string> = new Set([
  'ResourceAllocationException',
  'TransactionRolledBackException',
  'ResourceAllocationRuntimeException',
  'TransactionRolledBackRuntimeException',
]);

/**
 * A JMS exception's `retriable`: HornetQ's code beneath decides (RETRIABLE_ERROR_CODES), else a
 * code of this layer, else the nearest class that has a brand (an application's subclass takes
 * its parent's).
 */
export function jmsRetriable(errorCode: string | null, leaf: ClassOf<Error>): boolean {
  if (errorCode !== null && Object.hasOwn(ErrorCode, errorCode))
    return isRetriableCode(errorCode as ErrorCodeName);
  if (errorCode !== null && RETRIABLE_JMS_CODES.has(errorCode)) return true;
  for (let type: unknown = leaf; typeof type === 'function'; type = Object.getPrototypeOf(type)) {
    const brand = ownBrand(type);
    if (brand !== null) return RETRIABLE_CLASSES.has(brand);
  }
  return false;
}
