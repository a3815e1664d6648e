/**
 * 'hornetq-js/container': the inversify container with every component EmbeddedJMS and
 * InitialContext.load take (createContainer, ServiceId), for applications that replace one.
 * Kept out of the main entry point so that importing the library does not load inversify or
 * install reflect-metadata's global Reflect API.
 */
import { CONTAINER_ENTRY_PACKAGES, requirePeerPackages } from './peer-packages';

requirePeerPackages("'hornetq-js/container'", CONTAINER_ENTRY_PACKAGES);
export { createContainer, type CreateContainerOptions } from './jndi/container/create-container';
export * from './jndi/container';
