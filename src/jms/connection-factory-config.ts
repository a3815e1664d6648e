import { DEFAULT_CLIENT_OPTIONS, type ClientOptions } from '../core/client';

/** Everything a HornetQConnectionFactory can be told, with HornetQ 2.4's defaults. */
export interface ConnectionFactoryConfig extends Omit<
  ClientOptions,
  'connectors' | 'logger' | 'maxFrameBytes' | 'ackBatchSize'
> {
  clientID: string | null;
  dupsOKBatchSize: number;
  transactionBatchSize: number;
  autoGroup: boolean;
  groupID: string | null;
  compressLargeMessage: boolean;
  cacheLargeMessagesClient: boolean;
}

export const DEFAULT_CONNECTION_FACTORY_CONFIG: Readonly<ConnectionFactoryConfig> = Object.freeze({
  callTimeout: DEFAULT_CLIENT_OPTIONS.callTimeout,
  callFailoverTimeout: DEFAULT_CLIENT_OPTIONS.callFailoverTimeout,
  connectionTTL: DEFAULT_CLIENT_OPTIONS.connectionTTL,
  clientFailureCheckPeriod: DEFAULT_CLIENT_OPTIONS.clientFailureCheckPeriod,
  confirmationWindowSize: DEFAULT_CLIENT_OPTIONS.confirmationWindowSize,
  consumerWindowSize: DEFAULT_CLIENT_OPTIONS.consumerWindowSize,
  consumerMaxRate: DEFAULT_CLIENT_OPTIONS.consumerMaxRate,
  producerWindowSize: DEFAULT_CLIENT_OPTIONS.producerWindowSize,
  producerMaxRate: DEFAULT_CLIENT_OPTIONS.producerMaxRate,
  minLargeMessageSize: DEFAULT_CLIENT_OPTIONS.minLargeMessageSize,
  maxLargeMessageBytes: DEFAULT_CLIENT_OPTIONS.maxLargeMessageBytes,
  blockOnAcknowledge: DEFAULT_CLIENT_OPTIONS.blockOnAcknowledge,
  blockOnDurableSend: DEFAULT_CLIENT_OPTIONS.blockOnDurableSend,
  blockOnNonDurableSend: DEFAULT_CLIENT_OPTIONS.blockOnNonDurableSend,
  duplicateIdOnDurableSend: DEFAULT_CLIENT_OPTIONS.duplicateIdOnDurableSend,
  preAcknowledge: DEFAULT_CLIENT_OPTIONS.preAcknowledge,
  initialConnectAttempts: DEFAULT_CLIENT_OPTIONS.initialConnectAttempts,
  ha: DEFAULT_CLIENT_OPTIONS.ha,
  failoverOnInitialConnection: DEFAULT_CLIENT_OPTIONS.failoverOnInitialConnection,
  connectionLoadBalancingPolicyClassName: DEFAULT_CLIENT_OPTIONS.connectionLoadBalancingPolicyClassName,
  reconnectAttempts: DEFAULT_CLIENT_OPTIONS.reconnectAttempts,
  retryInterval: DEFAULT_CLIENT_OPTIONS.retryInterval,
  retryIntervalMultiplier: DEFAULT_CLIENT_OPTIONS.retryIntervalMultiplier,
  maxRetryInterval: DEFAULT_CLIENT_OPTIONS.maxRetryInterval,
  retryJitter: DEFAULT_CLIENT_OPTIONS.retryJitter,
  clientID: null,
  dupsOKBatchSize: 1024 * 1024,
  transactionBatchSize: 1024 * 1024,
  autoGroup: false,
  groupID: null,
  compressLargeMessage: false,
  cacheLargeMessagesClient: false,
});

/**
 * What HornetQ's factory also holds and this one has no use for: there are no thread pools in Node.
 * Kept so that each getter returns what was set (from hornetq-jms.xml, say), as HornetQ's do.
 */
export interface UnusedFactoryAttributes {
  useGlobalPools: boolean;
  scheduledThreadPoolMaxSize: number;
  threadPoolMaxSize: number;
}

export const DEFAULT_UNUSED_FACTORY_ATTRIBUTES: Readonly<UnusedFactoryAttributes> = Object.freeze({
  useGlobalPools: true,
  scheduledThreadPoolMaxSize: 5,
  threadPoolMaxSize: -1,
});

/** What is wrong with a value for one of the unused attributes (their ranges in hornetq-jms.xsd), or null. */
export function unusedAttributeProblem(name: keyof UnusedFactoryAttributes, value: unknown): string | null {
  switch (name) {
    case 'useGlobalPools':
      return typeof value === 'boolean'
        ? null
        : `${name} must be true or false (actual value: ${String(value)})`;
    case 'scheduledThreadPoolMaxSize':
    case 'threadPoolMaxSize':
      return typeof value === 'number' && Number.isInteger(value) && (value === -1 || value > 0)
        ? null
        : `${name} must be -1 or an integer > 0 (actual value: ${String(value)})`;
  }
}

/** The core client's options from a factory's settings (the JMS-only ones stay behind). */
export function clientOptionsOf(config: ConnectionFactoryConfig): Partial<ClientOptions> {
  const {
    clientID,
    dupsOKBatchSize,
    transactionBatchSize,
    autoGroup,
    groupID,
    compressLargeMessage,
    cacheLargeMessagesClient,
    ...core
  } = config;
  return core;
}
