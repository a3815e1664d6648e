export * from './client-settings';
