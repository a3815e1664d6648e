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
  failoverOnInitialConnection: boolean;
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
  preAcknowledge: DEFAULT_CLIENT_OPTIONS.preAcknowledge,
  initialConnectAttempts: DEFAULT_CLIENT_OPTIONS.initialConnectAttempts,
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
  failoverOnInitialConnection: false,
});
