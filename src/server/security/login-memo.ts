import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SessionGuard } from './session-guard';

/** How long a connection's last good login is remembered: a reattach burst takes well under it. */
export const LOGIN_MEMO_MS = 10_000;

interface RememberedLogin {
  readonly user: string | null;
  /** HMAC of the password under this memo's own random key: a proof, never the password. */
  readonly proof: Buffer;
  /** The users in force when it was checked (BrokerSecurity counts each replacement). */
  readonly generation: number;
  readonly guard: SessionGuard;
  readonly until: number;
}

/**
 * The last successful login of one connection. A client creates or reattaches its sessions one
 * after another, each with the same user and password; with an scrypt hash each check costs tens
 * of milliseconds, and after a network failure the sessions of a connection would resume that much
 * later, one after the other. A login that repeats the remembered one on the same connection,
 * within LOGIN_MEMO_MS and under the same users, is taken without checking the hash again.
 *
 * Nothing kept is the password: only an HMAC of it under a random key that lives in this object
 * (so it proves nothing elsewhere), compared in constant time, and forgotten after LOGIN_MEMO_MS.
 */
export class LoginMemo {
  private readonly key = randomBytes(32);
  private remembered: RememberedLogin | null = null;

  constructor(
    private readonly lifetimeMs: number = LOGIN_MEMO_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The guard of the remembered login if this one repeats it, else null. */
  recall(user: string | null, password: string | null, generation: number): SessionGuard | null {
    const remembered = this.remembered;
    if (remembered === null) return null;
    if (this.clock() >= remembered.until || remembered.generation !== generation) {
      this.remembered = null;
      return null;
    }
    const same = timingSafeEqual(this.proofOf(password), remembered.proof);
    return same && remembered.user === user ? remembered.guard : null;
  }

  remember(user: string | null, password: string | null, generation: number, guard: SessionGuard): void {
    this.remembered = {
      user,
      proof: this.proofOf(password),
      generation,
      guard,
      until: this.clock() + this.lifetimeMs,
    };
  }

  /** No password and an empty one are different logins: a marker byte tells them apart. */
  private proofOf(password: string | null): Buffer {
    const hmac = createHmac('sha256', this.key);
    hmac.update(
      password === null ? Buffer.of(0) : Buffer.concat([Buffer.of(1), Buffer.from(password, 'utf8')]),
    );
    return hmac.digest();
  }
}
