export * from './channel';
export * from './in-vm-transport';
export * from './logger';
export * from './remoting-connection';
export * from './resend-buffer';
export * from './tcp-transport';
export * from './transport';
export * from './in-vm-registry';
