/**
 * A request the console refuses, with the HTTP status and a message saying what was wrong and
 * where: the API answers it as `{"error": message}`. Messages never repeat a secret the client
 * sent (a password, a cookie, a token).
 */
export class HttpProblem extends Error {
  override readonly name = 'HttpProblem';

  constructor(
    readonly status: number,
    message: string,
    /** Extra response headers (Allow for 405, WWW-Authenticate for 401). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  static is(value: unknown): value is HttpProblem {
    return value instanceof HttpProblem;
  }
}
