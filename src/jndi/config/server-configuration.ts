import type { TransportConfiguration } from '../../core/client';
import type {
  AcceptorConfiguration,
  BrokerLimits,
  CoreQueueConfiguration,
} from '../../server/broker-configuration';
import type { ClusterConfiguration } from '../../server/cluster/cluster-configuration';
import type { AddressSettings } from '../../server/postoffice/address-settings';
import type { Permission } from '../../server/security/permission';
import type { SecuritySetting as StoreSecuritySetting } from '../../server/security/security-store';
import type { HaConfiguration } from '../../server/ha/ha-configuration';
import type { PersistenceConfiguration } from '../../server/storage/persistence-configuration';
import type { ConfigurationProblem } from '../configuration-exception';

/** A `<connector>`: where clients connect, as the factories that reference it will. */
export interface ConnectorDefinition {
  name: string;
  line: number;
  transport: TransportConfiguration;
}

/** An `<acceptor>`, ready for the broker (a TLS one with its `tls` settings). */
export interface AcceptorDefinition {
  line: number;
  config: AcceptorConfiguration;
}

export type { Permission };

/**
 * A `<security-setting>`: the roles granted each permission on the matching addresses, as the
 * broker's SecurityStore takes it, and the line it is on.
 */
export interface SecuritySetting extends StoreSecuritySetting {
  readonly line: number;
}

/** `<console-port>` and `<console-host>` (ours): where `hornetq server` serves the management console. */
export interface ConsoleListenerConfiguration {
  /** 127.0.0.1 when `<console-host>` is absent. */
  host: string;
  port: number;
}

/** What this implementation takes from hornetq-configuration.xml. */
export interface ServerConfiguration {
  file: string;
  connectors: ReadonlyMap<string, ConnectorDefinition>;
  acceptors: AcceptorDefinition[];
  /** `<cluster-connections>`, `<cluster-user>`, `<cluster-password>`: null when the file has no cluster connection. */
  cluster: ClusterConfiguration | null;
  /** Names of `<discovery-group>`s, which `<discovery-group-ref>` must name. */
  discoveryGroups: ReadonlySet<string>;
  connectionTtlOverride: number;
  messageExpiryScanPeriod: number;
  idCacheSize: number;
  persistIdCache: boolean;
  /** `<management-address>`: where management messages go (jms.queue.hornetq.management when absent). */
  managementAddress: string;
  /** Ours (console-port, console-host): the console's listener; null (none) without console-port. */
  console: ConsoleListenerConfiguration | null;
  /** Ours (extension elements): the bounds on what clients may make the broker hold; defaults when absent. */
  limits: BrokerLimits;
  /** Ours (name-only-reattach-enabled): whether a plain session may be reattached by its name alone; true when absent. */
  nameOnlyReattachEnabled: boolean;
  /** persistence-enabled; false: nothing durable survives a restart (each start gets empty storage). */
  persistenceEnabled: boolean;
  /**
   * The journal, paging and directory settings the file gives (the rest take HornetQ's defaults);
   * relative directories are resolved against the broker's data directory.
   */
  persistence: Readonly<Partial<PersistenceConfiguration>>;
  /** shared-store, backup, allow-failback, failback-delay, failover-on-shutdown as the file gives them. */
  ha: Readonly<Partial<HaConfiguration>>;
  /** Loaded and validated, not enforced yet (a warning says so). */
  securityEnabled: boolean;
  securitySettings: SecuritySetting[];
  /** By match, in file order. */
  addressSettings: ReadonlyMap<string, Partial<AddressSettings>>;
  queues: CoreQueueConfiguration[];
  warnings: ConfigurationProblem[];
}
