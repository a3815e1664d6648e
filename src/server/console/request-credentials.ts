import { HttpProblem } from './http-problem';

/** User names and passwords longer than this are refused unchecked. */
export const MAX_CREDENTIAL_CHARS = 1_024;

/** A 401: who is calling is not known (not logged in, the session over, bad credentials). */
export function unauthorized(message: string): HttpProblem {
  // Not `Basic`: a browser would then ask for credentials in its own dialog and send them with
  // every later request to this origin, other sites' forms included.
  return new HttpProblem(401, message, { 'WWW-Authenticate': 'Session realm="hornetq-console"' });
}

/** The value of cookie `name` in a Cookie header, or undefined. */
export function cookieOf(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const equals = part.indexOf('=');
    if (equals > 0 && part.slice(0, equals).trim() === name) return part.slice(equals + 1).trim();
  }
  return undefined;
}

/** `Authorization: Basic` credentials (null: no Authorization header); another scheme or a malformed one is a 401. */
export function basicCredentials(header: string | undefined): { user: string; password: string } | null {
  if (header === undefined) return null;
  const [scheme, encoded] = header.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== 'basic' || encoded === undefined)
    throw unauthorized('the Authorization header must be Basic credentials');
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw unauthorized('the Basic credentials are not user:password');
  const user = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (user.length > MAX_CREDENTIAL_CHARS || password.length > MAX_CREDENTIAL_CHARS)
    throw unauthorized(`user names and passwords are at most ${MAX_CREDENTIAL_CHARS} characters`);
  return { user, password };
}
