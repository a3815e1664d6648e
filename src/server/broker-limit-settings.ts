import { MAX_JAVA_INT, MAX_TIMER_MS, type IntegerSetting, type SettingTable } from '../lang/settings';
import type { BrokerLimits } from './broker-configuration';

/** Below this the socket's own buffer (16 KiB) could hold it all and never report a drain. */
export const MIN_OUTPUT_HIGH_WATER_MARK = 64 * 1024;

/** A name (3 bytes per character at worst) must leave room in a frame of the default cap. */
const MAX_NAME_LENGTH = 1024 * 1024;

type Limit = Omit<IntegerSetting, 'kind' | 'setter' | 'special' | 'hornetq'>;

/** Each limit is ours (HornetQ has none of them) and is set by a field or an element, not a setter. */
const limit = (s: Limit): IntegerSetting => ({
  kind: 'integer',
  setter: null,
  special: [],
  hornetq: null,
  ...s,
});

const period = { javaType: 'long', unit: 'ms', min: 1, max: MAX_TIMER_MS } as const;
const count = { javaType: 'int', min: 1, max: MAX_JAVA_INT } as const;
const bytes = { javaType: 'long', unit: 'bytes', max: Number.MAX_SAFE_INTEGER } as const;

/**
 * The bounds on what clients may make the broker hold: BrokerConfiguration's fields and their
 * elements of hornetq-configuration.xml (ours, children of `<configuration>`). The broker's
 * validation, the XML loader and the configuration reference read this table.
 */
export const BROKER_LIMIT_SETTINGS: SettingTable<BrokerLimits> = Object.freeze({
  connectionOutputHighWaterMark: limit({
    ...bytes,
    element: 'connection-output-high-water-mark',
    min: MIN_OUTPUT_HIGH_WATER_MARK,
    default: 4 * 1024 * 1024,
    description:
      'Bytes queued for a client that does not read; above it nothing more is delivered to or read from that connection.',
  }),
  connectionOutputStallTimeout: limit({
    ...period,
    element: 'connection-output-stall-timeout',
    default: 30_000,
    description: 'A connection that stays above its output high-water mark this long is closed.',
  }),
  maxClientConnectionTtl: limit({
    ...period,
    element: 'max-client-connection-ttl',
    default: 300_000,
    description:
      'The longest TTL a client may ask for (a larger one, or -1, gets this); connection-ttl-override still wins; not for in-VM.',
  }),
  sessionlessConnectionTimeout: limit({
    ...period,
    element: 'sessionless-connection-timeout',
    default: 10_000,
    description: 'A TCP connection that has created (or reattached) no session by then is closed.',
  }),
  maxSessionsPerConnection: limit({
    ...count,
    element: 'max-sessions-per-connection',
    default: 2_000,
    description: 'Sessions one connection may hold at a time.',
  }),
  maxConsumersPerConnection: limit({
    ...count,
    element: 'max-consumers-per-connection',
    default: 10_000,
    description: 'Consumers and browsers one connection may hold at a time, over all its sessions.',
  }),
  maxProducersPerConnection: limit({
    ...count,
    element: 'max-producers-per-connection',
    default: 10_000,
    description: 'Producers one connection may hold at a time, over all its sessions.',
  }),
  maxLargeMessageBytesPerConnection: limit({
    ...bytes,
    element: 'max-large-message-bytes-per-connection',
    min: 1,
    default: 200 * 1024 * 1024,
    description: 'Bytes of large-message bodies the broker assembles for one connection at a time.',
  }),
  maxQueues: limit({
    ...count,
    element: 'max-queues',
    default: 100_000,
    description: 'Queues on the broker in all: durable, non-durable and temporary.',
  }),
  maxNameLength: limit({
    ...count,
    element: 'max-name-length',
    max: MAX_NAME_LENGTH,
    default: 4_096,
    description: 'The longest queue name or address, in characters, from clients and from configuration.',
  }),
  maxDuplicateIdLength: limit({
    ...count,
    element: 'max-duplicate-id-length',
    max: MAX_NAME_LENGTH,
    // A UUID is 36 characters; 512 bounds each address' cache to id-cache-size × 512.
    default: 512,
    description:
      'The longest duplicate-detection id (_HQ_DUPL_ID) a message may carry, in characters or bytes.',
  }),
  maxUnfinishedFrameBytes: limit({
    ...bytes,
    element: 'max-unfinished-frame-bytes',
    min: 1,
    // Six frames of the default maximum at once: honest clients send big frames now and then
    // (large messages go in 100 KiB chunks), and no number of connections can hold more.
    default: 64 * 1024 * 1024,
    description:
      'Bytes that unfinished frames may hold over all connections together; at least max-frame-bytes.',
  }),
});
