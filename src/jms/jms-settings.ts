import {
  MAX_JAVA_INT,
  type BooleanSetting,
  type IntegerSetting,
  type SettingTable,
  type TextSetting,
} from '../lang/settings';

/**
 * What a JMS connection factory is told beyond its session factory's settings: HornetQ's
 * HornetQConnectionFactory's own, and the thread-pool attributes it keeps only for their getters.
 */
export interface JmsSettings {
  clientID: string | null;
  dupsOKBatchSize: number;
  transactionBatchSize: number;
  autoGroup: boolean;
  groupID: string | null;
  compressLargeMessage: boolean;
  cacheLargeMessagesClient: boolean;
  useGlobalPools: boolean;
  scheduledThreadPoolMaxSize: number;
  threadPoolMaxSize: number;
}

const flag = (s: Omit<BooleanSetting, 'kind' | 'javaType'>): BooleanSetting => ({
  kind: 'boolean',
  javaType: 'boolean',
  ...s,
});
const optionalText = (s: Omit<TextSetting, 'kind' | 'javaType' | 'nullable' | 'nonEmpty'>): TextSetting => ({
  kind: 'text',
  javaType: 'String',
  nullable: true,
  nonEmpty: false,
  ...s,
});
const positive = (
  s: Omit<IntegerSetting, 'kind' | 'javaType' | 'min' | 'max' | 'special'> & { special?: number[] },
): IntegerSetting => ({ kind: 'integer', javaType: 'int', min: 1, max: MAX_JAVA_INT, special: [], ...s });

const THREADS = 'Kept for its getter only: Node has no thread pools to size.';

/** The JMS factory's own settings (ranges: HornetQ 2.4's hornetq-jms.xml validators). */
export const JMS_SETTINGS: SettingTable<JmsSettings> = Object.freeze({
  clientID: optionalText({
    element: 'client-id',
    setter: 'setClientID',
    default: null,
    hornetq: { default: null },
    description: "The client id of every connection made (a durable subscription's owner); null: none.",
  }),
  dupsOKBatchSize: positive({
    unit: 'bytes',
    element: 'dups-ok-batch-size',
    setter: 'setDupsOKBatchSize',
    default: 1024 * 1024,
    hornetq: { default: 1024 * 1024 },
    description: 'A DUPS_OK_ACKNOWLEDGE session sends its acknowledgements in batches of this many bytes.',
  }),
  transactionBatchSize: positive({
    unit: 'bytes',
    element: 'transaction-batch-size',
    setter: 'setTransactionBatchSize',
    default: 1024 * 1024,
    hornetq: { default: 1024 * 1024 },
    description: 'A transacted session sends its acknowledgements in batches of this many bytes.',
  }),
  autoGroup: flag({
    element: 'auto-group',
    setter: 'setAutoGroup',
    default: false,
    hornetq: { default: false },
    description:
      'Each producer gives its messages a group id of its own, so one consumer gets them in order.',
  }),
  groupID: optionalText({
    element: 'group-id',
    setter: 'setGroupID',
    default: null,
    hornetq: { default: null },
    description: 'The group id (JMSXGroupID) of every message sent; null: none.',
  }),
  compressLargeMessage: flag({
    element: 'compress-large-messages',
    setter: 'setCompressLargeMessage',
    default: false,
    hornetq: { default: false },
    description: 'Kept for its getter only: large messages are not compressed here.',
  }),
  cacheLargeMessagesClient: flag({
    element: 'cache-large-message-client',
    setter: 'setCacheLargeMessagesClient',
    default: false,
    hornetq: { default: false },
    description: 'Kept for its getter only: a large body is always held in memory here.',
  }),
  useGlobalPools: flag({
    element: 'use-global-pools',
    setter: 'setUseGlobalPools',
    default: true,
    hornetq: { default: true },
    description: THREADS,
  }),
  scheduledThreadPoolMaxSize: positive({
    element: 'scheduled-thread-pool-max-size',
    setter: 'setScheduledThreadPoolMaxSize',
    special: [-1],
    default: 5,
    hornetq: { default: 5 },
    description: THREADS,
  }),
  threadPoolMaxSize: positive({
    element: 'thread-pool-max-size',
    setter: 'setThreadPoolMaxSize',
    special: [-1],
    default: -1,
    hornetq: { default: -1 },
    description: THREADS,
  }),
});
