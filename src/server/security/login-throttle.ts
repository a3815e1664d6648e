import { invalidValue } from '../../core/protocol/argument-errors';

/** How failed logins slow the next attempts from the same source address. */
export interface LoginThrottlePolicy {
  /** Failures an address may have before its attempts are slowed (a mistyped password or two). */
  freeFailures: number;
  /** The pause after the first failure beyond the free ones, in ms. */
  initialDelayMs: number;
  /** Each further failure multiplies the pause by this. */
  multiplier: number;
  maxDelayMs: number;
  /** An address without a failure for this long starts afresh. */
  forgetAfterMs: number;
  /** Addresses remembered at most; the least recently failed is forgotten first. */
  maxSources: number;
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

interface SourceRecord {
  failures: number;
  lastFailureAt: number;
}

/**
 * Failed logins per source address (HornetQ has none: brute force was the operator's problem).
 * Keyed by the client's address without its port, since each connection has a port of its own.
 * The broker asks `delayFor` before it checks a login's credentials, waits that long, then reports
 * the outcome; a success clears the address. Pauses are counted from the last failure, so an
 * attempt made after a pause of its own goes through at once. Bounded: at most maxSources
 * addresses, so a flood of addresses cannot grow it.
 */
export class LoginThrottle {
  readonly policy: LoginThrottlePolicy;
  /** Insertion order is recency: a failure moves its address to the end. */
  private readonly sources = new Map<string, SourceRecord>();

  constructor(
    policy: Partial<LoginThrottlePolicy> = {},
    private readonly clock: () => number = Date.now,
  ) {
    this.policy = resolveLoginThrottlePolicy(policy);
  }

  /** How long an attempt from `source` must wait, now, before its credentials are checked (ms). */
  delayFor(source: string): number {
    const record = this.current(source);
    if (record === undefined) return 0;
    const due = record.lastFailureAt + throttleDelay(this.policy, record.failures);
    return Math.max(0, due - this.clock());
  }

  recordFailure(source: string): void {
    const failures = (this.current(source)?.failures ?? 0) + 1;
    this.sources.delete(source);
    this.sources.set(source, { failures, lastFailureAt: this.clock() });
    while (this.sources.size > this.policy.maxSources) {
      const oldest = this.sources.keys().next();
      if (oldest.done === true) break;
      this.sources.delete(oldest.value);
    }
  }

  recordSuccess(source: string): void {
    this.sources.delete(source);
  }

  /** Failures remembered for `source` (0 once forgotten). */
  failuresOf(source: string): number {
    return this.current(source)?.failures ?? 0;
  }

  /** Addresses remembered. */
  get size(): number {
    return this.sources.size;
  }

  private current(source: string): SourceRecord | undefined {
    const record = this.sources.get(source);
    if (record !== undefined && this.clock() - record.lastFailureAt >= this.policy.forgetAfterMs) {
      this.sources.delete(source);
      return undefined;
    }
    return record;
  }
}
