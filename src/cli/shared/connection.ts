import { Command, Option } from 'commander';
import { describeConnector, type TransportConfiguration } from '../../core/client';
import {
  HornetQConnectionFactory,
  JMSException,
  JMSSecurityException,
  type HornetQConnection,
} from '../../jms';
import { CliError, systemErrorCode } from './cli-error';
import { parsePort, parseUrl, type BrokerUrl } from './options';
import { configOption, Registry } from './registry';

/** The options of every command that talks to a broker. */
export interface ConnectionOptions {
  url?: BrokerUrl;
  host?: string;
  port?: number;
  config?: string;
  factory: string;
  user?: string;
  password?: string;
}

export const DEFAULT_FACTORY = '/ConnectionFactory';

export function addConnectionOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--url <url>',
        'broker to connect to, e.g. tcp://localhost:5445 (instead of the registry factory)',
      )
        .argParser(parseUrl)
        .conflicts(['host', 'port']),
    )
    .option('--host <host>', 'broker host (instead of the registry factory; port 5445 unless --port)')
    .option(
      '--port <port>',
      'broker port (instead of the registry factory; host localhost unless --host)',
      parsePort,
    )
    .addOption(configOption())
    .option('--factory <name>', 'registry name of the connection factory to use', DEFAULT_FACTORY)
    .addOption(new Option('--user <name>', 'user to connect as').env('HORNETQ_USER'))
    .addOption(
      // The environment keeps a password off the command line (and out of `ps` and shell history).
      new Option('--password <password>', 'password of --user').env('HORNETQ_PASSWORD'),
    );
}

/** Whom to connect to and how: the registry's factory, or a plain one for --url / --host / --port. */
export async function factoryFor(
  options: ConnectionOptions,
  registry: Registry,
): Promise<{ factory: HornetQConnectionFactory; target: string }> {
  const explicit = explicitConnector(options);
  const factory =
    explicit === null
      ? await registry.connectionFactory(options.factory)
      : new HornetQConnectionFactory(explicit);
  const target = factory.getStaticConnectors().map(describeConnector).join(', ');
  return { factory, target };
}

/** Opens a JMS connection; "no broker there" and its kin become one line naming the address. */
export async function connect(
  options: ConnectionOptions,
  registry: Registry,
): Promise<{ connection: HornetQConnection; target: string }> {
  const { factory, target } = await factoryFor(options, registry);
  try {
    return { connection: await factory.createConnection(options.user, options.password), target };
  } catch (error) {
    throw new CliError(
      `cannot connect to ${target}: ${connectFailure(error)}${loginHint(error, options)}`,
      1,
      {
        cause: error,
      },
    );
  }
}

function explicitConnector(options: ConnectionOptions): TransportConfiguration | null {
  if (options.url !== undefined) return { host: options.url.host, port: options.url.port };
  if (options.host === undefined && options.port === undefined) return null;
  return { host: options.host ?? 'localhost', port: options.port ?? 5445 };
}

/**
 * What to do about a refused login: a broker with security enabled (HornetQ's default, and the
 * shipped config/) lets in only its users.
 */
function loginHint(error: unknown, options: ConnectionOptions): string {
  if (!(error instanceof JMSSecurityException)) return '';
  return options.user === undefined
    ? ' (the broker has security enabled: give --user and --password, or set HORNETQ_USER and HORNETQ_PASSWORD)'
    : ` (check the password of user ${options.user}: --password or HORNETQ_PASSWORD)`;
}

function connectFailure(error: unknown): string {
  switch (systemErrorCode(error)) {
    case 'ECONNREFUSED':
      return 'connection refused: no broker is listening there (start one with `hornetq server`)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'unknown host';
    case 'ETIMEDOUT':
      return 'timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return JMSException.is(error) ? message.replace(/^Failed to create session factory: /, '') : message;
    }
  }
}
