import { brandError, hasBrand } from '../lang/brand';

/** Why a management request did not give a result. */
export const ManagementErrorCode = {
  /** The server ran the request and answered that it failed; the message is the server's text. */
  OPERATION_FAILED: 'ERR_MANAGEMENT_OPERATION_FAILED',
  /** No answer came within the timeout (a server that has no such management address drops the request). */
  TIMEOUT: 'ERR_MANAGEMENT_TIMEOUT',
  /** The answer came but is not what the operation returns (a body that is no JSON, a field of the wrong type). */
  BAD_REPLY: 'ERR_MANAGEMENT_BAD_REPLY',
} as const;

export type ManagementErrorCodeName = (typeof ManagementErrorCode)[keyof typeof ManagementErrorCode];

/** A management request that failed: which resource and operation, and why (the server's own words when it said). */
export class ManagementError extends Error {
  static readonly brand: string = 'ManagementError';

  constructor(
    readonly code: ManagementErrorCodeName,
    /** `core.queue.jms.queue.orders moveMessages`: the resource and the operation or attribute asked for. */
    readonly request: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${request}: ${detail}`, options);
    brandError(this, new.target);
  }

  static is(value: unknown): value is ManagementError {
    return hasBrand(value, ManagementError);
  }
}
