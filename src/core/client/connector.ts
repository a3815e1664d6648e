import {
  InVmRegistry,
  loadTls,
  splitTlsList,
  TcpTransport,
  TlsConfigurationError,
  type HttpUpgradeRequest,
  type TlsConnectOptions,
  type Transport,
} from '../remoting';
import type { ClientTlsOptions } from './client-tls-options';

/**
 * Where a client connects, with the keys of a connector's params in hornetq-configuration.xml:
 * `host` and `port` for TCP, `server-id` for an in-VM connector, and HornetQ's TLS keys (with
 * Artemis' `verify-host`) when `ssl-enabled` is true. Lists are comma-separated, as in the XML.
 */
export interface TransportConfiguration {
  host?: string;
  port?: number;
  'server-id'?: number;
  'ssl-enabled'?: boolean;
  /** This client's certificate and key, for a broker with need-client-auth (PKCS#12, or PEM with both). */
  'key-store-path'?: string;
  'key-store-password'?: string;
  /** Ours: the private key of a PEM key-store-path that holds the certificate chain alone. */
  'key-path'?: string;
  /** A PEM bundle of the CAs the broker's certificate must lead to; Node's own CAs when absent. */
  'trust-store-path'?: string;
  'trust-store-password'?: string;
  /** e.g. 'TLSv1.2,TLSv1.3': a contiguous range. */
  'enabled-protocols'?: string;
  /** OpenSSL names, comma-separated. */
  'enabled-cipher-suites'?: string;
  /** Check that the broker's certificate names `host` (default true); the chain is checked always. */
  'verify-host'?: boolean;
  /**
   * Upgrade the connection from HTTP before speaking the core protocol (after TLS when
   * ssl-enabled): for a broker behind a web port, as WildFly and JBoss EAP 7 expose messaging.
   */
  'http-upgrade-enabled'?: boolean;
  /** The acceptor's name on a server that fronts several (WildFly: its http-acceptor's name). */
  'http-upgrade-endpoint'?: string;
  [param: string]: string | number | boolean | undefined;
}

export const DEFAULT_HOST = 'localhost';
export const DEFAULT_PORT = 5445;

/**
 * Artemis' connector parameter: how long the TCP (and TLS) connect may take, and here also the
 * wait for the broker's first answer; call-timeout when absent (HornetQ 2.4 has no such bound).
 */
export const CONNECT_TIMEOUT_PARAM = 'connect-timeout-millis';

export function connectTimeoutOf(connector: TransportConfiguration, fallbackMs: number): number {
  const value = connector[CONNECT_TIMEOUT_PARAM];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallbackMs;
}

export function isInVm(connector: TransportConfiguration): boolean {
  return connector['server-id'] !== undefined;
}

export function isTls(connector: TransportConfiguration): boolean {
  return connector['ssl-enabled'] === true;
}

/**
 * Whether the connector upgrades from HTTP: HornetQ's key, or Artemis' spelling, which Artemis
 * (WildFly) announces to a HornetQ 2.4 client as it is: its BackwardsCompatibilityUtils renames
 * ssl, http and socket params to HornetQ's names, not the upgrade ones. A server's value may come
 * as text.
 */
export function isHttpUpgrade(connector: TransportConfiguration): boolean {
  const artemis = connector.httpUpgradeEnabled;
  return connector['http-upgrade-enabled'] === true || artemis === true || artemis === 'true';
}

function httpUpgradeEndpointOf(connector: TransportConfiguration): string | undefined {
  const endpoint = connector['http-upgrade-endpoint'] ?? connector.httpUpgradeEndpoint;
  return endpoint === undefined ? undefined : String(endpoint);
}

export function describeConnector(connector: TransportConfiguration): string {
  if (isInVm(connector)) return `invm://${connector['server-id']}`;
  const scheme = isTls(connector) ? 'tls' : 'tcp';
  return `${scheme}://${connector.host ?? DEFAULT_HOST}:${connector.port ?? DEFAULT_PORT}`;
}

const TLS_TEXT_KEYS = [
  'key-store-path',
  'key-store-password',
  'key-path',
  'trust-store-path',
  'trust-store-password',
  'enabled-protocols',
  'enabled-cipher-suites',
] as const;

/**
 * A connector's TLS settings that the client brings itself, beyond 'ssl-enabled': its stores,
 * key, protocols and host check. A broker announces none of them, and a plain connector has none.
 */
export const CLIENT_TLS_KEYS = [...TLS_TEXT_KEYS, 'verify-host'] as const;
const BOOLEAN_KEYS = ['ssl-enabled', 'verify-host', 'http-upgrade-enabled'];
const TEXT_KEYS = [...TLS_TEXT_KEYS, 'http-upgrade-endpoint'];

/**
 * What is wrong with the types of a connector's TLS and HTTP upgrade keys ('verify-host': 'false'
 * would check the host all the same, silently); a password's value is never repeated.
 */
export function connectorTlsProblems(connector: TransportConfiguration): string[] {
  const where = describeConnector(connector);
  const problems: string[] = [];
  for (const key of BOOLEAN_KEYS) {
    const value = connector[key];
    if (value !== undefined && typeof value !== 'boolean') {
      problems.push(
        `connector ${where}: ${key} must be true or false (actual value: ${JSON.stringify(value)})`,
      );
    }
  }
  for (const key of TEXT_KEYS) {
    const value = connector[key];
    if (value !== undefined && typeof value !== 'string') {
      const shown = key.endsWith('password') ? `a ${typeof value}` : JSON.stringify(value);
      problems.push(`connector ${where}: ${key} must be a string (actual value: ${shown})`);
    }
  }
  return problems;
}

/**
 * Each connector's stores are read once, at its first connect; reconnects reuse the context (and
 * keep no password: the context holds the key already decrypted). The in-memory material it was
 * made with is kept beside it, so that the same connector dialled with other material gets its own.
 */
const contexts = new WeakMap<
  TransportConfiguration,
  { material: ClientTlsOptions | undefined; options: TlsConnectOptions }
>();

/**
 * Opens a transport to the connector's broker; rejects with why it could not, or with the reason
 * of `signal` when it aborts (the socket it was opening destroyed).
 */
export async function connectTransport(
  connector: TransportConfiguration,
  timeoutMs: number,
  signal?: AbortSignal,
  material?: ClientTlsOptions,
): Promise<Transport> {
  signal?.throwIfAborted();
  if (isInVm(connector)) {
    if (isTls(connector)) {
      throw new TlsConfigurationError(describeConnector(connector), 'ssl-enabled needs a netty connector');
    }
    return InVmRegistry.connect(Number(connector['server-id']));
  }
  const host = connector.host ?? DEFAULT_HOST;
  const port = Number(connector.port ?? DEFAULT_PORT);
  // HornetQ's spelling of the upgrade: this client speaks HornetQ 2.4's protocol, and WildFly
  // takes that spelling from legacy clients (a standalone Artemis acceptor takes neither).
  const upgrade: HttpUpgradeRequest | undefined = isHttpUpgrade(connector)
    ? { host, port, endpoint: httpUpgradeEndpointOf(connector), flavour: 'hornetq' }
    : undefined;
  if (!isTls(connector)) return TcpTransport.connect(host, port, timeoutMs, signal, upgrade);
  return TcpTransport.connectTls(host, port, timeoutMs, clientTls(connector, material), signal, upgrade);
}

function clientTls(
  connector: TransportConfiguration,
  material: ClientTlsOptions | undefined,
): TlsConnectOptions {
  const known = contexts.get(connector);
  if (known !== undefined && known.material === material) return known.options;
  const text = (key: string): string | undefined => {
    const value = connector[key];
    return value === undefined ? undefined : String(value);
  };
  const protocols = text('enabled-protocols');
  const suites = text('enabled-cipher-suites');
  const { context } = loadTls(
    {
      keyStorePath: text('key-store-path'),
      keyStorePassword: material?.passphrase ?? text('key-store-password'),
      privateKeyPath: text('key-path'),
      trustStorePath: text('trust-store-path'),
      trustStorePassword: text('trust-store-password'),
      enabledProtocols: protocols === undefined ? undefined : splitTlsList(protocols),
      enabledCipherSuites: suites === undefined ? undefined : splitTlsList(suites),
      ca: material?.ca,
      cert: material?.cert,
      key: material?.key,
      pfx: material?.pfx,
    },
    `connector ${describeConnector(connector)}`,
  );
  const options = { context, verifyHost: connector['verify-host'] !== false };
  contexts.set(connector, { material, options });
  return options;
}
