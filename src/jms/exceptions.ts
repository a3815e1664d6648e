import { brandError, hasBrand, ownBrand, type ClassOf, type InstanceOf } from '../lang/brand';
import { JmsErrorCode, type JmsExceptionClassName } from './jms-error-code';
import { jmsRetriable } from './jms-retriable';

/**
 * The JMS exception classes of the public contract. Each carries `code` as Node's errors do: the
 * error code it was given (HornetQ's name where a core error lies beneath, the same string as
 * getErrorCode()), else its class's code from JmsErrorCode. The static `is()` recognises instances
 * made by another copy of this package too (see lang/brand.ts).
 */
export class JMSException extends Error {
  static readonly brand: string = 'JMSException';
  readonly errorCode: string | null;
  /**
   * True where retrying the same operation later can succeed: HornetQ's code beneath decides
   * (NOT_CONNECTED, UNBLOCKED, ADDRESS_FULL... see RETRIABLE_ERROR_CODES), an ExceptionListener's
   * FAILOVER and DISCONNECT are, and so are ResourceAllocation and TransactionRolledBack. Always
   * set; optional for the reason `code` is.
   */
  readonly retriable?: boolean;
  /**
   * Always set. Declared optional only so that an ExceptionListener typed against this class
   * still accepts the JMS contract's JMSException, which has no `code`.
   */
  readonly code?: string;

  constructor(message: string, errorCode: string | null = null, options?: { cause?: unknown }) {
    super(message, options);
    this.errorCode = errorCode;
    this.code = errorCode ?? defaultCode(new.target, JmsErrorCode.JMSException);
    this.retriable = jmsRetriable(errorCode, new.target);
    brandError(this, new.target);
  }

  getErrorCode(): string | null {
    return this.errorCode;
  }

  /** The underlying failure, if any (the same object as `cause`). */
  getLinkedException(): unknown {
    return this.cause;
  }

  /** True for an instance of the class it is called on (or of a subclass), from any copy of this package. */
  static is<C extends ClassOf<JMSException>>(this: C, value: unknown): value is InstanceOf<C> {
    return hasBrand(value, this);
  }
}

/** The code of the nearest class that has one: an application's subclass takes its parent's. */
function defaultCode(leaf: ClassOf<Error>, root: string): string {
  for (let type: unknown = leaf; typeof type === 'function'; type = Object.getPrototypeOf(type)) {
    const brand = ownBrand(type);
    if (brand !== null && Object.hasOwn(JmsErrorCode, brand))
      return JmsErrorCode[brand as JmsExceptionClassName];
  }
  return root;
}

export class IllegalStateException extends JMSException {
  static override readonly brand: string = 'IllegalStateException';
}
export class InvalidClientIDException extends JMSException {
  static override readonly brand: string = 'InvalidClientIDException';
}
export class InvalidDestinationException extends JMSException {
  static override readonly brand: string = 'InvalidDestinationException';
}
export class InvalidSelectorException extends JMSException {
  static override readonly brand: string = 'InvalidSelectorException';
}
export class JMSSecurityException extends JMSException {
  static override readonly brand: string = 'JMSSecurityException';
}
export class MessageEOFException extends JMSException {
  static override readonly brand: string = 'MessageEOFException';
}
export class MessageFormatException extends JMSException {
  static override readonly brand: string = 'MessageFormatException';
}
export class MessageNotReadableException extends JMSException {
  static override readonly brand: string = 'MessageNotReadableException';
}
export class MessageNotWriteableException extends JMSException {
  static override readonly brand: string = 'MessageNotWriteableException';
}
export class ResourceAllocationException extends JMSException {
  static override readonly brand: string = 'ResourceAllocationException';
}
export class TransactionInProgressException extends JMSException {
  static override readonly brand: string = 'TransactionInProgressException';
}
export class TransactionRolledBackException extends JMSException {
  static override readonly brand: string = 'TransactionRolledBackException';
}

/**
 * JMS 2.0's unchecked exceptions: what JMSContext, JMSProducer and JMSConsumer throw where the
 * classic API throws the checked class of the same name without "Runtime" (the context converts
 * them as HornetQ's JmsExceptionUtils does, keeping the message, the error code and the cause).
 * In JavaScript nothing is checked; the two families stay apart so that code ported from Java
 * catches what it caught there. `code` and `is()` as on JMSException.
 */
export class JMSRuntimeException extends Error {
  static readonly brand: string = 'JMSRuntimeException';
  readonly errorCode: string | null;
  /**
   * True where retrying the same operation later can succeed: HornetQ's code beneath decides
   * (NOT_CONNECTED, UNBLOCKED, ADDRESS_FULL... see RETRIABLE_ERROR_CODES), an ExceptionListener's
   * FAILOVER and DISCONNECT are, and so are ResourceAllocation and TransactionRolledBack.
   */
  readonly retriable: boolean;
  readonly code: string;

  constructor(message: string, errorCode: string | null = null, options?: { cause?: unknown }) {
    super(message, options);
    this.errorCode = errorCode;
    this.code = errorCode ?? defaultCode(new.target, JmsErrorCode.JMSRuntimeException);
    this.retriable = jmsRetriable(errorCode, new.target);
    brandError(this, new.target);
  }

  getErrorCode(): string | null {
    return this.errorCode;
  }

  /** True for an instance of the class it is called on (or of a subclass), from any copy of this package. */
  static is<C extends ClassOf<JMSRuntimeException>>(this: C, value: unknown): value is InstanceOf<C> {
    return hasBrand(value, this);
  }
}

export class IllegalStateRuntimeException extends JMSRuntimeException {
  static override readonly brand: string = 'IllegalStateRuntimeException';
}
export class InvalidClientIDRuntimeException extends JMSRuntimeException {
  static override readonly brand: string = 'InvalidClientIDRuntimeException';
}
export class InvalidDestinationRuntimeException extends JMSRuntimeException {
  static override readonly brand: string = 'InvalidDestinationRuntimeException';
}
export class InvalidSelectorRuntimeException extends JMSRuntimeException {
  static override readonly brand: string = 'InvalidSelectorRuntimeException';
}
export class JMSSecurityRuntimeException extends JMSRuntimeException {
  static override readonly brand: string = 'JMSSecurityRuntimeException';
}
export class MessageFormatRuntimeException extends JMSRuntimeException {
  static override readonly brand: string = 'MessageFormatRuntimeException';
}
export class MessageNotWriteableRuntimeException extends JMSRuntimeException {
  static override readonly brand: string = 'MessageNotWriteableRuntimeException';
}
export class ResourceAllocationRuntimeException extends JMSRuntimeException {
  static override readonly brand: string = 'ResourceAllocationRuntimeException';
}
export class TransactionInProgressRuntimeException extends JMSRuntimeException {
  static override readonly brand: string = 'TransactionInProgressRuntimeException';
}
export class TransactionRolledBackRuntimeException extends JMSRuntimeException {
  static override readonly brand: string = 'TransactionRolledBackRuntimeException';
}

/**
 * A property or map value read as a number type it cannot convert to: a string that does not
 * parse, or a numeric read of a property that does not exist (Java's NumberFormatException).
 */
export class NumberFormatException extends Error {
  static readonly brand: string = 'NumberFormatException';
  readonly code = JmsErrorCode.NumberFormatException;
  /** Never: the value does not convert, now or later. */
  readonly retriable = false;

  constructor(message?: string) {
    super(message);
    brandError(this, new.target);
  }

  static is(value: unknown): value is NumberFormatException {
    return hasBrand(value, NumberFormatException);
  }
}
