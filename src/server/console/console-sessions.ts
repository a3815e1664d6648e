import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SessionGuard } from '../security/session-guard';

/** A logged-in browser: who it is (its guard, never its password) and the token its POSTs carry. */
export interface ConsoleSession {
  readonly guard: SessionGuard;
  /** The user name as typed at login (the guard's user is null when security is disabled). */
  readonly user: string;
  /** Sent by the page in X-CSRF-Token with every POST; a cross-site form cannot read or send it. */
  readonly csrfToken: string;
  readonly createdAt: number;
  lastUsedAt: number;
}

export interface ConsoleSessionsOptions {
  /** Sessions kept at a time; a login beyond it ends the least recently used one. */
  readonly maxSessions: number;
  /** A session unused this long is over (ms). */
  readonly idleTimeoutMs: number;
  /** A session is over this long after its login, however busy (ms). */
  readonly maxLifetimeMs: number;
  readonly now?: () => number;
  /** Secret bytes (crypto.randomBytes unless a test gives its own). */
  readonly random?: (bytes: number) => Buffer;
}

/** 32 random bytes: the session id and the CSRF token are unguessable. */
const SECRET_BYTES = 32;

/**
 * The console's logged-in sessions, in memory: a broker restart logs everyone out. Sessions are
 * found by the SHA-256 of their id, so that neither the lookup's time nor the memory holds an id
 * a client could replay; the map is bounded (maxSessions) and expired sessions are dropped when
 * met and at each login.
 */
export class ConsoleSessions {
  private readonly sessions = new Map<string, ConsoleSession>();
  private readonly now: () => number;
  private readonly random: (bytes: number) => Buffer;

  constructor(private readonly options: ConsoleSessionsOptions) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? randomBytes;
  }

  /** A new session for `guard`; returns its id, for the cookie (it is not kept). */
  create(user: string, guard: SessionGuard): { id: string; session: ConsoleSession } {
    this.dropExpired();
    while (this.sessions.size >= this.options.maxSessions) this.dropLeastRecentlyUsed();
    const id = this.random(SECRET_BYTES).toString('base64url');
    const now = this.now();
    const session: ConsoleSession = {
      guard,
      user,
      csrfToken: this.random(SECRET_BYTES).toString('base64url'),
      createdAt: now,
      lastUsedAt: now,
    };
    this.sessions.set(digestOf(id), session);
    return { id, session };
  }

  /** The live session of `id` (marked used), or null for an unknown or expired one. */
  find(id: string): ConsoleSession | null {
    const key = digestOf(id);
    const session = this.sessions.get(key);
    if (session === undefined) return null;
    const now = this.now();
    if (this.expired(session, now)) {
      this.sessions.delete(key);
      return null;
    }
    session.lastUsedAt = now;
    // Re-inserted: the map's order is then least recently used first.
    this.sessions.delete(key);
    this.sessions.set(key, session);
    return session;
  }

  /** Logs `id` out; nothing happens for an unknown one. */
  remove(id: string): void {
    this.sessions.delete(digestOf(id));
  }

  get size(): number {
    return this.sessions.size;
  }

  clear(): void {
    this.sessions.clear();
  }

  private expired(session: ConsoleSession, now: number): boolean {
    return (
      now - session.lastUsedAt >= this.options.idleTimeoutMs ||
      now - session.createdAt >= this.options.maxLifetimeMs
    );
  }

  private dropExpired(): void {
    const now = this.now();
    for (const [key, session] of this.sessions) if (this.expired(session, now)) this.sessions.delete(key);
  }

  private dropLeastRecentlyUsed(): void {
    const oldest = this.sessions.keys().next();
    if (oldest.done !== true) this.sessions.delete(oldest.value);
  }
}

/** Whether `presented` is the session's CSRF token, in time that does not depend on where they differ. */
export function csrfTokenMatches(session: ConsoleSession, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  return timingSafeEqual(digest(session.csrfToken), digest(presented));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function digestOf(id: string): string {
  return digest(id).toString('base64url');
}
