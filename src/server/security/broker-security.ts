import { HornetQException } from '../../core/protocol';
import { invalidValue } from '../../lang/argument-errors';
import type { Logger } from '../../core/remoting';
import type { LoginMemo } from './login-memo';
import { LoginThrottle, type LoginThrottlePolicy } from './login-throttle';
import type { Principal, SecurityManager } from './security-manager';
import { SecurityStore, type SecuritySetting } from './security-store';
import { OPEN_GUARD, principalGuard, type SessionGuard } from './session-guard';

export interface BrokerSecurityOptions {
  /** security-enabled: false lets every client in as nobody and allows everything (HornetQ's rule). */
  readonly enabled: boolean;
  /** Who may log in; required when enabled. */
  readonly manager: SecurityManager | null;
  readonly settings: readonly SecuritySetting[];
  readonly throttle?: Partial<LoginThrottlePolicy> | undefined;
  /**
   * How long the manager may take to check one login (ms; DEFAULT_AUTHENTICATION_TIMEOUT_MS): one
   * that does not answer refuses that login, and the attempts of its host behind it go on.
   */
  readonly authenticationTimeoutMs?: number | undefined;
  readonly logger: Logger;
}

/** As long as a client waits for its CREATESESSION answer (HornetQ's default call timeout). */
export const DEFAULT_AUTHENTICATION_TIMEOUT_MS = 30_000;

/** What the broker knows of a login attempt besides its credentials. */
export interface LoginRequest {
  /**
   * True once nobody waits for the answer (the connection closed): a slowed attempt is then
   * dropped unchecked, so that attempts of connections gone do not hold up the later ones.
   */
  readonly abandoned?: () => boolean;
  /**
   * The connection's last good login: a login that repeats it soon after skips the password check
   * (a client creating or reattaching its sessions one after another).
   */
  readonly memo?: LoginMemo;
}

/** The login attempts in progress of one throttle bucket (a source address and user name). */
interface SourceTurns {
  /** Ends when the last attempt waiting for its turn is done; null when none waits. */
  tail: Promise<void> | null;
  /** Attempts let through without a turn (within the free failures), until each is done. */
  readonly running: Set<Promise<void>>;
  /** Attempts waiting for their turn (at most the policy's maxWaitingPerSource). */
  waiting: number;
  /** Attempts of a source without failures waiting for one of its running checks to end. */
  queued: number;
}

/** One login attempt, as its turn is decided. */
interface Attempt {
  readonly user: string | null;
  readonly remoteAddress: string;
  readonly source: string;
  /** What its failures count under (LoginThrottle.bucketOf): attempts of one bucket take turns. */
  readonly bucket: string;
  readonly abandoned: () => boolean;
}

/** User names as logged: a client chooses them, so they are quoted and cut to this length. */
const LOGGED_NAME_CHARS = 200;

/**
 * The broker's security: who a client logs in as (at CREATESESSION, and again at a reattach that
 * presents credentials) and what each login may do. A failed login is logged with the user and
 * the source address, never the password, and slows the next attempts for that user name from
 * that address (the LoginThrottle); beyond its free failures those attempts are checked one at a
 * time, so that opening many connections at once does not multiply its guesses. Only a success
 * of that user name from that address clears them.
 */
export class BrokerSecurity {
  readonly enabled: boolean;
  private manager: SecurityManager | null;
  private readonly store: SecurityStore;
  private readonly throttle: LoginThrottle;
  private readonly logger: Logger;
  /** Per throttle bucket with a login being checked or waiting, its attempts in progress. */
  private readonly turns = new Map<string, SourceTurns>();
  /** Pauses of slowed attempts and deadlines of checks, ended (refused) when the broker stops. */
  private readonly waits = new Set<{ timer: NodeJS.Timeout; stop: () => void }>();
  private readonly authenticationTimeoutMs: number;
  private closed = false;
  /** Logins refused for an unknown user or a wrong password since the broker was made (metrics). */
  private refused = 0;
  /** Counts replacements of the security manager: remembered logins of earlier users are void. */
  private usersGeneration = 0;

  constructor(options: BrokerSecurityOptions) {
    if (options.enabled && options.manager === null) {
      throw invalidValue(
        'securityEnabled is true and no securityManager is given: give one (for example a FileSecurityManager from hornetq-users.xml), or set securityEnabled to false',
      );
    }
    this.enabled = options.enabled;
    this.manager = options.manager;
    this.store = new SecurityStore(options.settings);
    this.throttle = new LoginThrottle(options.throttle);
    this.logger = options.logger;
    this.authenticationTimeoutMs = options.authenticationTimeoutMs ?? DEFAULT_AUTHENTICATION_TIMEOUT_MS;
    if (!(this.authenticationTimeoutMs >= 1 && this.authenticationTimeoutMs <= 2_147_483_647)) {
      throw invalidValue(
        `authenticationTimeoutMs must be 1..2147483647 (actual value: ${this.authenticationTimeoutMs})`,
      );
    }
  }

  /**
   * Who `user` with `password`, connecting from `remoteAddress`, is allowed to be: the guard of its
   * session. Throws SECURITY_EXCEPTION (HornetQ's "Unable to validate user") for bad credentials;
   * when security is disabled everyone gets in.
   */
  async login(
    user: string | null,
    password: string | null,
    remoteAddress: string,
    request: LoginRequest = {},
  ): Promise<SessionGuard> {
    if (!this.enabled || this.manager === null) return OPEN_GUARD;
    const recalled = this.closed
      ? null
      : (request.memo?.recall(user, password, this.usersGeneration) ?? null);
    if (recalled !== null) return recalled;
    const generation = this.usersGeneration;
    const source = sourceHost(remoteAddress);
    const attempt: Attempt = {
      user,
      remoteAddress,
      source,
      bucket: this.throttle.bucketOf(source, user),
      abandoned: request.abandoned ?? (() => false),
    };
    const endTurn = await this.awaitTurn(attempt);
    try {
      const principal = await this.authenticate(this.manager, user, password, remoteAddress);
      if (principal === null) throw this.refuse(user, remoteAddress, source);
      this.throttle.recordSuccess(source, user);
      const guard = principalGuard(principal, this.store);
      request.memo?.remember(user, password, generation, guard);
      return guard;
    } finally {
      endTurn();
    }
  }

  /** Redeployed `<security-settings>`: the next permission check of every session uses them. */
  replaceSettings(settings: readonly SecuritySetting[]): void {
    this.store.replace(settings);
  }

  /** A redeployed hornetq-users.xml: the next login uses it; sessions logged in stay as they are. */
  replaceManager(manager: SecurityManager): void {
    this.manager = manager;
    // A login remembered by a connection (LoginMemo) was checked against the users before.
    this.usersGeneration++;
  }

  /** The broker starts (again): logins are checked. */
  open(): void {
    this.closed = false;
  }

  /**
   * The broker stops: slowed attempts waiting for their turn, and checks the manager has not
   * answered yet, are refused now; later attempts at once, until open().
   */
  close(): void {
    this.closed = true;
    for (const wait of this.waits) {
      clearTimeout(wait.timer);
      wait.stop();
    }
    this.waits.clear();
  }

  private async authenticate(
    manager: SecurityManager,
    user: string | null,
    password: string | null,
    remoteAddress: string,
  ): Promise<Principal | null> {
    if (this.closed) throw stopping();
    try {
      return await this.withDeadline(manager.authenticate(user, password, remoteAddress), user);
    } catch (error) {
      if (this.closed) throw stopping();
      // The manager's own failure: the login is refused, and it is not the client's guess.
      this.logger.error(
        { err: error, user: user === null ? null : cut(user), remote: remoteAddress },
        `the security manager failed while checking user ${loggedName(user)}; the login is refused`,
      );
      throw new HornetQException('SECURITY_EXCEPTION', unableToValidate(user));
    }
  }

  /** The manager's answer, or a rejection once it has taken authenticationTimeoutMs (or the broker stops). */
  private withDeadline<T>(answer: Promise<T>, user: string | null): Promise<T> {
    const ms = this.authenticationTimeoutMs;
    return new Promise<T>((resolve, reject) => {
      const wait = {
        timer: setTimeout(() => {
          this.waits.delete(wait);
          reject(new Error(`it did not answer within ${ms} ms (checking user ${loggedName(user)})`));
        }, ms),
        stop: () => reject(stopping()),
      };
      this.waits.add(wait);
      const settle = (): void => {
        clearTimeout(wait.timer);
        this.waits.delete(wait);
      };
      Promise.resolve(answer).then(
        (value) => {
          settle();
          resolve(value);
        },
        (error: unknown) => {
          settle();
          reject(error);
        },
      );
    });
  }

  /** Logins refused for an unknown user or a wrong password since the broker was made. */
  get failedLogins(): number {
    return this.refused;
  }

  private refuse(user: string | null, remoteAddress: string, source: string): HornetQException {
    this.refused++;
    this.throttle.recordFailure(source, user);
    const failures = this.throttle.failuresOf(source, user);
    this.logger.warn(
      { user: user === null ? null : cut(user), remote: remoteAddress, failures },
      `login refused for user ${loggedName(user)} from ${remoteAddress}: unknown user or wrong password (failed logins of this user name from ${source} in a row: ${failures})`,
    );
    return new HornetQException('SECURITY_EXCEPTION', unableToValidate(user));
  }

  /**
   * Waits until an attempt may be checked, and returns what ends its turn. A bucket without
   * failures has up to concurrentLoginsPerSource checks at once (a pool of connections logging in
   * together), further attempts waiting for one to end. Once it has failed, it is slowed (see
   * awaitSlowedTurn).
   */
  private async awaitTurn(attempt: Attempt): Promise<() => void> {
    const { bucket } = attempt;
    for (;;) {
      const turns = this.turnsOf(bucket);
      if (this.failuresOf(attempt) > 0 || turns.tail !== null) {
        return this.awaitSlowedTurn(attempt, turns);
      }
      if (turns.running.size < this.throttle.policy.concurrentLoginsPerSource) {
        return this.runNow(bucket, turns);
      }
      turns.queued++;
      try {
        await Promise.race(turns.running);
      } finally {
        turns.queued--;
      }
      if (attempt.abandoned()) {
        this.forgetIfIdle(bucket, turns);
        throw new HornetQException('SECURITY_EXCEPTION', unableToValidate(attempt.user));
      }
    }
  }

  /** Lets an attempt be checked now; what it returns ends the check's turn. */
  private runNow(bucket: string, turns: SourceTurns): () => void {
    let release: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => (release = resolve));
    turns.running.add(mine);
    return () => {
      release();
      turns.running.delete(mine);
      this.forgetIfIdle(bucket, turns);
    };
  }

  private failuresOf(attempt: Attempt): number {
    return this.throttle.failuresOf(attempt.source, attempt.user);
  }

  /**
   * The turn of an attempt whose bucket has failed. It goes at once while it would stay
   * within the free failures even if every check of the source still running failed; any other
   * waits until those checks and the source's earlier waiting attempts are done, then for the
   * pause its failures owe. So a failing host's guesses at one name are checked one at a time, with the pause
   * between them, and at most maxWaitingPerSource of them wait.
   */
  private async awaitSlowedTurn(attempt: Attempt, turns: SourceTurns): Promise<() => void> {
    const { bucket } = attempt;
    const { freeFailures, maxWaitingPerSource } = this.throttle.policy;
    if (turns.tail === null && this.failuresOf(attempt) + turns.running.size < freeFailures) {
      return this.runNow(bucket, turns);
    }
    if (turns.waiting >= maxWaitingPerSource) {
      this.forgetIfIdle(bucket, turns);
      throw this.tooManyWaiting(attempt, maxWaitingPerSource);
    }
    let release: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const previous = Promise.all([turns.tail, ...turns.running]);
    const tail = previous.then(() => mine);
    turns.tail = tail;
    turns.waiting++;
    const endTurn = (): void => {
      release();
      if (turns.tail === tail) turns.tail = null;
      this.forgetIfIdle(bucket, turns);
    };
    try {
      await previous;
      turns.waiting--;
      const delay = this.throttle.delayFor(attempt.source, attempt.user);
      if (delay > 0 && !attempt.abandoned()) await this.pause(delay);
      if (attempt.abandoned())
        throw new HornetQException('SECURITY_EXCEPTION', unableToValidate(attempt.user));
      return endTurn;
    } catch (error) {
      endTurn();
      throw error;
    }
  }

  private tooManyWaiting(attempt: Attempt, max: number): HornetQException {
    this.logger.warn(
      { user: attempt.user === null ? null : cut(attempt.user), remote: attempt.remoteAddress },
      `too many login attempts from ${attempt.source} are waiting for their turn (maxWaitingPerSource ${max}): the login of user ${loggedName(attempt.user)} from ${attempt.remoteAddress} is refused unchecked`,
    );
    return new HornetQException('SECURITY_EXCEPTION', unableToValidate(attempt.user));
  }

  private turnsOf(bucket: string): SourceTurns {
    let turns = this.turns.get(bucket);
    if (turns === undefined) {
      turns = { tail: null, running: new Set(), waiting: 0, queued: 0 };
      this.turns.set(bucket, turns);
    }
    return turns;
  }

  private forgetIfIdle(bucket: string, turns: SourceTurns): void {
    if (
      turns.tail === null &&
      turns.running.size === 0 &&
      turns.waiting === 0 &&
      turns.queued === 0 &&
      this.turns.get(bucket) === turns
    ) {
      this.turns.delete(bucket);
    }
  }

  private pause(ms: number): Promise<void> {
    if (this.closed) return Promise.reject(stopping());
    return new Promise<void>((resolve, reject) => {
      const pause = {
        timer: setTimeout(() => {
          this.waits.delete(pause);
          resolve();
        }, ms),
        stop: () => reject(stopping()),
      };
      this.waits.add(pause);
    });
  }
}

function stopping(): HornetQException {
  return new HornetQException('SECURITY_EXCEPTION', 'the broker is stopping; the login was not checked');
}

/**
 * The host a connection comes from, without the scheme and port its address is written with
 * (`tcp://127.0.0.1:51234` -> `127.0.0.1`): every connection has a port of its own, so failures
 * are counted per host.
 */
export function sourceHost(remoteAddress: string): string {
  const withoutScheme = remoteAddress.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const colon = withoutScheme.lastIndexOf(':');
  return colon > 0 && /^\d*$|^\?$/.test(withoutScheme.slice(colon + 1))
    ? withoutScheme.slice(0, colon)
    : withoutScheme;
}

/** HornetQ's HQ119031, the same whatever was wrong (no hint whether the name exists). */
function unableToValidate(user: string | null): string {
  return `Unable to validate user: ${user === null ? '(none)' : cut(user)}`;
}

function cut(name: string): string {
  return name.length > LOGGED_NAME_CHARS ? `${name.slice(0, LOGGED_NAME_CHARS)}…` : name;
}

function loggedName(user: string | null): string {
  return user === null ? '(none: the default user)' : JSON.stringify(cut(user));
}
