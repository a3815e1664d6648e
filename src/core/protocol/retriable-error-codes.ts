import type { ErrorCodeName } from './error-code';

/**
 * Whether retrying the same operation later can succeed, for each of HornetQ's codes (and ours):
 * the `retriable` flag of HornetQException and of the JMS exceptions made from one. A Record, so a
 * code added to ErrorCode does not compile until it is decided here. The rule: true where the
 * cause is a moment (a link down, a failover under way, an address full until consumers catch up),
 * false where the request itself, the configuration or the permissions must change first, and
 * false where a blind retry could apply the operation twice (an outcome not known).
 */
export const RETRIABLE_ERROR_CODES: Readonly<Record<ErrorCodeName, boolean>> = Object.freeze({
  INTERNAL_ERROR: false,
  UNSUPPORTED_PACKET: false,
  NOT_CONNECTED: true,
  CONNECTION_TIMEDOUT: true,
  DISCONNECTED: true,
  UNBLOCKED: true,
  // The broker's disk or the journal's file failed under it: often a full or busy disk.
  IO_ERROR: true,
  QUEUE_DOES_NOT_EXIST: false,
  QUEUE_EXISTS: false,
  OBJECT_CLOSED: false,
  INVALID_FILTER_EXPRESSION: false,
  ILLEGAL_STATE: false,
  SECURITY_EXCEPTION: false,
  ADDRESS_EXISTS: false,
  INCOMPATIBLE_CLIENT_SERVER_VERSIONS: false,
  LARGE_MESSAGE_ERROR_BODY: false,
  // A failover rolled the transaction back: doing it again is the cure (HornetQ's advice too).
  TRANSACTION_ROLLED_BACK: true,
  // HornetQ's meaning: a server not started, or a backup that has not yet taken over.
  SESSION_CREATION_REJECTED: true,
  // The message is there already: sending it again is refused again, and need not succeed.
  DUPLICATE_ID_REJECTED: false,
  // Another connection holds the client id: a configuration to fix, not a moment to wait out.
  DUPLICATE_METADATA: false,
  // Committed or not is unknown: only the application (or duplicate ids) can make a retry safe.
  TRANSACTION_OUTCOME_UNKNOWN: false,
  ALREADY_REPLICATING: false,
  INTERCEPTOR_REJECTED_PACKET: false,
  INVALID_TRANSIENT_QUEUE_USE: false,
  // Consumers drain the address, then sends are taken again.
  ADDRESS_FULL: true,
  // A failure cut the transfer of a large message; sending it again can go through.
  LARGE_MESSAGE_INTERRUPTED: true,
  CLUSTER_SECURITY_EXCEPTION: false,
  // As TRANSACTION_OUTCOME_UNKNOWN: the broker may yet have applied it.
  CALL_OUTCOME_UNKNOWN: false,
  // The certificate or the trust store must change; a broker that is down says NOT_CONNECTED.
  TLS_VERIFICATION_FAILED: false,
  TLS_REQUIRED: false,
  GENERIC_EXCEPTION: false,
});

/** True where retrying the operation that failed with `code` can succeed later (see the table). */
export function isRetriableCode(code: ErrorCodeName): boolean {
  return RETRIABLE_ERROR_CODES[code];
}
