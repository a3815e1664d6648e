/**
 * 'hornetq-js/client': the JMS API (1.1's classic API and 2.0's JMSContext, under the javax.jms
 * interface names too: `import type { MessageConsumer } from 'hornetq-js/client'`) and the core
 * client beneath it, for services that connect to a broker and run none. It loads no broker, no
 * XML loaders and no third-party package.
 */
export type { ConnectionFactoryConfig } from './jms/connection-factory-config';
export type { ConnectionFactorySettings } from './jms/connection-factory-settings';
export type { JmsSettings } from './jms/jms-settings';
export { HornetQConnectionMetaData, type ConnectionMetaData } from './jms/connection-metadata';
export {
  HornetQDestination,
  HornetQQueue,
  HornetQTemporaryQueue,
  HornetQTemporaryTopic,
  HornetQTopic,
  type AddressPrefix,
  type Destination,
  type Queue,
  type TemporaryQueue,
  type TemporaryTopic,
  type Topic,
} from './jms/destination';
export {
  IllegalStateException,
  IllegalStateRuntimeException,
  InvalidClientIDException,
  InvalidClientIDRuntimeException,
  InvalidDestinationException,
  InvalidDestinationRuntimeException,
  InvalidSelectorException,
  InvalidSelectorRuntimeException,
  JMSException,
  JMSRuntimeException,
  JMSSecurityException,
  JMSSecurityRuntimeException,
  MessageEOFException,
  MessageFormatException,
  MessageFormatRuntimeException,
  MessageNotReadableException,
  MessageNotWriteableException,
  MessageNotWriteableRuntimeException,
  NumberFormatException,
  ResourceAllocationException,
  ResourceAllocationRuntimeException,
  TransactionInProgressException,
  TransactionInProgressRuntimeException,
  TransactionRolledBackException,
  TransactionRolledBackRuntimeException,
} from './jms/exceptions';
export { JmsErrorCode } from './jms/jms-error-code';
export {
  HornetQConnection,
  type Connection,
  type ExceptionListener,
  type FailoverEventListener,
} from './jms/hornetq-connection';
export {
  HornetQConnectionFactory,
  type ConnectionFactory,
  type ConnectionUrlOptions,
} from './jms/hornetq-connection-factory';
export { HornetQJMSConsumer, type JMSConsumer } from './jms/hornetq-jms-consumer';
export { HornetQJMSContext, JMSContext } from './jms/hornetq-jms-context';
export { HornetQJMSProducer, type JMSProducer, type ProducerBody } from './jms/hornetq-jms-producer';
export {
  HornetQMessageConsumer,
  type MessageConsumer,
  type MessageListener,
  type TopicSubscriber,
} from './jms/hornetq-message-consumer';
export {
  HornetQMessageProducer,
  type MessageProducer,
  type SendOptions,
} from './jms/hornetq-message-producer';
export type { CompletionListener } from './jms/completion-listener';
export { HornetQQueueBrowser, type QueueBrowser } from './jms/hornetq-queue-browser';
export { HornetQSession, Session } from './jms/hornetq-session';
export {
  DeliveryMode,
  HornetQBytesMessage,
  HornetQMapMessage,
  HornetQMessage,
  HornetQObjectMessage,
  HornetQStreamMessage,
  HornetQTextMessage,
  isBytesMessage,
  isMapMessage,
  isMessage,
  isObjectMessage,
  isStreamMessage,
  isTextMessage,
  Message,
  MessageProperty,
  type BodyOf,
  type BodyType,
  type BytesMessage,
  type MapMessage,
  type ObjectMessage,
  type StreamMessage,
  type TextMessage,
} from './jms/message';
export {
  ClientConsumer,
  ClientProducer,
  type ConfirmedSend,
  type ProducerSendOptions,
  ClientSession,
  ClientSessionFactory,
  FailoverEventType,
  KEY_STICKY_POLICY,
  parseConnectionUrl,
  ReceivedMessage,
  ServerLocator,
  type AbortOptions,
  type ClientOptions,
  type ClientSettings,
  type ClientTlsOptions,
  type ConnectionUrlSettingName,
  type ConnectionUrlSettings,
  type ConsumerSettings,
  type CreateConsumerOptions,
  type CreateQueueOptions,
  type FailoverEvent,
  type FailoverStatistics,
  type CoreOnlySettingName,
  type FactoryClientSettings,
  type LocatorConnectOptions,
  type MessageHandler,
  type ParsedConnectionUrl,
  type QueueInfo as CoreQueueInfo,
  type RandomSource,
  type SessionFailureListener,
  type SessionSettings,
  type SharedQueueOptions,
  type TopologyEndpoint,
  type TopologyEvent,
  type TopologyListener,
  type TopologyMember,
  type TopologyParamValue,
  type TopologySnapshot,
  type TransportConfiguration,
} from './core/client';
export {
  ClientTracingChannel,
  type ClientCommitTrace,
  type ClientReceiveTrace,
  type ClientSendTrace,
} from './core/client/client-tracing';
export {
  CoreErrorCode,
  CoreMessage,
  ErrorCode,
  HornetQException,
  MessageType,
  PropertyKind,
  ProtocolError,
  TypedProperties,
  type ClassOf,
  type ErrorCodeName,
  type InstanceOf,
  type QueueStats,
  type TypedValue,
} from './core/protocol';
export {
  TlsConfigurationError,
  type ConfirmationWaiter,
  type Logger,
  type TlsMaterial,
  type TlsSettings,
} from './core/remoting';
export {
  ARTEMIS_DIALECT,
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
