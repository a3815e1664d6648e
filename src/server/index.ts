export * from './broker';
export * from './broker-configuration';
export {
  DEFAULT_ADDRESS_SETTINGS,
  type AddressFullPolicy,
  type AddressSettings,
} from './postoffice/address-settings';
export type { Filter } from './postoffice/filter';
export { MessageHeader } from './postoffice/message-headers';
export { defaultAcceptorFactory, type Acceptor, type AcceptorFactory } from './remoting/acceptor';
export type {
  StorageManager,
  StoredDuplicateIds,
  StoredQueue,
  StoredReference,
} from './storage/storage-manager';
export { InMemoryStorage } from './storage/in-memory-storage';
