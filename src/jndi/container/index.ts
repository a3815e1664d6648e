// createContainer is not here: it loads inversify, which only 'hornetq-js/container' (src/container.ts) pulls in.
export { defaultServices } from './default-services';
export {
  ServiceId,
  type BrokerFactory,
  type FilterFactory,
  type JmsConfigLoader,
  type Resolver,
  type ServerConfigLoader,
  type ServiceContainer,
  type Services,
} from './service-ids';
