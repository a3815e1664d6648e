import { HornetQException } from '../../../src/core/protocol';
import { BrokerSecurity } from '../../../src/server/security/broker-security';
import type { LoginThrottlePolicy } from '../../../src/server/security/login-throttle';
import type { SecurityManager } from '../../../src/server/security/security-manager';
import { CapturingLogger } from '../../support/test-broker';

const HOST = 'tcp://127.0.0.1';

/** bob/secret and nobody else, counting the checks it makes. */
function countingManager(): SecurityManager & { checks: number } {
  const manager = {
    checks: 0,
    authenticate(
      user: string | null,
      password: string | null,
    ): Promise<{ user: string; roles: Set<string> } | null> {
      manager.checks++;
      return Promise.resolve(
        user === 'bob' && password === 'secret' ? { user, roles: new Set(['user']) } : null,
      );
    },
  };
  return manager;
}

function security(
  manager: SecurityManager,
  throttle: Partial<LoginThrottlePolicy>,
  logger = new CapturingLogger(),
) {
  return new BrokerSecurity({ enabled: true, manager, settings: [], throttle, logger });
}

async function outcome(login: Promise<unknown>): Promise<string> {
  return login.then(
    () => 'in',
    (error: unknown) => (HornetQException.is(error) ? `${error.code}: ${error.message}` : String(error)),
  );
}

describe('BrokerSecurity: turns of a slowed host', () => {
  const SLOW = { freeFailures: 0, initialDelayMs: 150, multiplier: 1, maxDelayMs: 150 };

  test('an attempt whose connection went while it waited is dropped unchecked, and the next one does not wait for it', async () => {
    const manager = countingManager();
    const broker = security(manager, SLOW);
    await outcome(broker.login('bob', 'wrong', `${HOST}:1`));
    let gone = false;
    const abandoned = Array.from({ length: 20 }, (_, i) =>
      outcome(broker.login('bob', 'wrong', `${HOST}:${10 + i}`, { abandoned: () => gone })),
    );
    gone = true;
    const started = Date.now();
    expect(await outcome(broker.login('bob', 'secret', `${HOST}:2`))).toBe('in');
    // One pause at most (the one already running), never one per abandoned attempt (20 x 150 ms).
    expect(Date.now() - started).toBeLessThan(20 * 150);
    for (const result of await Promise.all(abandoned)) {
      expect(result).toBe('SECURITY_EXCEPTION: Unable to validate user: bob');
    }
    expect(manager.checks).toBeLessThanOrEqual(3);
    broker.close();
  });

  test('at most maxWaitingPerSource attempts of one host wait; the others are refused at once, unchecked', async () => {
    const manager = countingManager();
    const logger = new CapturingLogger();
    const broker = security(manager, { ...SLOW, maxWaitingPerSource: 3 }, logger);
    await outcome(broker.login('bob', 'wrong', `${HOST}:1`));
    const attempts = Array.from({ length: 10 }, (_, i) =>
      outcome(broker.login('bob', 'wrong', `${HOST}:${10 + i}`)),
    );
    const results = await Promise.all(attempts);
    expect(results.every((result) => result === 'SECURITY_EXCEPTION: Unable to validate user: bob')).toBe(
      true,
    );
    expect(manager.checks).toBe(1 + 3);
    expect(logger.find(/too many login attempts/, ['warn']).length).toBe(7);
    broker.close();
  });

  test('close() refuses the waiting attempts at once and the later ones too, until open()', async () => {
    const manager = countingManager();
    const broker = security(manager, {
      freeFailures: 0,
      initialDelayMs: 60_000,
      multiplier: 1,
      maxDelayMs: 60_000,
    });
    await outcome(broker.login('bob', 'wrong', `${HOST}:1`));
    const waiting = [
      outcome(broker.login('bob', 'secret', `${HOST}:2`)),
      outcome(broker.login('bob', 'secret', `${HOST}:3`)),
    ];
    await new Promise((resolve) => setTimeout(resolve, 20));
    broker.close();
    for (const result of await Promise.all(waiting))
      expect(result).toMatch(/^SECURITY_EXCEPTION: the broker is stopping/);
    expect(await outcome(broker.login('bob', 'secret', `${HOST}:4`))).toMatch(/the broker is stopping/);
    expect(await outcome(broker.login('bob', 'secret', 'tcp://127.0.0.2:1'))).toMatch(
      /the broker is stopping/,
    );
    broker.open();
    expect(await outcome(broker.login('bob', 'secret', 'tcp://127.0.0.2:2'))).toBe('in');
    expect(manager.checks).toBe(2);
  });
});

describe('BrokerSecurity: a security manager that does not answer', () => {
  /** Never settles its first check; answers the others as countingManager does. */
  function hangingOnce(): SecurityManager {
    const answers = countingManager();
    let first = true;
    return {
      authenticate(user, password, source) {
        if (first) {
          first = false;
          return new Promise(() => undefined);
        }
        return answers.authenticate(user, password, source);
      },
    };
  }

  test('the login is refused after authenticationTimeoutMs and logged; later attempts of the host go on', async () => {
    const logger = new CapturingLogger();
    const broker = new BrokerSecurity({
      enabled: true,
      manager: hangingOnce(),
      settings: [],
      throttle: { freeFailures: 0, initialDelayMs: 10, multiplier: 1, maxDelayMs: 10 },
      authenticationTimeoutMs: 100,
      logger,
    });
    const hung = outcome(broker.login('bob', 'secret', `${HOST}:1`));
    const behind = outcome(broker.login('bob', 'secret', `${HOST}:2`));
    expect(await hung).toBe('SECURITY_EXCEPTION: Unable to validate user: bob');
    expect(await behind).toBe('in');
    const failed = logger.find(/the security manager failed/, ['error']);
    expect(failed).toHaveLength(1);
    expect(
      JSON.stringify(failed[0]?.object, (_k, v: unknown) => (v instanceof Error ? v.message : v)),
    ).toContain('did not answer within 100 ms');
    broker.close();
  });

  test('close() refuses a check still waiting for the manager at once, and leaves no timer', async () => {
    const logger = new CapturingLogger();
    const broker = new BrokerSecurity({ enabled: true, manager: hangingOnce(), settings: [], logger });
    const hung = outcome(broker.login('bob', 'secret', `${HOST}:1`));
    await new Promise((resolve) => setImmediate(resolve));
    broker.close();
    expect(await hung).toMatch(/^SECURITY_EXCEPTION: the broker is stopping/);
    expect(logger.find(/security manager failed/, ['error'])).toEqual([]);
  });

  test('authenticationTimeoutMs out of range is a RangeError naming it', () => {
    expect(
      () =>
        new BrokerSecurity({
          enabled: true,
          manager: countingManager(),
          settings: [],
          authenticationTimeoutMs: 0,
          logger: new CapturingLogger(),
        }),
    ).toThrow('authenticationTimeoutMs must be 1..2147483647 (actual value: 0)');
  });
});
