import { invalidArgType } from '../lang/argument-errors';
import type { ClassOf } from '../lang/brand';
import { loggerProblem, silentLogger, type Logger } from '../core/remoting';
import { BindingRegistry, type NameClassPair } from './binding-registry';
import { readConfigFile } from './config/config-document';
import { resolveConfigFiles, scanPeriodOf, type ConfigFiles } from './config-files';
import { defaultJmsConfigLoader, defaultServerConfigLoader } from './container/default-loaders';
import { resolve, ServiceId, type ServiceContainer } from './container/service-ids';
import { JmsDeployer } from './jms-deployer';
import type { Environment } from './xml/placeholders';

export interface InitialContextOptions extends ConfigFiles {
  /**
   * Re-read hornetq-jms.xml when it changes and rebind what changed, as HornetQ's file
   * deployment does: fs.watch notices a change, which is deployed within a second. Where the file
   * cannot be watched it is read every scan period instead (`true`: 5000 ms, HornetQ's default),
   * and the log says so.
   */
  watch?: boolean | { scanPeriodMs: number };
}

/** Ours, beyond the contract: where placeholders come from and where warnings go. */
export interface LoadOptions extends InitialContextOptions {
  /** Placeholder values; process.env by default. */
  env?: Environment;
  /**
   * Where the configuration's warnings, redeploy errors and deployments go (pino's shape, see
   * Logger); else the container's logger; else nowhere: a library writes nothing to stderr.
   */
  logger?: Logger | undefined;
  /**
   * Where the configuration loaders and the logger come from (createContainer from
   * 'hornetq-js/container', or any ServiceContainer); defaults when absent.
   */
  container?: ServiceContainer;
}

const registries = new WeakMap<InitialContext, BindingRegistry>();

/** The registry behind a context, for EmbeddedJMS to deploy into (not part of the public surface). */
export function registryOf(context: InitialContext): BindingRegistry {
  const registry = registries.get(context);
  if (registry === undefined) throw invalidArgType('not an InitialContext');
  return registry;
}

/** The logger given, checked; else the container's; else the silent one. */
function loggerOf(options: LoadOptions): Logger {
  if (options.logger === undefined)
    return options.container === undefined ? silentLogger : resolve(options.container, ServiceId.Logger);
  const problem = loggerProblem(options.logger);
  if (problem !== null) throw invalidArgType(`InitialContext.load: ${problem}`);
  return options.logger;
}

/**
 * An in-process naming registry. Names are strings such as '/ConnectionFactory' or
 * 'java:/jms/queue/Orders'. A leading '/' is not significant: '/a/b' and 'a/b' are the same name,
 * and `list` reports names without it. Intermediate contexts are implicit and never listed.
 */
export class InitialContext {
  private deployer: JmsDeployer | null = null;

  /** An empty registry. */
  constructor() {
    registries.set(this, new BindingRegistry());
  }

  /** A registry filled from hornetq-jms.xml: its factories (connectors resolved), queues and topics. */
  static async load(options: LoadOptions): Promise<InitialContext> {
    const { jmsConfig, serverConfig } = resolveConfigFiles(options);
    const logger = loggerOf(options);
    const scanPeriodMs = scanPeriodOf(options.watch);
    const env = options.env ?? process.env;
    const container = options.container;
    const serverLoader =
      container === undefined ? defaultServerConfigLoader : resolve(container, ServiceId.ServerConfigLoader);
    const server =
      serverConfig === null
        ? null
        : serverLoader.parse(await readConfigFile(serverConfig), serverConfig, { env });
    const context = new InitialContext();
    const deployer = new JmsDeployer(registryOf(context), {
      jmsConfig,
      loader:
        container === undefined ? defaultJmsConfigLoader : resolve(container, ServiceId.JmsConfigLoader),
      server,
      env,
      logger,
      scanPeriodMs,
    });
    await deployer.deploy();
    context.deployer = deployer;
    return context;
  }

  /** @throws NameNotFoundException */
  lookup<T = unknown>(name: string): T;
  /**
   * The object bound under `name`, checked to be a `type` (an abstract class too), and typed so.
   * @throws NameNotFoundException; NamingException (code ERR_NAME_WRONG_TYPE) when it is not one
   */
  lookup<T extends object>(name: string, type: ClassOf<T>): T;
  lookup(name: string, type?: ClassOf<object>): unknown {
    const registry = registryOf(this);
    return type === undefined ? registry.lookup(name) : registry.lookupAs(name, type);
  }

  /** @throws NameAlreadyBoundException */
  bind(name: string, object: unknown): void {
    registryOf(this).bind(name, object);
  }

  rebind(name: string, object: unknown): void {
    registryOf(this).rebind(name, object);
  }

  /** @throws NameNotFoundException */
  unbind(name: string): void {
    registryOf(this).unbind(name);
  }

  /** @throws NameNotFoundException if oldName is unbound; NameAlreadyBoundException if newName is bound. */
  rename(oldName: string, newName: string): void {
    registryOf(this).rename(oldName, newName);
  }

  /**
   * Every binding whose name starts with `prefix` (all when omitted), names without a leading '/'.
   * The prefix may be any name's beginning: 'java:/' lists the 'java:' names, 'queue/' the context
   * 'queue', 'qu' every name starting so.
   */
  list(prefix?: string): NameClassPair[] {
    return registryOf(this).list(prefix);
  }

  /** Stops watching files; closes nothing that was looked up. */
  async close(): Promise<void> {
    this.deployer?.stop();
    this.deployer = null;
  }

  /** `await using`: close(); the factories looked up stay open (their owner closes them). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
