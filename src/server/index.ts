export * from './broker';
export * from './broker-configuration';
export {
  DEFAULT_ADDRESS_SETTINGS,
  type AddressFullPolicy,
  type AddressSettings,
} from './postoffice/address-settings';
export type { Filter } from './postoffice/filter';
export type { PageFileSystem } from './paging/page-file-system';
export type { JournalFile, JournalFileSystem } from './storage/journal/journal-file-system';
export { MessageHeader } from './postoffice/message-headers';
export { defaultAcceptorFactory, type Acceptor, type AcceptorFactory } from './remoting/acceptor';
export { FileSecurityManager, type UserAccount, type UserAccounts } from './security/file-security-manager';
export { DEFAULT_LOGIN_THROTTLE_POLICY, type LoginThrottlePolicy } from './security/login-throttle';
export { hashPassword, verifyPassword, type HashOptions } from './security/password-hash';
export { MANAGEMENT_ADDRESS, PERMISSIONS } from './security/permission';
export type { Principal, SecurityManager } from './security/security-manager';
export type {
  StorageManager,
  StoredDuplicateIds,
  StoredQueue,
  StoredReference,
} from './storage/storage-manager';
export { InMemoryStorage } from './storage/in-memory-storage';
export type { BrokerHealth } from './metrics/broker-health';
export { MAX_CONNECTION_SERIES } from './metrics/broker-metrics';
export {
  DEFAULT_METRICS_SERVER_OPTIONS,
  EXPOSITION_CONTENT_TYPE,
  MetricsServer,
  type MetricsServerOptions,
} from './metrics/metrics-server';
export { ServerErrorCode } from './server-error-code';
export { JournalCorruptionError } from './storage/journal/journal-corruption-error';
export { StorageError } from './storage/storage-error';
export { DataDirectoryLockedError } from './lock/data-directory-locked-error';
export { DEFAULT_HA_CONFIGURATION, type HaConfiguration } from './ha/ha-configuration';
export { DataDamageError } from './storage/damage/data-damage-error';
export {
  DAMAGE_KINDS,
  DAMAGE_KIND_NAMES,
  type DamageKind,
  type DamageFinding,
} from './storage/damage/damage-kind';
export type { LockHolder } from './lock/lock-holder';
export { PageCorruptError } from './paging/page-entry-codec';
export { BackupAnnouncer, type BackupAnnouncerOptions } from './cluster/backup-announcer';
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
  DEFAULT_CONSOLE_SERVER_OPTIONS,
  SESSION_COOKIE,
  type ConsoleServerOptions,
} from './console/console-server';
