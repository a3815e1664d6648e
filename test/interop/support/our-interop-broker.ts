import {
  Broker,
  selectorFilterFactory,
  type BrokerConfiguration,
  type CoreQueueConfiguration,
} from '../../../src';
import { topicMarkerQueueOf } from '../../../src/jndi/config/broker-configuration-from-xml';
import type { ServerOptions } from './interop-server';

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

/** Our broker's settings for an interop server on 127.0.0.1:`port` with `options`' destinations and limits. */
export function ourBrokerConfiguration(port: number, options: ServerOptions): Partial<BrokerConfiguration> {
  const addressSettings: BrokerConfiguration['addressSettings'] = {};
  for (const limit of options.limits ?? [])
    addressSettings[`jms.queue.${limit.queue}`] = {
      maxSizeBytes: limit.maxSizeBytes,
      addressFullPolicy: limit.policy,
    };
  return {
    acceptors: [{ name: 'netty', type: 'tcp', host: '127.0.0.1', port }],
    // As the Java servers of the harness run: security is the subject of scenarios of its own.
    securityEnabled: false,
    persistenceEnabled: options.dataDir !== undefined,
    ...(options.dataDir === undefined ? {} : { dataDirectory: options.dataDir }),
    ...(options.connectionTtlMs === undefined ? {} : { connectionTtlOverride: options.connectionTtlMs }),
    addressSettings,
    queues: jmsQueues(options),
  };
}

/** Our broker in this process, as an interop server: started, stopped and restarted by the test. */
export async function startOurBroker(port: number, options: ServerOptions): Promise<Broker> {
  const broker = new Broker(ourBrokerConfiguration(port, options), selectorFilterFactory);
  await broker.start();
  return broker;
}
