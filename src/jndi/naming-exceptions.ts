/** A naming operation failed; the message says which name and why. */
export class NamingException extends Error {
  constructor(message?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }

  static is(error: unknown): error is NamingException {
    return error instanceof NamingException;
  }
}

/** Nothing is bound under the name (lookup, unbind, rename). */
export class NameNotFoundException extends NamingException {
  static override is(error: unknown): error is NameNotFoundException {
    return error instanceof NameNotFoundException;
  }
}

/** Something is already bound under the name (bind, rename). */
export class NameAlreadyBoundException extends NamingException {
  static override is(error: unknown): error is NameAlreadyBoundException {
    return error instanceof NameAlreadyBoundException;
  }
}
