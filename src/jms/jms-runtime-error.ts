import { HornetQException } from '../core/protocol';
import {
  IllegalStateException,
  IllegalStateRuntimeException,
  InvalidClientIDException,
  InvalidClientIDRuntimeException,
  InvalidDestinationException,
  InvalidDestinationRuntimeException,
  InvalidSelectorException,
  InvalidSelectorRuntimeException,
  JMSException,
  JMSRuntimeException,
  JMSSecurityException,
  JMSSecurityRuntimeException,
  MessageFormatException,
  MessageFormatRuntimeException,
  MessageNotWriteableException,
  MessageNotWriteableRuntimeException,
  ResourceAllocationException,
  ResourceAllocationRuntimeException,
  TransactionInProgressException,
  TransactionInProgressRuntimeException,
  TransactionRolledBackException,
  TransactionRolledBackRuntimeException,
} from './exceptions';
import { toJMSException } from './jms-error';

type RuntimeClass = new (
  message: string,
  errorCode: string | null,
  options: { cause: unknown },
) => JMSRuntimeException;

/** Checked class → its unchecked twin; the first match wins, so a subclass comes before its parent. */
const TWINS: ReadonlyArray<readonly [{ is(value: unknown): boolean }, RuntimeClass]> = [
  [IllegalStateException, IllegalStateRuntimeException],
  [InvalidClientIDException, InvalidClientIDRuntimeException],
  [InvalidDestinationException, InvalidDestinationRuntimeException],
  [InvalidSelectorException, InvalidSelectorRuntimeException],
  [JMSSecurityException, JMSSecurityRuntimeException],
  [MessageFormatException, MessageFormatRuntimeException],
  [MessageNotWriteableException, MessageNotWriteableRuntimeException],
  [ResourceAllocationException, ResourceAllocationRuntimeException],
  [TransactionInProgressException, TransactionInProgressRuntimeException],
  [TransactionRolledBackException, TransactionRolledBackRuntimeException],
];

/**
 * The JMS 2.0 unchecked exception for a failure (HornetQ's JmsExceptionUtils): a JMSException
 * becomes its twin with the same message and error code, the original as the cause; a core
 * failure first becomes the JMSException for it. Anything else (a TypeError for a bad argument,
 * a RangeError) is returned as it is: JMS converts only its own checked family.
 */
export function toJMSRuntimeException(error: unknown): unknown {
  if (JMSRuntimeException.is(error)) return error;
  const checked = HornetQException.is(error) ? toJMSException(error) : error;
  if (!JMSException.is(checked)) return error;
  const twin = TWINS.find(([checkedClass]) => checkedClass.is(checked))?.[1] ?? JMSRuntimeException;
  return new twin(checked.message, checked.errorCode, { cause: checked });
}

/**
 * Runs a call and rethrows its failure as JMS 2.0's unchecked exception for it; the reason of an
 * abort of `signal` passes unchanged (an aborted call rejects with it, as everywhere in the API).
 */
export async function runtimeCall<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (signal?.aborted === true && error === signal.reason) throw error;
    throw toJMSRuntimeException(error);
  }
}

/** runtimeCall for a synchronous call. */
export function runtimeCallSync<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw toJMSRuntimeException(error);
  }
}
