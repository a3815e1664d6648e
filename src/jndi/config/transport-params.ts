import type { TransportConfiguration } from '../../core/client';
import type { AcceptorConfiguration } from '../../server/broker-configuration';
import type { Problems } from '../problems';
import type { XmlElement } from '../xml/xml-element';
import { checkShape, first, shapeChildren } from './element-shape';
import type { AcceptorDefinition, ConnectorDefinition } from './server-configuration';
import { GE_ZERO, GT_ZERO, parseValue, PORT, type Value, type ValueSpec } from './values';

export const NETTY_CONNECTOR = 'org.hornetq.core.remoting.impl.netty.NettyConnectorFactory';
export const INVM_CONNECTOR = 'org.hornetq.core.remoting.impl.invm.InVMConnectorFactory';
export const NETTY_ACCEPTOR = 'org.hornetq.core.remoting.impl.netty.NettyAcceptorFactory';
export const INVM_ACCEPTOR = 'org.hornetq.core.remoting.impl.invm.InVMAcceptorFactory';

/** A key HornetQ knows: its type, and (if we do not implement it) what it means here. */
interface ParamKey {
  spec: ValueSpec;
  ignored?: string;
}

const TLS = 'TLS is not implemented; ignored (and never copied into the factories a registry hands out)';
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
  ['key-store-provider', { spec: str, ignored: TLS }],
  ['key-store-path', { spec: str, ignored: TLS }],
  ['key-store-password', { spec: str, ignored: TLS }],
  ['trust-store-provider', { spec: str, ignored: TLS }],
  ['trust-store-path', { spec: str, ignored: TLS }],
  ['trust-store-password', { spec: str, ignored: TLS }],
  ['enabled-cipher-suites', { spec: str, ignored: TLS }],
  ['enabled-protocols', { spec: str, ignored: TLS }],
  ['http-enabled', { spec: bool, ignored: HTTP }],
  ['http-client-idle-time', { spec: { kind: 'long', check: GT_ZERO }, ignored: HTTP }],
  ['http-client-idle-scan-period', { spec: { kind: 'long', check: GT_ZERO }, ignored: HTTP }],
  ['http-requires-session-id', { spec: bool, ignored: HTTP }],
  ['http-upgrade-enabled', { spec: bool, ignored: HTTP }],
  ['http-upgrade-endpoint', { spec: str, ignored: HTTP }],
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
  ['need-client-auth', { spec: bool, ignored: TLS }],
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
  if (params.get('ssl-enabled') === true) {
    config['ssl-enabled'] = true;
    problems.warn(
      element,
      `ssl-enabled: TLS is not implemented; a factory using connector '${name}' refuses to connect rather than fall back to plain TCP`,
      `ssl:${name}`,
    );
  }
  return { name, line: element.line, transport: config };
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
  const protocol = params.get('protocols') ?? params.get('protocol');
  if (protocol !== undefined && String(protocol).toUpperCase() !== 'CORE') {
    problems.warn(
      element,
      `protocol '${String(protocol)}' is not implemented: acceptor '${name}' speaks the core protocol`,
      `protocol:${name}`,
    );
  }
  const sslEnabled = params.get('ssl-enabled') === true;
  if (sslEnabled) {
    problems.warn(
      element,
      `ssl-enabled: TLS is not implemented; EmbeddedJMS refuses to start acceptor '${name}'`,
      `ssl:${name}`,
    );
  }
  return { line: element.line, config, sslEnabled };
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
