import { HornetQException } from '../core/protocol';
import {
  IllegalStateException,
  InvalidClientIDException,
  InvalidDestinationException,
  InvalidSelectorException,
  JMSException,
  JMSSecurityException,
  ResourceAllocationException,
  TransactionRolledBackException,
} from './exceptions';

/**
 * The JMS exception for a failure of the core below: HornetQ's error code picks the class, the
 * code stays in `errorCode`, and the core failure is the linked exception.
 */
export function toJMSException(error: unknown): JMSException {
  if (JMSException.is(error)) return error;
  if (!HornetQException.is(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return new JMSException(message, null, { cause: error });
  }
  const options = { cause: error };
  switch (error.code) {
    case 'OBJECT_CLOSED':
    case 'ILLEGAL_STATE':
      return new IllegalStateException(error.message, error.code, options);
    case 'SECURITY_EXCEPTION':
      return new JMSSecurityException(error.message, error.code, options);
    case 'INVALID_FILTER_EXPRESSION':
      return new InvalidSelectorException(error.message, error.code, options);
    case 'QUEUE_DOES_NOT_EXIST':
      return new InvalidDestinationException(error.message, error.code, options);
    case 'TRANSACTION_ROLLED_BACK':
      return new TransactionRolledBackException(error.message, error.code, options);
    case 'DUPLICATE_METADATA':
      return new InvalidClientIDException(error.message, error.code, options);
    case 'ADDRESS_FULL':
      return new ResourceAllocationException(error.message, error.code, options);
    default:
      return new JMSException(error.message, error.code, options);
  }
}

/**
 * Runs a call into the core and rethrows its failure as the JMS exception for it; the reason of
 * an abort of `signal` passes unchanged (the contract: an aborted call rejects with it, as fetch).
 */
export async function jmsCall<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (signal?.aborted === true && error === signal.reason) throw error;
    throw toJMSException(error);
  }
}
