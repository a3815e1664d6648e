/**
 * The public entry point. The core layer is exported for services that want it directly; the JMS
 * API and the naming registry are built on top of it.
 */
export {
  ClientConsumer,
  ClientProducer,
  ClientSession,
  ClientSessionFactory,
  DEFAULT_CLIENT_OPTIONS,
  ReceivedMessage,
  type ClientOptions,
  type CreateConsumerOptions,
  type CreateQueueOptions,
  type MessageHandler,
  type QueueInfo as CoreQueueInfo,
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
export type { Logger } from './core/remoting';
export * from './server';
