/**
 * The management client: operating HornetQ 2.4, our broker or Artemis through the management
 * address (request and answer messages), with results in one typed form whatever the server.
 */
export type { ConnectionInfo } from './connection-info';
export type { ConsumerInfo } from './consumer-info';
export {
  DEFAULT_MANAGEMENT_TIMEOUT_MS,
  ManagementClient,
  type CreateManagedQueueOptions,
  type ListQueueMessagesOptions,
  type ManagementClientOptions,
  type MessageFilterOptions,
  type QueueCounters,
} from './management-client';
export {
  decodeManagementReply,
  encodeManagementRequest,
  type ManagementRequest,
  type ManagementValue,
} from './management-codec';
export {
  ARTEMIS_DIALECT,
  HORNETQ_DIALECT,
  managementDialect,
  type ManagementDialect,
  type ManagementDialectName,
} from './management-dialect';
export { ManagementError, ManagementErrorCode, type ManagementErrorCodeName } from './management-error';
export type { QueueMessageInfo } from './queue-message-info';
export { durableSubscriptionOf, type SubscriptionInfo } from './subscription-info';
