import { brandError, hasBrand, type ClassOf, type InstanceOf } from '../lang/brand';
import { JndiErrorCode, type JndiErrorCodeName } from './jndi-error-code';

export interface NamingExceptionOptions {
  cause?: unknown;
  /** A code more precise than the class's (ERR_NAME_WRONG_TYPE). */
  code?: JndiErrorCodeName;
}

/** A naming operation failed; the message says which name and why. */
export class NamingException extends Error {
  static readonly brand: string = 'NamingException';
  readonly code: JndiErrorCodeName;
  /**
   * False: a name is bound or not because of the configuration or the application; retrying the
   * same call does not change that (a redeploy that binds it is the application's to wait for).
   */
  readonly retriable = false;

  constructor(message?: string, options?: NamingExceptionOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = options?.code ?? codeOf(this);
    brandError(this, new.target);
  }

  /** True for an instance of the class it is called on (or of a subclass), from any copy of this package. */
  static is<C extends ClassOf<NamingException>>(this: C, value: unknown): value is InstanceOf<C> {
    return hasBrand(value, this);
  }
}

/** Nothing is bound under the name (lookup, unbind, rename). */
export class NameNotFoundException extends NamingException {
  static override readonly brand: string = 'NameNotFoundException';
}

/** Something is already bound under the name (bind, rename). */
export class NameAlreadyBoundException extends NamingException {
  static override readonly brand: string = 'NameAlreadyBoundException';
}

function codeOf(error: NamingException): JndiErrorCodeName {
  if (error instanceof NameNotFoundException) return JndiErrorCode.NAME_NOT_FOUND;
  if (error instanceof NameAlreadyBoundException) return JndiErrorCode.NAME_ALREADY_BOUND;
  return JndiErrorCode.NAMING;
}
