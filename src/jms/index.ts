export { DEFAULT_CONNECTION_FACTORY_CONFIG, type ConnectionFactoryConfig } from './connection-factory-config';
export type { ConnectionFactorySettings } from './connection-factory-settings';
export type { JmsSettings } from './jms-settings';
export { HornetQConnectionMetaData, type ConnectionMetaData } from './connection-metadata';
export * from './destination';
export * from './exceptions';
export { JmsErrorCode } from './jms-error-code';
export {
  HornetQConnection,
  type Connection,
  type ExceptionListener,
  type FailoverEventListener,
} from './hornetq-connection';
export {
  HornetQConnectionFactory,
  type ConnectionFactory,
  type ConnectionUrlOptions,
} from './hornetq-connection-factory';
export { HornetQJMSConsumer, type JMSConsumer } from './hornetq-jms-consumer';
export { HornetQJMSContext, JMSContext } from './hornetq-jms-context';
export { HornetQJMSProducer, type JMSProducer, type ProducerBody } from './hornetq-jms-producer';
export {
  HornetQMessageConsumer,
  type MessageConsumer,
  type MessageListener,
  type TopicSubscriber,
} from './hornetq-message-consumer';
export { HornetQMessageProducer, type MessageProducer, type SendOptions } from './hornetq-message-producer';
export { type CompletionListener } from './completion-listener';
export { HornetQQueueBrowser, type QueueBrowser } from './hornetq-queue-browser';
export { HornetQSession, Session } from './hornetq-session';
export * from './message';
export { parseSelector, selectorFilterFactory, type Selector } from './selector';
