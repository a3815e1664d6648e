import type { TransportConfiguration } from '../../core/protocol';

/** A TCP endpoint of a server, as a `<connector>` of hornetq-configuration.xml names it. */
export interface ClusterConnector {
  /** The connector's name in the configuration (sent along in the topology). */
  name: string;
  host: string;
  port: number;
}

/**
 * The minimal cluster connection a live/backup pair needs (hornetq-configuration.xml's
 * `<cluster-connection>`): what this server announces, and, for a backup, the live it announces
 * itself to. No message load balancing: this broker forms no cluster of lives.
 */
export interface ClusterConnectionConfiguration {
  name: string;
  /** `<connector-ref>`: how clients reach this server; announced in the topology. */
  connector: ClusterConnector;
  /** `<static-connectors>`: the live a backup announces itself to (the first that answers). */
  staticConnectors: ClusterConnector[];
  /** `<retry-interval>`: ms before a backup dials its live again (HornetQ's default 500). */
  retryInterval: number;
  /** Ours: the most a backup's pause between dials grows to (doubling from retryInterval). */
  maxRetryInterval: number;
}

/** A cluster connection and the credentials its peers log in with (`<cluster-user>`, `<cluster-password>`). */
export interface ClusterConfiguration {
  connection: ClusterConnectionConfiguration;
  /** HornetQ's default is HORNETQ.CLUSTER.ADMIN.USER. */
  user: string;
  /** Required (HornetQ's "CHANGE ME!!" default is refused); never logged. */
  password: string;
}

export const DEFAULT_CLUSTER_USER = 'HORNETQ.CLUSTER.ADMIN.USER';
export const DEFAULT_CLUSTER_RETRY_INTERVAL = 500;
export const DEFAULT_CLUSTER_MAX_RETRY_INTERVAL = 5000;

/** HornetQ's netty connector class: a Java client of HornetQ dials what the topology names with it. */
export const NETTY_CONNECTOR_FACTORY = 'org.hornetq.core.remoting.impl.netty.NettyConnectorFactory';

/** How a connector is announced on the wire (HornetQ's TransportConfiguration; the port as an int, as HornetQ sends it). */
export function announcedConnector(connector: ClusterConnector): TransportConfiguration {
  return {
    name: connector.name,
    factoryClassName: NETTY_CONNECTOR_FACTORY,
    params: [
      ['host', { type: 'string', value: connector.host }],
      ['port', { type: 'int', value: connector.port }],
    ],
  };
}

/** Throws RangeError naming what is wrong with a cluster configuration. */
export function validateClusterConfiguration(cluster: ClusterConfiguration): void {
  const { connection } = cluster;
  if (cluster.user === '') throw new RangeError('cluster-user must not be empty');
  if (cluster.password === '') {
    throw new RangeError(
      `cluster-password must be set for cluster-connection '${connection.name}': a backup logs in to its live with it`,
    );
  }
  for (const connector of [connection.connector, ...connection.staticConnectors]) {
    if (!Number.isInteger(connector.port) || connector.port < 1 || connector.port > 65535) {
      throw new RangeError(
        `cluster-connection '${connection.name}': connector '${connector.name}' has port ${connector.port}, not 1 to 65535`,
      );
    }
  }
  if (!(connection.retryInterval > 0) || !(connection.maxRetryInterval >= connection.retryInterval)) {
    throw new RangeError(
      `cluster-connection '${connection.name}': retry-interval must be > 0 and at most the max retry interval (${connection.retryInterval}, ${connection.maxRetryInterval})`,
    );
  }
}

/** `host:port` of an announced connector, for log lines (nothing else of it is shown). */
export function describeConnector(connector: TransportConfiguration): string {
  const param = (key: string): string => {
    const found = connector.params.find(([name]) => name === key);
    return found === undefined ? '?' : String(found[1].value);
  };
  return `${param('host')}:${param('port')}`;
}
