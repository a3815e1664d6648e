/**
 * 'hornetq-js/client': the JMS API (1.1's classic API and 2.0's JMSContext, under the javax.jms
 * interface names too: `import type { MessageConsumer } from 'hornetq-js/client'`) and the core
 * client beneath it, for services that connect to a broker and run none. It loads no broker, no
 * XML loaders and no third-party package.
 */
export * from './jms';
export {
  ClientConsumer,
  ClientProducer,
  type ConfirmedSend,
  type ProducerSendOptions,
  ClientSession,
  ClientSessionFactory,
  DEFAULT_CLIENT_OPTIONS,
  DEFAULT_LOAD_BALANCING_POLICY,
  FailoverEventType,
  KEY_STICKY_POLICY,
  maskConnectionUrl,
  parseConnectionUrl,
  ReceivedMessage,
  ServerLocator,
  type AbortOptions,
  type ClientOptions,
  type ClientTlsOptions,
  type ConnectionUrlSettingName,
  type ConnectionUrlSettings,
  type ConsumerSettings,
  type CreateConsumerOptions,
  type CreateQueueOptions,
  type FailoverEvent,
  type FailoverStatistics,
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
