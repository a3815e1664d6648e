import type { Logger } from '../../core/remoting';
import { defaultBindings, type DefaultBinding } from './default-bindings';
import type { ServiceContainer } from './service-ids';

/**
 * The default components without a DI container: what EmbeddedJMS and InitialContext.load use when
 * given none. Loading inversify (and the global Reflect metadata API it installs) is left to the
 * applications that ask for a container, so that importing the library stays light.
 */
export function defaultServices(logger?: Logger): ServiceContainer {
  const bindings = new Map<symbol, DefaultBinding>(defaultBindings(logger).map((b) => [b.id, b]));
  const services: ServiceContainer = {
    isBound: (id) => bindings.has(id),
    get<T>(id: symbol): T {
      const found = bindings.get(id);
      if (found === undefined) throw new RangeError(`no component is bound to ${String(id)}`);
      return ('constant' in found ? found.constant : found.dynamic(services)) as T;
    },
  };
  return services;
}
