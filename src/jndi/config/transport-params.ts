import path from 'node:path';
import type { TransportConfiguration } from '../../core/client';
import { DEFAULT_TLS_HANDSHAKE_TIMEOUT_MS, splitTlsList } from '../../core/remoting';
import type { AcceptorConfiguration, TcpAcceptorTlsConfiguration } from '../../server/broker-configuration';
import type { Problems } from '../problems';
import type { XmlElement } from '../xml/xml-element';
import { checkShape, first, shapeChildren } from './element-shape';
import type { AcceptorDefinition, ConnectorDefinition } from './server-configuration';
import {
  GE_ZERO,
  GT_ZERO,
  MINUS_ONE_OR_GT_ZERO,
  parseValue,
  PORT,
  type Value,
  type ValueSpec,
} from './values';

export const NETTY_CONNECTOR = 'org.hornetq.core.remoting.impl.netty.NettyConnectorFactory';
export const INVM_CONNECTOR = 'org.hornetq.core.remoting.impl.invm.InVMConnectorFactory';
export const NETTY_ACCEPTOR = 'org.hornetq.core.remoting.impl.netty.NettyAcceptorFactory';
export const INVM_ACCEPTOR = 'org.hornetq.core.remoting.impl.invm.InVMAcceptorFactory';

/** A key HornetQ knows: its type, and (if we do not implement it) what it means here. */
interface ParamKey {
  spec: ValueSpec;
  ignored?: string;
}

const PROVIDER = 'stores are PKCS#12 or PEM, told apart by their content; ignored';
const HTTP = 'the HTTP transport is not implemented; ignored (connections are plain TCP)';
const SOCKET = "Node's sockets are used as they are; ignored";
const MASKING = 'password masking is not implemented; ignored';

const str: ValueSpec = { kind: 'string' };
const bool: ValueSpec = { kind: 'boolean' };

/** Netty keys shared by connectors and acceptors (HornetQ 2.4 TransportConstants). */
const NETTY_KEYS: ReadonlyArray<[string, ParamKey]> = [
  ['host', { spec: { kind: 'non-empty-string' } }],
  ['port', { spec: { kind: 'int', check: PORT } }],
  ['ssl-enabled', { spec: bool }],
  ['key-store-provider', { spec: str, ignored: PROVIDER }],
  ['key-store-path', { spec: str }],
  ['key-store-password', { spec: str }],
  ['trust-store-provider', { spec: str, ignored: PROVIDER }],
  ['trust-store-path', { spec: str }],
  ['trust-store-password', { spec: str }],
  ['enabled-cipher-suites', { spec: str }],
  ['enabled-protocols', { spec: str }],
  ['http-enabled', { spec: bool, ignored: HTTP }],
  ['http-client-idle-time', { spec: { kind: 'long', check: GT_ZERO }, ignored: HTTP }],
  ['http-client-idle-scan-period', { spec: { kind: 'long', check: GT_ZERO }, ignored: HTTP }],
  ['http-requires-session-id', { spec: bool, ignored: HTTP }],
  ['use-servlet', { spec: bool, ignored: HTTP }],
  ['servlet-path', { spec: str, ignored: HTTP }],
  ['use-nio', { spec: bool, ignored: SOCKET }],
  ['use-nio-global-worker-pool', { spec: bool, ignored: SOCKET }],
  ['nio-remoting-threads', { spec: { kind: 'int' }, ignored: SOCKET }],
  ['tcp-no-delay', { spec: bool, ignored: 'sockets always use no-delay here; ignored' }],
  ['tcp-send-buffer-size', { spec: { kind: 'int', check: GT_ZERO }, ignored: SOCKET }],
  ['tcp-receive-buffer-size', { spec: { kind: 'int', check: GT_ZERO }, ignored: SOCKET }],
  [
    'batch-delay',
    { spec: { kind: 'long', check: GE_ZERO }, ignored: 'writes are batched per event-loop tick; ignored' },
  ],
  ['hornetq.usemaskedpassword', { spec: bool, ignored: MASKING }],
  ['hornetq.passwordcodec', { spec: str, ignored: MASKING }],
];

const CONNECTOR_KEYS = new Map<string, ParamKey>([
  ...NETTY_KEYS,
  ['verify-host', { spec: bool }],
  ['http-upgrade-enabled', { spec: bool }],
  ['http-upgrade-endpoint', { spec: { kind: 'non-empty-string' } }],
  // Artemis' spellings of the same keys.
  ['httpUpgradeEnabled', { spec: bool }],
  ['httpUpgradeEndpoint', { spec: { kind: 'non-empty-string' } }],
  [
    'local-address',
    { spec: str, ignored: 'binding the local end of a connection is not implemented; ignored' },
  ],
  [
    'local-port',
    {
      spec: { kind: 'int', check: PORT },
      ignored: 'binding the local end of a connection is not implemented; ignored',
    },
  ],
  [
    'connect-timeout-millis',
    { spec: { kind: 'long' }, ignored: "the factory's call-timeout bounds connecting; ignored" },
  ],
]);

const ACCEPTOR_KEYS = new Map<string, ParamKey>([
  ...NETTY_KEYS,
  ['protocol', { spec: str }],
  ['protocols', { spec: str }],
  ['need-client-auth', { spec: bool }],
  ['http-upgrade-enabled', { spec: bool }],
  ['httpUpgradeEnabled', { spec: bool }],
  // Seconds, as Artemis': the TLS handshake's bound, and the HTTP upgrade request's.
  ['handshake-timeout', { spec: { kind: 'int', check: GT_ZERO } }],
  ['connections-allowed', { spec: { kind: 'int', check: MINUS_ONE_OR_GT_ZERO } }],
  // Artemis' spelling of the same key.
  ['connectionsAllowed', { spec: { kind: 'int', check: MINUS_ONE_OR_GT_ZERO } }],
  ['backlog', { spec: { kind: 'int', check: GT_ZERO }, ignored: SOCKET }],
  ['direct-deliver', { spec: bool, ignored: 'delivery always runs on the event loop; ignored' }],
  ['cluster-connection', { spec: str, ignored: 'clustering is not implemented; ignored' }],
  ['connection-ttl', { spec: { kind: 'long' }, ignored: 'use connection-ttl-override; ignored' }],
  ['stomp-enable-message-id', { spec: bool, ignored: 'STOMP is not implemented; ignored' }],
  ['stomp-min-large-message-size', { spec: { kind: 'int' }, ignored: 'STOMP is not implemented; ignored' }],
  ['stomp-consumers-credit', { spec: { kind: 'int' }, ignored: 'STOMP is not implemented; ignored' }],
  ['http-response-time', { spec: { kind: 'long' }, ignored: HTTP }],
  ['http-server-scan-period', { spec: { kind: 'long' }, ignored: HTTP }],
]);

const INVM_KEYS = new Map<string, ParamKey>([['server-id', { spec: { kind: 'int', check: GE_ZERO } }]]);

const TRANSPORT_SHAPE = {
  optional: ['name'],
  children: shapeChildren([
    ['factory-class', 'one'],
    ['param', 'many'],
  ]),
} as const;

/** Reads a `<connector>`: a netty one becomes host and port (and ssl-enabled), an in-VM one its server-id. */
export function readConnector(element: XmlElement, problems: Problems): ConnectorDefinition | null {
  const transport = readTransport(element, 'connector', problems);
  if (transport === null) return null;
  const name = element.attributes.get('name') ?? '';
  const params = transport.params;
  if (transport.kind === 'invm') {
    return { name, line: element.line, transport: { 'server-id': numberParam(params, 'server-id', 0) } };
  }
  let host = String(params.get('host') ?? 'localhost');
  if (host === '0.0.0.0') {
    problems.warn(
      element,
      `host 0.0.0.0 is not an address to connect to: connector '${name}' uses localhost`,
      `0.0.0.0:${name}`,
    );
    host = 'localhost';
  }
  const config: TransportConfiguration = { host, port: numberParam(params, 'port', 5445) };
  if (params.get('ssl-enabled') === true)
    Object.assign(config, connectorTls(element, name, params, problems));
  if ((params.get('http-upgrade-enabled') ?? params.get('httpUpgradeEnabled')) === true) {
    config['http-upgrade-enabled'] = true;
    const endpoint =
      stringParam(params, 'http-upgrade-endpoint') ?? stringParam(params, 'httpUpgradeEndpoint');
    if (endpoint !== undefined) config['http-upgrade-endpoint'] = endpoint;
  }
  return { name, line: element.line, transport: config };
}

/** The stores stay out of the factories a registry hands out: they are the server's files and secrets. */
const CLIENT_SUPPLIED = ['key-store-path', 'key-store-password', 'trust-store-path', 'trust-store-password'];

/**
 * What a client that looks the factory up learns of TLS: that it is on, and how to speak it. Its
 * own trust store (and key store, for need-client-auth) it supplies itself.
 */
function connectorTls(
  element: XmlElement,
  name: string,
  params: Map<string, Value>,
  problems: Problems,
): TransportConfiguration {
  const config: TransportConfiguration = { 'ssl-enabled': true };
  for (const key of ['verify-host', 'enabled-protocols', 'enabled-cipher-suites']) {
    const value = params.get(key);
    if (value !== undefined) config[key] = value;
  }
  const dropped = CLIENT_SUPPLIED.filter((key) => params.has(key));
  if (dropped.length > 0) {
    problems.warn(
      element,
      `connector '${name}': ${dropped.join(', ')} not copied into the factories a registry hands out (a client supplies its own trust store and key store)`,
      `tls-stores:${name}`,
    );
  }
  return config;
}

/** Reads an `<acceptor>` (name optional in HornetQ: `fallbackName` then). */
export function readAcceptor(
  element: XmlElement,
  fallbackName: string,
  problems: Problems,
): AcceptorDefinition | null {
  const transport = readTransport(element, 'acceptor', problems);
  if (transport === null) return null;
  const name = element.attributes.get('name') ?? fallbackName;
  const params = transport.params;
  const config: AcceptorConfiguration =
    transport.kind === 'invm'
      ? { name, type: 'invm', serverId: numberParam(params, 'server-id', 0) }
      : {
          name,
          type: 'tcp',
          host: String(params.get('host') ?? 'localhost'),
          port: numberParam(params, 'port', 5445),
        };
  const allowed = params.get('connections-allowed') ?? params.get('connectionsAllowed');
  if (config.type === 'tcp' && allowed !== undefined) config.connectionsAllowed = Number(allowed);
  if (config.type === 'tcp' && params.get('ssl-enabled') === true) {
    const tls = acceptorTls(element, name, params, problems);
    if (tls === null) return null;
    config.tls = tls;
  }
  if (
    config.type === 'tcp' &&
    (params.get('http-upgrade-enabled') ?? params.get('httpUpgradeEnabled')) === true
  ) {
    config.httpUpgrade = params.has('handshake-timeout')
      ? { timeoutMs: numberParam(params, 'handshake-timeout', 0) * 1000 }
      : {};
  }
  const protocol = params.get('protocols') ?? params.get('protocol');
  if (protocol !== undefined && String(protocol).toUpperCase() !== 'CORE') {
    problems.warn(
      element,
      `protocol '${String(protocol)}' is not implemented: acceptor '${name}' speaks the core protocol`,
      `protocol:${name}`,
    );
  }
  return { line: element.line, config };
}

/** A netty acceptor's TLS params; the stores are read when the broker starts the acceptor. */
function acceptorTls(
  element: XmlElement,
  name: string,
  params: Map<string, Value>,
  problems: Problems,
): TcpAcceptorTlsConfiguration | null {
  const store = (key: string): string | undefined => {
    const value = stringParam(params, key);
    // Relative to the configuration file, wherever the broker is started from.
    return value === undefined || problems.file === null
      ? value
      : path.resolve(path.dirname(problems.file), value);
  };
  const keyStorePath = store('key-store-path');
  if (keyStorePath === undefined) {
    problems.error(
      element,
      `acceptor '${name}': ssl-enabled requires key-store-path (the broker's certificate and key)`,
    );
    return null;
  }
  const list = (key: string): string[] | undefined => {
    const value = stringParam(params, key);
    return value === undefined ? undefined : splitTlsList(value);
  };
  return {
    keyStorePath,
    keyStorePassword: stringParam(params, 'key-store-password'),
    trustStorePath: store('trust-store-path'),
    trustStorePassword: stringParam(params, 'trust-store-password'),
    enabledProtocols: list('enabled-protocols'),
    enabledCipherSuites: list('enabled-cipher-suites'),
    needClientAuth: params.get('need-client-auth') === true,
    // Artemis' handshake-timeout is in seconds.
    handshakeTimeout: params.has('handshake-timeout')
      ? numberParam(params, 'handshake-timeout', 0) * 1000
      : DEFAULT_TLS_HANDSHAKE_TIMEOUT_MS,
  };
}

function stringParam(params: Map<string, Value>, key: string): string | undefined {
  const value = params.get(key);
  return value === undefined ? undefined : String(value);
}

function readTransport(
  element: XmlElement,
  role: 'connector' | 'acceptor',
  problems: Problems,
): { kind: 'netty' | 'invm'; params: Map<string, Value> } | null {
  const children = checkShape(
    element,
    role === 'connector' ? { ...TRANSPORT_SHAPE, required: ['name'], optional: [] } : TRANSPORT_SHAPE,
    problems,
  );
  const factory = first(children, 'factory-class');
  if (factory === undefined) {
    problems.error(element, 'requires a <factory-class>');
    return null;
  }
  const className = factory.text.trim();
  const kind = transportKind(className, role);
  if (kind === null) {
    const expected =
      role === 'connector' ? [NETTY_CONNECTOR, INVM_CONNECTOR] : [NETTY_ACCEPTOR, INVM_ACCEPTOR];
    problems.error(
      factory,
      `'${className}' is not a ${role} factory this implementation has (expected ${expected.join(' or ')})`,
    );
    return null;
  }
  return { kind, params: readParams(children.get('param') ?? [], kind, role, problems) };
}

function transportKind(className: string, role: 'connector' | 'acceptor'): 'netty' | 'invm' | null {
  if (className === (role === 'connector' ? NETTY_CONNECTOR : NETTY_ACCEPTOR)) return 'netty';
  if (className === (role === 'connector' ? INVM_CONNECTOR : INVM_ACCEPTOR)) return 'invm';
  return null;
}

function readParams(
  elements: readonly XmlElement[],
  kind: 'netty' | 'invm',
  role: 'connector' | 'acceptor',
  problems: Problems,
): Map<string, Value> {
  const keys = kind === 'invm' ? INVM_KEYS : role === 'connector' ? CONNECTOR_KEYS : ACCEPTOR_KEYS;
  const params = new Map<string, Value>();
  for (const element of elements) {
    checkShape(element, { required: ['key', 'value'] }, problems);
    const key = element.attributes.get('key');
    const raw = element.attributes.get('value');
    if (key === undefined || raw === undefined) continue;
    const known = keys.get(key);
    if (known === undefined) {
      problems.error(
        element,
        `The following keys are invalid for configuring ${role === 'connector' ? 'a connector' : 'an acceptor'}: ${key}`,
      );
      continue;
    }
    const result = parseValue(raw, known.spec);
    if ('problem' in result) {
      problems.error(element, `key '${key}' ${result.problem}`);
      continue;
    }
    if (params.has(key)) problems.error(element, `key '${key}' is given twice`);
    params.set(key, result.value);
    if (known.ignored !== undefined) problems.warn(element, `key '${key}': ${known.ignored}`, `param:${key}`);
  }
  return params;
}

function numberParam(params: Map<string, Value>, key: string, fallback: number): number {
  const value = params.get(key);
  return typeof value === 'number' ? value : fallback;
}
