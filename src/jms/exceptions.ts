/**
 * The JMS exception classes of the public contract. Each carries a stable error code (HornetQ's
 * names where a core error lies beneath) and a static `is()` that recognises instances made by
 * another copy of this package too: it checks a brand symbol from the global registry and the
 * class name, never `instanceof` alone.
 */

const BRAND = Symbol.for('hornetq-js.JMSException');

export class JMSException extends Error {
  readonly errorCode: string | null;

  constructor(message: string, errorCode: string | null = null, options?: { cause?: unknown }) {
    super(message, options);
    this.errorCode = errorCode;
    Object.defineProperty(this, BRAND, { value: true });
    Object.defineProperty(this, 'name', { value: new.target.name, enumerable: false, configurable: true });
  }

  getErrorCode(): string | null {
    return this.errorCode;
  }

  /** The underlying failure, if any (the same object as `cause`). */
  getLinkedException(): unknown {
    return this.cause;
  }

  /** True for an instance of this class (or a subclass), from any copy of this package. */
  static is(value: unknown): boolean {
    if (typeof value !== 'object' || value === null || !(BRAND in value)) return false;
    if (this === JMSException) return true;
    for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
      if (proto.constructor?.name === this.name) return true;
    }
    return false;
  }
}

export class IllegalStateException extends JMSException {}
export class InvalidClientIDException extends JMSException {}
export class InvalidDestinationException extends JMSException {}
export class InvalidSelectorException extends JMSException {}
export class JMSSecurityException extends JMSException {}
export class MessageEOFException extends JMSException {}
export class MessageFormatException extends JMSException {}
export class MessageNotReadableException extends JMSException {}
export class MessageNotWriteableException extends JMSException {}
export class ResourceAllocationException extends JMSException {}
export class TransactionInProgressException extends JMSException {}
export class TransactionRolledBackException extends JMSException {}

/**
 * A property or map value read as a number type it cannot convert to: a string that does not
 * parse, or a numeric read of a property that does not exist (Java's NumberFormatException).
 */
export class NumberFormatException extends Error {
  constructor(message?: string) {
    super(message);
    Object.defineProperty(this, 'name', {
      value: 'NumberFormatException',
      enumerable: false,
      configurable: true,
    });
  }
}
