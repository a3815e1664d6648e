/**
 * Logins against a real broker over TCP, with our core client and the JMS API: who gets in, what a
 * refused login says and logs (never the password), how failed logins from one host are slowed
 * (and checked one at a time), and that a stop, a failing security manager or new users leave the
 * broker consistent.
 */
import {
  Broker,
  HornetQConnectionFactory,
  HornetQException,
  HornetQTextMessage,
  JMSSecurityException,
  type BrokerConfiguration,
  type ClientSessionFactory,
} from '../../src';
import { FileSecurityManager, type UserAccounts } from '../../src/server/security/file-security-manager';
import {
  DEFAULT_LOGIN_THROTTLE_POLICY,
  type LoginThrottlePolicy,
} from '../../src/server/security/login-throttle';
import { hashPassword } from '../../src/server/security/password-hash';
import { PERMISSIONS } from '../../src/server/security/permission';
import type { SecurityManager } from '../../src/server/security/security-manager';
import { CapturingLogger, seqOf, sequenced, useTestBrokers, waitFor } from '../support/test-broker';

/** Cheap scrypt parameters: the hash format is what matters here, not its cost. */
const FAST = { N: 1024, r: 8, p: 1 };
const QUEUE = 'jms.queue.secured';
/** Every password of these tests: none may appear in any log line. */
const PASSWORDS = ['bob-secret', 'carol-plain', 'guest-pw', 'guest', 'wrong-guess-1', 'wrong-guess-2'];
/** So many free failures that tests about who gets in are never slowed. */
const NO_THROTTLE: Partial<LoginThrottlePolicy> = { freeFailures: 1_000 };

function everythingFor(role: string): BrokerConfiguration['securitySettings'] {
  return [{ match: '#', permissions: new Map(PERMISSIONS.map((permission) => [permission, [role]])) }];
}

async function accounts(defaultUser: UserAccounts['defaultUser']): Promise<UserAccounts> {
  return {
    defaultUser,
    users: [
      { name: 'bob', password: await hashPassword('bob-secret', FAST), roles: ['user'] },
      { name: 'carol', password: 'carol-plain', roles: ['user'] },
      // HornetQ put the default user's name in place of a missing password: not here.
      { name: 'eve', password: 'guest', roles: ['user'] },
    ],
  };
}

const GUEST = { name: 'guest', password: 'guest-pw', roles: ['user'] };

describe('logins over TCP (security enabled)', () => {
  const brokers = useTestBrokers();
  let logger: CapturingLogger;

  beforeEach(() => {
    logger = new CapturingLogger();
  });

  async function secureBroker(
    options: {
      defaultUser?: UserAccounts['defaultUser'];
      manager?: SecurityManager;
      throttle?: Partial<LoginThrottlePolicy>;
    } = {},
  ): Promise<Broker> {
    const manager = options.manager ?? new FileSecurityManager(await accounts(options.defaultUser ?? null));
    return brokers.startBroker({
      securityEnabled: true,
      securityManager: manager,
      securitySettings: everythingFor('user'),
      loginThrottle: options.throttle ?? NO_THROTTLE,
      logger,
      queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: false }],
    });
  }

  function jmsFactory(broker: Broker): HornetQConnectionFactory {
    const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: broker.getPort() });
    factory.setReconnectAttempts(0);
    brokers.track(factory);
    return factory;
  }

  async function refusal(attempt: Promise<unknown>): Promise<{ code: string; message: string }> {
    const error: unknown = await attempt.then(
      () => new Error('the login was accepted'),
      (e: unknown) => e,
    );
    if (!HornetQException.is(error)) throw error;
    return { code: error.code, message: error.message };
  }

  async function roundTrip(factory: ClientSessionFactory, user: string | null, password: string | null) {
    const session = await factory.createSession({ username: user, password });
    const producer = session.createProducer(QUEUE);
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    await producer.send(sequenced(1, { durable: true }));
    const received = await consumer.receive(10_000);
    await received?.acknowledge();
    await session.close();
    return received === null ? null : seqOf(received);
  }

  /** Every log line, with its bindings and fields, as one string to search. */
  function everythingLogged(): string {
    const bindings = logger.lines.map((line) => JSON.stringify(line.bindings)).join('\n');
    return `${logger.dump()}\n${bindings}`;
  }

  test('good credentials get a working session (core client and JMS)', async () => {
    const broker = await secureBroker();
    const factory = await brokers.connect(broker, { reconnectAttempts: 0 });
    expect(await roundTrip(factory, 'bob', 'bob-secret')).toBe(1);
    expect(await roundTrip(factory, 'carol', 'carol-plain')).toBe(1);

    const connection = await jmsFactory(broker).createConnection('bob', 'bob-secret');
    const session = await connection.createSession(false);
    const queue = session.createQueue('secured');
    const producer = await session.createProducer(queue);
    const consumer = await session.createConsumer(queue);
    await connection.start();
    await producer.send(session.createTextMessage('hello'));
    const message = await consumer.receive(10_000);
    expect(message instanceof HornetQTextMessage ? message.getText() : message).toBe('hello');
    await connection.close();
  });

  test.each([
    ['a wrong password', 'bob', 'carol-plain', 'bob'],
    ['an unknown user', 'mallory', 'bob-secret', 'mallory'],
    ['no user and no <defaultuser>', null, null, '(none)'],
    ['no user and a password, without a <defaultuser>', null, 'bob-secret', '(none)'],
    ["a user whose password is the default user's name, without a password", 'eve', null, 'eve'],
  ])(
    '%s is refused with SECURITY_EXCEPTION (core) and JMSSecurityException (JMS)',
    async (_what, user, password, named) => {
      const broker = await secureBroker();
      const factory = await brokers.connect(broker, { reconnectAttempts: 0 });
      expect(await refusal(factory.createSession({ username: user, password }))).toEqual({
        code: 'SECURITY_EXCEPTION',
        message: `Unable to validate user: ${named}`,
      });
      const jms = jmsFactory(broker).createConnection(user ?? undefined, password ?? undefined);
      await expect(jms).rejects.toBeInstanceOf(JMSSecurityException);
      await expect(jms).rejects.toThrow(`Unable to validate user: ${named}`);
      expect(broker.getSessionCount()).toBe(0);
    },
  );

  test("the default user: in with its password, refused without (HornetQ's null-password quirk is not kept)", async () => {
    const broker = await secureBroker({ defaultUser: GUEST });
    const factory = await brokers.connect(broker, { reconnectAttempts: 0 });
    expect(await roundTrip(factory, null, 'guest-pw')).toBe(1);
    expect(await roundTrip(factory, 'guest', 'guest-pw')).toBe(1);
    expect(await refusal(factory.createSession({ username: null, password: null }))).toMatchObject({
      code: 'SECURITY_EXCEPTION',
    });
    // HornetQ would have let eve in: her password is the default user's name.
    expect(await refusal(factory.createSession({ username: 'eve', password: null }))).toMatchObject({
      code: 'SECURITY_EXCEPTION',
    });
    await expect(jmsFactory(broker).createConnection()).rejects.toBeInstanceOf(JMSSecurityException);
    const connection = await jmsFactory(broker).createConnection(undefined, 'guest-pw');
    await connection.close();
  });

  test('a default user with an empty password comes in without one', async () => {
    const broker = await secureBroker({ defaultUser: { name: 'guest', password: '', roles: ['user'] } });
    const factory = await brokers.connect(broker, { reconnectAttempts: 0 });
    expect(await roundTrip(factory, null, null)).toBe(1);
    const connection = await jmsFactory(broker).createConnection();
    await connection.close();
  });

  test('the connection stays usable for a good login after a bad one', async () => {
    const broker = await secureBroker();
    const factory = await brokers.connect(broker, { reconnectAttempts: 0 });
    await refusal(factory.createSession({ username: 'bob', password: 'wrong-guess-1' }));
    await refusal(factory.createSession({ username: 'nobody', password: 'wrong-guess-2' }));
    expect(await roundTrip(factory, 'bob', 'bob-secret')).toBe(1);
    expect(broker.getConnectionCount()).toBe(1);
  });

  test('failed logins are logged with the user and the source address, never a password', async () => {
    const broker = await secureBroker({ defaultUser: GUEST });
    const factory = await brokers.connect(broker, { reconnectAttempts: 0 });
    await refusal(factory.createSession({ username: 'bob', password: 'wrong-guess-1' }));
    await refusal(factory.createSession({ username: 'mallory', password: 'wrong-guess-2' }));
    await refusal(factory.createSession({ username: 'eve', password: null }));
    await refusal(factory.createSession({ username: null, password: 'guest' }));
    await roundTrip(factory, 'bob', 'bob-secret');
    await roundTrip(factory, 'carol', 'carol-plain');
    await roundTrip(factory, null, 'guest-pw');

    const refused = logger.find(/login refused/, ['warn']);
    expect(refused).toHaveLength(4);
    for (const [line, user] of refused.map((l, i) => [l, ['bob', 'mallory', 'eve', null][i]] as const)) {
      expect(line.object).toMatchObject({
        user,
        remote: expect.stringMatching(/^tcp:\/\/127\.0\.0\.1:\d+$/),
      });
      expect(line.message).toContain('127.0.0.1');
    }
    const logged = everythingLogged();
    for (const password of PASSWORDS.filter((p) => p !== 'guest')) expect(logged).not.toContain(password);
    // 'guest' is also the default user's name, which may be logged: never as a password field.
    expect(logged).not.toMatch(/password"?\s*[:=]/i);
  });

  describe('the login throttle', () => {
    const SLOW: Partial<LoginThrottlePolicy> = {
      freeFailures: 1,
      initialDelayMs: 400,
      multiplier: 1,
      maxDelayMs: 400,
      // One check at a time while the host has no failure yet: the first wave is one guess.
      concurrentLoginsPerSource: 1,
    };

    /** When each failed login was logged, and the failures count it gave. */
    function failures(): Array<{ at: number; failures: number }> {
      return logger.find(/login refused/, ['warn']).map((line) => ({
        at: (line.object as { at: number }).at,
        failures: (line.object as { failures: number }).failures,
      }));
    }

    /** Stamps each log line as it is written, so that the spacing of refusals can be checked. */
    function stampLines(): void {
      const original = logger.warn.bind(logger);
      logger.warn = (object: object, message?: string) => original({ ...object, at: Date.now() }, message);
    }

    test('after the free failures, attempts from the same host are slowed and checked one at a time', async () => {
      stampLines();
      const broker = await secureBroker({ throttle: SLOW });
      const factories = await Promise.all(
        [0, 1, 2, 3, 4].map(() => brokers.connect(broker, { reconnectAttempts: 0 })),
      );
      // All at once, over different connections from one host: the free failure is the only guess
      // not slowed; each later one waits 400 ms after the one before.
      const started = Date.now();
      const outcomes = await Promise.all(
        factories.map((factory) =>
          refusal(factory.createSession({ username: 'bob', password: 'wrong-guess-1' })),
        ),
      );
      expect(outcomes.every((outcome) => outcome.code === 'SECURITY_EXCEPTION')).toBe(true);
      const lines = failures();
      expect(lines.map((line) => line.failures)).toEqual([1, 2, 3, 4, 5]);
      // Lower bounds only: a loaded machine makes the spacing longer, never shorter.
      for (let i = 2; i < lines.length; i++) {
        expect((lines[i]?.at ?? 0) - (lines[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(380);
      }
      expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 380);
    });

    test('a good login from a slowed host waits its turn too, then gets in', async () => {
      stampLines();
      const broker = await secureBroker({ throttle: SLOW });
      const factory = await brokers.connect(broker, { reconnectAttempts: 0 });
      for (const guess of ['wrong-guess-1', 'wrong-guess-2'])
        await refusal(factory.createSession({ username: 'bob', password: guess }));
      expect(await roundTrip(factory, 'bob', 'bob-secret')).toBe(1);
      // Counted from the last failure, as the pause is: a lower bound however loaded the machine.
      expect(Date.now() - (failures()[1]?.at ?? Date.now())).toBeGreaterThanOrEqual(380);
    });

    test('a success clears the host: the next failure is counted from one again', async () => {
      stampLines();
      const broker = await secureBroker({ throttle: SLOW });
      const factory = await brokers.connect(broker, { reconnectAttempts: 0 });
      await refusal(factory.createSession({ username: 'bob', password: 'wrong-guess-1' }));
      await refusal(factory.createSession({ username: 'bob', password: 'wrong-guess-2' }));
      // Slowed as well, then let in.
      expect(await roundTrip(factory, 'bob', 'bob-secret')).toBe(1);
      await refusal(factory.createSession({ username: 'bob', password: 'wrong-guess-1' }));
      expect(failures().map((line) => line.failures)).toEqual([1, 2, 1]);
    });

    test("an attacker logging in to its own account between guesses at bob's is slowed all the same; bob's success clears only bob's count", async () => {
      stampLines();
      const broker = await secureBroker({ throttle: SLOW });
      const attacker = await brokers.connect(broker, { reconnectAttempts: 0 });
      for (let guess = 0; guess < 4; guess++) {
        await refusal(attacker.createSession({ username: 'bob', password: `wrong-guess-${guess}` }));
        // A connection of its own each time, so that the login is checked (not the connection's memo).
        const own = await brokers.connect(broker, { reconnectAttempts: 0 });
        expect(await roundTrip(own, 'carol', 'carol-plain')).toBe(1);
        await own.close();
      }
      const lines = failures();
      expect(lines.map((line) => line.failures)).toEqual([1, 2, 3, 4]);
      for (let i = 2; i < lines.length; i++) {
        expect((lines[i]?.at ?? 0) - (lines[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(380);
      }
      // carol's failures are carol's; bob's own success (slowed, then in) clears bob's, not carol's.
      await refusal(attacker.createSession({ username: 'carol', password: 'wrong-guess-1' }));
      const user = await brokers.connect(broker, { reconnectAttempts: 0 });
      expect(await roundTrip(user, 'bob', 'bob-secret')).toBe(1);
      await refusal(attacker.createSession({ username: 'bob', password: 'wrong-guess-1' }));
      await refusal(attacker.createSession({ username: 'carol', password: 'wrong-guess-2' }));
      expect(failures().map((line) => line.failures)).toEqual([1, 2, 3, 4, 1, 1, 2]);
    });

    test('broker.stop() while a slowed login waits settles it at once, leaving no timer behind', async () => {
      const broker = await secureBroker({
        throttle: { freeFailures: 0, initialDelayMs: 60_000, multiplier: 1, maxDelayMs: 60_000 },
      });
      const factory = await brokers.connect(broker, { reconnectAttempts: 0 });
      await refusal(factory.createSession({ username: 'bob', password: 'wrong-guess-1' }));
      const waiting = [
        refusal(factory.createSession({ username: 'bob', password: 'bob-secret' })),
        refusal(factory.createSession({ username: 'bob', password: 'wrong-guess-2' })),
      ];
      // Both requests are at the broker, waiting for their turn.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const stopping = Date.now();
      await broker.stop();
      await Promise.all(waiting);
      expect(Date.now() - stopping).toBeLessThan(15_000);
      expect(broker.getSessionCount()).toBe(0);
    });
  });

  test('a pool of connections from one host logs in at once: none refused, up to concurrentLoginsPerSource checked together', async () => {
    const good = new FileSecurityManager(await accounts(null));
    let checking = 0;
    let mostAtOnce = 0;
    const counting: SecurityManager = {
      async authenticate(user, password, source) {
        mostAtOnce = Math.max(mostAtOnce, ++checking);
        try {
          await new Promise((resolve) => setTimeout(resolve, 50));
          return await good.authenticate(user, password, source);
        } finally {
          checking--;
        }
      },
    };
    // The default policy: more connections than maxWaitingPerSource (32) from one host.
    const broker = await secureBroker({ manager: counting, throttle: {} });
    const pool = await Promise.all(
      Array.from({ length: 40 }, () => brokers.connect(broker, { reconnectAttempts: 0 })),
    );
    const sessions = await Promise.all(
      pool.map((factory) => factory.createSession({ username: 'bob', password: 'bob-secret' })),
    );
    expect(sessions).toHaveLength(40);
    expect(mostAtOnce).toBe(DEFAULT_LOGIN_THROTTLE_POLICY.concurrentLoginsPerSource);
    expect(logger.find(/login refused|too many login attempts/, ['warn'])).toEqual([]);
  });

  test('the sessions of one connection log in once: a repeated login is not checked again, another password is', async () => {
    const good = new FileSecurityManager(await accounts(null));
    let checks = 0;
    const counting: SecurityManager = {
      authenticate(user, password, source) {
        checks++;
        return good.authenticate(user, password, source);
      },
    };
    const broker = await secureBroker({ manager: counting });
    const factory = await brokers.connect(broker, { reconnectAttempts: 0 });
    for (let i = 0; i < 3; i++) await factory.createSession({ username: 'bob', password: 'bob-secret' });
    expect(checks).toBe(1);
    expect(
      await refusal(factory.createSession({ username: 'bob', password: 'wrong-guess-1' })),
    ).toMatchObject({
      code: 'SECURITY_EXCEPTION',
    });
    expect(checks).toBe(2);
    const other = await brokers.connect(broker, { reconnectAttempts: 0 });
    await other.createSession({ username: 'bob', password: 'bob-secret' });
    expect(checks).toBe(3);
    // New users: what a connection remembered was checked against the old ones.
    broker.setSecurityManager(counting);
    await other.createSession({ username: 'bob', password: 'bob-secret' });
    expect(checks).toBe(4);
  });

  test('a security manager that throws refuses the login, is logged, and the broker goes on', async () => {
    const good = new FileSecurityManager(await accounts(null));
    let calls = 0;
    const flaky: SecurityManager = {
      authenticate(user, password, source) {
        calls++;
        if (calls === 1) throw new Error('directory unreachable');
        if (calls === 2) return Promise.reject(new Error('directory timed out'));
        return good.authenticate(user, password, source);
      },
    };
    const broker = await secureBroker({ manager: flaky });
    const factory = await brokers.connect(broker, { reconnectAttempts: 0 });
    for (let i = 0; i < 2; i++) {
      expect(await refusal(factory.createSession({ username: 'bob', password: 'bob-secret' }))).toEqual({
        code: 'SECURITY_EXCEPTION',
        message: 'Unable to validate user: bob',
      });
    }
    const failed = logger.find(/security manager failed/, ['error']);
    expect(failed).toHaveLength(2);
    expect(everythingLogged()).not.toContain('bob-secret');
    expect(await roundTrip(factory, 'bob', 'bob-secret')).toBe(1);
    expect(broker.started).toBe(true);
  });

  test('broker.stop() while the security manager has not answered settles the login at once', async () => {
    const hanging: SecurityManager = { authenticate: () => new Promise(() => undefined) };
    const broker = await secureBroker({ manager: hanging });
    const factory = await brokers.connect(broker, { reconnectAttempts: 0 });
    const waiting = refusal(factory.createSession({ username: 'bob', password: 'bob-secret' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopping = Date.now();
    await broker.stop();
    await waiting;
    // Well before the client's own call timeout (30 s) would have ended the wait.
    expect(Date.now() - stopping).toBeLessThan(15_000);
    expect(broker.getSessionCount()).toBe(0);
  });

  test('securityEnabled without a securityManager is a RangeError naming securityManager', () => {
    expect(() => new Broker({ securityEnabled: true })).toThrow(RangeError);
    expect(() => new Broker({ securityEnabled: true })).toThrow(/securityManager/);
  });

  test('setSecurityManager changes the roles of new logins only; a logged-in session keeps its own', async () => {
    const broker = await secureBroker();
    const factory = await brokers.connect(broker, { reconnectAttempts: 0 });
    const before = await factory.createSession({ username: 'bob', password: 'bob-secret' });
    broker.setSecurityManager(
      new FileSecurityManager({
        defaultUser: null,
        users: [{ name: 'bob', password: 'bob-secret', roles: ['nobody'] }],
      }),
    );
    // The session logged in before keeps bob's old roles.
    await before.createQueue(QUEUE, 'jms.queue.made-before', { durable: false, temporary: false });
    const after = await factory.createSession({ username: 'bob', password: 'bob-secret' });
    const refused = await refusal(
      after.createQueue(QUEUE, 'jms.queue.made-after', { durable: false, temporary: false }),
    );
    expect(refused).toEqual({
      code: 'SECURITY_EXCEPTION',
      message: "User: bob doesn't have permission='createNonDurableQueue' on address jms.queue.secured",
    });
    // carol is not in the new file at all.
    expect(
      await refusal(factory.createSession({ username: 'carol', password: 'carol-plain' })),
    ).toMatchObject({
      code: 'SECURITY_EXCEPTION',
    });
    await waitFor(() => broker.getSessionCount() === 2, 'both sessions of bob to be open');
  });
});
