import {
  Broker,
  FileSecurityManager,
  selectorFilterFactory,
  type BrokerConfiguration,
  type CoreQueueConfiguration,
  type TcpAcceptorConfiguration,
} from '../../../src';
import { DEFAULT_TLS_HANDSHAKE_TIMEOUT_MS } from '../../../src/core/remoting';
import { topicMarkerQueueOf } from '../../../src/jndi/config/broker-configuration-from-xml';
import type { Permission } from '../../../src/server/security/permission';
import { tlsAcceptorFiles, type InteropSecurity, type ServerOptions } from './interop-server';

/** The JMS destinations of `options` as our broker's core queues, as EmbeddedJMS deploys them from hornetq-jms.xml. */
function jmsQueues({ queues = [], topics = [] }: ServerOptions): CoreQueueConfiguration[] {
  const queue = (name: string): CoreQueueConfiguration => ({
    name: `jms.queue.${name}`,
    address: `jms.queue.${name}`,
    filter: null,
    durable: true,
  });
  return [...queues.map(queue), ...topics.map((name) => topicMarkerQueueOf({ name }))];
}

/** The options' TLS acceptors as ours, on the ports given by name; our broker reads PEM trust stores. */
function tlsAcceptors(
  options: ServerOptions,
  tlsPorts: ReadonlyMap<string, number>,
): TcpAcceptorConfiguration[] {
  return (options.tlsAcceptors ?? []).map((acceptor) => {
    const files = tlsAcceptorFiles(acceptor, options.tlsFiles);
    return {
      name: acceptor.name,
      type: 'tcp',
      host: '127.0.0.1',
      port: tlsPorts.get(acceptor.name) ?? 0,
      tls: {
        keyStorePath: files.keyStorePath,
        keyStorePassword: files.keyStorePassword,
        needClientAuth: files.clientCa !== null,
        ...(files.clientCa === null ? {} : { trustStorePath: files.clientCa.pem }),
        ...(acceptor.enabledProtocols === undefined ? {} : { enabledProtocols: acceptor.enabledProtocols }),
        handshakeTimeout: DEFAULT_TLS_HANDSHAKE_TIMEOUT_MS,
      },
    };
  });
}

/** Security as the options have it; off without them, as the Java servers of the harness run. */
function securityConfiguration(security: InteropSecurity | undefined): Partial<BrokerConfiguration> {
  if (security === undefined) return { securityEnabled: false };
  return {
    securityEnabled: true,
    securityManager: new FileSecurityManager({ defaultUser: null, users: security.users }),
    securitySettings: security.settings.map((setting) => ({
      match: setting.match,
      permissions: new Map(Object.entries(setting.permissions) as Array<[Permission, readonly string[]]>),
    })),
  };
}

/**
 * Our broker's settings for an interop server on 127.0.0.1:`port` with `options`' destinations,
 * limits and TLS acceptors (on `tlsPorts`).
 */
export function ourBrokerConfiguration(
  port: number,
  options: ServerOptions,
  tlsPorts: ReadonlyMap<string, number> = new Map(),
): Partial<BrokerConfiguration> {
  const addressSettings: BrokerConfiguration['addressSettings'] = {};
  for (const limit of options.limits ?? [])
    addressSettings[`jms.queue.${limit.queue}`] = {
      maxSizeBytes: limit.maxSizeBytes,
      addressFullPolicy: limit.policy,
    };
  for (const deadLetter of options.deadLetters ?? [])
    addressSettings[`jms.queue.${deadLetter.queue}`] = {
      ...addressSettings[`jms.queue.${deadLetter.queue}`],
      deadLetterAddress: `jms.queue.${deadLetter.deadLetterQueue}`,
      maxDeliveryAttempts: deadLetter.maxDeliveryAttempts,
    };
  return {
    acceptors: [{ name: 'netty', type: 'tcp', host: '127.0.0.1', port }, ...tlsAcceptors(options, tlsPorts)],
    ...securityConfiguration(options.security),
    persistenceEnabled: options.dataDir !== undefined,
    ...(options.dataDir === undefined ? {} : { dataDirectory: options.dataDir }),
    ...(options.connectionTtlMs === undefined ? {} : { connectionTtlOverride: options.connectionTtlMs }),
    addressSettings,
    queues: jmsQueues(options),
  };
}

/** Our broker in this process, as an interop server: started, stopped and restarted by the test. */
export async function startOurBroker(
  port: number,
  options: ServerOptions,
  tlsPorts: ReadonlyMap<string, number>,
): Promise<Broker> {
  const broker = new Broker(ourBrokerConfiguration(port, options, tlsPorts), selectorFilterFactory);
  await broker.start();
  return broker;
}
