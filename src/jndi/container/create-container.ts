// inversify reads decorator metadata through it; imported once, here, where containers are built.
import 'reflect-metadata';
import { Container } from 'inversify';
import type { Logger } from '../../core/remoting';
import { defaultBindings } from './default-bindings';

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
  for (const binding of defaultBindings(options.logger)) {
    if ('constant' in binding) container.bind(binding.id).toConstantValue(binding.constant);
    else container.bind(binding.id).toDynamicValue((context) => binding.dynamic(context));
  }
  return container;
}
