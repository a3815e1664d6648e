export { BindingRegistry, type NameClassPair } from './binding-registry';
export { brokerConfigurationOf } from './config/broker-configuration-from-xml';
export type {
  ConnectionFactoryDefinition,
  Entry,
  FactorySignature,
  JmsConfiguration,
  QueueDefinition,
  TopicDefinition,
} from './config/jms-configuration';
export {
  loadJmsConfiguration,
  NETTY_DEFAULT,
  parseJmsConfiguration,
  type JmsParseOptions,
} from './config/jms-config-parser';
export type {
  AcceptorDefinition,
  ConnectorDefinition,
  Permission,
  SecuritySetting,
  ServerConfiguration,
} from './config/server-configuration';
export {
  loadServerConfiguration,
  parseServerConfiguration,
  type ParseOptions,
} from './config/server-config-parser';
export { DEFAULT_SCAN_PERIOD_MS, type ConfigFiles } from './config-files';
export { ConfigurationException, formatProblem, type ConfigurationProblem } from './configuration-exception';
export { JndiErrorCode, type JndiErrorCodeName } from './jndi-error-code';
export {
  defaultServices,
  ServiceId,
  type BrokerFactory,
  type FilterFactory,
  type JmsConfigLoader,
  type Resolver,
  type ServerConfigLoader,
  type ServiceContainer,
  type Services,
} from './container';
export { EmbeddedJMS, type EmbeddedJMSOptions, type QueueInfo } from './embedded-jms';
export { InitialContext, type InitialContextOptions, type LoadOptions } from './initial-context';
export type { DeploymentChanges } from './jms-deployment';
export {
  NameAlreadyBoundException,
  NameNotFoundException,
  NamingException,
  type NamingExceptionOptions,
} from './naming-exceptions';
export { normalizeName } from './names';
export type { Environment } from './xml/placeholders';
export { MAX_CONFIG_BYTES, MAX_NESTING_DEPTH } from './xml/safe-xml-parser';
