export * from './broker';
export * from './broker-configuration';
export type { AddressFullPolicy, AddressSettings } from './postoffice/address-settings';
export type { Filter } from './postoffice/filter';
export type { StorageManager, StoredQueue, StoredReference } from './storage/storage-manager';
export { InMemoryStorage } from './storage/in-memory-storage';
