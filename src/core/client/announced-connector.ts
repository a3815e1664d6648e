import { CLIENT_TLS_KEYS, DEFAULT_HOST, DEFAULT_PORT, type TransportConfiguration } from './connector';
import type { TopologyEndpoint, TopologyParamValue } from './topology';

/** Artemis puts a connector's extra properties among its params under this prefix. */
const ARTEMIS_EXTRA_PREFIX = '$.EP.';

/** Artemis' names for HornetQ's netty connector keys (its TransportConstants). */
const ARTEMIS_NAMES: Readonly<Record<string, string>> = {
  'ssl-enabled': 'sslEnabled',
  'http-upgrade-enabled': 'httpUpgradeEnabled',
  'http-upgrade-endpoint': 'httpUpgradeEndpoint',
  'server-id': 'serverId',
};

/** The dial-time settings of our own connector that hold for any server of the cluster. */
const OWN_DIAL_KEYS = ['connect-timeout-millis'] as const;

/**
 * The connector to dial a server the topology announced: its address, TLS and HTTP-upgrade
 * switches from the announced params (strings or numbers; HornetQ's keys or Artemis' camel-case
 * ones, plain or with Artemis' extra-property prefix), never from the Java factory class it names; the TLS material (stores, protocols, host
 * check) and the connect timeout from `own`, the connector this client was configured with, since
 * a broker cannot hand a client its trust. An in-VM endpoint (a server id and no host) stays in-VM.
 */
export function connectorForEndpoint(
  endpoint: TopologyEndpoint,
  own: TransportConfiguration,
): TransportConfiguration {
  const read = (key: string): TopologyParamValue | undefined => {
    for (const name of [key, ARTEMIS_NAMES[key]]) {
      if (name === undefined) continue;
      const value = endpoint.params[name] ?? endpoint.params[ARTEMIS_EXTRA_PREFIX + name];
      if (value !== undefined) return value;
    }
    return undefined;
  };
  const serverId = integerOf(read('server-id'));
  if (serverId !== null && read('host') === undefined) return { 'server-id': serverId };
  const connector: TransportConfiguration = {
    host: textOf(read('host')) ?? endpoint.host,
    port: portOf(read('port')) ?? endpoint.port,
  };
  copyKeys(own, connector, OWN_DIAL_KEYS);
  if (booleanOf(read('ssl-enabled'))) {
    connector['ssl-enabled'] = true;
    copyKeys(own, connector, CLIENT_TLS_KEYS);
  }
  if (booleanOf(read('http-upgrade-enabled'))) {
    connector['http-upgrade-enabled'] = true;
    const path = textOf(read('http-upgrade-endpoint'));
    if (path !== null) connector['http-upgrade-endpoint'] = path;
  }
  return connector;
}

/** HornetQ's netty connector is the same server when host and port are (its isEquivalent). */
export function sameServer(a: TransportConfiguration, b: TransportConfiguration): boolean {
  if (a['server-id'] !== undefined || b['server-id'] !== undefined) return a['server-id'] === b['server-id'];
  return (
    (a.host ?? DEFAULT_HOST) === (b.host ?? DEFAULT_HOST) &&
    Number(a.port ?? DEFAULT_PORT) === Number(b.port ?? DEFAULT_PORT)
  );
}

function copyKeys(
  from: TransportConfiguration,
  to: Record<string, string | number | boolean | undefined>,
  keys: readonly string[],
): void {
  for (const key of keys) if (from[key] !== undefined) to[key] = from[key];
}

function textOf(value: TopologyParamValue | undefined): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function integerOf(value: TopologyParamValue | undefined): number | null {
  const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : null;
}

function portOf(value: TopologyParamValue | undefined): number | null {
  const port = integerOf(value);
  return port !== null && port > 0 && port <= 65_535 ? port : null;
}

function booleanOf(value: TopologyParamValue | undefined): boolean {
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
}
