// inversify reads decorator metadata through it; imported once, here, where containers are built.
import 'reflect-metadata';
import { Container } from 'inversify';
import type { Logger } from '../../core/remoting';
import { selectorFilterFactory } from '../../jms/selector';
import { Broker } from '../../server/broker';
import { defaultAcceptorFactory } from '../../server/remoting/acceptor';
import { consoleLogger } from '../console-logger';
import { InitialContext } from '../initial-context';
import { defaultJmsConfigLoader, defaultServerConfigLoader } from './default-loaders';
import { resolve, ServiceId, type BrokerFactory, type Services } from './service-ids';

export interface CreateContainerOptions {
  /** Bound as ServiceId.Logger; warnings and errors to the console when absent. */
  logger?: Logger;
}

/**
 * A container with every component EmbeddedJMS (and InitialContext.load, given the container) takes
 * from it: the two configuration loaders, the naming registry, the broker's acceptor
 * factory, the filter factory, the logger and the broker factory. Rebind one (`rebindSync`) before
 * starting to replace it and keep the rest.
 *
 * Plain factory bindings, no decorators: every component is a function or an object built from
 * configuration files at start, which constructor injection would not express better.
 */
export function createContainer(options: CreateContainerOptions = {}): Container {
  const container = new Container();
  bindConstant(container, ServiceId.JmsConfigLoader, defaultJmsConfigLoader);
  bindConstant(container, ServiceId.ServerConfigLoader, defaultServerConfigLoader);
  // Transient: every EmbeddedJMS gets its own registry and its own durable state.
  container.bind<InitialContext>(ServiceId.NamingRegistry).toDynamicValue(() => new InitialContext());
  // No StorageManager: the broker keeps durable state as hornetq-configuration.xml says (bind one to replace it).
  bindConstant(container, ServiceId.AcceptorFactory, defaultAcceptorFactory);
  bindConstant(container, ServiceId.FilterFactory, selectorFilterFactory);
  bindConstant(container, ServiceId.Logger, options.logger ?? consoleLogger);
  // Resolved when the factory is, so a rebound acceptor or filter factory applies from the next start.
  container.bind<BrokerFactory>(ServiceId.BrokerFactory).toDynamicValue((context) => {
    const acceptorFactory = resolve(context, ServiceId.AcceptorFactory);
    const filterFactory = resolve(context, ServiceId.FilterFactory);
    return (config) => new Broker({ acceptorFactory, ...config }, filterFactory);
  });
  return container;
}

function bindConstant<K extends keyof Services>(container: Container, id: K, value: Services[K]): void {
  container.bind<Services[K]>(id).toConstantValue(value);
}
