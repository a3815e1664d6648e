/**
 * The public entry point: the JMS 1.1 API (HornetQConnectionFactory and what it makes), the
 * broker, the core client beneath JMS for services that want it directly, and the naming registry
 * (InitialContext, EmbeddedJMS) that loads hornetq-jms.xml and hornetq-configuration.xml.
 */
export * from './jms';
export {
  ClientConsumer,
  ClientProducer,
  ClientSession,
  ClientSessionFactory,
  DEFAULT_CLIENT_OPTIONS,
  FailoverEventType,
  ReceivedMessage,
  type AbortOptions,
  type ClientOptions,
  type CreateConsumerOptions,
  type CreateQueueOptions,
  type FailoverEvent,
  type FailoverStatistics,
  type MessageHandler,
  type QueueInfo as CoreQueueInfo,
  type SessionFailureListener,
  type SessionSettings,
  type TransportConfiguration,
} from './core/client';
export {
  CoreMessage,
  HornetQException,
  MessageType,
  PropertyKind,
  TypedProperties,
  type ErrorCodeName,
  type TypedValue,
} from './core/protocol';
export { TlsConfigurationError, type Logger, type TlsSettings } from './core/remoting';
export * from './server';
export * from './jndi';
