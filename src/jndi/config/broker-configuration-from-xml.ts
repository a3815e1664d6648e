import type { Logger } from '../../core/remoting';
import { AddressPrefix } from '../../jms/destination';
import {
  DEFAULT_BROKER_CONFIGURATION,
  DEFAULT_BROKER_LIMITS,
  type BrokerConfiguration,
  type CoreQueueConfiguration,
} from '../../server/broker-configuration';
import type { AddressSettings } from '../../server/postoffice/address-settings';
import type { StorageManager } from '../../server/storage/storage-manager';
import { Problems } from '../problems';
import type { JmsConfiguration, QueueDefinition, TopicDefinition } from './jms-configuration';
import { nameTooLong } from './server-config-parser';
import type { ServerConfiguration } from './server-configuration';

/** JMS queue X is the core queue (and address) jms.queue.X; its selector is the queue's filter. */
export function coreQueueOf(queue: QueueDefinition): CoreQueueConfiguration {
  const name = AddressPrefix.QUEUE + queue.name;
  return { name, address: name, filter: queue.selector, durable: queue.durable };
}

/**
 * The filter of a topic's marker queue, HornetQ's JMS server's: no message matches it, so the
 * queue holds nothing.
 */
export const TOPIC_MARKER_FILTER = '__HQX=-1';

/**
 * JMS topic X is the address jms.topic.X, deployed as HornetQ's JMS server deploys it: with a
 * durable marker queue of the same name that takes no message. HornetQ's Java client asks for the
 * address' bindings before it produces to or subscribes to a topic, and refuses a topic without
 * any (InvalidDestinationException) even before a subscriber exists.
 */
export function topicMarkerQueueOf(topic: Pick<TopicDefinition, 'name'>): CoreQueueConfiguration {
  const name = AddressPrefix.TOPIC + topic.name;
  return { name, address: name, filter: TOPIC_MARKER_FILTER, durable: true };
}

/** Where the broker keeps durable state, besides what hornetq-configuration.xml says. */
export interface StorageChoice {
  /** A store to use instead of the journals the persistence settings describe. */
  storage: StorageManager | null;
  /** What relative persistence directories resolve against. */
  dataDirectory: string;
}

/** The broker both files describe; without hornetq-configuration.xml, HornetQ's defaults. */
export function brokerConfigurationOf(
  server: ServerConfiguration | null,
  jms: JmsConfiguration,
  { storage, dataDirectory }: StorageChoice,
  logger: Logger,
): BrokerConfiguration {
  const limits = server?.limits ?? DEFAULT_BROKER_LIMITS;
  checkJmsNames(jms, limits.maxNameLength);
  // Keyed by match, which comes from the file: no prototype a match could reach.
  const addressSettings = Object.create(null) as Record<string, Partial<AddressSettings>>;
  for (const [match, settings] of server?.addressSettings ?? []) addressSettings[match] = settings;
  return {
    ...DEFAULT_BROKER_CONFIGURATION,
    acceptors:
      server === null
        ? DEFAULT_BROKER_CONFIGURATION.acceptors
        : server.acceptors.map((a) => ({ ...a.config })),
    cluster: server?.cluster ?? null,
    addressSettings,
    queues: [
      ...(server?.queues ?? []),
      ...jms.queues.map(coreQueueOf),
      ...jms.topics.map(topicMarkerQueueOf),
    ],
    connectionTtlOverride:
      server?.connectionTtlOverride ?? DEFAULT_BROKER_CONFIGURATION.connectionTtlOverride,
    messageExpiryScanPeriod:
      server?.messageExpiryScanPeriod ?? DEFAULT_BROKER_CONFIGURATION.messageExpiryScanPeriod,
    idCacheSize: server?.idCacheSize ?? DEFAULT_BROKER_CONFIGURATION.idCacheSize,
    persistIdCache: server?.persistIdCache ?? DEFAULT_BROKER_CONFIGURATION.persistIdCache,
    managementAddress: server?.managementAddress ?? DEFAULT_BROKER_CONFIGURATION.managementAddress,
    ...limits,
    nameOnlyReattachEnabled:
      server?.nameOnlyReattachEnabled ?? DEFAULT_BROKER_CONFIGURATION.nameOnlyReattachEnabled,
    securityEnabled: server?.securityEnabled ?? DEFAULT_BROKER_CONFIGURATION.securityEnabled,
    securitySettings: server?.securitySettings ?? DEFAULT_BROKER_CONFIGURATION.securitySettings,
    persistenceEnabled: server?.persistenceEnabled ?? DEFAULT_BROKER_CONFIGURATION.persistenceEnabled,
    ...server?.persistence,
    ...server?.ha,
    dataDirectory,
    ...(storage === null ? {} : { storage }),
    logger,
  };
}

/**
 * hornetq-jms.xml's queues and topics become core names (jms.queue.X, jms.topic.X), which
 * max-name-length of hornetq-configuration.xml bounds; the error names the element and its line.
 */
function checkJmsNames(jms: JmsConfiguration, maxNameLength: number): void {
  const problems = new Problems(jms.file);
  const check = (element: string, prefix: string, { name, line }: { name: string; line: number }): void => {
    if (prefix.length + name.length > maxNameLength)
      problems.error({ name: element, line }, nameTooLong(`a name (as ${prefix}<name>)`, maxNameLength));
  };
  for (const queue of jms.queues) check('queue', AddressPrefix.QUEUE, queue);
  for (const topic of jms.topics) check('topic', AddressPrefix.TOPIC, topic);
  problems.throwIfAny();
}
