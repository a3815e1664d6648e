/**
 * The public entry point: the JMS API (HornetQConnectionFactory and what it makes: JMS 1.1's
 * classic API and JMS 2.0's, JMSContext included, also under the javax.jms interface names), the
 * broker, the core client beneath JMS for services that want it directly, and the naming registry
 * (InitialContext, EmbeddedJMS) that loads hornetq-jms.xml and hornetq-configuration.xml.
 * 'hornetq-js/client' is the client part alone; 'hornetq-js/container' the inversify container.
 */
export * from './client';
export * from './server';
export * from './jndi';
// Types that public signatures use, exported so that applications can name them.
export type { Transport, TransportHandlers } from './core/remoting';
export type { ScryptParameters } from './server/security/password-hash';
export type { SecuritySetting as AddressSecuritySetting } from './server/security/security-store';
export type { PersistenceConfiguration } from './server/storage/persistence-configuration';
export type { Durability, StorageLoadReport } from './server/storage/storage-manager';
export type { StorageChoice } from './jndi/config/broker-configuration-from-xml';
export type { Value as SettingValue } from './jndi/config/values';
export {
  ARTEMIS_DIALECT,
  DEFAULT_MANAGEMENT_TIMEOUT_MS,
  HORNETQ_DIALECT,
  ManagementClient,
  ManagementError,
  ManagementErrorCode,
  managementDialect,
  type ConnectionInfo,
  type ConsumerInfo,
  type CreateManagedQueueOptions,
  type ListQueueMessagesOptions,
  type ManagementClientOptions,
  type ManagementDialect,
  type ManagementDialectName,
  type ManagementErrorCodeName,
  type ManagementValue,
  type MessageFilterOptions,
  type QueueCounters,
  type QueueMessageInfo,
  type SubscriptionInfo,
} from './management';
