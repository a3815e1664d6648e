import type { Logger } from '../../core/remoting';
import type { BrokerLimits } from '../broker-configuration';
import type { BrokerTopology } from '../cluster/broker-topology';
import type { ClusterCredentials } from '../cluster/cluster-credentials';
import type { PostOffice } from '../postoffice/post-office';
import type { BrokerSecurity } from '../security/broker-security';
import type { MetadataRegistry } from '../session/metadata-registry';
import type { ServerSession } from '../session/server-session';
import type { ManagementEndpoint } from '../management/management-endpoint';
import type { Durability } from '../storage/storage-manager';
import type { ServerConnection } from './server-connection';

/** What a connection needs from its broker. */
export interface BrokerServices {
  readonly postOffice: PostOffice;
  readonly logger: Logger;
  readonly connectionTtlOverride: number;
  /** The broker's node id (a UUID, stable over its life and, when it persists, its restarts). */
  readonly nodeId: string;
  readonly metadata: MetadataRegistry<ServerSession>;
  /** The largest body a large message may have (it is assembled in memory). */
  readonly maxLargeMessageBytes: number;
  /** What one connection may hold, and how long it may go without a session or stuck. */
  readonly limits: Readonly<BrokerLimits>;
  /** Whether a session created without our reattach secret may be reattached by its name alone. */
  readonly nameOnlyReattachEnabled: boolean;
  /**
   * The broker's cluster connection: the topology it serves its clients, and the login a backup
   * presents before it may announce itself. Null when the broker is not clustered.
   */
  readonly cluster: ClusterServices | null;
  /** Who a client logs in as, and what each login may do. */
  readonly security: BrokerSecurity;
  /** Where messages sent to the management address go. */
  readonly managementEndpoint: ManagementEndpoint | null;
  /** Whether what a session stored is on disk yet: its answers wait for that. */
  readonly durability: Durability;
  /** The store failed (HornetQ's critical I/O error): the broker stops. */
  storageFailed(error: Error): void;
  registerSession(session: ServerSession): void;
  unregisterSession(session: ServerSession): void;
  findSession(name: string): ServerSession | undefined;
  connectionClosed(connection: ServerConnection): void;
  /** A session was reattached to this connection (counted for metrics). */
  sessionReattached(): void;
}

/** What a clustered broker's connections share. */
export interface ClusterServices {
  readonly topology: BrokerTopology;
  readonly credentials: ClusterCredentials;
}
