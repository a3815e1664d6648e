import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TransportConfiguration } from '../core/client';
import type { ClassOf } from '../lang/brand';
import { TlsConfigurationError, type Logger } from '../core/remoting';
import { IllegalStateException } from '../jms/exceptions';
import type { Broker } from '../server/broker';
import type { HaConfiguration } from '../server/ha/ha-configuration';
import { DEFAULT_BROKER_CONFIGURATION, type TcpAcceptorConfiguration } from '../server/broker-configuration';
import { FileSecurityManager } from '../server/security/file-security-manager';
import type { SecurityManager } from '../server/security/security-manager';
import type { DamageKind } from '../server/storage/damage/damage-kind';
import type { StorageManager } from '../server/storage/storage-manager';
import {
  brokerConfigurationOf,
  coreQueueOf,
  topicMarkerQueueOf,
} from './config/broker-configuration-from-xml';
import { readConfigFile } from './config/config-document';
import type { QueueDefinition, TopicDefinition } from './config/jms-configuration';
import type { ServerConfiguration } from './config/server-configuration';
import { USERS_CONFIG_NAME, parseUsersConfiguration } from './config/users-xml-reader';
import {
  defaultConfigDir,
  resolveConfigFiles,
  scanPeriodOf,
  usersFileOf,
  type ConfigFiles,
} from './config-files';
import { ConfigurationException } from './configuration-exception';
import { defaultServices } from './container/default-services';
import { resolve, ServiceId, type ServiceContainer } from './container/service-ids';
import { registryOf, type InitialContext, type InitialContextOptions } from './initial-context';
import { JmsDeployer, logWarnings } from './jms-deployer';
import { problemAt } from './problems';
import { SecurityDeployer, type DeployedFile } from './security-deployer';
import type { Environment } from './xml/placeholders';

export interface EmbeddedJMSOptions extends ConfigFiles {
  watch?: InitialContextOptions['watch'];
  /** Placeholder values; process.env by default. */
  env?: Environment;
  /** The broker's and the deployer's logger; wins over the container's. */
  logger?: Logger;
  /**
   * Durable state, kept across stop and start; wins over the container's. Without either, the
   * broker keeps it in journals as hornetq-configuration.xml's persistence settings say (in memory
   * when persistence-enabled is false).
   */
  storage?: StorageManager;
  /**
   * What relative journal, bindings, large-messages and paging directories resolve against; the
   * working directory by default (as HornetQ's).
   */
  dataDirectory?: string;
  /**
   * Damage kinds the start accepts, losing what they hold (logged with counts): `hornetq server
   * --accept-damage`. Wins over the configuration's; none by default (damage stops the start).
   */
  acceptDamage?: readonly DamageKind[];
  /**
   * Where every component comes from: loaders, registry, storage, broker, acceptors, filters,
   * logger (see ServiceId; createContainer from 'hornetq-js/container' makes an inversify container
   * with the defaults to rebind). The defaults when absent.
   */
  container?: ServiceContainer;
  /**
   * Who may log in: wins over hornetq-users.xml, which is then not read (an application's own
   * user store, LDAP, ...).
   */
  securityManager?: SecurityManager;
  /**
   * Wins over hornetq-configuration.xml's security-enabled. Tests may turn security off with
   * false; production configuration says so in the file, where operators see it.
   */
  securityEnabled?: boolean;
  /**
   * Live/backup settings that win over hornetq-configuration.xml's (`hornetq server --backup`,
   * `--failover-on-shutdown`, `--no-allow-failback`, `--failback-delay`).
   */
  ha?: Partial<HaConfiguration>;
}

/** What the management view reports for one queue. */
export interface QueueInfo {
  /** JMS name for a JMS queue, else the core queue name. */
  name: string;
  /** Core address, e.g. 'jms.queue.ExampleQueue' or 'jms.topic.ExampleTopic'. */
  address: string;
  durable: boolean;
  temporary: boolean;
  /** Messages in the queue, including those delivered and not yet acknowledged. */
  messageCount: number;
  /** Delivered to a consumer and not yet acknowledged. */
  deliveringCount: number;
  consumerCount: number;
  messagesAdded: number;
  messagesAcknowledged: number;
}

const JMS_QUEUE = 'jms.queue.';

/**
 * A broker in this process, started from hornetq-configuration.xml (acceptors, address settings,
 * queues) and hornetq-jms.xml (factories, queues, topics bound in its registry). A connector whose
 * port is 0 takes the port its TCP acceptor with port 0 was given, so tests can use ephemeral ports.
 *
 * Its registry and storage are resolved from the container once, at construction; the loaders,
 * the logger and the broker factory at every start, so a component rebound between a stop and a
 * start is the one the next start uses.
 */
export class EmbeddedJMS {
  private readonly container: ServiceContainer;
  private readonly context: InitialContext;
  private readonly storage: StorageManager | null;
  private broker: Broker | null = null;
  private readonly failureListeners: Array<(error: Error) => void> = [];
  private deployer: JmsDeployer | null = null;
  private securityDeployer: SecurityDeployer | null = null;
  private starting = false;

  constructor(private readonly options: EmbeddedJMSOptions = {}) {
    this.container = options.container ?? defaultServices();
    this.context = resolve(this.container, ServiceId.NamingRegistry);
    this.storage =
      options.storage ??
      (this.container.isBound(ServiceId.StorageManager)
        ? resolve(this.container, ServiceId.StorageManager)
        : null);
  }

  /** Also after stop(): starts again from the same files (what was durable is still there). */
  async start(): Promise<void> {
    if (this.broker !== null || this.starting)
      throw new IllegalStateException('EmbeddedJMS is already started');
    this.starting = true;
    try {
      await this.startBroker();
    } finally {
      this.starting = false;
    }
  }

  /** Stops accepting, closes client connections (they see a failure), releases files and ports. */
  async stop(): Promise<void> {
    const broker = this.broker;
    if (broker === null) return;
    this.deployer?.undeploy();
    this.deployer = null;
    this.securityDeployer?.stop();
    this.securityDeployer = null;
    this.broker = null;
    await broker.stop();
  }

  /** `await using`: stop(). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  /**
   * Called when the broker stopped itself because of `error` (a journal write or sync failed):
   * HornetQ's critical I/O error. Listeners stay for every later start.
   */
  onFailure(listener: (error: Error) => void): void {
    this.failureListeners.push(listener);
  }

  lookup<T = unknown>(name: string): T;
  /** As InitialContext.lookup(name, type): checked to be a `type`, and typed so. */
  lookup<T extends object>(name: string, type: ClassOf<T>): T;
  lookup(name: string, type?: ClassOf<object>): unknown {
    return type === undefined ? this.context.lookup(name) : this.context.lookup(name, type);
  }

  getContext(): InitialContext {
    return this.context;
  }

  /**
   * The running broker (also a backup that waits: its status says so), or null while stopped or
   * starting (a metrics server follows it across restarts).
   */
  getBroker(): Broker | null {
    return this.broker;
  }

  /** The port a TCP acceptor is bound to (the first one without a name), e.g. after configuring port 0. */
  getPort(acceptorName?: string): number {
    return this.requireBroker().getPort(acceptorName);
  }

  /** By JMS queue name ('ExampleQueue'), or null if there is no such queue (or the broker is stopped). */
  getQueueInfo(queueName: string): QueueInfo | null {
    return (
      this.listQueues().find(
        (queue) => queue.address === JMS_QUEUE + queueName && queue.name === queueName,
      ) ?? null
    );
  }

  /** Every queue on the broker: JMS queues, subscription queues and temporary queues. */
  listQueues(): QueueInfo[] {
    // A backup that waits has no queues yet (it loads them when it takes over).
    if (this.broker === null || !this.broker.started) return [];
    return this.broker.listQueues().map((queue) => ({
      name:
        queue.name.startsWith(JMS_QUEUE) && queue.name === queue.address
          ? queue.name.slice(JMS_QUEUE.length)
          : queue.name,
      address: queue.address,
      durable: queue.durable,
      temporary: queue.temporary,
      messageCount: queue.messageCount,
      deliveringCount: queue.deliveringCount,
      consumerCount: queue.consumerCount,
      messagesAdded: queue.messagesAdded,
      messagesAcknowledged: queue.messagesAcknowledged,
    }));
  }

  getConnectionCount(): number {
    return this.broker?.getConnectionCount() ?? 0;
  }

  getSessionCount(): number {
    return this.broker?.getSessionCount() ?? 0;
  }

  private async startBroker(): Promise<void> {
    const options = this.options;
    const files =
      options.jmsConfig === undefined && options.configDir === undefined
        ? { ...options, configDir: defaultConfigDir() }
        : options;
    const { jmsConfig, serverConfig } = resolveConfigFiles(files);
    const scanPeriodMs = scanPeriodOf(options.watch);
    const env = options.env ?? process.env;
    const logger = options.logger ?? resolve(this.container, ServiceId.Logger);
    const serverLoader = resolve(this.container, ServiceId.ServerConfigLoader);
    const jmsLoader = resolve(this.container, ServiceId.JmsConfigLoader);
    const serverSource = serverConfig === null ? null : await readConfigFile(serverConfig);
    const server =
      serverConfig === null || serverSource === null
        ? null
        : serverLoader.parse(serverSource, serverConfig, { env });
    const jms = jmsLoader.parse(await readConfigFile(jmsConfig), jmsConfig, { env, server });
    // Persistence disabled means nothing durable, whatever storage is bound: the broker makes a
    // fresh in-memory store per start.
    const storage = server?.persistenceEnabled === false ? null : this.storage;
    const createBroker = resolve(this.container, ServiceId.BrokerFactory);
    // Outside the try: its errors already name the file, element and line they are about.
    const fromFiles = brokerConfigurationOf(
      server,
      jms,
      { storage, dataDirectory: options.dataDirectory ?? DEFAULT_BROKER_CONFIGURATION.dataDirectory },
      logger,
    );
    const securityEnabled = options.securityEnabled ?? fromFiles.securityEnabled;
    const usersFile = usersFileOf(options, jmsConfig, serverConfig);
    const users =
      securityEnabled && options.securityManager === undefined
        ? await loadUsers(usersFile, env, logger)
        : null;
    const securityManager = options.securityManager ?? users?.manager;
    const brokerConfig = {
      ...fromFiles,
      ...options.ha,
      ...(options.acceptDamage === undefined ? {} : { acceptDamage: options.acceptDamage }),
      securityEnabled,
      ...(securityManager === undefined ? {} : { securityManager }),
    };
    let broker: Broker;
    try {
      broker = createBroker(brokerConfig);
    } catch (error) {
      throw new ConfigurationException([
        { file: serverConfig, line: null, element: null, message: (error as Error).message },
      ]);
    }
    broker.onFailure((error) => {
      for (const listener of this.failureListeners) listener(error);
    });
    await broker.start().catch((error: unknown) => {
      throw atAcceptor(error, server);
    });
    const deploy = async (): Promise<void> => {
      const deployer = new JmsDeployer(registryOf(this.context), {
        jmsConfig,
        loader: jmsLoader,
        server,
        env,
        logger,
        scanPeriodMs,
        hooks: {
          resolveConnector: (connector) => resolvePortZero(connector, broker, server),
          queueDeployed: (queue) => createQueue(broker, queue, logger),
          topicDeployed: (topic) => createTopicMarker(broker, topic),
        },
      });
      await deployer.deploy();
      this.deployer = deployer;
      if (scanPeriodMs !== null) {
        this.securityDeployer = new SecurityDeployer({
          server:
            server === null || serverConfig === null || serverSource === null
              ? null
              : { file: serverConfig, content: serverSource, config: server },
          users: users?.deployed ?? null,
          serverLoader,
          env,
          logger,
          scanPeriodMs,
          target: broker,
        });
        this.securityDeployer.start();
      }
    };
    if (broker.status === 'waiting') {
      // A backup (or a live waiting for its backup to hand back): the registry and its watchers
      // come once it serves, as they need its queues and its ports.
      this.broker = broker;
      this.deployWhenServing(broker, deploy, logger);
      return;
    }
    try {
      await deploy();
    } catch (error) {
      await broker.stop();
      throw error;
    }
    this.broker = broker;
  }

  /** Runs `deploy` the first time `broker` serves; a failure stops the broker and tells the failure listeners. */
  private deployWhenServing(broker: Broker, deploy: () => Promise<void>, logger: Logger): void {
    let deployed = false;
    broker.onStateChange((state) => {
      if (state !== 'started' || deployed) return;
      deployed = true;
      deploy().catch(async (error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        logger.error(
          { err: failure },
          `deploying hornetq-jms.xml failed once the broker served: ${failure.message}`,
        );
        await broker.stop();
        for (const listener of this.failureListeners) listener(failure);
      });
    });
  }

  private requireBroker(): Broker {
    if (this.broker === null) throw new IllegalStateException('EmbeddedJMS is not started');
    return this.broker;
  }
}

/**
 * The users of hornetq-users.xml, which security-enabled needs: a broker with security on and no
 * users would let nobody in, so a missing file stops the start with what to do instead.
 */
async function loadUsers(
  file: string,
  env: Environment,
  logger: Logger,
): Promise<{ manager: SecurityManager; deployed: DeployedFile }> {
  if (!existsSync(file)) {
    throw new ConfigurationException([
      {
        file,
        line: null,
        element: null,
        message: `security is enabled (security-enabled is true, HornetQ's default) and there is no ${USERS_CONFIG_NAME} here: add a user with \`hornetq user add NAME --role ROLE --config ${path.dirname(file)}\`, give EmbeddedJMS a securityManager, or set <security-enabled>false</security-enabled> in hornetq-configuration.xml`,
      },
    ]);
  }
  const content = await readConfigFile(file);
  const users = parseUsersConfiguration(content, file, { env });
  logWarnings(logger, users.warnings);
  try {
    return { manager: new FileSecurityManager(users), deployed: { file, content } };
  } catch (error) {
    throw new ConfigurationException([
      { file, line: null, element: null, message: (error as Error).message },
    ]);
  }
}

/** A store an acceptor could not use, said at the `<acceptor>` that names it (file:line). */
function atAcceptor(error: unknown, server: ServerConfiguration | null): unknown {
  if (!TlsConfigurationError.is(error) || server === null) return error;
  const acceptor = server.acceptors.find((a) => `acceptor '${a.config.name}'` === error.owner);
  if (acceptor === undefined) return error;
  return new ConfigurationException([
    problemAt(server.file, { name: 'acceptor', line: acceptor.line }, error.message),
  ]);
}

/** A connector with port 0 means "the port my acceptor with port 0 got" (same host preferred). */
function resolvePortZero(
  connector: TransportConfiguration,
  broker: Broker,
  server: ServerConfiguration | null,
): TransportConfiguration {
  if (connector.port !== 0) return connector;
  const acceptors = (server?.acceptors ?? [])
    .map((a) => a.config)
    .filter((a): a is TcpAcceptorConfiguration => a.type === 'tcp' && a.port === 0);
  const acceptor = acceptors.find((a) => a.host === connector.host) ?? acceptors[0];
  return acceptor === undefined ? connector : { ...connector, port: broker.getPort(acceptor.name) };
}

/** Hot deployment may add a topic to a running broker: its marker queue, unless it has one. */
function createTopicMarker(broker: Broker, topic: TopicDefinition): void {
  const marker = topicMarkerQueueOf(topic);
  if (broker.postOffice.getQueue(marker.name) === undefined)
    broker.postOffice.createQueue({ ...marker, temporary: false });
}

/** Hot deployment may add a queue to a running broker; an existing queue (and its messages) stays as it is. */
function createQueue(broker: Broker, queue: QueueDefinition, logger: Logger): void {
  const core = coreQueueOf(queue);
  const existing = broker.postOffice.getQueue(core.name);
  if (existing === undefined) {
    broker.postOffice.createQueue({ ...core, temporary: false });
    return;
  }
  const filter = existing.filter?.expression ?? null;
  if (filter !== core.filter || existing.durable !== core.durable) {
    logger.warn(
      { queue: queue.name },
      `queue '${queue.name}' already exists on the broker with selector ${JSON.stringify(filter)} and durable ${existing.durable}: it keeps them (and its messages); the new selector ${JSON.stringify(core.filter)} and durable ${core.durable} apply once the queue is deleted`,
    );
  }
}
