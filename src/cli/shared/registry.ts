import path from 'node:path';
import { Option } from 'commander';
import type { TransportConfiguration } from '../../core/client';
import type { Logger } from '../../core/remoting';
import { HornetQConnectionFactory } from '../../jms';
import { HornetQQueue, HornetQTopic } from '../../jms/destination';
import {
  InitialContext,
  loadJmsConfiguration,
  loadServerConfiguration,
  NamingException,
  normalizeName,
  type NameClassPair,
} from '../../jndi';
import { applyFactorySettings } from '../../jndi/config/connection-factory-settings';
import type { ConnectionFactoryDefinition, JmsConfiguration } from '../../jndi/config/jms-configuration';
import { JMS_CONFIG_NAME, resolveConfigFiles } from '../../jndi/config-files';
import { registryOf } from '../../jndi/initial-context';
import { logWarnings } from '../../jndi/jms-deployer';
import { JmsDeployment } from '../../jndi/jms-deployment';
import { CliError } from './cli-error';
import { connectorStoresOf, isStoresLeftOutWarning } from './connector-stores';
import {
  announceConfig,
  checkConfigDir,
  CONFIG_ENV,
  locateConfig,
  type ConfigLocation,
} from './config-location';

export function configOption(): Option {
  return new Option(
    '--config <dir>',
    `folder with ${JMS_CONFIG_NAME} and hornetq-configuration.xml (default: $${CONFIG_ENV}, else ./config when it holds the files, else the package's config/)`,
  );
}

/** The configuration folder to use (locateConfig's rule), checked: a missing folder or file is the user's mistake. */
export function configDirOf(option: string | undefined): string {
  return checkConfigDir(locateConfig(option, [JMS_CONFIG_NAME]), [JMS_CONFIG_NAME]);
}

/** Configuration warnings go to stderr as "warning: ...", away from the command's output. */
export const warningLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (_object, message) => process.stderr.write(`warning: ${message ?? ''}\n`),
  error: (_object, message) => process.stderr.write(`warning: ${message ?? ''}\n`),
  child: () => warningLogger,
};

/** A name as users write it in hornetq-jms.xml: '/queue/orders' (java: names as they are). */
export function displayName(name: string): string {
  return name.startsWith('java:') ? name : `/${name}`;
}

/** hornetq-jms.xml as read, and the registry it fills. */
interface LoadedRegistry {
  readonly context: InitialContext;
  readonly jms: JmsConfiguration;
  /** The client stores of hornetq-configuration.xml's TLS connectors, by connector name. */
  readonly stores: ReadonlyMap<string, TransportConfiguration>;
}

/**
 * The naming registry hornetq-jms.xml describes, loaded once and only when a command needs a name
 * from it (a command given --url and queue://X never reads the configuration). The files are read
 * and parsed once per command: lookups and the factory definitions all come from that reading.
 */
export class Registry {
  private loaded: Promise<LoadedRegistry> | null = null;
  /** Chosen when the registry is made, so that every message names the same folder. */
  readonly location: ConfigLocation;

  constructor(configOption: string | undefined) {
    this.location = locateConfig(configOption, [JMS_CONFIG_NAME]);
  }

  /** Where the registry comes from, for messages. */
  get file(): string {
    return path.join(this.location.dir, JMS_CONFIG_NAME);
  }

  async load(): Promise<InitialContext> {
    return (await this.read()).context;
  }

  async list(): Promise<NameClassPair[]> {
    return (await this.load()).list();
  }

  async connectionFactory(name: string): Promise<HornetQConnectionFactory> {
    const object = await this.lookup(name, 'connection factory');
    if (object instanceof HornetQConnectionFactory) return object;
    throw new CliError(`${name} in ${this.file} is a ${describe(object)}, not a connection factory`);
  }

  /**
   * The factory bound at `name` with all its settings (reattachment, windows, timeouts), built
   * again from its definition with `connectors` in place of its own: what --url, --host/--port
   * and --connect-timeout mean with a registry factory.
   */
  async connectionFactoryWith(
    name: string,
    connectors: TransportConfiguration[],
    ha?: boolean,
  ): Promise<HornetQConnectionFactory> {
    const definition = await this.definition(name);
    return applyFactorySettings(
      new HornetQConnectionFactory(ha ?? definition.ha, ...connectors),
      definition.settings,
    );
  }

  /**
   * The connectors the factory bound at `name` is defined with, each with the client stores its
   * `<connector>` names in hornetq-configuration.xml (which the registry's own factory lacks).
   */
  async connectorsOf(name: string): Promise<TransportConfiguration[]> {
    const definition = await this.definition(name);
    const { stores } = await this.read();
    return definition.connectors.map((connector, index) => {
      const connectorName = definition.connectorNames[index];
      const own = connectorName === undefined ? undefined : stores.get(connectorName);
      return { ...connector, ...own };
    });
  }

  private async definition(name: string): Promise<ConnectionFactoryDefinition> {
    // Checked first: a name that is unknown or bound to something else gets the usual message.
    await this.connectionFactory(name);
    const { jms } = await this.read();
    const wanted = normalizeName(name);
    const definition = jms.factories.find((factory) =>
      factory.entries.some((entry) => normalizeName(entry.name) === wanted),
    );
    if (definition === undefined) throw new CliError(`${name} is not defined in ${this.file}`);
    return definition;
  }

  async destination(name: string): Promise<HornetQQueue | HornetQTopic> {
    const object = await this.lookup(name, 'destination');
    if (object instanceof HornetQQueue || object instanceof HornetQTopic) return object;
    throw new CliError(`${name} in ${this.file} is a ${describe(object)}, not a queue or topic`);
  }

  async close(): Promise<void> {
    const loaded = this.loaded;
    this.loaded = null;
    if (loaded !== null) await (await loaded.catch(() => null))?.context.close();
  }

  private read(): Promise<LoadedRegistry> {
    this.loaded ??= Promise.resolve().then(() => {
      const dir = checkConfigDir(this.location, [JMS_CONFIG_NAME]);
      announceConfig(this.location);
      return readRegistry(dir);
    });
    return this.loaded;
  }

  private async lookup(name: string, kind: 'connection factory' | 'destination'): Promise<unknown> {
    const context = await this.load();
    try {
      return context.lookup(name);
    } catch (error) {
      if (!NamingException.is(error)) throw error;
      const wanted =
        kind === 'destination'
          ? isDestinationClass
          : (className: string) => className.endsWith('ConnectionFactory');
      const bound = context
        .list()
        .filter((pair) => wanted(pair.className))
        .map((pair) => displayName(pair.name));
      const hint = kind === 'destination' ? ' (or give queue://NAME or topic://NAME)' : '';
      const known = bound.length === 0 ? `it binds no ${kind}` : `it binds ${bound.join(', ')}`;
      throw new CliError(`unknown ${kind} '${name}' in ${this.file}: ${known}${hint}`, 1, { cause: error });
    }
  }
}

/**
 * What InitialContext.load does, keeping the parsed file: the server file's connectors, then
 * hornetq-jms.xml deployed into a fresh registry, warnings of both to stderr.
 */
async function readRegistry(configDir: string): Promise<LoadedRegistry> {
  const { jmsConfig, serverConfig } = resolveConfigFiles({ configDir });
  const server = serverConfig === null ? null : await loadServerConfiguration(serverConfig);
  logWarnings(
    warningLogger,
    (server?.warnings ?? []).filter((warning) => !isStoresLeftOutWarning(warning)),
  );
  const jms = await loadJmsConfiguration(jmsConfig, { server });
  logWarnings(warningLogger, jms.warnings);
  const context = new InitialContext();
  new JmsDeployment(registryOf(context), jmsConfig).apply(jms);
  const stores = serverConfig === null ? new Map() : await connectorStoresOf(serverConfig);
  return { context, jms, stores };
}

function isDestinationClass(className: string): boolean {
  return className === 'HornetQQueue' || className === 'HornetQTopic';
}

function describe(object: unknown): string {
  if (object === null || typeof object !== 'object') return typeof object;
  return object.constructor.name;
}
