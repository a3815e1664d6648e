import type { Logger } from '../core/remoting';
import { FileSecurityManager } from '../server/security/file-security-manager';
import type { SecurityManager } from '../server/security/security-manager';
import type { SecuritySetting } from '../server/security/security-store';
import type { ServerConfiguration } from './config/server-configuration';
import { parseUsersConfiguration } from './config/users-xml-reader';
import type { ConfigurationProblem } from './configuration-exception';
import type { ServerConfigLoader } from './container/service-ids';
import { FileWatcher, type WatchDirectory } from './file-watcher';
import { logWarnings } from './jms-deployer';
import type { Environment } from './xml/placeholders';

/** What a redeploy changes on the running broker. */
export interface SecurityTarget {
  setSecuritySettings(settings: readonly SecuritySetting[]): void;
  setSecurityManager(manager: SecurityManager): void;
}

/** A file and its content when it was deployed. */
export interface DeployedFile {
  readonly file: string;
  readonly content: string;
}

export interface SecurityDeployerOptions {
  /** hornetq-configuration.xml as deployed: a change to its `<security-settings>` is redeployed. */
  readonly server: (DeployedFile & { readonly config: ServerConfiguration }) | null;
  /** hornetq-users.xml as deployed; null when the users come from elsewhere (or security is off). */
  readonly users: DeployedFile | null;
  readonly serverLoader: ServerConfigLoader;
  readonly env: Environment;
  readonly logger: Logger;
  /** How often to read a file where it cannot be watched. */
  readonly scanPeriodMs: number;
  readonly target: SecurityTarget;
  /** fs.watch by default; a test passes one that fails. */
  readonly watchDirectory?: WatchDirectory;
}

/**
 * Redeploys security while the broker runs, as HornetQ's security and user deployers do: a changed
 * `<security-settings>` in hornetq-configuration.xml, or a changed hornetq-users.xml, takes effect
 * for the next operation and login. An edit that does not validate is logged with its problems
 * (file:line) and the settings in force stay. Other changes to hornetq-configuration.xml need a
 * restart, and the log says so.
 */
export class SecurityDeployer {
  private readonly watchers: FileWatcher[] = [];
  private securityEnabled: boolean | null;

  constructor(private readonly options: SecurityDeployerOptions) {
    this.securityEnabled = options.server?.config.securityEnabled ?? null;
  }

  start(): void {
    const { server, users } = this.options;
    if (server !== null) this.watch(server, (content) => this.redeployServer(server.file, content));
    if (users !== null) this.watch(users, (content) => this.redeployUsers(users.file, content));
  }

  stop(): void {
    for (const watcher of this.watchers) watcher.stop();
    this.watchers.length = 0;
  }

  private watch(deployed: DeployedFile, onChange: (content: string) => void): void {
    const { logger, scanPeriodMs, watchDirectory } = this.options;
    const watcher = new FileWatcher({
      file: deployed.file,
      content: deployed.content,
      pollPeriodMs: scanPeriodMs,
      logger,
      onChange: (content) => this.attempt(deployed.file, () => onChange(content)),
      onUnreadable: (error) =>
        logger.warn(
          { file: deployed.file },
          `${deployed.file} cannot be read (${error.message}); the security settings in force stay`,
        ),
      ...(watchDirectory === undefined ? {} : { watchDirectory }),
    });
    this.watchers.push(watcher);
    watcher.start();
  }

  private redeployServer(file: string, content: string): void {
    const { serverLoader, env, logger, target } = this.options;
    const config = serverLoader.parse(content, file, { env });
    target.setSecuritySettings(config.securitySettings);
    logWarnings(logger, config.warnings);
    logger.info(
      { file, securitySettings: config.securitySettings.length },
      `redeployed the <security-settings> of ${file} (${config.securitySettings.length} matches); other changes to this file take effect when the broker restarts`,
    );
    if (this.securityEnabled !== null && config.securityEnabled !== this.securityEnabled) {
      logger.warn(
        { file, securityEnabled: config.securityEnabled },
        `security-enabled changed to ${String(config.securityEnabled)} in ${file}: that takes effect when the broker restarts; until then security stays ${this.securityEnabled ? 'enabled' : 'disabled'}`,
      );
    }
  }

  private redeployUsers(file: string, content: string): void {
    const { env, logger, target } = this.options;
    const users = parseUsersConfiguration(content, file, { env });
    target.setSecurityManager(new FileSecurityManager(users));
    logWarnings(logger, users.warnings);
    logger.info(
      { file, users: users.users.length + (users.defaultUser === null ? 0 : 1) },
      `redeployed ${file}: the next logins use its users`,
    );
  }

  private attempt(file: string, redeploy: () => void): void {
    try {
      redeploy();
    } catch (error) {
      const problems = (error as { problems?: ConfigurationProblem[] }).problems ?? [];
      this.options.logger.error(
        { file, problems },
        `${file} was not redeployed; the security settings and users in force stay:\n${(error as Error).message}`,
      );
    }
  }
}
