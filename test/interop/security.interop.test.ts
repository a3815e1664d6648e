import { HornetQConnectionFactory, HornetQQueue, JMSSecurityException, Session } from '../../src';
import { InteropServer, SERVER_VERSIONS, type InteropSecurity } from './support/interop-server';
import { JavaError, JmsDriver, type ConnectOptions } from './support/jms-driver';
import { NOTHING_MORE_MS, queueRef, RECEIVE_MS, textOf } from './support/scenario-context';

const QUEUE = 'secured';
const ADDRESS = `jms.queue.${QUEUE}`;

/** Who may do what on the one queue: `app` everything, `sender` and `receiver` one thing each. */
const SECURITY: InteropSecurity = {
  users: [
    { name: 'app', password: 'app-secret', roles: ['senders', 'receivers'] },
    { name: 'sender', password: 'sender-secret', roles: ['senders'] },
    { name: 'receiver', password: 'receiver-secret', roles: ['receivers'] },
  ],
  settings: [{ match: ADDRESS, permissions: { send: ['senders'], consume: ['receivers'] } }],
};

/**
 * The messages of the security exceptions (SECURITY_EXCEPTION, 105) as each server words them:
 * HornetQ 2.4.7 with its message codes, its "null" for no user and its unfilled "{2}" for the address.
 */
const MESSAGES = {
  hornetq: {
    login: (user: string | null) => `HQ119031: Unable to validate user: ${user ?? 'null'}`,
    permission: (user: string, permission: string) =>
      `HQ119032: User: ${user} doesnt have permission=${permission.toUpperCase()} on address {2}`,
  },
  ours: {
    login: (user: string | null) => `Unable to validate user: ${user ?? '(none)'}`,
    permission: (user: string, permission: string) =>
      `User: ${user} doesn't have permission='${permission}' on address ${ADDRESS}`,
  },
} as const;

const credentials = (name: string): { username: string; password: string } => {
  const user = SECURITY.users.find((candidate) => candidate.name === name);
  if (user === undefined) throw new Error(`no user ${name}`);
  return { username: user.name, password: user.password };
};

/**
 * HornetQ 2.4.7's Java JMS client logging in and being checked, against real HornetQ 2.4.7 with
 * security on and against our broker with the same users and settings: a Java application must get
 * the same exceptions from the same calls (the messages differ as MESSAGES says). Our client logs
 * in to both too.
 */
describe('security: logins and permissions as HornetQ Java clients see them', () => {
  let driver: JmsDriver | null = null;
  const java = (): JmsDriver => {
    if (driver === null) throw new Error('the Java driver did not start');
    return driver;
  };

  beforeAll(async () => {
    driver = await JmsDriver.start();
  });

  afterAll(async () => {
    await driver?.close();
  });

  describe.each(['hornetq', 'ours'] as const)('against %s', (kind) => {
    let server: InteropServer | null = null;
    const port = (): number => {
      if (server === null) throw new Error(`${SERVER_VERSIONS[kind]} did not start`);
      return server.port;
    };

    beforeAll(async () => {
      server = await InteropServer.start(kind, { queues: [QUEUE], security: SECURITY });
    });

    afterAll(async () => {
      await server?.stop();
    });

    /** A started Java connection as `user`, and a session on it; closed by `close`. */
    const javaSession = async (
      login: Pick<ConnectOptions, 'username' | 'password'>,
    ): Promise<{ session: string; close: () => Promise<void> }> => {
      const connection = await java().connect({ port: port(), ...login });
      await java().start(connection);
      return {
        session: await java().createSession(connection),
        close: () => java().closeConnection(connection),
      };
    };

    /** The Java call must fail with JMSSecurityException (from HornetQSecurityException) saying `message`. */
    const expectSecurityException = async (call: Promise<unknown>, message: string): Promise<void> => {
      const outcome = await call.then(
        () => null,
        (error: unknown) => error,
      );
      if (!(outcome instanceof JavaError)) throw new Error(`the Java call did not fail: ${String(outcome)}`);
      expect(outcome.info).toEqual({
        class: 'javax.jms.JMSSecurityException',
        message,
        cause: { class: 'org.hornetq.api.core.HornetQSecurityException', message },
      });
    };

    test('good credentials: the Java client logs in, sends and receives', async () => {
      const { session, close } = await javaSession(credentials('app'));
      await java().send(session, queueRef(QUEUE), { class: 'TextMessage', body: 'logged in' });
      const consumer = await java().createConsumer(session, queueRef(QUEUE));
      expect((await java().receive(consumer, RECEIVE_MS))?.body).toBe('logged in');
      await close();
    });

    test('a wrong password, an unknown user or none: JMSSecurityException at createConnection', async () => {
      const logins: Array<[Pick<ConnectOptions, 'username' | 'password'>, string | null]> = [
        [{ username: 'app', password: 'not-the-secret' }, 'app'],
        [{ username: 'nobody', password: 'app-secret' }, 'nobody'],
        [{}, null],
      ];
      for (const [login, user] of logins)
        await expectSecurityException(java().connect({ port: port(), ...login }), MESSAGES[kind].login(user));
    });

    test('a user without send: JMSSecurityException on a persistent (blocking) send, and nothing is queued', async () => {
      const { session, close } = await javaSession(credentials('receiver'));
      await expectSecurityException(
        java().send(
          session,
          queueRef(QUEUE),
          { class: 'TextMessage', body: 'not allowed' },
          { deliveryMode: 'PERSISTENT' },
        ),
        MESSAGES[kind].permission('receiver', 'send'),
      );
      const consumer = await java().createConsumer(session, queueRef(QUEUE));
      expect(await java().receive(consumer, NOTHING_MORE_MS)).toBeNull();
      await close();
    });

    // JMS 2.0's asynchronous send: HornetQ's server confirms a refused one-way send like any
    // other (it only logs the refusal), so HornetQ's Java client completes it: onException is
    // never called. Our broker answers that client the same way; our own client hears refusals.
    test('a user without send, sending with a CompletionListener: the Java client hears onCompletion, never onException, and nothing is queued', async () => {
      const connection = await java().connect({
        port: port(),
        ...credentials('receiver'),
        factory: { confirmationWindowSize: 10 },
      });
      const session = await java().createSession(connection);
      const { sent, listener } = await java().sendAsync(
        session,
        queueRef(QUEUE),
        { class: 'TextMessage', body: 'not allowed' },
        { count: 3 },
      );
      const completions = await java().completions(listener, 3, RECEIVE_MS);
      expect(completions).toEqual({ completed: sent.map((m) => m.JMSMessageID), failed: [] });
      await java().closeConnection(connection);
      const reader = await javaSession(credentials('app'));
      const consumer = await java().createConsumer(reader.session, queueRef(QUEUE));
      expect(await java().receive(consumer, NOTHING_MORE_MS)).toBeNull();
      await reader.close();
    });

    test('a user without consume: JMSSecurityException at createConsumer', async () => {
      const { session, close } = await javaSession(credentials('sender'));
      await expectSecurityException(
        java().createConsumer(session, queueRef(QUEUE)),
        MESSAGES[kind].permission('sender', 'consume'),
      );
      await close();
    });

    test('our client: good credentials log in and round-trip; a wrong password is a JMSSecurityException', async () => {
      const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: port() });
      const refused = await factory.createConnection('app', 'not-the-secret').then(
        async (connection) => {
          await connection.close();
          return null;
        },
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(JMSSecurityException);
      expect((refused as JMSSecurityException).message).toBe(MESSAGES[kind].login('app'));
      const connection = await factory.createConnection('app', 'app-secret');
      try {
        await connection.start();
        const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        await (await session.createProducer(new HornetQQueue(QUEUE))).send(session.createTextMessage('ours'));
        const consumer = await session.createConsumer(new HornetQQueue(QUEUE));
        expect(textOf(await consumer.receive(RECEIVE_MS))).toBe('ours');
      } finally {
        await connection.close();
      }
    });
  });
});
