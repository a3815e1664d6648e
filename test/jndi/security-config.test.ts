/**
 * Security as configured through EmbeddedJMS: security-enabled (HornetQ's default true) with
 * hornetq-users.xml beside hornetq-configuration.xml, the options that replace them
 * (usersConfig, securityManager, securityEnabled), passwords hashed by `hornetq user add`, and
 * what a watched deployment redeploys: <security-settings> and hornetq-users.xml, with a broken
 * edit keeping the settings in force. Each test has temporary config folders of its own.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  ConfigurationException,
  EmbeddedJMS,
  HornetQConnectionFactory,
  JMSSecurityException,
  type HornetQConnection,
  type HornetQQueue,
} from '../../src';
import { FileSecurityManager } from '../../src/server/security/file-security-manager';
import { runCli } from '../cli/support';
import { captureLogger, JMS_HEAD, tempDir, waitFor } from './support';

const ACCEPTOR = `<connectors><connector name="netty"><factory-class>org.hornetq.core.remoting.impl.netty.NettyConnectorFactory</factory-class>
         <param key="host" value="127.0.0.1"/><param key="port" value="0"/></connector></connectors>
   <acceptors><acceptor name="netty"><factory-class>org.hornetq.core.remoting.impl.netty.NettyAcceptorFactory</factory-class>
         <param key="host" value="127.0.0.1"/><param key="port" value="0"/></acceptor></acceptors>`;

/** Everything on the JMS queues for role `user`, and `send` for the roles given. */
function settings(sendRoles = 'user'): string {
  return `<security-settings>
      <security-setting match="jms.queue.#">
         <permission type="send" roles="${sendRoles}"/>
         <permission type="consume" roles="user"/>
         <permission type="createNonDurableQueue" roles="user"/>
      </security-setting>
   </security-settings>`;
}

/** hornetq-configuration.xml; security-enabled is left out (HornetQ's default, true) unless given. */
function serverXml(body = settings(), securityEnabled: boolean | null = null): string {
  const enabled = securityEnabled === null ? '' : `<security-enabled>${securityEnabled}</security-enabled>`;
  return `<configuration xmlns="urn:hornetq">
   <persistence-enabled>false</persistence-enabled>
   ${enabled}
   ${ACCEPTOR}
   ${body}
</configuration>`;
}

const JMS_XML = `${JMS_HEAD}
<connection-factory name="cf"><connectors><connector-ref connector-name="netty"/></connectors><entries><entry name="/cf"/></entries></connection-factory>
<queue name="Secured"><entry name="/queue/Secured"/></queue>
</configuration>`;

function usersXml(users: Array<[name: string, password: string, role: string]>): string {
  const entries = users.map(
    ([name, password, role]) =>
      `   <user name="${name}" password="${password}"><role name="${role}"/></user>`,
  );
  return `<configuration xmlns="urn:hornetq">\n${entries.join('\n')}\n</configuration>\n`;
}

/** Replaces the file in one step, as editors that save atomically do. */
async function edit(file: string, content: string): Promise<void> {
  await fs.writeFile(`${file}.tmp`, content);
  await fs.rename(`${file}.tmp`, file);
}

describe('security configuration (EmbeddedJMS)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function folder(files: { server?: string; users?: string | null } = {}): Promise<string> {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    await fs.writeFile(path.join(dir, 'hornetq-configuration.xml'), files.server ?? serverXml());
    await fs.writeFile(path.join(dir, 'hornetq-jms.xml'), JMS_XML);
    const users = files.users === undefined ? usersXml([['bob', 'bob-secret', 'user']]) : files.users;
    if (users !== null) await fs.writeFile(path.join(dir, 'hornetq-users.xml'), users);
    return dir;
  }

  async function started(options: ConstructorParameters<typeof EmbeddedJMS>[0]): Promise<EmbeddedJMS> {
    const jms = new EmbeddedJMS({ env: {}, logger: captureLogger(), ...options });
    await jms.start();
    cleanups.push(() => jms.stop());
    return jms;
  }

  async function connect(jms: EmbeddedJMS, user?: string, password?: string): Promise<HornetQConnection> {
    const factory = jms.lookup<HornetQConnectionFactory>('/cf');
    const connection = await factory.createConnection(user, password);
    cleanups.push(() => connection.close());
    return connection;
  }

  /** Sends (persistent, so the broker's answer is waited for) and receives one message. */
  async function roundTrip(jms: EmbeddedJMS, connection: HornetQConnection): Promise<string | null> {
    const session = await connection.createSession(false);
    const queue = jms.lookup<HornetQQueue>('/queue/Secured');
    const producer = await session.createProducer(queue);
    const consumer = await session.createConsumer(queue);
    await connection.start();
    await producer.send(session.createTextMessage('hello'));
    const message = await consumer.receive(10_000);
    await session.close();
    return message === null ? null : ((message as unknown as { getText(): string }).getText() ?? null);
  }

  test('security-enabled left out (true) with hornetq-users.xml: logins are checked', async () => {
    const jms = await started({ configDir: await folder() });
    await expect(connect(jms, 'bob', 'wrong')).rejects.toBeInstanceOf(JMSSecurityException);
    await expect(connect(jms)).rejects.toThrow('Unable to validate user: (none)');
    expect(await roundTrip(jms, await connect(jms, 'bob', 'bob-secret'))).toBe('hello');
  });

  test('security enabled and no hornetq-users.xml: the start fails naming the file and what to do', async () => {
    const dir = await folder({ users: null });
    const start = new EmbeddedJMS({ configDir: dir, env: {}, logger: captureLogger() }).start();
    await expect(start).rejects.toBeInstanceOf(ConfigurationException);
    await expect(start).rejects.toThrow(path.join(dir, 'hornetq-users.xml'));
    await expect(start).rejects.toThrow(/hornetq user add .*--config/);
    await expect(start).rejects.toThrow(/securityManager/);
    await expect(start).rejects.toThrow('<security-enabled>false</security-enabled>');
  });

  test('usersConfig names a users file elsewhere; a securityManager option replaces the file', async () => {
    const elsewhere = await folder({ users: usersXml([['carol', 'carol-secret', 'user']]) });
    const dir = await folder({ users: null });
    const fromOption = await started({
      configDir: dir,
      usersConfig: path.join(elsewhere, 'hornetq-users.xml'),
    });
    expect(await roundTrip(fromOption, await connect(fromOption, 'carol', 'carol-secret'))).toBe('hello');
    await fromOption.stop();

    const manager = new FileSecurityManager({
      defaultUser: null,
      users: [{ name: 'dave', password: 'dave-secret', roles: ['user'] }],
    });
    const withManager = await started({ configDir: dir, securityManager: manager });
    expect(await roundTrip(withManager, await connect(withManager, 'dave', 'dave-secret'))).toBe('hello');
    await expect(connect(withManager, 'carol', 'carol-secret')).rejects.toBeInstanceOf(JMSSecurityException);
  });

  test('securityEnabled: false lets anyone in without a users file; so does <security-enabled>false', async () => {
    const jms = await started({ configDir: await folder({ users: null }), securityEnabled: false });
    expect(await roundTrip(jms, await connect(jms))).toBe('hello');
    expect(await roundTrip(jms, await connect(jms, 'anyone', 'anything'))).toBe('hello');
    await jms.stop();
    const off = await started({
      configDir: await folder({ users: null, server: serverXml(settings(), false) }),
    });
    expect(await roundTrip(off, await connect(off))).toBe('hello');
  });

  test('a password hashed by `hornetq user add` logs in', async () => {
    const dir = await folder({ users: null });
    const added = await runCli([
      'user',
      'add',
      'erin',
      '--role',
      'user',
      '--password',
      'erin-secret',
      '--config',
      dir,
    ]);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(await fs.readFile(path.join(dir, 'hornetq-users.xml'), 'utf8')).toMatch(/password="scrypt:/);
    const jms = await started({ configDir: dir });
    expect(await roundTrip(jms, await connect(jms, 'erin', 'erin-secret'))).toBe('hello');
    await expect(connect(jms, 'erin', 'erin')).rejects.toBeInstanceOf(JMSSecurityException);
  });

  describe('watched', () => {
    test('an edit of <security-settings> takes a permission away for an open session’s next send', async () => {
      const dir = await folder();
      const logger = captureLogger();
      const jms = await started({ configDir: dir, logger, watch: { scanPeriodMs: 50 } });
      const connection = await connect(jms, 'bob', 'bob-secret');
      const session = await connection.createSession(false);
      const producer = await session.createProducer(jms.lookup<HornetQQueue>('/queue/Secured'));
      await producer.send(session.createTextMessage('allowed'));

      await edit(path.join(dir, 'hornetq-configuration.xml'), serverXml(settings('nobody')));
      await waitFor(
        () => logger.infos.some((line) => line.includes('redeployed the <security-settings>')),
        'the redeploy',
      );
      const refused = producer.send(session.createTextMessage('refused'));
      await expect(refused).rejects.toBeInstanceOf(JMSSecurityException);
      await expect(refused).rejects.toThrow(
        "User: bob doesn't have permission='send' on address jms.queue.Secured",
      );
    });

    test('an edit of hornetq-users.xml adds a user, who can then log in', async () => {
      const dir = await folder();
      const logger = captureLogger();
      const jms = await started({ configDir: dir, logger, watch: { scanPeriodMs: 50 } });
      await expect(connect(jms, 'frank', 'frank-secret')).rejects.toBeInstanceOf(JMSSecurityException);
      await edit(
        path.join(dir, 'hornetq-users.xml'),
        usersXml([
          ['bob', 'bob-secret', 'user'],
          ['frank', 'frank-secret', 'user'],
        ]),
      );
      await waitFor(
        () => logger.infos.some((line) => line.includes('the next logins use its users')),
        'the redeploy',
      );
      expect(await roundTrip(jms, await connect(jms, 'frank', 'frank-secret'))).toBe('hello');
    });

    test('a broken edit is logged with file:line and the settings and users in force stay', async () => {
      const dir = await folder();
      const logger = captureLogger();
      const jms = await started({ configDir: dir, logger, watch: { scanPeriodMs: 50 } });
      const server = path.join(dir, 'hornetq-configuration.xml');
      const users = path.join(dir, 'hornetq-users.xml');
      const broken = serverXml(
        settings('nobody').replace('<permission type="send"', '<permission type="fly"'),
      );
      await edit(server, broken);
      const line = broken.split('\n').findIndex((text) => text.includes('type="fly"')) + 1;
      await waitFor(
        () => logger.errors.some((text) => text.includes(`${server}:${line}:`)),
        'the refused redeploy',
      );
      await edit(
        users,
        '<configuration xmlns="urn:hornetq">\n   <user name="bob" password="x">\n</configuration>\n',
      );
      const atLine = new RegExp(`${users.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:`);
      await waitFor(() => logger.errors.some((text) => atLine.test(text)), 'the refused users redeploy');
      expect(logger.errors.join('\n')).toContain('the security settings and users in force stay');
      // bob still logs in with his password, and may still send.
      expect(await roundTrip(jms, await connect(jms, 'bob', 'bob-secret'))).toBe('hello');
    });
    test('a removed hornetq-users.xml, or security-enabled changed, keeps what is in force until a restart', async () => {
      const dir = await folder();
      const logger = captureLogger();
      const jms = await started({ configDir: dir, logger, watch: { scanPeriodMs: 50 } });
      await fs.rm(path.join(dir, 'hornetq-users.xml'));
      await waitFor(() => logger.warnings.some((line) => line.includes('cannot be read')), 'the warning');
      await edit(path.join(dir, 'hornetq-configuration.xml'), serverXml(settings(), false));
      await waitFor(
        () => logger.warnings.some((line) => line.includes('security-enabled changed to false')),
        'the warning',
      );
      // Security is still on, with the users read at the start.
      await expect(connect(jms)).rejects.toBeInstanceOf(JMSSecurityException);
      expect(await roundTrip(jms, await connect(jms, 'bob', 'bob-secret'))).toBe('hello');
    });
  });

  describe('a bad match is reported at its element (file:line)', () => {
    test.each([
      [
        'security-setting',
        `<security-settings>\n<security-setting match="jms..queue"><permission type="send" roles="user"/></security-setting></security-settings>`,
      ],
      [
        'security-setting',
        `<security-settings>\n<security-setting match=" "><permission type="send" roles="user"/></security-setting></security-settings>`,
      ],
      [
        'address-setting',
        `<address-settings>\n<address-setting match="jms.queue."><max-delivery-attempts>3</max-delivery-attempts></address-setting></address-settings>`,
      ],
      [
        'address-setting',
        `<address-settings>\n<address-setting match=""><max-delivery-attempts>3</max-delivery-attempts></address-setting></address-settings>`,
      ],
    ])('<%s match> %#', async (element, body) => {
      const server = serverXml(body);
      const dir = await folder({ server });
      const file = path.join(dir, 'hornetq-configuration.xml');
      const line = server.split('\n').findIndex((text) => text.includes(`<${element} match=`)) + 1;
      const start = new EmbeddedJMS({ configDir: dir, env: {}, logger: captureLogger() }).start();
      const error: unknown = await start.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigurationException);
      // Once, by the reader, where it is written; the broker never gets it.
      expect((error as ConfigurationException).problems).toEqual([
        expect.objectContaining({ file, line, element }),
      ]);
      expect((error as Error).message).toMatch(
        new RegExp(`^${file.replace(/[.]/g, '\\.')}:${line}: <${element}>`),
      );
    });
  });
});
