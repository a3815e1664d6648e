import { DEFAULT_MAX_FRAME_BYTES } from '../../protocol';
import { DEFAULT_LOAD_BALANCING_POLICY } from '../load-balancing-policy';
import {
  MAX_JAVA_INT,
  MAX_TIMER_MS,
  type BooleanSetting,
  type DecimalSetting,
  type IntegerSetting,
  type SettingTable,
  type TextSetting,
} from '../../../lang/settings';

/**
 * The scalar settings of a session factory (HornetQ's ServerLocator, Artemis' ServerLocatorConfig),
 * times in ms and sizes in bytes. CLIENT_SETTINGS describes each: its range, default, XML element
 * and setter.
 */
export interface ClientSettings {
  clientFailureCheckPeriod: number;
  connectionTTL: number;
  callTimeout: number;
  callFailoverTimeout: number;
  confirmationWindowSize: number;
  consumerWindowSize: number;
  consumerMaxRate: number;
  producerWindowSize: number;
  producerMaxRate: number;
  minLargeMessageSize: number;
  /**
   * Ours: the largest message body this client sends or accepts. Large bodies travel in chunks
   * but are assembled in memory at each end, so this bounds what one message can cost.
   */
  maxLargeMessageBytes: number;
  blockOnAcknowledge: boolean;
  blockOnDurableSend: boolean;
  blockOnNonDurableSend: boolean;
  /**
   * Ours: every durable message sent without a duplicate-detection id (_HQ_DUPL_ID) gets a random
   * one, so that a broker with duplicate detection drops a second execution of the same send:
   * one a replay after a reattach caused (HornetQ and Artemis may execute a replayed send twice),
   * or one repeated after an outcome that was not known.
   */
  duplicateIdOnDurableSend: boolean;
  preAcknowledge: boolean;
  ackBatchSize: number;
  initialConnectAttempts: number;
  /**
   * HornetQ's: with a backup announced for the server connected to, a failed connection is dialled
   * again, then its backup (HornetQ's `ha`). False: a backup is never used.
   */
  ha: boolean;
  /**
   * With `ha`, each initial connect attempt dials the chosen server, then the backup a topology
   * known from an earlier connection names for it (HornetQ's documented meaning).
   */
  failoverOnInitialConnection: boolean;
  /**
   * How a ServerLocator picks the server of each new connection: HornetQ's or Artemis' policy class
   * names (RoundRobin, Random, RandomSticky, FirstElement), or ours, `key-sticky`.
   */
  connectionLoadBalancingPolicyClassName: string;
  reconnectAttempts: number;
  retryInterval: number;
  retryIntervalMultiplier: number;
  maxRetryInterval: number;
  /** Ours: each retry delay varies by up to ± this fraction so that clients do not retry in step. */
  retryJitter: number;
  maxFrameBytes: number;
}

/**
 * The settings only a core session factory has: HornetQConnectionFactory has neither a setter nor
 * an element for them (JMS acknowledges in dupsOKBatchSize and transactionBatchSize batches).
 */
export type CoreOnlySettingName = 'ackBatchSize' | 'maxFrameBytes';

/** The client settings a connection factory, its URL and hornetq-jms.xml can be told. */
export type FactoryClientSettings = Omit<ClientSettings, CoreOnlySettingName>;

type Described<S> = Omit<S, 'kind'>;

const integer = (s: Omit<IntegerSetting, 'kind' | 'special'> & { special?: number[] }): IntegerSetting => ({
  kind: 'integer',
  special: [],
  ...s,
});
const decimal = (s: Described<DecimalSetting>): DecimalSetting => ({ kind: 'decimal', ...s });
const flag = (s: Omit<BooleanSetting, 'kind' | 'javaType'>): BooleanSetting => ({
  kind: 'boolean',
  javaType: 'boolean',
  ...s,
});
const text = (s: Omit<TextSetting<string>, 'kind' | 'javaType'>): TextSetting<string> => ({
  kind: 'text',
  javaType: 'String',
  ...s,
});

/** A period in ms: Node's timers bound it. */
const period = { javaType: 'long', unit: 'ms', max: MAX_TIMER_MS } as const;
/** A Java int count of bytes. */
const bytes = { javaType: 'int', unit: 'bytes', max: MAX_JAVA_INT } as const;
const count = { javaType: 'int', max: MAX_JAVA_INT } as const;
const hornetq = <T>(value: T): { default: T } => ({ default: value });

// Each range is HornetQ 2.4's (its hornetq-jms.xml validators; its setters check nothing), narrowed
// where this client cannot honour a value: a period past Node's timer limit; a TTL of 0, which
// HornetQ's XML took and which makes the broker drop the connection at its next check.

/** Every scalar setting of the core client: the one description each reader uses. */
export const CLIENT_SETTINGS: SettingTable<ClientSettings> = Object.freeze({
  clientFailureCheckPeriod: integer({
    ...period,
    element: 'client-failure-check-period',
    setter: 'setClientFailureCheckPeriod',
    min: 1,
    special: [-1],
    default: 30_000,
    hornetq: hornetq(30_000),
    description: 'How often the client pings and checks that it heard from the broker; -1: never.',
  }),
  connectionTTL: integer({
    ...period,
    element: 'connection-ttl',
    setter: 'setConnectionTTL',
    min: 1,
    special: [-1],
    default: 60_000,
    hornetq: hornetq(60_000),
    description:
      'How long the broker keeps a connection it hears nothing from (and its sessions, for a reattach); -1: forever.',
  }),
  callTimeout: integer({
    ...period,
    element: 'call-timeout',
    setter: 'setCallTimeout',
    min: 0,
    default: 30_000,
    hornetq: hornetq(30_000),
    description: 'How long a blocking call (a durable send, a commit) waits for the broker before it fails.',
  }),
  callFailoverTimeout: integer({
    ...period,
    element: 'call-failover-timeout',
    setter: 'setCallFailoverTimeout',
    min: 1,
    special: [-1],
    default: -1,
    hornetq: hornetq(-1),
    description: 'How long a blocking call waits for a failover in progress to end; -1: as long as it takes.',
  }),
  confirmationWindowSize: integer({
    ...bytes,
    element: 'confirmation-window-size',
    setter: 'setConfirmationWindowSize',
    min: 1,
    special: [-1],
    default: -1,
    hornetq: hornetq(-1),
    description:
      'Bytes of commands between confirmations; a value turns session reattachment on, -1 turns it off.',
  }),
  consumerWindowSize: integer({
    ...bytes,
    element: 'consumer-window-size',
    setter: 'setConsumerWindowSize',
    min: 0,
    special: [-1],
    default: 1024 * 1024,
    hornetq: hornetq(1024 * 1024),
    description: 'Bytes of messages a consumer buffers ahead of receive(); 0: none, -1: no limit.',
  }),
  consumerMaxRate: integer({
    ...count,
    unit: 'messages/s',
    element: 'consumer-max-rate',
    setter: 'setConsumerMaxRate',
    min: 1,
    special: [-1],
    default: -1,
    hornetq: hornetq(-1),
    description: 'The most messages a second a consumer receives; -1: no limit.',
  }),
  producerWindowSize: integer({
    ...bytes,
    element: 'producer-window-size',
    setter: 'setProducerWindowSize',
    min: 1,
    special: [-1],
    default: 64 * 1024,
    hornetq: hornetq(64 * 1024),
    description: 'Bytes a producer may send before the broker grants more credit; -1: no flow control.',
  }),
  producerMaxRate: integer({
    ...count,
    unit: 'messages/s',
    element: 'producer-max-rate',
    setter: 'setProducerMaxRate',
    min: 1,
    special: [-1],
    default: -1,
    hornetq: hornetq(-1),
    description: 'The most messages a second a producer sends; -1: no limit.',
  }),
  minLargeMessageSize: integer({
    ...bytes,
    element: 'min-large-message-size',
    setter: 'setMinLargeMessageSize',
    min: 1,
    default: 100 * 1024,
    hornetq: hornetq(100 * 1024),
    description: 'A message body of at least this many bytes travels as a large message, in chunks.',
  }),
  maxLargeMessageBytes: integer({
    javaType: 'long',
    unit: 'bytes',
    element: null,
    setter: 'setMaxLargeMessageBytes',
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    default: 100 * 1024 * 1024,
    hornetq: null,
    description: 'The largest message body sent or accepted: a large body is assembled in memory.',
  }),
  blockOnAcknowledge: flag({
    element: 'block-on-acknowledge',
    setter: 'setBlockOnAcknowledge',
    default: false,
    hornetq: hornetq(false),
    description: 'Whether an acknowledgement waits for the broker to confirm it.',
  }),
  blockOnDurableSend: flag({
    element: 'block-on-durable-send',
    setter: 'setBlockOnDurableSend',
    default: true,
    hornetq: hornetq(true),
    description: 'Whether a persistent send waits for the broker to confirm it.',
  }),
  blockOnNonDurableSend: flag({
    element: 'block-on-non-durable-send',
    setter: 'setBlockOnNonDurableSend',
    default: false,
    hornetq: hornetq(false),
    description: 'Whether a non-persistent send waits for the broker to confirm it.',
  }),
  duplicateIdOnDurableSend: flag({
    element: 'duplicate-id-on-durable-send',
    setter: 'setDuplicateIdOnDurableSend',
    default: false,
    hornetq: null,
    description:
      'Gives each persistent message without a _HQ_DUPL_ID a random one, so a broker with duplicate detection drops a replayed send.',
  }),
  preAcknowledge: flag({
    element: 'pre-acknowledge',
    setter: 'setPreAcknowledge',
    default: false,
    hornetq: hornetq(false),
    description: 'Whether the broker acknowledges a message as it sends it (a crash can lose it).',
  }),
  ackBatchSize: integer({
    ...bytes,
    element: null,
    setter: null,
    min: 0,
    default: 1024 * 1024,
    hornetq: hornetq(1024 * 1024),
    description:
      'Core sessions: bytes of acknowledgements sent together (the JMS factory uses dupsOKBatchSize and transactionBatchSize).',
  }),
  initialConnectAttempts: integer({
    ...count,
    element: null,
    setter: 'setInitialConnectAttempts',
    min: 0,
    special: [-1],
    default: 1,
    hornetq: hornetq(1),
    description:
      'Attempts at the first connection, retry-interval apart; 0 and 1: once, -1: until it succeeds.',
  }),
  ha: flag({
    element: 'ha',
    setter: null,
    default: false,
    hornetq: hornetq(false),
    description:
      "Whether a failed connection may move to the backup the broker announced (HornetQConnectionFactory's first constructor argument).",
  }),
  failoverOnInitialConnection: flag({
    element: 'failover-on-initial-connection',
    setter: 'setFailoverOnInitialConnection',
    default: false,
    hornetq: hornetq(false),
    description: 'With ha, each first-connection attempt tries the backup a known topology names.',
  }),
  connectionLoadBalancingPolicyClassName: text({
    element: 'connection-load-balancing-policy-class-name',
    setter: 'setConnectionLoadBalancingPolicyClassName',
    nullable: false,
    nonEmpty: true,
    default: DEFAULT_LOAD_BALANCING_POLICY,
    hornetq: hornetq('org.hornetq.api.core.client.loadbalance.RoundRobinConnectionLoadBalancingPolicy'),
    description:
      "How each new connection picks its server: HornetQ's or Artemis' RoundRobin, Random, RandomSticky or FirstElement policy class, or key-sticky.",
  }),
  reconnectAttempts: integer({
    ...count,
    element: 'reconnect-attempts',
    setter: 'setReconnectAttempts',
    min: 0,
    special: [-1],
    default: 0,
    hornetq: hornetq(0),
    description:
      'Reconnections tried after a failure before giving up; 0: none, -1: until the broker is back.',
  }),
  retryInterval: integer({
    ...period,
    element: 'retry-interval',
    setter: 'setRetryInterval',
    min: 1,
    default: 2000,
    hornetq: hornetq(2000),
    description: 'The pause before the second connection attempt (the first is at once).',
  }),
  retryIntervalMultiplier: decimal({
    javaType: 'double',
    element: 'retry-interval-multiplier',
    setter: 'setRetryIntervalMultiplier',
    min: 0,
    minInclusive: false,
    max: Number.MAX_VALUE,
    default: 1,
    hornetq: hornetq(1),
    description: 'Each pause is the previous one times this, up to max-retry-interval.',
  }),
  maxRetryInterval: integer({
    ...period,
    element: 'max-retry-interval',
    setter: 'setMaxRetryInterval',
    min: 1,
    default: 2000,
    hornetq: hornetq(2000),
    description: 'The longest pause between connection attempts.',
  }),
  retryJitter: decimal({
    javaType: 'double',
    element: null,
    setter: 'setRetryJitter',
    min: 0,
    minInclusive: true,
    max: 1,
    default: 0.1,
    hornetq: null,
    description: 'Each pause varies by up to ± this fraction, so that clients do not retry in step.',
  }),
  maxFrameBytes: integer({
    ...bytes,
    element: null,
    setter: null,
    min: 1024,
    default: DEFAULT_MAX_FRAME_BYTES,
    hornetq: null,
    description:
      'Core sessions: the largest frame accepted from the broker; a larger one closes the connection.',
  }),
});
