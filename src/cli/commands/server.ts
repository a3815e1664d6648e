import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { EmbeddedJMS, loadServerConfiguration, type ServerConfiguration } from '../../jndi';
import { SERVER_CONFIG_NAME } from '../../jndi/config-files';
import type { TcpAcceptorConfiguration } from '../../server';
import { CliError, errorLine, systemErrorCode } from '../shared/cli-error';
import { createLogger, LOG_LEVELS, type LogLevel } from '../shared/logger';
import { configDirOf, configOption } from '../shared/registry';

interface ServerOptions {
  config?: string;
  dataDir?: string;
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
      new Option('--log-level <level>', 'least severe level logged').choices(LOG_LEVELS).default('info'),
    )
    .action(async (options: ServerOptions) => runServer(options));
}

/** Starts the broker, says where it listens, and resolves once a signal has stopped it. */
async function runServer(options: ServerOptions): Promise<void> {
  const configDir = configDirOf(options.config);
  const logger = createLogger(options.logLevel);
  const server = new EmbeddedJMS({ configDir, logger, ...dataDirectoryOptions(options.dataDir) });
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
    for (const url of await listeningOn(server, configDir)) {
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
function dataDirectoryOptions(dataDir: string | undefined): {
  dataDirectory?: string;
  env?: NodeJS.ProcessEnv;
} {
  if (dataDir === undefined) return {};
  if (dataDir.trim() === '') throw new CliError('--data-dir must name a directory (it is empty)', 1);
  const dataDirectory = path.resolve(dataDir);
  return { dataDirectory, env: { [DATA_DIR_PLACEHOLDER]: dataDirectory, ...process.env } };
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
async function listeningOn(server: EmbeddedJMS, configDir: string): Promise<string[]> {
  const file = path.join(configDir, SERVER_CONFIG_NAME);
  const config: ServerConfiguration | null = existsSync(file) ? await loadServerConfiguration(file) : null;
  const tcp = (config?.acceptors ?? [])
    .map((acceptor) => acceptor.config)
    .filter((acceptor): acceptor is TcpAcceptorConfiguration => acceptor.type === 'tcp');
  if (tcp.length === 0) return [`tcp://localhost:${server.getPort()}`];
  return tcp.map(
    (acceptor) =>
      `tcp://${formatHost(acceptor.host)}:${server.getPort(acceptor.name)}${acceptor.tls === undefined ? '' : ' (TLS)'}`,
  );
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
