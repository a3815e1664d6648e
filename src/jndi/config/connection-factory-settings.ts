import { loadBalancingPolicyProblem } from '../../core/client';
import { HornetQConnectionFactory } from '../../jms/hornetq-connection-factory';
import {
  GE_ZERO,
  GT_ZERO,
  MINUS_ONE_OR_GE_ZERO,
  MINUS_ONE_OR_GT_ZERO,
  type Value,
  type ValueSpec,
} from './values';

/**
 * A child element of `<connection-factory>` that holds a value: its xsd type and HornetQ's range
 * check, the factory setter it feeds (none where HornetQ's factory has none: ha is a constructor
 * argument, xa a class), and, for what is not implemented, what it means here (a warning, when
 * `warnWhen` says so or always).
 */
export interface FactorySetting {
  spec: ValueSpec;
  apply?: (factory: HornetQConnectionFactory, value: Value) => void;
  ignored?: string;
  warnWhen?: (value: Value) => boolean;
}

const long = (check?: ValueSpec['check']): ValueSpec =>
  check === undefined ? { kind: 'long' } : { kind: 'long', check };
const int = (check: ValueSpec['check']): ValueSpec =>
  check === undefined ? { kind: 'int' } : { kind: 'int', check };
const bool: ValueSpec = { kind: 'boolean' };

const num =
  (set: (factory: HornetQConnectionFactory, value: number) => void) =>
  (factory: HornetQConnectionFactory, value: Value): void =>
    set(factory, value as number);
const flag =
  (set: (factory: HornetQConnectionFactory, value: boolean) => void) =>
  (factory: HornetQConnectionFactory, value: Value): void =>
    set(factory, value as boolean);
const text =
  (set: (factory: HornetQConnectionFactory, value: string) => void) =>
  (factory: HornetQConnectionFactory, value: Value): void =>
    set(factory, value as string);

const THREADS = 'Node has no thread pools to size: the getter returns it, nothing else uses it';

/** hornetq-jms.xsd's value elements of `<connection-factory>` (HornetQ 2.4). */
export const FACTORY_SETTINGS: ReadonlyMap<string, FactorySetting> = new Map<string, FactorySetting>([
  [
    'client-failure-check-period',
    { spec: long(MINUS_ONE_OR_GT_ZERO), apply: num((f, v) => f.setClientFailureCheckPeriod(v)) },
  ],
  ['connection-ttl', { spec: long(MINUS_ONE_OR_GE_ZERO), apply: num((f, v) => f.setConnectionTTL(v)) }],
  ['call-timeout', { spec: long(GE_ZERO), apply: num((f, v) => f.setCallTimeout(v)) }],
  [
    'call-failover-timeout',
    { spec: long(MINUS_ONE_OR_GT_ZERO), apply: num((f, v) => f.setCallFailoverTimeout(v)) },
  ],
  [
    'consumer-window-size',
    { spec: int(MINUS_ONE_OR_GE_ZERO), apply: num((f, v) => f.setConsumerWindowSize(v)) },
  ],
  ['consumer-max-rate', { spec: int(MINUS_ONE_OR_GT_ZERO), apply: num((f, v) => f.setConsumerMaxRate(v)) }],
  [
    'confirmation-window-size',
    { spec: int(MINUS_ONE_OR_GT_ZERO), apply: num((f, v) => f.setConfirmationWindowSize(v)) },
  ],
  [
    'producer-window-size',
    { spec: int(MINUS_ONE_OR_GT_ZERO), apply: num((f, v) => f.setProducerWindowSize(v)) },
  ],
  ['producer-max-rate', { spec: int(MINUS_ONE_OR_GT_ZERO), apply: num((f, v) => f.setProducerMaxRate(v)) }],
  ['cache-large-message-client', { spec: bool, apply: flag((f, v) => f.setCacheLargeMessagesClient(v)) }],
  ['min-large-message-size', { spec: int(GT_ZERO), apply: num((f, v) => f.setMinLargeMessageSize(v)) }],
  ['compress-large-messages', { spec: bool, apply: flag((f, v) => f.setCompressLargeMessage(v)) }],
  ['client-id', { spec: { kind: 'string' }, apply: text((f, v) => f.setClientID(v)) }],
  ['dups-ok-batch-size', { spec: int(GT_ZERO), apply: num((f, v) => f.setDupsOKBatchSize(v)) }],
  ['transaction-batch-size', { spec: int(GT_ZERO), apply: num((f, v) => f.setTransactionBatchSize(v)) }],
  ['block-on-acknowledge', { spec: bool, apply: flag((f, v) => f.setBlockOnAcknowledge(v)) }],
  ['block-on-non-durable-send', { spec: bool, apply: flag((f, v) => f.setBlockOnNonDurableSend(v)) }],
  ['block-on-durable-send', { spec: bool, apply: flag((f, v) => f.setBlockOnDurableSend(v)) }],
  // Ours: not in HornetQ's schema.
  ['duplicate-id-on-durable-send', { spec: bool, apply: flag((f, v) => f.setDuplicateIdOnDurableSend(v)) }],
  ['auto-group', { spec: bool, apply: flag((f, v) => f.setAutoGroup(v)) }],
  ['pre-acknowledge', { spec: bool, apply: flag((f, v) => f.setPreAcknowledge(v)) }],
  ['retry-interval', { spec: long(GT_ZERO), apply: num((f, v) => f.setRetryInterval(v)) }],
  [
    'retry-interval-multiplier',
    { spec: { kind: 'double', check: GT_ZERO }, apply: num((f, v) => f.setRetryIntervalMultiplier(v)) },
  ],
  ['max-retry-interval', { spec: long(GT_ZERO), apply: num((f, v) => f.setMaxRetryInterval(v)) }],
  [
    'reconnect-attempts',
    { spec: int(MINUS_ONE_OR_GE_ZERO), apply: num((f, v) => f.setReconnectAttempts(v)) },
  ],
  [
    'failover-on-initial-connection',
    { spec: bool, apply: flag((f, v) => f.setFailoverOnInitialConnection(v)) },
  ],
  ['group-id', { spec: { kind: 'string' }, apply: text((f, v) => f.setGroupID(v)) }],
  [
    'failover-on-server-shutdown',
    {
      spec: bool,
      ignored:
        'ignored, as HornetQ 2.2+ ignores it: a clean broker shutdown is handled like any other failure (reconnect-attempts decides)',
    },
  ],
  [
    'connection-load-balancing-policy-class-name',
    {
      spec: { kind: 'non-empty-string' },
      // HornetQ's and Artemis' class names map to our policies (a fixed table of ours).
      apply: text((f, v) => f.setConnectionLoadBalancingPolicyClassName(v)),
      ignored:
        "is not a policy this client has (HornetQ's or Artemis' RoundRobin, Random, RandomSticky or FirstElement ConnectionLoadBalancingPolicy, or key-sticky): createConnection on this factory fails until it names one",
      warnWhen: (value) => loadBalancingPolicyProblem(value) !== null,
    },
  ],
  ['use-global-pools', { spec: bool, apply: flag((f, v) => f.setUseGlobalPools(v)), ignored: THREADS }],
  [
    'scheduled-thread-pool-max-size',
    {
      spec: int(MINUS_ONE_OR_GT_ZERO),
      apply: num((f, v) => f.setScheduledThreadPoolMaxSize(v)),
      ignored: THREADS,
    },
  ],
  [
    'thread-pool-max-size',
    { spec: int(MINUS_ONE_OR_GT_ZERO), apply: num((f, v) => f.setThreadPoolMaxSize(v)), ignored: THREADS },
  ],
  // A constructor argument of the factory (jms-deployment passes it), as in HornetQ.
  ['ha', { spec: bool }],
  [
    'xa',
    {
      spec: bool,
      ignored: 'XA is not implemented: the factory is bound as a non-XA HornetQConnectionFactory',
      warnWhen: (value) => value === true,
    },
  ],
]);

/** Applies the settings to a factory; a setter's refusal (our own limits) is returned per element. */
export function applyFactorySettings(
  factory: HornetQConnectionFactory,
  settings: ReadonlyMap<string, Value>,
  onRefused: (element: string, message: string) => void = () => undefined,
): HornetQConnectionFactory {
  for (const [name, value] of settings) {
    const setting = FACTORY_SETTINGS.get(name);
    if (setting?.apply === undefined) continue;
    try {
      setting.apply(factory, value);
    } catch (error) {
      onRefused(name, (error as Error).message);
    }
  }
  return factory;
}
