import { invalidValue } from '../../lang/argument-errors';

/** How failed logins slow the next attempts for the same user name from the same source address. */
export interface LoginThrottlePolicy {
  /** Failures a user name may have from one address before its attempts are slowed (a mistyped password or two). */
  freeFailures: number;
  /** The pause after the first failure beyond the free ones, in ms. */
  initialDelayMs: number;
  /** Each further failure multiplies the pause by this. */
  multiplier: number;
  maxDelayMs: number;
  /** A user name without a failure for this long starts afresh. */
  forgetAfterMs: number;
  /** Addresses remembered at most; the least recently failed is forgotten first. */
  maxSources: number;
  /**
   * User names with failures remembered per address. Failures of further names from that address
   * share one count (so guessing across many names is slowed too), and no name of an address can
   * push out another's count.
   */
  maxUserNamesPerSource: number;
  /**
   * Attempts of one slowed address that may wait for their turn; further ones are refused at once,
   * unchecked, so that a flood of connections from one host holds no more than this.
   */
  maxWaitingPerSource: number;
  /**
   * Logins of one address without failures that are checked at the same time; more wait for one
   * of them to end. A pool of connections from an application server logs in at once (and
   * reattaches at once after a network failure): these are not held up one by one, and a host
   * that guesses gets no more than this many guesses before its failures slow it.
   */
  concurrentLoginsPerSource: number;
}

export const DEFAULT_LOGIN_THROTTLE_POLICY: Readonly<LoginThrottlePolicy> = Object.freeze({
  freeFailures: 2,
  initialDelayMs: 250,
  multiplier: 2,
  maxDelayMs: 5000,
  forgetAfterMs: 15 * 60_000,
  maxSources: 10_000,
  maxUserNamesPerSource: 8,
  maxWaitingPerSource: 32,
  concurrentLoginsPerSource: 16,
});

const RULES: Array<[keyof LoginThrottlePolicy, (value: number) => boolean, string]> = [
  ['freeFailures', (v) => Number.isSafeInteger(v) && v >= 0, 'an integer >= 0'],
  ['initialDelayMs', (v) => v >= 0 && v <= 2_147_483_647, '0..2147483647'],
  ['multiplier', (v) => v >= 1 && Number.isFinite(v), 'a finite number >= 1'],
  ['maxDelayMs', (v) => v >= 0 && v <= 2_147_483_647, '0..2147483647'],
  ['forgetAfterMs', (v) => v > 0 && Number.isFinite(v), 'a finite number > 0'],
  ['maxSources', (v) => Number.isSafeInteger(v) && v >= 1, 'an integer >= 1'],
  ['maxUserNamesPerSource', (v) => Number.isSafeInteger(v) && v >= 1, 'an integer >= 1'],
  ['maxWaitingPerSource', (v) => Number.isSafeInteger(v) && v >= 1, 'an integer >= 1'],
  ['concurrentLoginsPerSource', (v) => Number.isSafeInteger(v) && v >= 1, 'an integer >= 1'],
];

/** Merges a policy over the defaults, naming the setting, value and range of any bad one. */
export function resolveLoginThrottlePolicy(policy: Partial<LoginThrottlePolicy> = {}): LoginThrottlePolicy {
  const resolved = { ...DEFAULT_LOGIN_THROTTLE_POLICY, ...policy };
  const problems = RULES.filter(([name, valid]) => !valid(resolved[name])).map(
    ([name, , range]) => `${name} must be ${range} (actual value: ${String(resolved[name])})`,
  );
  if (problems.length > 0) throw invalidValue(`invalid login throttle policy: ${problems.join('; ')}`);
  return resolved;
}

/**
 * The pause owed after `failures` failed logins: none for the free ones, then initialDelayMs
 * multiplied by `multiplier` for each further failure, capped at maxDelayMs.
 */
export function throttleDelay(policy: LoginThrottlePolicy, failures: number): number {
  const beyond = failures - policy.freeFailures;
  if (beyond <= 0) return 0;
  return Math.min(policy.initialDelayMs * Math.pow(policy.multiplier, beyond - 1), policy.maxDelayMs);
}

interface FailureRecord {
  failures: number;
  lastFailureAt: number;
}

/** The failures remembered for one source address. */
interface SourceRecords {
  /** Per user name (see nameKey), at most maxUserNamesPerSource. */
  readonly names: Map<string, FailureRecord>;
  /** Failures of the names that found `names` full, counted together. */
  others: FailureRecord | undefined;
}

/** Characters of a user name that tell it apart here: longer names sharing them share a count. */
const NAME_KEY_CHARS = 64;

/** What counts failures of `user` (cut, so that a client's long names cannot grow the table). */
function nameKey(user: string | null): string {
  // No name (the default user) is a name of its own; "\u0000" is never a real one worth a count of its own.
  return user === null ? '\u0000' : user.slice(0, NAME_KEY_CHARS);
}

/**
 * Failed logins per source address and user name (HornetQ has none: brute force was the
 * operator's problem). Keyed by the client's address without its port, since each connection has
 * a port of its own, and by the user name tried, so that the success of one account clears only
 * that account's failures: a host cannot raise its guessing rate against bob by logging in as
 * itself in between. The broker asks `delayFor` before it checks a login's credentials, waits that
 * long, then reports the outcome. Pauses are counted from the last failure, so an attempt made
 * after a pause of its own goes through at once.
 *
 * Bounded: at most maxSources addresses (the least recently failed forgotten first), each with at
 * most maxUserNamesPerSource names; the failures of an address's further names are counted
 * together, so a host guessing over many names is slowed as one, and cannot push out the count
 * of the name it is after.
 */
export class LoginThrottle {
  readonly policy: LoginThrottlePolicy;
  /** Insertion order is recency: a failure moves its address to the end. */
  private readonly sources = new Map<string, SourceRecords>();

  constructor(
    policy: Partial<LoginThrottlePolicy> = {},
    private readonly clock: () => number = Date.now,
  ) {
    this.policy = resolveLoginThrottlePolicy(policy);
  }

  /**
   * Names what the failures of `user` from `source` are counted under: attempts with the same
   * bucket are slowed together.
   */
  bucketOf(source: string, user: string | null): string {
    const records = this.sources.get(source);
    const name = nameKey(user);
    if (records === undefined || records.names.has(name) || !this.isFull(records)) {
      return `${source}\u0000${name}`;
    }
    return `${source}\u0001`;
  }

  /** How long an attempt of `user` from `source` must wait, now, before it is checked (ms). */
  delayFor(source: string, user: string | null): number {
    const record = this.current(source, user);
    if (record === undefined) return 0;
    const due = record.lastFailureAt + throttleDelay(this.policy, record.failures);
    return Math.max(0, due - this.clock());
  }

  recordFailure(source: string, user: string | null): void {
    const records = this.sources.get(source) ?? {
      names: new Map<string, FailureRecord>(),
      others: undefined,
    };
    const now = this.clock();
    const name = nameKey(user);
    const record = this.current(source, user);
    const failed = { failures: (record?.failures ?? 0) + 1, lastFailureAt: now };
    if (records.names.has(name) || !this.isFull(records)) records.names.set(name, failed);
    else records.others = failed;
    this.sources.delete(source);
    this.sources.set(source, records);
    while (this.sources.size > this.policy.maxSources) {
      const oldest = this.sources.keys().next();
      if (oldest.done === true) break;
      this.sources.delete(oldest.value);
    }
  }

  /**
   * `user` logged in from `source`: its own failures are cleared, nobody else's (nor those counted
   * together for the names beyond maxUserNamesPerSource).
   */
  recordSuccess(source: string, user: string | null): void {
    const records = this.sources.get(source);
    if (records === undefined) return;
    records.names.delete(nameKey(user));
    this.forgetIfEmpty(source, records);
  }

  /** Failures remembered for `user` from `source` (0 once forgotten). */
  failuresOf(source: string, user: string | null): number {
    return this.current(source, user)?.failures ?? 0;
  }

  /** Failure counts remembered (per address and name, and per address for names beyond the limit). */
  get size(): number {
    let count = 0;
    for (const records of this.sources.values()) {
      count += records.names.size + (records.others === undefined ? 0 : 1);
    }
    return count;
  }

  /** Addresses remembered. */
  get sourceCount(): number {
    return this.sources.size;
  }

  private isFull(records: SourceRecords): boolean {
    return records.names.size >= this.policy.maxUserNamesPerSource;
  }

  /** The count `user` from `source` falls under, dropping the ones not failed for forgetAfterMs. */
  private current(source: string, user: string | null): FailureRecord | undefined {
    const records = this.sources.get(source);
    if (records === undefined) return undefined;
    this.forgetStale(records);
    this.forgetIfEmpty(source, records);
    const name = nameKey(user);
    return records.names.get(name) ?? (this.isFull(records) ? records.others : undefined);
  }

  private forgetStale(records: SourceRecords): void {
    const now = this.clock();
    const stale = (record: FailureRecord): boolean => now - record.lastFailureAt >= this.policy.forgetAfterMs;
    for (const [name, record] of records.names) if (stale(record)) records.names.delete(name);
    if (records.others !== undefined && stale(records.others)) records.others = undefined;
  }

  private forgetIfEmpty(source: string, records: SourceRecords): void {
    if (records.names.size === 0 && records.others === undefined && this.sources.get(source) === records) {
      this.sources.delete(source);
    }
  }
}
