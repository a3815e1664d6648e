import {
  DEFAULT_CLUSTER_MAX_RETRY_INTERVAL,
  DEFAULT_CLUSTER_RETRY_INTERVAL,
  DEFAULT_CLUSTER_USER,
  type ClusterConfiguration,
  type ClusterConnector,
} from '../../server/cluster/cluster-configuration';
import type { Problems } from '../problems';
import type { XmlElement } from '../xml/xml-element';
import { checkShape, first } from './element-shape';
import type { ConnectorDefinition } from './server-configuration';
import { GT_ZERO, readValue, type ValueSpec } from './values';

/** Elements of HornetQ's `<cluster-connection>` that steer message load balancing between lives, which this broker does not do. */
const LOAD_BALANCING_ELEMENTS = [
  'address',
  'use-duplicate-detection',
  'forward-when-no-consumers',
  'max-hops',
  'confirmation-window-size',
  'call-timeout',
  'call-failover-timeout',
  'check-period',
  'connection-ttl',
  'min-large-message-size',
  'reconnect-attempts',
  'retry-interval-multiplier',
  'notification-interval',
  'notification-attempts',
  'allow-direct-connections-only',
] as const;

const CLUSTER_CONNECTION_SHAPE = {
  required: ['name'],
  children: new Map<string, 'one' | 'many'>([
    ['connector-ref', 'one'],
    ['static-connectors', 'one'],
    ['discovery-group-ref', 'one'],
    ['retry-interval', 'one'],
    ['max-retry-interval', 'one'],
    ...LOAD_BALANCING_ELEMENTS.map((name): [string, 'one'] => [name, 'one']),
  ]),
};

const POSITIVE_LONG: ValueSpec = { kind: 'long', check: GT_ZERO };

/** What the root holds about clustering: the section and the two credentials as read. */
export interface ClusterElements {
  section: XmlElement | undefined;
  user: string | undefined;
  password: string | undefined;
}

/**
 * `<cluster-connections>` with `<cluster-user>` and `<cluster-password>`: the minimal cluster
 * connection of a live/backup pair (one `<cluster-connection>`, its connector-ref and, for a
 * backup, static-connectors naming the live). Null when there is none. The password is never put
 * in a problem's message.
 */
export function readClusterConfiguration(
  elements: ClusterElements,
  connectors: ReadonlyMap<string, ConnectorDefinition>,
  problems: Problems,
): ClusterConfiguration | null {
  const { section } = elements;
  if (section === undefined) return null;
  const children = checkShape(section, { children: new Map([['cluster-connection', 'many']]) }, problems);
  const [element, ...others] = children.get('cluster-connection') ?? [];
  for (const extra of others) {
    problems.error(
      extra,
      'a second cluster connection: this broker forms a live/backup pair, with one cluster connection',
    );
  }
  if (element === undefined) {
    problems.error(section, 'needs a <cluster-connection>');
    return null;
  }
  // HornetQ's clustered examples: lives that find each other by discovery and balance messages.
  if (element.children.some((child) => child.name === 'discovery-group-ref')) {
    problems.warn(
      section,
      'is not used here: clustering is not implemented beyond a live/backup pair (this cluster connection finds its peers by discovery); the broker runs on its own',
    );
    return null;
  }
  const connection = readClusterConnection(element, connectors, problems);
  if (elements.password === undefined || elements.password === '') {
    problems.error(
      section,
      "needs <cluster-password>: a backup logs in to its live with cluster-user and cluster-password (HornetQ's default password is not accepted)",
    );
    return null;
  }
  if (connection === null) return null;
  return { connection, user: elements.user ?? DEFAULT_CLUSTER_USER, password: elements.password };
}

function readClusterConnection(
  element: XmlElement,
  connectors: ReadonlyMap<string, ConnectorDefinition>,
  problems: Problems,
): ClusterConfiguration['connection'] | null {
  const name = element.attributes.get('name') ?? '';
  const children = checkShape(element, CLUSTER_CONNECTION_SHAPE, problems);
  for (const ignored of LOAD_BALANCING_ELEMENTS) {
    const child = first(children, ignored);
    if (child !== undefined) {
      problems.warn(
        child,
        'is not used here: this broker forms no cluster of lives, so no messages are load balanced',
      );
    }
  }
  const connectorRef = first(children, 'connector-ref');
  if (connectorRef === undefined) {
    problems.error(element, 'needs <connector-ref>: the connector this server announces to clients');
    return null;
  }
  const connector = resolveConnector(connectorRef, connectors, problems);
  const staticConnectors = readStaticConnectors(first(children, 'static-connectors'), connectors, problems);
  const retryInterval = readNumber(
    first(children, 'retry-interval'),
    DEFAULT_CLUSTER_RETRY_INTERVAL,
    problems,
  );
  const maxRetryInterval = readNumber(
    first(children, 'max-retry-interval'),
    Math.max(DEFAULT_CLUSTER_MAX_RETRY_INTERVAL, retryInterval),
    problems,
  );
  if (connector === null || staticConnectors === null) return null;
  return { name, connector, staticConnectors, retryInterval, maxRetryInterval };
}

function readStaticConnectors(
  element: XmlElement | undefined,
  connectors: ReadonlyMap<string, ConnectorDefinition>,
  problems: Problems,
): ClusterConnector[] | null {
  if (element === undefined) return [];
  const children = checkShape(element, { children: new Map([['connector-ref', 'many']]) }, problems);
  const resolved = (children.get('connector-ref') ?? []).map((ref) =>
    resolveConnector(ref, connectors, problems),
  );
  return resolved.every((c) => c !== null) ? (resolved as ClusterConnector[]) : null;
}

/** A `<connector-ref>` names a `<connector>` of `<connectors>`; only TCP ones can be announced. */
function resolveConnector(
  ref: XmlElement,
  connectors: ReadonlyMap<string, ConnectorDefinition>,
  problems: Problems,
): ClusterConnector | null {
  const name = ref.text.trim();
  const definition = connectors.get(name);
  if (definition === undefined) {
    const known = [...connectors.keys()].join(', ') || 'none';
    problems.error(ref, `names connector '${name}', which <connectors> does not define (defined: ${known})`);
    return null;
  }
  const { host, port } = definition.transport;
  if (definition.transport['server-id'] !== undefined || definition.transport['ssl-enabled'] === true) {
    problems.error(
      ref,
      `connector '${name}' is in-VM or TLS: a cluster connection announces a plain TCP connector`,
    );
    return null;
  }
  return { name, host: host ?? 'localhost', port: port ?? 5445 };
}

function readNumber(element: XmlElement | undefined, fallback: number, problems: Problems): number {
  if (element === undefined) return fallback;
  const value = readValue(element, POSITIVE_LONG, problems);
  return typeof value === 'number' ? value : fallback;
}
