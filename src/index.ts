/**
 * The public entry point: the JMS API (HornetQConnectionFactory and what it makes: JMS 1.1's
 * classic API and JMS 2.0's, JMSContext included, also under the javax.jms interface names), the
 * broker, the core client beneath JMS for services that want it directly, and the naming registry
 * (InitialContext, EmbeddedJMS) that loads hornetq-jms.xml and hornetq-configuration.xml.
 * 'hornetq-js/client' is the client part alone; 'hornetq-js/container' the inversify container.
 *
 * Every name is listed by name, here, in the client entry point or in the broker's (src/server),
 * which this one contains whole so that they never disagree: what is not listed is internal,
 * however its module exports it.
 */
import { MAIN_ENTRY_PACKAGES, requirePeerPackages } from './peer-packages';

requirePeerPackages("'hornetq-js'", MAIN_ENTRY_PACKAGES);
export * from './client';
export * from './server';
export { MessageHeader } from './core/protocol/message-header';
export { selectorFilterFactory, type Selector } from './jms/selector/selector';
export type { NameClassPair } from './jndi/binding-registry';
export type {
  ConnectionFactoryDefinition,
  Entry,
  FactorySignature,
  JmsConfiguration,
  QueueDefinition,
  TopicDefinition,
} from './jndi/config/jms-configuration';
export type {
  AcceptorDefinition,
  ConnectorDefinition,
  ConsoleListenerConfiguration,
  Permission,
  SecuritySetting,
  ServerConfiguration,
} from './jndi/config/server-configuration';
export type { JmsParseOptions } from './jndi/config/jms-config-parser';
export type { ParseOptions } from './jndi/config/server-config-parser';
export type { ConfigFiles } from './jndi/config-files';
export { ConfigurationException, type ConfigurationProblem } from './jndi/configuration-exception';
export { JndiErrorCode, type JndiErrorCodeName } from './jndi/jndi-error-code';
export type {
  BrokerFactory,
  FilterFactory,
  JmsConfigLoader,
  Resolver,
  ServerConfigLoader,
  ServiceContainer,
  Services,
} from './jndi/container/service-ids';
export { EmbeddedJMS, type EmbeddedJMSOptions, type QueueInfo } from './jndi/embedded-jms';
export { InitialContext, type InitialContextOptions, type LoadOptions } from './jndi/initial-context';
export type { DeploymentChanges } from './jndi/jms-deployment';
export {
  NameAlreadyBoundException,
  NameNotFoundException,
  NamingException,
  type NamingExceptionOptions,
} from './jndi/naming-exceptions';
export type { Environment } from './jndi/xml/placeholders';
export type { StorageChoice } from './jndi/config/broker-configuration-from-xml';
export type { Value as SettingValue } from './jndi/config/values';
// Types that public signatures use, exported so that applications can name them.
export type { Transport, TransportHandlers } from './core/remoting';
