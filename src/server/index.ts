/**
 * The broker's public surface, by name: the Broker, what its configuration and options are made
 * of, its errors, and the interfaces an application may implement (a SecurityManager, a
 * StorageManager, an acceptor factory). Defaults, limits and validation stay in their modules.
 */
export { Broker, type BrokerState, type ConnectionStatistics, type QueueStatistics } from './broker';
export type {
  AcceptorConfiguration,
  BrokerConfiguration,
  BrokerLimits,
  CoreQueueConfiguration,
  HttpUpgradeAcceptorConfiguration,
  InVmAcceptorConfiguration,
  TcpAcceptorConfiguration,
  TcpAcceptorTlsConfiguration,
} from './broker-configuration';
export type { AddressFullPolicy, AddressSettings } from './postoffice/address-settings';
export type { Filter } from './postoffice/filter';
export type { PageFileSystem } from './paging/page-file-system';
export type { JournalFile, JournalFileSystem } from './storage/journal/journal-file-system';
export type { Acceptor, AcceptorFactory } from './remoting/acceptor';
export { FileSecurityManager, type UserAccount, type UserAccounts } from './security/file-security-manager';
export type { LoginThrottlePolicy } from './security/login-throttle';
export { hashPassword, type HashOptions, type ScryptParameters } from './security/password-hash';
export type { Principal, SecurityManager } from './security/security-manager';
export type { SecuritySetting as AddressSecuritySetting } from './security/security-store';
export type { PersistenceConfiguration } from './storage/persistence-configuration';
export type {
  Durability,
  StorageLoadReport,
  StorageManager,
  StoredDuplicateIds,
  StoredQueue,
  StoredReference,
} from './storage/storage-manager';
export type { BrokerHealth } from './metrics/broker-health';
export { MetricsServer, type MetricsServerOptions } from './metrics/metrics-server';
export { ServerErrorCode } from './server-error-code';
export {
  BrokerTracingChannel,
  type BrokerDeliverTrace,
  type BrokerMessageTrace,
  type BrokerRouteTrace,
} from './broker-tracing';
export { JournalCorruptionError } from './storage/journal/journal-corruption-error';
export { StorageError } from './storage/storage-error';
export { DataDirectoryLockedError } from './lock/data-directory-locked-error';
export type { LockHolder } from './lock/lock-holder';
export type { HaConfiguration } from './ha/ha-configuration';
export { DataDamageError } from './storage/damage/data-damage-error';
// The kinds a DamageFinding names, as the storage's errors report them (the type DamageKind is made of them).
export { DAMAGE_KINDS, type DamageFinding, type DamageKind } from './storage/damage/damage-kind';
// The permission names, for code that builds security settings or checks a role's rights.
export { PERMISSIONS } from './security/permission';
export { PageCorruptError } from './paging/page-entry-codec';
export type {
  ClusterConfiguration,
  ClusterConnectionConfiguration,
  ClusterConnector,
} from './cluster/cluster-configuration';
export type {
  BrokerManagement,
  ListMessagesOptions,
  ManagedQueueOptions,
  SubscriptionKind,
} from './management/broker-management';
export type {
  BodyView,
  BrokerInfo,
  ConnectionView,
  ConsumerView,
  MessageTypeName,
  MessageView,
  PropertyTypeName,
  PropertyView,
  QueueSummary,
  SessionView,
  SubscriptionView,
} from './management/management-views';
export { MANAGEMENT_LIMITS } from './management/management-limits';
export {
  ConsoleServer,
  CSRF_HEADER,
  SESSION_COOKIE,
  type ConsoleServerOptions,
} from './console/console-server';
