/**
 * The closed set of error codes an EXCEPTION packet may carry, with HornetQ's numbers
 * (HornetQExceptionType). A code outside this set decodes as INTERNAL_ERROR: the wire never
 * chooses an error class.
 */
export const ErrorCode = {
  INTERNAL_ERROR: 0,
  UNSUPPORTED_PACKET: 1,
  NOT_CONNECTED: 2,
  CONNECTION_TIMEDOUT: 3,
  DISCONNECTED: 4,
  UNBLOCKED: 5,
  IO_ERROR: 6,
  QUEUE_DOES_NOT_EXIST: 100,
  QUEUE_EXISTS: 101,
  OBJECT_CLOSED: 102,
  INVALID_FILTER_EXPRESSION: 103,
  ILLEGAL_STATE: 104,
  SECURITY_EXCEPTION: 105,
  ADDRESS_EXISTS: 107,
  INCOMPATIBLE_CLIENT_SERVER_VERSIONS: 108,
  LARGE_MESSAGE_ERROR_BODY: 110,
  TRANSACTION_ROLLED_BACK: 111,
  SESSION_CREATION_REJECTED: 112,
  DUPLICATE_ID_REJECTED: 113,
  DUPLICATE_METADATA: 114,
  TRANSACTION_OUTCOME_UNKNOWN: 115,
  ALREADY_REPLICATING: 116,
  INTERCEPTOR_REJECTED_PACKET: 117,
  INVALID_TRANSIENT_QUEUE_USE: 118,
  ADDRESS_FULL: 210,
  LARGE_MESSAGE_INTERRUPTED: 211,
  CLUSTER_SECURITY_EXCEPTION: 212,
  /**
   * Ours, raised by the client only (numbered outside HornetQ's and Artemis' ranges): a blocking
   * call got no answer and no failover decided its fate in time, while its command was still held
   * for replay, so the broker may yet apply it. (An undecided commit says
   * TRANSACTION_OUTCOME_UNKNOWN instead.)
   */
  CALL_OUTCOME_UNKNOWN: 1001,
  /**
   * Ours, client only: the broker's TLS certificate did not pass this client's check (a CA it does
   * not trust, a host name it does not name, expired or not yet valid). Not a broker that is down:
   * the certificate or the trust store must change.
   */
  TLS_VERIFICATION_FAILED: 1002,
  /** Ours, client only: a plain (tcp://) connection to a port that speaks TLS; use tls://. */
  TLS_REQUIRED: 1003,
  GENERIC_EXCEPTION: 999,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;

const BY_NUMBER = new Map<number, ErrorCodeName>(
  (Object.keys(ErrorCode) as ErrorCodeName[]).map((name) => [ErrorCode[name], name]),
);

export function errorCodeFromNumber(code: number): ErrorCodeName {
  return BY_NUMBER.get(code) ?? 'INTERNAL_ERROR';
}
