export * from './client-consumer';
export * from './client-options';
export * from './client-producer';
export * from './client-session';
export * from './client-session-factory';
export * from './connector';
export * from './received-message';
export * from './failover-events';
