import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import {
  CLIENT_TLS_KEYS,
  CONNECT_TIMEOUT_PARAM,
  DEFAULT_HOST,
  DEFAULT_PORT,
  describeConnector,
  type TransportConfiguration,
} from '../../core/client';
import {
  parseConnectionUrl,
  type ConnectionUrlSettings,
  type ParsedConnectionUrl,
} from '../../core/client/connection-url';
import { HornetQException, type ErrorCodeName } from '../../core/protocol';
import {
  HornetQConnectionFactory,
  JMSException,
  JMSSecurityException,
  type HornetQConnection,
} from '../../jms';
import { CliError, errorLine, systemErrorCode } from './cli-error';
import { integerIn, parsePort } from './options';
import { configOption, Registry } from './registry';

/** The options of every command that talks to a broker. */
export interface ConnectionOptions {
  url?: ParsedConnectionUrl;
  /** --ca: a PEM bundle of the CAs the broker's certificate must lead to (trust-store-path). */
  ca?: string;
  /** --cert: this client's certificate (key-store-path: PEM, with its key unless --key, or PKCS#12). */
  cert?: string;
  /** --key: the PEM private key of --cert (key-path). */
  key?: string;
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
        "broker to connect to: tcp://host:port or tls://host:port, with connector and factory parameters in Artemis' or HornetQ's spelling (tls://host:5446?trustStorePath=ca.pem&reconnectAttempts=-1; behind a web port: tcp://host:8080?httpUpgradeEnabled=true&httpUpgradeEndpoint=http-acceptor); replaces the address of --factory's connector, keeping its other settings",
      )
        .argParser(urlOption)
        .conflicts(['host', 'port']),
    )
    .option('--host <host>', "broker host: replaces the host of --factory's connector")
    .option('--port <port>', "broker port: replaces the port of --factory's connector", parsePort)
    .option('--ca <file>', "PEM bundle of the CAs to trust for the broker's certificate (turns TLS on)")
    .option(
      '--cert <file>',
      'client certificate for a broker that asks for one: PEM (with its key unless --key) or PKCS#12 (turns TLS on)',
    )
    .option('--key <file>', 'PEM private key of --cert')
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

/**
 * --url's value read by parseConnectionUrl. Its error is a CliError, not commander's
 * InvalidArgumentError, whose message would repeat the URL as given, passwords included.
 */
function urlOption(value: string): ParsedConnectionUrl {
  try {
    return parseConnectionUrl(value);
  } catch (error) {
    throw new CliError(`--url: ${(error as Error).message}`, 1, { cause: error });
  }
}

/**
 * Whom to connect to and how: the registry's factory, or a plain one for --url / --host / --port,
 * with --ca/--cert/--key, then `settings` (the command's own: reconnection for producer and
 * consumer), then --url's factory parameters, each over the one before.
 */
export async function factoryFor(
  options: ConnectionOptions,
  registry: Registry,
  settings: ConnectionUrlSettings = {},
): Promise<{ factory: HornetQConnectionFactory; target: string }> {
  const address = addressOf(options);
  const dial = {
    [CONNECT_TIMEOUT_PARAM]: options.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT_MS,
    ...tlsOptionsOf(options),
  };
  const name = options.factory ?? DEFAULT_FACTORY;
  const ha = options.url?.settings.ha;
  const factory =
    address === null
      ? await registry.connectionFactoryWith(
          name,
          (await registry.connectorsOf(name)).map((connector) => ({ ...connector, ...dial })),
        )
      : await factoryAt({ ...address, ...dial }, options, registry, ha);
  factory.applySettings({ ...withoutHa(settings), ...withoutHa(options.url?.settings ?? {}) });
  const target = factory.getStaticConnectors().map(describeConnector).join(', ');
  return { factory, target };
}

/** `ha` is given when a factory is made, not set on it. */
function withoutHa(settings: ConnectionUrlSettings): Omit<ConnectionUrlSettings, 'ha'> {
  const { ha: _ha, ...rest } = settings;
  return rest;
}

/** --ca, --cert and --key as connector params; any of them turns TLS on. */
function tlsOptionsOf(options: ConnectionOptions): TransportConfiguration {
  if (options.key !== undefined && options.cert === undefined) {
    throw new CliError('--key is the private key of --cert: give --cert FILE too');
  }
  const files: Array<[string, string | undefined]> = [
    ['trust-store-path', options.ca],
    ['key-store-path', options.cert],
    ['key-path', options.key],
  ];
  const given = files.filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (given.length === 0) return {};
  if (options.url?.connector['ssl-enabled'] === false) {
    throw new CliError('--ca, --cert and --key are for TLS, and --url says sslEnabled=false');
  }
  return Object.fromEntries([
    ['ssl-enabled', true],
    ...given.map(([key, file]) => [key, path.resolve(file)]),
  ]);
}

/** --reconnect-attempts of the commands that ride through a broker restart. */
export interface ReconnectOptions {
  reconnectAttempts: number;
}

/**
 * Producer and consumer keep going when the broker goes away and comes back: they reconnect (and
 * reattach or re-create their sessions) until it is back, or give up after N attempts.
 */
export function addReconnectOption(command: Command): Command {
  return command.addOption(
    new Option(
      '--reconnect-attempts <n>',
      'when the connection fails, reconnect this many times before giving up (-1: until the broker is back, 0: never)',
    )
      .argParser(integerIn(-1))
      .default(-1),
  );
}

/** The factory settings --reconnect-attempts means (a --url parameter wins over it). */
export function reconnectSettings(options: ReconnectOptions): ConnectionUrlSettings {
  return { reconnectAttempts: options.reconnectAttempts };
}

/** Opens a JMS connection; "no broker there" and its kin become one line naming the address. */
export async function connect(
  options: ConnectionOptions,
  registry: Registry,
  settings: ConnectionUrlSettings = {},
): Promise<{ connection: HornetQConnection; target: string }> {
  const { factory, target } = await factoryFor(options, registry, settings);
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
  if (options.url !== undefined) return options.url.connector;
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
  ha: boolean | undefined,
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
  if (template === null) return new HornetQConnectionFactory(ha ?? false, withAddress(undefined, address));
  const [first] = await registry.connectorsOf(name);
  return registry.connectionFactoryWith(name, [withAddress(first, address)], ha);
}

/**
 * The factory's first connector at the new address, its other parameters kept; its TLS settings
 * only when the new address is TLS too (a tcp:// URL means a plain connection).
 */
function withAddress(
  connector: TransportConfiguration | undefined,
  address: TransportConfiguration,
): TransportConfiguration {
  // An in-vm connector has nothing a TCP one could keep.
  const whole = connector === undefined || connector['server-id'] !== undefined ? {} : connector;
  const kept = address['ssl-enabled'] === true ? whole : withoutTls(whole);
  return {
    ...kept,
    ...address,
    host: address.host ?? kept.host ?? DEFAULT_HOST,
    port: address.port ?? kept.port ?? DEFAULT_PORT,
  };
}

function withoutTls(connector: TransportConfiguration): TransportConfiguration {
  return Object.fromEntries(Object.entries(connector).filter(([key]) => !TLS_PARAMS.has(key)));
}

const TLS_PARAMS: ReadonlySet<string> = new Set(['ssl-enabled', ...CLIENT_TLS_KEYS]);

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
