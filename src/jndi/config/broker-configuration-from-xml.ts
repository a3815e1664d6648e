import type { Logger } from '../../core/remoting';
import { AddressPrefix } from '../../jms/destination';
import {
  DEFAULT_BROKER_CONFIGURATION,
  type BrokerConfiguration,
  type CoreQueueConfiguration,
} from '../../server/broker-configuration';
import type { AddressSettings } from '../../server/postoffice/address-settings';
import type { StorageManager } from '../../server/storage/storage-manager';
import type { JmsConfiguration, QueueDefinition } from './jms-configuration';
import type { ServerConfiguration } from './server-configuration';

/** JMS queue X is the core queue (and address) jms.queue.X; its selector is the queue's filter. */
export function coreQueueOf(queue: QueueDefinition): CoreQueueConfiguration {
  const name = AddressPrefix.QUEUE + queue.name;
  return { name, address: name, filter: queue.selector, durable: queue.durable };
}

/** The broker both files describe; without hornetq-configuration.xml, HornetQ's defaults. */
export function brokerConfigurationOf(
  server: ServerConfiguration | null,
  jms: JmsConfiguration,
  storage: StorageManager,
  logger: Logger,
): BrokerConfiguration {
  // Keyed by match, which comes from the file: no prototype a match could reach.
  const addressSettings = Object.create(null) as Record<string, Partial<AddressSettings>>;
  for (const [match, settings] of server?.addressSettings ?? []) addressSettings[match] = settings;
  return {
    ...DEFAULT_BROKER_CONFIGURATION,
    acceptors:
      server === null
        ? DEFAULT_BROKER_CONFIGURATION.acceptors
        : server.acceptors.map((a) => ({ ...a.config })),
    addressSettings,
    queues: [...(server?.queues ?? []), ...jms.queues.map(coreQueueOf)],
    connectionTtlOverride:
      server?.connectionTtlOverride ?? DEFAULT_BROKER_CONFIGURATION.connectionTtlOverride,
    messageExpiryScanPeriod:
      server?.messageExpiryScanPeriod ?? DEFAULT_BROKER_CONFIGURATION.messageExpiryScanPeriod,
    idCacheSize: server?.idCacheSize ?? DEFAULT_BROKER_CONFIGURATION.idCacheSize,
    persistIdCache: server?.persistIdCache ?? DEFAULT_BROKER_CONFIGURATION.persistIdCache,
    storage,
    logger,
  };
}
