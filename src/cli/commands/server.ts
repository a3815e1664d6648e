import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { EmbeddedJMS, loadServerConfiguration, type ServerConfiguration } from '../../jndi';
import { ConsoleServer, MetricsServer, type DamageKind, type HaConfiguration } from '../../server';
import { JMS_CONFIG_NAME, SERVER_CONFIG_NAME } from '../../jndi/config-files';
import { CliError, errorLine, systemErrorCode } from '../shared/cli-error';
import {
  checkListenOverrides,
  HOST_PLACEHOLDER,
  listenPlaceholders,
  PORT_PLACEHOLDER,
  tcpAcceptorsOf,
} from '../shared/listen-overrides';
import { createLogger, LOG_LEVELS, type LogLevel } from '../shared/logger';
import { integerIn } from '../shared/options';
import { dataDirectoryOf } from '../shared/data-directory';
import { acceptDamageOption } from '../shared/damage-kinds';
import { checkConfigDir, configLocationLine, locateConfig } from '../shared/config-location';
import { configOption } from '../shared/registry';

interface ServerOptions {
  config?: string;
  dataDir?: string;
  host?: string;
  port?: number;
  watch?: boolean;
  metricsPort?: number;
  metricsHost?: string;
  consolePort?: number;
  consoleHost?: string;
  logLevel: LogLevel;
  acceptDamage?: DamageKind[];
  backup?: boolean;
  failoverOnShutdown?: boolean;
  allowFailback?: boolean;
  failbackDelay?: number;
}

const DEFAULT_METRICS_HOST = '127.0.0.1';
const DEFAULT_CONSOLE_HOST = '127.0.0.1';

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

export function serverCommand(): Command {
  return new Command('server')
    .addOption(configOption())
    .addOption(
      new Option(
        '--data-dir <dir>',
        'where the journal, bindings, large-messages and paging directories go (relative ones in hornetq-configuration.xml, and ${data.dir}); the working directory by default',
      ),
    )
    .addOption(
      new Option(
        '--host <host>',
        `host or address the acceptors written with \${${HOST_PLACEHOLDER}} listen on (wins over HORNETQ_REMOTING_NETTY_HOST)`,
      ),
    )
    .addOption(
      new Option(
        '--port <port>',
        `port the acceptors written with \${${PORT_PLACEHOLDER}} listen on, 0 for any free one (wins over HORNETQ_REMOTING_NETTY_PORT)`,
      ).argParser(integerIn(0, 65_535)),
    )
    .addOption(
      new Option(
        '--watch',
        'redeploy hornetq-jms.xml, <security-settings> of hornetq-configuration.xml and hornetq-users.xml when they change (fs.watch: within a second; read every 5 s where a file cannot be watched)',
      ),
    )
    .addOption(
      new Option(
        '--metrics-port <port>',
        'serve Prometheus metrics on http://HOST:PORT/metrics and a health check on /health; 0 for any free port',
      ).argParser(integerIn(0, 65_535)),
    )
    .addOption(
      new Option(
        '--metrics-host <host>',
        `host or address the metrics endpoint listens on (default ${DEFAULT_METRICS_HOST}: metrics name queues and client addresses)`,
      ),
    )
    .addOption(
      new Option(
        '--console-port <port>',
        "serve the management console (a web page and its JSON API, for the broker's users) on http://HOST:PORT/; 0 for any free port",
      ).argParser(integerIn(0, 65_535)),
    )
    .addOption(
      new Option(
        '--console-host <host>',
        `host or address the console listens on (default ${DEFAULT_CONSOLE_HOST}: it changes the broker; put it behind TLS before exposing it)`,
      ),
    )
    .addOption(
      new Option('--log-level <level>', 'least severe level logged').choices(LOG_LEVELS).default('info'),
    )
    .addOption(acceptDamageOption())
    .addOption(
      new Option(
        '--backup',
        'start as the backup of the live broker on the same data directory: wait with acceptors closed, serve (same node id) once the live is gone (<backup> true)',
      ),
    )
    .addOption(
      new Option(
        '--failover-on-shutdown',
        'a clean stop (Ctrl-C, SIGTERM) hands over to the waiting backup (<failover-on-shutdown> true)',
      ),
    )
    .addOption(
      new Option(
        '--no-allow-failback',
        'a backup that took over keeps serving when its live returns (<allow-failback> false)',
      ),
    )
    .addOption(
      new Option(
        '--failback-delay <ms>',
        'a returning live waits this long before it asks the backup serving in its place to hand back (<failback-delay>)',
      ).argParser(integerIn(0)),
    )
    .action(async (options: ServerOptions) => runServer(options));
}

/** Starts the broker, says where it listens, and resolves once a signal has stopped it. */
async function runServer(options: ServerOptions): Promise<void> {
  // The client commands' rule: a `hornetq producer` run beside this broker reads the same files.
  const location = locateConfig(options.config, [JMS_CONFIG_NAME]);
  const configDir = checkConfigDir(location, [JMS_CONFIG_NAME]);
  const serverFile = path.join(configDir, SERVER_CONFIG_NAME);
  const { dataDirectory, dataDirPlaceholder } = dataDirectoryOf(options.dataDir);
  const env = { ...dataDirPlaceholder, ...process.env, ...listenPlaceholders(options) };
  const config = existsSync(serverFile) ? await loadServerConfiguration(serverFile, { env }) : null;
  checkListenOverrides(options, config, serverFile);
  checkMetricsOptions(options);
  checkConsoleOptions(options, config);
  const logger = createLogger(options.logLevel);
  logger.info({ configDir, source: location.source }, configLocationLine(location));
  const server = new EmbeddedJMS({
    configDir,
    logger,
    env,
    watch: options.watch === true,
    ...(dataDirectory === undefined ? {} : { dataDirectory }),
    ...(options.acceptDamage === undefined ? {} : { acceptDamage: options.acceptDamage }),
    ha: haOptionsOf(options),
  });
  let stopRequested: NodeJS.Signals | null = null;
  let wake: () => void = () => undefined;
  const stopSignal = new Promise<void>((resolve) => (wake = resolve));
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopRequested !== null) {
      logger.warn({ signal }, `${signal} again: exiting without a clean stop`);
      process.exit(1);
    }
    stopRequested = signal;
    wake();
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  // A broker that stopped itself (its journal failed) must not leave a process that seems to serve.
  const stoppedItself: { error: Error | null } = { error: null };
  server.onFailure((error) => {
    stoppedItself.error = error;
    wake();
  });
  // Before the broker: an orchestrator's probe gets 503 while the journal loads, not a refused connection.
  const metrics =
    options.metricsPort === undefined
      ? null
      : new MetricsServer(() => server.getBroker(), {
          host: options.metricsHost ?? DEFAULT_METRICS_HOST,
          port: options.metricsPort,
          logger,
        });
  // Like metrics, before the broker: a port in use fails the command before the journal loads (logins
  // are answered 503 until the broker serves). Closed before the broker stops.
  const consoleListener = consoleListenerOf(options, config);
  const webConsole =
    consoleListener === null
      ? null
      : new ConsoleServer(() => server.getBroker(), { ...consoleListener, logger });
  try {
    if (metrics !== null) {
      await startMetrics(metrics);
      logger.info({ url: metrics.url }, `metrics on ${metrics.url}`);
    }
    await startConsole(webConsole);
    try {
      await server.start();
    } catch (error) {
      throw startFailure(error);
    }
    const sayWhereItListens = (): void => {
      for (const url of listeningOn(server, config)) logger.info({ url }, `listening on ${url}`);
    };
    const broker = server.getBroker();
    broker?.onStateChange((state) => {
      if (state === 'started') sayWhereItListens();
      if (state === 'waiting') logger.info({}, 'waiting for the data directory (acceptors closed)');
    });
    if (broker?.status === 'waiting') {
      logger.info(
        { configDir },
        `HornetQ broker started from ${configDir}, waiting for the data directory: it listens once it serves; Ctrl-C stops it`,
      );
    } else {
      sayWhereItListens();
      logger.info({ configDir }, `HornetQ broker started from ${configDir}; Ctrl-C stops it`);
    }
    await stopSignal;
    if (stoppedItself.error !== null) {
      // The broker has stopped; this lets go of the rest (the deployer's file watcher).
      await server.stop();
      throw new CliError(`the broker stopped itself: ${stoppedItself.error.message}`);
    }
    logger.info({ signal: stopRequested }, `${stopRequested ?? 'signal'} received: stopping`);
    await webConsole?.close();
    await server.stop();
  } finally {
    for (const signal of SIGNALS) process.off(signal, onSignal);
    await webConsole?.close();
    await metrics?.close();
    logger.flush();
  }
}

/** The live/backup options given (those not given leave hornetq-configuration.xml's). */
function haOptionsOf(options: ServerOptions): Partial<HaConfiguration> {
  return {
    ...(options.backup === true ? { backup: true } : {}),
    ...(options.failoverOnShutdown === true ? { failoverOnShutdown: true } : {}),
    ...(options.allowFailback === false ? { allowFailback: false } : {}),
    ...(options.failbackDelay === undefined ? {} : { failbackDelay: options.failbackDelay }),
  };
}

function checkMetricsOptions(options: ServerOptions): void {
  if (options.metricsHost !== undefined && options.metricsPort === undefined)
    throw new CliError(
      '--metrics-host needs --metrics-port (metrics are served only when a port is given)',
      1,
    );
  if (options.metricsHost?.trim() === '')
    throw new CliError('--metrics-host must name a host or address (it is empty)', 1);
}

function checkConsoleOptions(options: ServerOptions, config: ServerConfiguration | null): void {
  if (options.consoleHost !== undefined && options.consolePort === undefined && !config?.console)
    throw new CliError(
      '--console-host needs --console-port (or <console-port> in hornetq-configuration.xml): the console is served only when a port is given',
      1,
    );
  if (options.consoleHost?.trim() === '')
    throw new CliError('--console-host must name a host or address (it is empty)', 1);
}

/** Where the console listens: the options, else <console-port> and <console-host>; null: no console. */
function consoleListenerOf(
  options: ServerOptions,
  config: ServerConfiguration | null,
): { host: string; port: number } | null {
  const port = options.consolePort ?? config?.console?.port;
  if (port === undefined) return null;
  return { host: options.consoleHost ?? config?.console?.host ?? DEFAULT_CONSOLE_HOST, port };
}

/** Starts the console (if asked for) and says where; a port in use is the user's to fix, in one line. */
async function startConsole(webConsole: ConsoleServer | null): Promise<void> {
  if (webConsole === null) return;
  try {
    await webConsole.start();
  } catch (error) {
    const { host, port } = webConsole.options;
    const address = `${formatHost(host)}:${port}`;
    if (systemErrorCode(error) === 'EADDRINUSE')
      throw new CliError(`cannot serve the console on ${address}: the port is already in use`, 1, {
        cause: error,
      });
    const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
    throw new CliError(`cannot serve the console on ${address}: ${errorLine(cause)}`, 1, { cause: error });
  }
  webConsole.options.logger.info({ url: webConsole.url }, `console on ${webConsole.url}`);
}

/** The metrics port in use, or a host that is not ours, is the user's to fix: say which, in one line. */
async function startMetrics(metrics: MetricsServer): Promise<void> {
  try {
    await metrics.start();
  } catch (error) {
    const { host, port } = metrics.options;
    const address = `${formatHost(host)}:${port}`;
    if (systemErrorCode(error) === 'EADDRINUSE')
      throw new CliError(`cannot serve metrics on ${address}: the port is already in use`, 1, {
        cause: error,
      });
    const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
    throw new CliError(`cannot serve metrics on ${address}: ${errorLine(cause)}`, 1, { cause: error });
  }
}

/** A port in use or a bad file is the user's to fix: say which, in one line. */
function startFailure(error: unknown): unknown {
  const code = systemErrorCode(error);
  const address = addressOf(error);
  if (code === 'EADDRINUSE')
    return new CliError(`cannot listen on ${address}: the port is already in use`, 1, { cause: error });
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EACCES') {
    return new CliError(`cannot listen on ${address}: ${errorLine(error)}`, 1, { cause: error });
  }
  return error;
}

/** host:port from the system error in the cause chain (Node puts them on listen errors). */
function addressOf(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    const { address, port } = current as { address?: unknown; port?: unknown };
    if (typeof address === 'string' && typeof port === 'number') return `${address}:${port}`;
    current = current.cause;
  }
  return 'the configured address';
}

/**
 * The --url that reaches each TCP acceptor: tcp:// or tls://, host, the port it really got (0 in
 * the file means any), and whether it takes an HTTP upgrade first.
 */
function listeningOn(server: EmbeddedJMS, config: ServerConfiguration | null): string[] {
  const tcp = tcpAcceptorsOf(config);
  if (tcp.length === 0) return [`tcp://localhost:${server.getPort()}`];
  return tcp.map(
    (acceptor) =>
      `${acceptor.tls === undefined ? 'tcp' : 'tls'}://${formatHost(acceptor.host)}:${server.getPort(acceptor.name)}${acceptor.httpUpgrade === undefined ? '' : '?http-upgrade-enabled=true'}`,
  );
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
