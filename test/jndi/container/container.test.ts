import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { Container } from 'inversify';
import { createContainer } from '../../../src/container';
import {
  EmbeddedJMS,
  HornetQConnectionFactory,
  InitialContext,
  selectorFilterFactory,
  Session,
  type Acceptor,
  type AcceptorFactory,
  type BrokerConfiguration,
  type BrokerFactory,
  type CoreMessage,
  type FilterFactory,
  type HornetQQueue,
  type HornetQTopic,
  type JmsConfigLoader,
  type Logger,
  type ServerConfigLoader,
  type TextMessage,
} from '../../../src';
import { defaultAcceptorFactory } from '../../../src/server/remoting/acceptor';
import { InMemoryStorage } from '../../../src/server/storage/in-memory-storage';
import { ServiceId } from '../../../src/jndi/container/service-ids';
import { captureLogger, tempDir, waitFor } from '../support';

/** Far from the server-ids other tests use; in-VM registrations are per process (per jest worker). */
const IN_VM_SERVER_ID = 4711;

const TCP_ACCEPTOR = `<acceptor name="netty">
         <factory-class>org.hornetq.core.remoting.impl.netty.NettyAcceptorFactory</factory-class>
         <param key="host" value="127.0.0.1"/>
         <param key="port" value="0"/>
      </acceptor>`;

const SERVER = `<configuration xmlns="urn:hornetq">
   <security-enabled>false</security-enabled>
   <connectors>
      <connector name="netty">
         <factory-class>org.hornetq.core.remoting.impl.netty.NettyConnectorFactory</factory-class>
         <param key="host" value="127.0.0.1"/>
         <param key="port" value="0"/>
      </connector>
      <connector name="invm">
         <factory-class>org.hornetq.core.remoting.impl.invm.InVMConnectorFactory</factory-class>
         <param key="server-id" value="${IN_VM_SERVER_ID}"/>
      </connector>
   </connectors>
   <acceptors>
      ${TCP_ACCEPTOR}
   </acceptors>
</configuration>`;

const JMS = `<configuration xmlns="urn:hornetq">
   <connection-factory name="ConnectionFactory">
      <connectors><connector-ref connector-name="netty"/></connectors>
      <entries><entry name="/ConnectionFactory"/></entries>
      <call-timeout>10000</call-timeout>
   </connection-factory>
   <connection-factory name="InVmConnectionFactory">
      <connectors><connector-ref connector-name="invm"/></connectors>
      <entries><entry name="/InVmConnectionFactory"/></entries>
      <call-timeout>10000</call-timeout>
      <reconnect-attempts>0</reconnect-attempts>
   </connection-factory>
   <queue name="Orders"><entry name="/queue/Orders"/></queue>
   <queue name="Red"><entry name="/queue/Red"/><selector string="color = 'red'"/></queue>
   <topic name="News"><entry name="/topic/News"/></topic>
</configuration>`;

/** Sends `text` to the queue bound at `queueName` through the factory at `factoryName`, receives it back. */
async function roundTrip(
  jms: EmbeddedJMS,
  queueName: string,
  text: string,
  factoryName = '/ConnectionFactory',
): Promise<string | null> {
  const connection = await jms.lookup<HornetQConnectionFactory>(factoryName).createConnection();
  try {
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const queue = jms.lookup<HornetQQueue>(queueName);
    await (await session.createProducer(queue)).send(session.createTextMessage(text));
    const consumer = await session.createConsumer(queue);
    await connection.start();
    const received = (await consumer.receive(5000)) as TextMessage | null;
    return received?.getText() ?? null;
  } finally {
    await connection.close();
  }
}

/** An InMemoryStorage that records what the broker stores through it. */
class RecordingStorage extends InMemoryStorage {
  readonly stored: Array<{ messageId: number; queueNames: string[] }> = [];

  override storeMessage(message: CoreMessage, queueNames: readonly string[]): void {
    this.stored.push({ messageId: message.messageId, queueNames: [...queueNames] });
    super.storeMessage(message, queueNames);
  }
}

describe('the DI container (inversify 7)', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let container: Container;
  const started: EmbeddedJMS[] = [];

  /** An EmbeddedJMS on the temp config folder, resolving from `container`; stopped after the test. */
  function embedded(options: { logger?: Logger } = {}): EmbeddedJMS {
    const jms = new EmbeddedJMS({ configDir: dir, dataDirectory: dir, env: {}, container, ...options });
    started.push(jms);
    return jms;
  }

  beforeEach(async () => {
    ({ dir, remove } = await tempDir());
    await fs.writeFile(path.join(dir, 'hornetq-configuration.xml'), SERVER);
    await fs.writeFile(path.join(dir, 'hornetq-jms.xml'), JMS);
    container = createContainer({ logger: captureLogger() });
  });
  afterEach(async () => {
    for (const jms of started.splice(0)) await jms.stop();
    await remove();
  });

  test('jest loads inversify 7; every service id but storage is bound to its default; the registry is per resolution', () => {
    const manifest = path.join(path.dirname(require.resolve('inversify')), '..', '..', 'package.json');
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string };
    expect(name).toBe('inversify');
    expect(version).toMatch(/^7\./);
    expect(container).toBeInstanceOf(Container);
    for (const id of Object.values(ServiceId))
      expect(container.isBound(id)).toBe(id !== ServiceId.StorageManager);
    expect(container.get(ServiceId.AcceptorFactory)).toBe(defaultAcceptorFactory);
    expect(container.get(ServiceId.FilterFactory)).toBe(selectorFilterFactory);
    expect(container.get(ServiceId.NamingRegistry)).toBeInstanceOf(InitialContext);
    expect(container.get(ServiceId.NamingRegistry)).not.toBe(container.get(ServiceId.NamingRegistry));
    const logger = captureLogger();
    expect(createContainer({ logger }).get(ServiceId.Logger)).toBe(logger);
  });

  test('the default container starts an EmbeddedJMS that works end to end over TCP', async () => {
    const jms = embedded();
    await jms.start();
    expect(jms.getPort('netty')).toBeGreaterThan(0);
    expect(jms.lookup<HornetQConnectionFactory>('/ConnectionFactory').getStaticConnectors()).toEqual([
      { host: '127.0.0.1', port: jms.getPort('netty') },
    ]);
    expect(await roundTrip(jms, '/queue/Orders', 'over tcp')).toBe('over tcp');
    await waitFor(() => jms.getConnectionCount() === 0, 'the connection to go');
    expect(jms.getQueueInfo('Orders')).toMatchObject({ messagesAdded: 1, messagesAcknowledged: 1 });
  });

  test('a rebound registry is the one EmbeddedJMS binds into', async () => {
    const registry = new InitialContext();
    registry.bind('/mine', 'kept');
    container.rebindSync<InitialContext>(ServiceId.NamingRegistry).toConstantValue(registry);
    const jms = embedded();
    expect(jms.getContext()).toBe(registry);
    await jms.start();
    expect(registry.lookup('/queue/Orders')).toBe(jms.lookup('/queue/Orders'));
    await jms.stop();
    expect(registry.list().map((pair) => pair.name)).toEqual(['mine']);
  });

  test('a rebound storage is where the broker stores durable messages, kept for the next EmbeddedJMS', async () => {
    const storage = new RecordingStorage();
    container.rebindSync<InMemoryStorage>(ServiceId.StorageManager).toConstantValue(storage);
    const first = embedded();
    await first.start();
    const connection = await first.lookup<HornetQConnectionFactory>('/ConnectionFactory').createConnection();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    await (
      await session.createProducer(first.lookup<HornetQQueue>('/queue/Orders'))
    ).send(session.createTextMessage('durable'));
    await connection.close();
    expect(storage.stored).toEqual([{ messageId: expect.any(Number), queueNames: ['jms.queue.Orders'] }]);
    expect(storage.loadReferences('jms.queue.Orders')).toHaveLength(1);
    await first.stop();

    // Another EmbeddedJMS from the same container gets the same storage, so the message is there.
    const second = embedded();
    await second.start();
    expect(second.getQueueInfo('Orders')).toMatchObject({ messageCount: 1 });
    expect(await roundTrip(second, '/queue/Orders', 'next')).toBe('durable');
  });

  test('a rebound acceptor factory (instrumented) makes the broker transports; the rest is unchanged', async () => {
    const made: string[] = [];
    let accepted = 0;
    const instrumented: AcceptorFactory = (config, onTransport) => {
      made.push(`${config.type}:${config.name}`);
      return defaultAcceptorFactory(config, (transport) => {
        accepted++;
        onTransport(transport);
      });
    };
    container.rebindSync<AcceptorFactory>(ServiceId.AcceptorFactory).toConstantValue(instrumented);
    const jms = embedded();
    await jms.start();
    expect(made).toEqual(['tcp:netty']);
    expect(await roundTrip(jms, '/queue/Orders', 'counted')).toBe('counted');
    expect(accepted).toBe(1);
  });

  test('a rebound acceptor factory (in-VM only) serves every acceptor in the VM: no TCP port, clients connect in-VM', async () => {
    const made: Acceptor[] = [];
    container
      .rebindSync<AcceptorFactory>(ServiceId.AcceptorFactory)
      .toConstantValue((config, onTransport) => {
        const acceptor = defaultAcceptorFactory(
          { name: config.name, type: 'invm', serverId: IN_VM_SERVER_ID },
          onTransport,
        );
        made.push(acceptor);
        return acceptor;
      });
    // Only the in-VM factory: a connector with port 0 would ask for the TCP port there is none of.
    await fs.writeFile(
      path.join(dir, 'hornetq-jms.xml'),
      JMS.replace(/<connection-factory name="ConnectionFactory">[^]*?<\/connection-factory>/, ''),
    );
    const jms = embedded();
    await jms.start();
    expect(() => jms.lookup('/ConnectionFactory')).toThrow('/ConnectionFactory not bound');
    expect(made.map((acceptor) => acceptor.config)).toEqual([
      { name: 'netty', type: 'invm', serverId: IN_VM_SERVER_ID },
    ]);
    expect(() => jms.getPort('netty')).toThrow('no started TCP acceptor netty');
    expect(await roundTrip(jms, '/queue/Orders', 'in the VM', '/InVmConnectionFactory')).toBe('in the VM');
    await jms.stop();

    // The default factory again: TCP, and nothing answers in the VM any more.
    container.rebindSync<AcceptorFactory>(ServiceId.AcceptorFactory).toConstantValue(defaultAcceptorFactory);
    await jms.start();
    expect(jms.getPort('netty')).toBeGreaterThan(0);
    await expect(
      jms.lookup<HornetQConnectionFactory>('/InVmConnectionFactory').createConnection(),
    ).rejects.toThrow();
  });

  test("a rebound logger gets the broker's and the deployer's log lines, from the next start", async () => {
    const first = captureLogger();
    container.rebindSync<Logger>(ServiceId.Logger).toConstantValue(first);
    const jms = embedded();
    await jms.start();
    expect(first.infos).toEqual(
      expect.arrayContaining(['broker started', `deployed ${path.join(dir, 'hornetq-jms.xml')}`]),
    );
    await jms.stop();
    expect(first.infos).toContain('broker stopped');

    const second = captureLogger();
    container.rebindSync<Logger>(ServiceId.Logger).toConstantValue(second);
    await jms.start();
    expect(second.infos).toContain('broker started');
    expect(first.infos.filter((line) => line === 'broker started')).toHaveLength(1);

    // A logger given to EmbeddedJMS itself wins over the container's (one broker per data directory: the first stops).
    await jms.stop();
    const own = captureLogger();
    const other = embedded({ logger: own });
    await other.start();
    expect(own.infos).toContain('broker started');
    expect(second.infos.filter((line) => line === 'broker started')).toHaveLength(1);
  });

  test('a rebound jms loader changes what is deployed, also on a hot redeploy', async () => {
    const defaults = container.get<JmsConfigLoader>(ServiceId.JmsConfigLoader);
    const extra: JmsConfigLoader = {
      parse: (source, file, options) => {
        const config = defaults.parse(source, file, options);
        return {
          ...config,
          queues: [
            ...config.queues,
            {
              name: 'Extra',
              line: 0,
              entries: [{ name: '/queue/Extra', line: 0 }],
              selector: null,
              durable: true,
            },
          ],
        };
      },
    };
    container.rebindSync<JmsConfigLoader>(ServiceId.JmsConfigLoader).toConstantValue(extra);
    const jms = new EmbeddedJMS({
      configDir: dir,
      dataDirectory: dir,
      env: {},
      container,
      watch: { scanPeriodMs: 50 },
    });
    started.push(jms);
    await jms.start();
    expect(jms.lookup<HornetQQueue>('/queue/Extra').getQueueName()).toBe('Extra');
    expect(jms.getQueueInfo('Extra')).toMatchObject({ durable: true, messageCount: 0 });
    expect(await roundTrip(jms, '/queue/Extra', 'extra')).toBe('extra');

    await fs.writeFile(
      path.join(dir, 'hornetq-jms.xml'),
      JMS.replace(
        '</configuration>',
        '<topic name="Later"><entry name="/topic/Later"/></topic></configuration>',
      ),
    );
    await waitFor(() => jms.getContext().list('topic/').length === 2, 'the redeploy');
    expect(jms.lookup<HornetQTopic>('/topic/Later').getTopicName()).toBe('Later');
    expect(jms.lookup<HornetQQueue>('/queue/Extra').getQueueName()).toBe('Extra');
  });

  test('a rebound server loader changes the broker (a core queue added)', async () => {
    const defaults = container.get<ServerConfigLoader>(ServiceId.ServerConfigLoader);
    container.rebindSync<ServerConfigLoader>(ServiceId.ServerConfigLoader).toConstantValue({
      parse: (source, file, options) => {
        const config = defaults.parse(source, file, options);
        return {
          ...config,
          queues: [
            ...config.queues,
            { name: 'core.added', address: 'core.added', filter: null, durable: true },
          ],
        };
      },
    });
    const jms = embedded();
    await jms.start();
    expect(jms.listQueues().find((queue) => queue.name === 'core.added')).toMatchObject({
      address: 'core.added',
      durable: true,
    });
  });

  test('InitialContext.load takes its loaders and logger from a container', async () => {
    const logger = captureLogger();
    const defaults = container.get<JmsConfigLoader>(ServiceId.JmsConfigLoader);
    container.rebindSync<Logger>(ServiceId.Logger).toConstantValue(logger);
    container.rebindSync<JmsConfigLoader>(ServiceId.JmsConfigLoader).toConstantValue({
      parse: (source, file, options) => {
        const config = defaults.parse(source, file, options);
        return {
          ...config,
          topics: [{ name: 'Added', line: 0, entries: [{ name: '/topic/Added', line: 0 }] }],
        };
      },
    });
    const context = await InitialContext.load({ configDir: dir, env: {}, container });
    try {
      expect(context.lookup<HornetQTopic>('/topic/Added').getTopicName()).toBe('Added');
      expect(() => context.lookup('/topic/News')).toThrow('/topic/News not bound');
      expect(logger.infos).toContain(`deployed ${path.join(dir, 'hornetq-jms.xml')}`);
    } finally {
      await context.close();
    }
  });

  test('rebound filter and broker factories are the ones the broker is built with', async () => {
    const expressions: string[] = [];
    const filters: FilterFactory = (expression) => {
      expressions.push(expression);
      return selectorFilterFactory(expression);
    };
    const configs: BrokerConfiguration[] = [];
    const defaults = container.get<BrokerFactory>(ServiceId.BrokerFactory);
    container.rebindSync<FilterFactory>(ServiceId.FilterFactory).toConstantValue(filters);
    const jms = embedded();
    await jms.start();
    expect(expressions).toContain("color = 'red'");
    await jms.stop();

    container.rebindSync<BrokerFactory>(ServiceId.BrokerFactory).toConstantValue((config) => {
      configs.push(config);
      return defaults(config);
    });
    await jms.start();
    // The topic's core queue is HornetQ's marker queue, named after its address.
    expect(configs.map((config) => config.queues.map((queue) => queue.name))).toEqual([
      ['jms.queue.Orders', 'jms.queue.Red', 'jms.topic.News'],
    ]);
  });
});
