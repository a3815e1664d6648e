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
    expect(throttle.delayFor(source)).toBe(0);
    throttle.recordFailure(source);
    throttle.recordFailure(source);
    expect(throttle.delayFor(source)).toBe(0);
    throttle.recordFailure(source);
    expect(throttle.delayFor(source)).toBe(250);
    clock.advance(100);
    expect(throttle.delayFor(source)).toBe(150);
    clock.advance(150);
    expect(throttle.delayFor(source)).toBe(0);
    throttle.recordFailure(source);
    expect(throttle.delayFor(source)).toBe(500);
    expect(throttle.failuresOf(source)).toBe(4);
    // Other addresses are not slowed.
    expect(throttle.delayFor('10.0.0.2')).toBe(0);
  });

  test('a successful login clears the address', () => {
    const clock = fakeClock();
    const throttle = new LoginThrottle({}, clock.now);
    for (let i = 0; i < 6; i++) throttle.recordFailure('a');
    expect(throttle.delayFor('a')).toBe(2000);
    throttle.recordSuccess('a');
    expect(throttle.delayFor('a')).toBe(0);
    expect(throttle.failuresOf('a')).toBe(0);
    expect(throttle.size).toBe(0);
    throttle.recordFailure('a');
    expect(throttle.failuresOf('a')).toBe(1);
  });

  test('an address without a failure for forgetAfterMs starts afresh', () => {
    const clock = fakeClock();
    const throttle = new LoginThrottle({ forgetAfterMs: 60_000 }, clock.now);
    for (let i = 0; i < 10; i++) throttle.recordFailure('a');
    clock.advance(59_999);
    expect(throttle.failuresOf('a')).toBe(10);
    clock.advance(1);
    expect(throttle.failuresOf('a')).toBe(0);
    expect(throttle.delayFor('a')).toBe(0);
    expect(throttle.size).toBe(0);
  });

  test('bounded: a flood of addresses keeps at most maxSources, forgetting the least recently failed', () => {
    const clock = fakeClock();
    const throttle = new LoginThrottle({ maxSources: 3 }, clock.now);
    for (let i = 0; i < 5; i++) throttle.recordFailure('kept');
    for (let i = 0; i < 1000; i++) {
      throttle.recordFailure(`flood-${i}`);
      // The attacked address keeps failing too, which keeps it recent.
      if (i % 2 === 0) throttle.recordFailure('kept');
    }
    expect(throttle.size).toBe(3);
    expect(throttle.failuresOf('flood-0')).toBe(0);
    expect(throttle.failuresOf('flood-999')).toBe(1);
    expect(throttle.failuresOf('kept')).toBe(505);
    expect(new LoginThrottle().policy.maxSources).toBe(10_000);
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
