export { createContainer, type CreateContainerOptions } from './create-container';
export {
  ServiceId,
  type BrokerFactory,
  type FilterFactory,
  type JmsConfigLoader,
  type ServerConfigLoader,
  type Services,
} from './service-ids';
