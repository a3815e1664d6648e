import {
  DEFAULT_LOGIN_THROTTLE_POLICY,
  LoginThrottle,
  resolveLoginThrottlePolicy,
  throttleDelay,
} from '../../../src/server/security/login-throttle';

/** A clock the test moves by hand. */
function fakeClock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

describe('login throttle', () => {
  test('the delay: none for the first 2 failures, then 250 ms doubling up to 5 s', () => {
    const policy = resolveLoginThrottlePolicy();
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 50, 2000].map((n) => throttleDelay(policy, n))).toEqual([
      0, 0, 0, 250, 500, 1000, 2000, 4000, 5000, 5000, 5000, 5000,
    ]);
  });

  test('failures slow the next attempt from that address, counted from the last failure', () => {
    const clock = fakeClock();
    const throttle = new LoginThrottle({}, clock.now);
    const source = '10.0.0.1';
    expect(throttle.delayFor(source, 'bob')).toBe(0);
    throttle.recordFailure(source, 'bob');
    throttle.recordFailure(source, 'bob');
    expect(throttle.delayFor(source, 'bob')).toBe(0);
    throttle.recordFailure(source, 'bob');
    expect(throttle.delayFor(source, 'bob')).toBe(250);
    clock.advance(100);
    expect(throttle.delayFor(source, 'bob')).toBe(150);
    clock.advance(150);
    expect(throttle.delayFor(source, 'bob')).toBe(0);
    throttle.recordFailure(source, 'bob');
    expect(throttle.delayFor(source, 'bob')).toBe(500);
    expect(throttle.failuresOf(source, 'bob')).toBe(4);
    // Other addresses are not slowed.
    expect(throttle.delayFor('10.0.0.2', 'bob')).toBe(0);
  });

  test('a successful login clears the address', () => {
    const clock = fakeClock();
    const throttle = new LoginThrottle({}, clock.now);
    for (let i = 0; i < 6; i++) throttle.recordFailure('a', 'bob');
    expect(throttle.delayFor('a', 'bob')).toBe(2000);
    throttle.recordSuccess('a', 'bob');
    expect(throttle.delayFor('a', 'bob')).toBe(0);
    expect(throttle.failuresOf('a', 'bob')).toBe(0);
    expect(throttle.size).toBe(0);
    throttle.recordFailure('a', 'bob');
    expect(throttle.failuresOf('a', 'bob')).toBe(1);
  });

  test('an address without a failure for forgetAfterMs starts afresh', () => {
    const clock = fakeClock();
    const throttle = new LoginThrottle({ forgetAfterMs: 60_000 }, clock.now);
    for (let i = 0; i < 10; i++) throttle.recordFailure('a', 'bob');
    clock.advance(59_999);
    expect(throttle.failuresOf('a', 'bob')).toBe(10);
    clock.advance(1);
    expect(throttle.failuresOf('a', 'bob')).toBe(0);
    expect(throttle.delayFor('a', 'bob')).toBe(0);
    expect(throttle.size).toBe(0);
  });

  test('bounded: a flood of addresses keeps at most maxSources, forgetting the least recently failed', () => {
    const clock = fakeClock();
    const throttle = new LoginThrottle({ maxSources: 3 }, clock.now);
    for (let i = 0; i < 5; i++) throttle.recordFailure('kept', 'bob');
    for (let i = 0; i < 1000; i++) {
      throttle.recordFailure(`flood-${i}`, 'bob');
      // The attacked address keeps failing too, which keeps it recent.
      if (i % 2 === 0) throttle.recordFailure('kept', 'bob');
    }
    expect(throttle.size).toBe(3);
    expect(throttle.failuresOf('flood-0', 'bob')).toBe(0);
    expect(throttle.failuresOf('flood-999', 'bob')).toBe(1);
    expect(throttle.failuresOf('kept', 'bob')).toBe(505);
    expect(new LoginThrottle().policy.maxSources).toBe(10_000);
  });

  test("another account's success clears nothing of bob's: an attacker's own good logins do not raise its rate", () => {
    const clock = fakeClock();
    const throttle = new LoginThrottle({}, clock.now);
    const host = '10.0.0.9';
    for (let guess = 1; guess <= 6; guess++) {
      throttle.recordFailure(host, 'bob');
      // The attacker logs in as itself between guesses.
      throttle.recordSuccess(host, 'mallory');
      clock.advance(throttle.delayFor(host, 'bob'));
    }
    expect(throttle.failuresOf(host, 'bob')).toBe(6);
    expect(throttle.delayFor(host, 'bob')).toBe(0); // the clock was moved past each pause
    throttle.recordFailure(host, 'bob');
    expect(throttle.delayFor(host, 'bob')).toBe(4000);
    // mallory itself is not slowed, and bob from another host is not either.
    expect(throttle.delayFor(host, 'mallory')).toBe(0);
    expect(throttle.delayFor('10.0.0.10', 'bob')).toBe(0);
    // bob's own success clears bob's count only.
    throttle.recordFailure(host, 'carol');
    throttle.recordSuccess(host, 'bob');
    expect(throttle.failuresOf(host, 'bob')).toBe(0);
    expect(throttle.failuresOf(host, 'carol')).toBe(1);
  });

  test('names beyond maxUserNamesPerSource share one count; they cannot push out the count of the name attacked', () => {
    const clock = fakeClock();
    const throttle = new LoginThrottle({ maxUserNamesPerSource: 3 }, clock.now);
    const host = '10.0.0.9';
    for (let i = 0; i < 5; i++) throttle.recordFailure(host, 'bob');
    for (let i = 0; i < 1000; i++) throttle.recordFailure(host, `spray-${i}`);
    expect(throttle.failuresOf(host, 'bob')).toBe(5);
    // spray-0 and spray-1 filled the table; every later name counts together, and is slowed as one.
    expect(throttle.failuresOf(host, 'spray-0')).toBe(1);
    expect(throttle.failuresOf(host, 'spray-500')).toBe(998);
    expect(throttle.failuresOf(host, 'never-tried')).toBe(998);
    expect(throttle.delayFor(host, 'never-tried')).toBe(5000);
    expect(throttle.bucketOf(host, 'spray-500')).toBe(throttle.bucketOf(host, 'never-tried'));
    expect(throttle.bucketOf(host, 'bob')).not.toBe(throttle.bucketOf(host, 'never-tried'));
    // A success of a name counted together clears nothing.
    throttle.recordSuccess(host, 'never-tried');
    expect(throttle.failuresOf(host, 'spray-500')).toBe(998);
    expect(throttle.size).toBe(4);
    // Long names are cut: the table holds no more than 64 characters of one.
    const other = new LoginThrottle({}, clock.now);
    other.recordFailure(host, 'x'.repeat(100_000));
    expect(other.failuresOf(host, `${'x'.repeat(64)}y`)).toBe(1);
    // No name (the default user) is counted apart from every name.
    expect(other.failuresOf(host, null)).toBe(0);
  });

  test('the policy is checked, naming the setting, its value and the range', () => {
    expect(DEFAULT_LOGIN_THROTTLE_POLICY).toEqual({
      concurrentLoginsPerSource: 16,
      freeFailures: 2,
      initialDelayMs: 250,
      multiplier: 2,
      maxDelayMs: 5000,
      forgetAfterMs: 900_000,
      maxSources: 10_000,
      maxUserNamesPerSource: 8,
      maxWaitingPerSource: 32,
    });
    expect(() => new LoginThrottle({ maxSources: 0 })).toThrow(
      'invalid login throttle policy: maxSources must be an integer >= 1 (actual value: 0)',
    );
    expect(() => resolveLoginThrottlePolicy({ multiplier: 0.5, initialDelayMs: -1 })).toThrow(
      'initialDelayMs must be 0..2147483647 (actual value: -1); multiplier must be a finite number >= 1 (actual value: 0.5)',
    );
    expect(() => resolveLoginThrottlePolicy({ freeFailures: Number.NaN })).toThrow(/freeFailures/);
    expect(() => resolveLoginThrottlePolicy({ maxWaitingPerSource: 0.5 })).toThrow(
      'maxWaitingPerSource must be an integer >= 1 (actual value: 0.5)',
    );
  });
});
