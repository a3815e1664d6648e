import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { EmbeddedJMS, loadServerConfiguration, type ServerConfiguration } from '../../jndi';
import { SERVER_CONFIG_NAME } from '../../jndi/config-files';
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
import { configDirOf, configOption } from '../shared/registry';

interface ServerOptions {
  config?: string;
  dataDir?: string;
  host?: string;
  port?: number;
  watch?: boolean;
  logLevel: LogLevel;
}

/** The placeholder HornetQ's own configuration files put their directories under: `${data.dir:../data}/journal`. */
const DATA_DIR_PLACEHOLDER = 'data.dir';

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

export function serverCommand(): Command {
  return new Command('server')
    .description('run a broker from hornetq-configuration.xml and hornetq-jms.xml until Ctrl-C or SIGTERM')
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
        'redeploy hornetq-jms.xml, <security-settings> of hornetq-configuration.xml and hornetq-users.xml when they change (checked every 5 s)',
      ),
    )
    .addOption(
      new Option('--log-level <level>', 'least severe level logged').choices(LOG_LEVELS).default('info'),
    )
    .action(async (options: ServerOptions) => runServer(options));
}

/** Starts the broker, says where it listens, and resolves once a signal has stopped it. */
async function runServer(options: ServerOptions): Promise<void> {
  const configDir = configDirOf(options.config);
  const serverFile = path.join(configDir, SERVER_CONFIG_NAME);
  const { dataDirectory, dataDirPlaceholder } = dataDirectoryOf(options.dataDir);
  const env = { ...dataDirPlaceholder, ...process.env, ...listenPlaceholders(options) };
  const config = existsSync(serverFile) ? await loadServerConfiguration(serverFile, { env }) : null;
  checkListenOverrides(options, config, serverFile);
  const logger = createLogger(options.logLevel);
  const server = new EmbeddedJMS({
    configDir,
    logger,
    env,
    watch: options.watch === true,
    ...(dataDirectory === undefined ? {} : { dataDirectory }),
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
  try {
    try {
      await server.start();
    } catch (error) {
      throw startFailure(error);
    }
    for (const url of listeningOn(server, config)) {
      logger.info({ url }, `listening on ${url}`);
    }
    logger.info({ configDir }, `HornetQ broker started from ${configDir}; Ctrl-C stops it`);
    await stopSignal;
    if (stoppedItself.error !== null) {
      // The broker has stopped; this lets go of the rest (the deployer's file watcher).
      await server.stop();
      throw new CliError(`the broker stopped itself: ${stoppedItself.error.message}`);
    }
    logger.info({ signal: stopRequested }, `${stopRequested ?? 'signal'} received: stopping`);
    await server.stop();
  } finally {
    for (const signal of SIGNALS) process.off(signal, onSignal);
    logger.flush();
  }
}

/**
 * --data-dir: relative persistence directories resolve against it, and it is the value of
 * `${data.dir}` (unless the environment sets one), as HornetQ's start script sets -Ddata.dir.
 */
function dataDirectoryOf(dataDir: string | undefined): {
  dataDirectory?: string;
  dataDirPlaceholder: Record<string, string>;
} {
  if (dataDir === undefined) return { dataDirPlaceholder: {} };
  if (dataDir.trim() === '') throw new CliError('--data-dir must name a directory (it is empty)', 1);
  const dataDirectory = path.resolve(dataDir);
  return { dataDirectory, dataDirPlaceholder: { [DATA_DIR_PLACEHOLDER]: dataDirectory } };
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

/** tcp://host:port of each TCP acceptor, with the port it really got (0 in the file means any) and whether it speaks TLS. */
function listeningOn(server: EmbeddedJMS, config: ServerConfiguration | null): string[] {
  const tcp = tcpAcceptorsOf(config);
  if (tcp.length === 0) return [`tcp://localhost:${server.getPort()}`];
  return tcp.map(
    (acceptor) =>
      `tcp://${formatHost(acceptor.host)}:${server.getPort(acceptor.name)}${acceptor.tls === undefined ? '' : ' (TLS)'}`,
  );
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
