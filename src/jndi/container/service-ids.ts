import type { Logger } from '../../core/remoting';
import type { Broker } from '../../server/broker';
import type { BrokerConfiguration } from '../../server/broker-configuration';
import type { Filter } from '../../server/postoffice/filter';
import type { AcceptorFactory } from '../../server/remoting/acceptor';
import type { StorageManager } from '../../server/storage/storage-manager';
import type { JmsParseOptions } from '../config/jms-config-parser';
import type { JmsConfiguration } from '../config/jms-configuration';
import type { ParseOptions } from '../config/server-config-parser';
import type { ServerConfiguration } from '../config/server-configuration';
import type { InitialContext } from '../initial-context';

/** Turns the text of hornetq-jms.xml into what is deployed; a hot redeploy calls it with the edited text. */
export interface JmsConfigLoader {
  /** @throws ConfigurationException */
  parse(source: string, file: string, options: JmsParseOptions): JmsConfiguration;
}

/** Turns the text of hornetq-configuration.xml into the broker's side of the configuration. */
export interface ServerConfigLoader {
  /** @throws ConfigurationException */
  parse(source: string, file: string, options: ParseOptions): ServerConfiguration;
}

/** Compiles a queue's or a consumer's filter (a JMS selector); throws INVALID_FILTER_EXPRESSION. */
export type FilterFactory = (expression: string) => Filter;

/** Makes the broker both configuration files describe (not started). */
export type BrokerFactory = (config: BrokerConfiguration) => Broker;

// Symbol.for: the same identifier even if the package is loaded twice (src and dist, two copies).
const jmsConfigLoader: unique symbol = Symbol.for('hornetq-js.JmsConfigLoader');
const serverConfigLoader: unique symbol = Symbol.for('hornetq-js.ServerConfigLoader');
const namingRegistry: unique symbol = Symbol.for('hornetq-js.NamingRegistry');
const storageManager: unique symbol = Symbol.for('hornetq-js.StorageManager');
const acceptorFactory: unique symbol = Symbol.for('hornetq-js.AcceptorFactory');
const filterFactory: unique symbol = Symbol.for('hornetq-js.FilterFactory');
const logger: unique symbol = Symbol.for('hornetq-js.Logger');
const brokerFactory: unique symbol = Symbol.for('hornetq-js.BrokerFactory');

/**
 * The service identifiers createContainer binds. Rebind one to change that component alone, e.g.
 * `container.rebindSync<AcceptorFactory>(ServiceId.AcceptorFactory).toConstantValue(myFactory)`.
 */
export const ServiceId = {
  /** JmsConfigLoader for hornetq-jms.xml, at start and at every redeploy (parseJmsConfiguration). */
  JmsConfigLoader: jmsConfigLoader,
  /** ServerConfigLoader for hornetq-configuration.xml (parseServerConfiguration). */
  ServerConfigLoader: serverConfigLoader,
  /** InitialContext that EmbeddedJMS binds into; a new empty one per EmbeddedJMS. */
  NamingRegistry: namingRegistry,
  /**
   * StorageManager for durable state, kept across an EmbeddedJMS's restarts. Not bound by default:
   * the broker then keeps durable state in journals as hornetq-configuration.xml's persistence
   * settings say. Bind one to replace them.
   */
  StorageManager: storageManager,
  /** AcceptorFactory making the broker's transports, TCP and in-VM (defaultAcceptorFactory). */
  AcceptorFactory: acceptorFactory,
  /** FilterFactory for queue and consumer selectors (selectorFilterFactory). */
  FilterFactory: filterFactory,
  /** Logger of the broker and the deployer (warnings and errors to the console). */
  Logger: logger,
  /** BrokerFactory making a Broker with the bound acceptor and filter factories. */
  BrokerFactory: brokerFactory,
} as const;

/** What each identifier resolves to. */
export interface Services {
  [ServiceId.JmsConfigLoader]: JmsConfigLoader;
  [ServiceId.ServerConfigLoader]: ServerConfigLoader;
  [ServiceId.NamingRegistry]: InitialContext;
  [ServiceId.StorageManager]: StorageManager;
  [ServiceId.AcceptorFactory]: AcceptorFactory;
  [ServiceId.FilterFactory]: FilterFactory;
  [ServiceId.Logger]: Logger;
  [ServiceId.BrokerFactory]: BrokerFactory;
}

/** A container, or the context a dynamic binding resolves in. */
export interface Resolver {
  get<T>(serviceIdentifier: symbol): T;
}

/**
 * Where EmbeddedJMS and InitialContext.load take their components from: an inversify Container
 * (createContainer, from 'hornetq-js/container') satisfies it, and so does the plain default set
 * (defaultServices) that the library uses when no container is given, without loading inversify.
 */
export interface ServiceContainer extends Resolver {
  isBound(serviceIdentifier: symbol): boolean;
}

/** `resolver.get`, typed by the identifier. */
export function resolve<K extends keyof Services>(resolver: Resolver, id: K): Services[K] {
  return resolver.get<Services[K]>(id);
}
