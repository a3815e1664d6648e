import { silentLogger, type Logger } from '../../core/remoting';
import { selectorFilterFactory } from '../../jms/selector';
import { Broker } from '../../server/broker';
import { defaultAcceptorFactory } from '../../server/remoting/acceptor';
import { InitialContext } from '../initial-context';
import { defaultJmsConfigLoader, defaultServerConfigLoader } from './default-loaders';
import { resolve, ServiceId, type Resolver, type Services } from './service-ids';

/** One default component: a value shared by every resolution, or made anew at each one. */
export type DefaultBinding<K extends keyof Services = keyof Services> =
  { id: K; constant: Services[K] } | { id: K; dynamic: (resolver: Resolver) => Services[K] };

/**
 * The components both createContainer and defaultServices bind, in one table so that the two
 * cannot drift apart. No StorageManager: the broker keeps durable state as
 * hornetq-configuration.xml says (bind one to replace it). The logger writes nothing unless one is
 * given: a library does not write to the application's stderr (the command passes its own).
 */
export function defaultBindings(logger: Logger = silentLogger): DefaultBinding[] {
  return [
    binding(ServiceId.JmsConfigLoader, { constant: defaultJmsConfigLoader }),
    binding(ServiceId.ServerConfigLoader, { constant: defaultServerConfigLoader }),
    // Made at each resolution: every EmbeddedJMS gets its own registry and its own durable state.
    binding(ServiceId.NamingRegistry, { dynamic: () => new InitialContext() }),
    binding(ServiceId.AcceptorFactory, { constant: defaultAcceptorFactory }),
    binding(ServiceId.FilterFactory, { constant: selectorFilterFactory }),
    binding(ServiceId.Logger, { constant: logger }),
    // Resolved when the factory is, so a rebound acceptor or filter factory applies from the next start.
    binding(ServiceId.BrokerFactory, {
      dynamic: (resolver) => {
        const acceptorFactory = resolve(resolver, ServiceId.AcceptorFactory);
        const filterFactory = resolve(resolver, ServiceId.FilterFactory);
        return (config) => new Broker({ acceptorFactory, ...config }, filterFactory);
      },
    }),
  ];
}

function binding<K extends keyof Services>(
  id: K,
  source: { constant: Services[K] } | { dynamic: (resolver: Resolver) => Services[K] },
): DefaultBinding {
  return { id, ...source } as DefaultBinding;
}
