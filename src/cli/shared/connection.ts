import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import {
  CONNECT_TIMEOUT_PARAM,
  DEFAULT_HOST,
  DEFAULT_PORT,
  describeConnector,
  type TransportConfiguration,
} from '../../core/client';
import { HornetQException, type ErrorCodeName } from '../../core/protocol';
import {
  HornetQConnectionFactory,
  JMSException,
  JMSSecurityException,
  type HornetQConnection,
} from '../../jms';
import { CliError, errorLine, systemErrorCode } from './cli-error';
import { integerIn, parsePort, parseUrl, type BrokerUrl } from './options';
import { configOption, Registry } from './registry';

/** The options of every command that talks to a broker. */
export interface ConnectionOptions {
  url?: BrokerUrl;
  host?: string;
  port?: number;
  config?: string;
  /** Unset means DEFAULT_FACTORY, which --url and --host/--port may do without. */
  factory?: string;
  user?: string;
  password?: string;
  /** Bounds the TCP connect and the wait for the broker's first answer, each. */
  connectTimeout?: number;
}

export const DEFAULT_FACTORY = '/ConnectionFactory';

/** A broker on a network answers within a second; ten leave room for a loaded one. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

type Address = TransportConfiguration;

export function addConnectionOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--url <url>',
        "broker to connect to, e.g. tcp://localhost:5445 (behind a web port: tcp://host:8080?http-upgrade-enabled=true&http-upgrade-endpoint=http-acceptor): replaces the host and port of --factory's connector, keeping its settings",
      )
        .argParser(parseUrl)
        .conflicts(['host', 'port']),
    )
    .option('--host <host>', "broker host: replaces the host of --factory's connector")
    .option('--port <port>', "broker port: replaces the port of --factory's connector", parsePort)
    .addOption(configOption())
    .option(
      '--factory <name>',
      `registry name of the connection factory whose settings to use (default: ${DEFAULT_FACTORY})`,
    )
    .addOption(
      new Option(
        '--connect-timeout <ms>',
        "how long the TCP connect, then the broker's first answer, may each take",
      )
        .argParser(integerIn(1))
        .default(DEFAULT_CONNECT_TIMEOUT_MS),
    )
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
  const address = addressOf(options);
  const timeout = { [CONNECT_TIMEOUT_PARAM]: options.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT_MS };
  const name = options.factory ?? DEFAULT_FACTORY;
  const factory =
    address === null
      ? await registry.connectionFactoryWith(
          name,
          (await registry.connectionFactory(name))
            .getStaticConnectors()
            .map((connector) => ({ ...connector, ...timeout })),
        )
      : await factoryAt({ ...address, ...timeout }, options, registry);
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
      `cannot connect to ${target}: ${connectFailure(error, options)}${loginHint(error, options)}`,
      1,
      {
        cause: error,
      },
    );
  }
}

/** Where --url or --host/--port point; null when they are not given. */
function addressOf(options: ConnectionOptions): Address | null {
  if (options.url !== undefined) {
    return { host: options.url.host, port: options.url.port, ...options.url.params };
  }
  if (options.host === undefined && options.port === undefined) return null;
  return {
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.port === undefined ? {} : { port: options.port }),
  };
}

/**
 * The registry factory with only its host and port replaced. An explicit --factory that cannot be
 * had refuses the command; the default one falls back to HornetQ's defaults, so that --url still
 * works without a configuration (saying so when a hornetq-jms.xml exists but does not serve).
 */
async function factoryAt(
  address: TransportConfiguration,
  options: ConnectionOptions,
  registry: Registry,
): Promise<HornetQConnectionFactory> {
  const name = options.factory ?? DEFAULT_FACTORY;
  const template = await registry.connectionFactory(name).catch((error: unknown) => {
    if (options.factory !== undefined) throw error;
    // No hornetq-jms.xml at all (--config elsewhere): no settings to take, nothing to warn about.
    if (!existsSync(registry.file)) return null;
    process.stderr.write(
      `warning: ${errorLine(error)}; connecting with HornetQ's defaults (no reattachment)\n`,
    );
    return null;
  });
  if (template === null) return new HornetQConnectionFactory(withAddress(undefined, address));
  return registry.connectionFactoryWith(name, [withAddress(template.getStaticConnectors()[0], address)]);
}

/** The factory's first connector at the new address; TLS and its other parameters stay. */
function withAddress(
  connector: TransportConfiguration | undefined,
  address: TransportConfiguration,
): TransportConfiguration {
  // An in-vm connector has nothing a TCP one could keep.
  const kept = connector === undefined || connector['server-id'] !== undefined ? {} : connector;
  return {
    ...kept,
    ...address,
    host: address.host ?? kept.host ?? DEFAULT_HOST,
    port: address.port ?? kept.port ?? DEFAULT_PORT,
  };
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

function connectFailure(error: unknown, options: ConnectionOptions): string {
  const timeoutMs = options.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const longer = 'give --connect-timeout MS to wait longer';
  if (hasCode(error, 'CONNECTION_TIMEDOUT')) {
    return `the broker's first answer did not come within ${timeoutMs} ms: something accepted the connection and said nothing (is it a HornetQ broker? ${longer})`;
  }
  // TcpTransport's own timeout, inside "Cannot connect to server(s)".
  if (/connect to \S+ timed out after/.test(errorLine(error))) {
    return `the TCP connect did not complete within ${timeoutMs} ms (${longer})`;
  }
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

/** Whether a HornetQException with `code` is anywhere in the error's cause chain. */
function hasCode(error: unknown, code: ErrorCodeName): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    if (HornetQException.is(current, code)) return true;
    current = current.cause;
  }
  return false;
}
