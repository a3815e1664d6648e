import type { Logger } from '../core/remoting';
import type { BindingRegistry } from './binding-registry';
import { readConfigFile } from './config/config-document';
import type { ServerConfiguration } from './config/server-configuration';
import { formatProblem, type ConfigurationProblem } from './configuration-exception';
import type { JmsConfigLoader } from './container/service-ids';
import { FileWatcher, type WatchDirectory } from './file-watcher';
import { JmsDeployment, type DeploymentHooks } from './jms-deployment';
import type { Environment } from './xml/placeholders';

export interface JmsDeployerOptions {
  jmsConfig: string;
  /** Parses the file at deployment and at every redeploy. */
  loader: JmsConfigLoader;
  server: ServerConfiguration | null;
  env: Environment;
  logger: Logger;
  /** null: deploy once, do not watch; else how often to read the file where it cannot be watched. */
  scanPeriodMs: number | null;
  hooks?: DeploymentHooks;
  /** fs.watch by default; a test passes one that fails. */
  watchDirectory?: WatchDirectory;
}

/**
 * Deploys hornetq-jms.xml into a registry and, when watching, redeploys it on every change (see
 * FileWatcher: fs.watch, polling where that fails). An
 * edit that does not validate (or cannot be bound) is logged with all its problems and the
 * previous deployment stays in place.
 */
export class JmsDeployer {
  private readonly deployment: JmsDeployment;
  private watcher: FileWatcher | null = null;
  private unreadable = false;

  constructor(
    registry: BindingRegistry,
    private readonly options: JmsDeployerOptions,
  ) {
    this.deployment = new JmsDeployment(registry, options.jmsConfig, {
      factoryLogger: options.logger,
      ...options.hooks,
    });
  }

  /** Deploys the file as it is now (throws ConfigurationException), then starts watching. */
  async deploy(): Promise<void> {
    const source = await readConfigFile(this.options.jmsConfig);
    logWarnings(this.options.logger, this.options.server?.warnings ?? []);
    this.apply(source);
    const period = this.options.scanPeriodMs;
    if (period === null) return;
    this.watcher = new FileWatcher({
      file: this.options.jmsConfig,
      content: source,
      pollPeriodMs: period,
      logger: this.options.logger,
      onChange: (content) => this.redeploy(content),
      onUnreadable: (error) => this.reportUnreadable(error),
      ...(this.options.watchDirectory === undefined ? {} : { watchDirectory: this.options.watchDirectory }),
    });
    this.watcher.start();
  }

  stop(): void {
    this.watcher?.stop();
    this.watcher = null;
  }

  /** Stops watching and unbinds what was deployed. */
  undeploy(): void {
    this.stop();
    this.deployment.undeployAll();
  }

  private apply(source: string): void {
    const { jmsConfig, loader, server, env, logger } = this.options;
    const config = loader.parse(source, jmsConfig, { env, server });
    logWarnings(logger, config.warnings);
    const changes = this.deployment.apply(config);
    logger.info({ file: jmsConfig, ...changes }, `deployed ${jmsConfig}`);
  }

  private redeploy(source: string): void {
    this.unreadable = false;
    try {
      this.apply(source);
    } catch (error) {
      const problems = (error as { problems?: ConfigurationProblem[] }).problems ?? [];
      this.options.logger.error(
        { file: this.options.jmsConfig, problems },
        `${this.options.jmsConfig} was not redeployed; the previous deployment stays:\n${(error as Error).message}`,
      );
    }
  }

  private reportUnreadable(error: Error): void {
    if (this.unreadable) return;
    this.unreadable = true;
    this.options.logger.warn(
      { file: this.options.jmsConfig },
      `${this.options.jmsConfig} cannot be read (${error.message}); the previous deployment stays`,
    );
  }
}

export function logWarnings(logger: Logger, warnings: readonly ConfigurationProblem[]): void {
  for (const warning of warnings) logger.warn({ ...warning }, formatProblem(warning));
}
