/**
 * The public entry point: the JMS 1.1 API (HornetQConnectionFactory and what it makes), the
 * broker, the core client beneath JMS for services that want it directly, and the naming registry
 * (InitialContext, EmbeddedJMS) that loads hornetq-jms.xml and hornetq-configuration.xml.
 * 'hornetq-js/client' is the client part alone; 'hornetq-js/container' the inversify container.
 */
export * from './client';
export * from './server';
export * from './jndi';
