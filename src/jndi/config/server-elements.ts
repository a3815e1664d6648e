import { settingsOf } from '../../lang/settings';
import type { BrokerLimits } from '../../server/broker-configuration';
import { BROKER_LIMIT_SETTINGS } from '../../server/broker-limit-settings';
import type { HaConfiguration } from '../../server/ha/ha-configuration';
import type { PersistenceConfiguration } from '../../server/storage/persistence-configuration';
import {
  AT_MOST_TIMER,
  both,
  GE_ZERO,
  GT_ZERO,
  MINUS_ONE_OR_GT_ZERO,
  PERCENTAGE,
  PORT,
  THREAD_PRIORITY,
  specOf,
  type ValueSpec,
} from './values';

/** How this implementation treats a top-level element of hornetq-configuration.xml. */
export type TopLevelElement =
  /** A value the broker uses. */
  | { use: 'broker'; spec: ValueSpec }
  /** A persistence or journal value: the PersistenceConfiguration setting it gives. */
  | { use: 'persistence'; spec: ValueSpec; field: keyof PersistenceConfiguration }
  /** A live/backup setting: the HaConfiguration setting it gives. */
  | { use: 'ha'; spec: ValueSpec; field: keyof HaConfiguration }
  /** Known to HornetQ, not implemented: accepted (simple values still checked) with a warning. */
  | { use: 'unsupported'; spec?: ValueSpec; meaning: string }
  /** A list this module parses itself (connectors, acceptors, ...). */
  | { use: 'section' };

const REPLICATION =
  'replication (shared-store false) is not implemented: a live/backup pair shares its store';
const CLUSTER = 'clustering is not implemented (this broker runs on its own)';
const MANAGEMENT =
  'JMX and management notifications are not implemented; management messages to <management-address> are';
const THREADS = 'Node runs the broker on one event loop: there are no thread pools to size';
const COUNTERS =
  'message counters are not implemented; EmbeddedJMS.getQueueInfo reports live queue statistics';
const SECURITY =
  'security settings and users take effect at once when redeployed (EmbeddedJMS watch): no cache of security decisions is kept to invalidate';

const bool: ValueSpec = { kind: 'boolean' };
const text: ValueSpec = { kind: 'string' };
const nonEmpty: ValueSpec = { kind: 'non-empty-string' };
const long = (check?: ValueSpec['check']): ValueSpec =>
  check === undefined ? { kind: 'long' } : { kind: 'long', check };
const int = (check?: ValueSpec['check']): ValueSpec =>
  check === undefined ? { kind: 'int' } : { kind: 'int', check };

const persistence = (field: keyof PersistenceConfiguration, spec: ValueSpec): TopLevelElement => ({
  use: 'persistence',
  spec,
  field,
});

const ha = (field: keyof HaConfiguration, spec: ValueSpec): TopLevelElement => ({ use: 'ha', spec, field });

const JOURNAL_TYPE =
  "the journal writes through node:fs, as HornetQ's NIO journal does (there is no ASYNCIO/libaio journal)";
const JOURNAL_IO = 'the journal has one write in flight at a time; there is no I/O concurrency to bound';

const unsupported = (meaning: string, spec?: ValueSpec): TopLevelElement =>
  spec === undefined ? { use: 'unsupported', meaning } : { use: 'unsupported', spec, meaning };

function limitElements(): Array<[string, { field: keyof BrokerLimits; spec: ValueSpec }]> {
  return settingsOf(BROKER_LIMIT_SETTINGS).flatMap(([field, setting]) =>
    setting.element === null ? [] : [[setting.element, { field, spec: specOf(setting) }]],
  );
}

/**
 * Ours, not in HornetQ's xsd: the bounds on what clients may make the broker hold, each a child of
 * `<configuration>` like HornetQ's own broker settings, by the BrokerConfiguration field it sets
 * (BROKER_LIMIT_SETTINGS gives each its element and range).
 */
export const LIMIT_ELEMENTS: ReadonlyMap<string, { field: keyof BrokerLimits; spec: ValueSpec }> = new Map(
  limitElements(),
);

/**
 * Ours, not in HornetQ's xsd: whether a session created without our reattach secret (a HornetQ
 * Java client's) may be reattached by its name alone (BrokerConfiguration.nameOnlyReattachEnabled).
 * Named as HornetQ names its switches (`security-enabled`, `persistence-enabled`): what it turns
 * on, then -enabled; on by default, as HornetQ behaves.
 */
export const NAME_ONLY_REATTACH_ELEMENT = 'name-only-reattach-enabled';

/**
 * Ours, not in HornetQ's xsd: where `hornetq server` serves the management console (a web page and
 * its JSON API; ConsoleServer). It is served only when console-port is given; console-host is
 * 127.0.0.1 unless given. The command's --console-port and --console-host win over them.
 */
export const CONSOLE_PORT_ELEMENT = 'console-port';
export const CONSOLE_HOST_ELEMENT = 'console-host';

/**
 * Every child of `<configuration>` in HornetQ 2.4's hornetq-configuration.xsd (each at most once),
 * then ours (LIMIT_ELEMENTS, NAME_ONLY_REATTACH_ELEMENT, the console's).
 */
export const SERVER_ELEMENTS: ReadonlyMap<string, TopLevelElement> = new Map<string, TopLevelElement>([
  ['connectors', { use: 'section' }],
  ['acceptors', { use: 'section' }],
  ['queues', { use: 'section' }],
  ['address-settings', { use: 'section' }],
  ['security-settings', { use: 'section' }],
  ['discovery-groups', { use: 'section' }],
  ['connection-ttl-override', { use: 'broker', spec: long(both(MINUS_ONE_OR_GT_ZERO, AT_MOST_TIMER)) }],
  ['message-expiry-scan-period', { use: 'broker', spec: long(both(MINUS_ONE_OR_GT_ZERO, AT_MOST_TIMER)) }],
  ['id-cache-size', { use: 'broker', spec: int(GT_ZERO) }],
  ['persist-id-cache', { use: 'broker', spec: bool }],
  ['persistence-enabled', { use: 'broker', spec: bool }],
  ['security-enabled', { use: 'broker', spec: bool }],
  ['bindings-directory', persistence('bindingsDirectory', nonEmpty)],
  ['journal-directory', persistence('journalDirectory', nonEmpty)],
  ['large-messages-directory', persistence('largeMessagesDirectory', nonEmpty)],
  ['paging-directory', persistence('pagingDirectory', nonEmpty)],
  ['create-bindings-dir', persistence('createBindingsDir', bool)],
  ['create-journal-dir', persistence('createJournalDir', bool)],
  ['journal-type', unsupported(JOURNAL_TYPE, { kind: ['ASYNCIO', 'NIO'] })],
  ['journal-buffer-timeout', persistence('journalBufferTimeout', long(GE_ZERO))],
  ['journal-buffer-size', persistence('journalBufferSize', long(GT_ZERO))],
  ['journal-sync-transactional', persistence('journalSyncTransactional', bool)],
  ['journal-sync-non-transactional', persistence('journalSyncNonTransactional', bool)],
  ['journal-file-size', persistence('journalFileSize', long(GT_ZERO))],
  ['journal-min-files', persistence('journalMinFiles', int(GT_ZERO))],
  ['journal-compact-percentage', persistence('journalCompactPercentage', int(PERCENTAGE))],
  ['journal-compact-min-files', persistence('journalCompactMinFiles', int(GE_ZERO))],
  ['skip-corrupt-records', persistence('skipCorruptRecords', bool)],
  ['journal-max-io', unsupported(JOURNAL_IO, int(GT_ZERO))],
  ['log-journal-write-rate', unsupported('journal write rates are not logged', bool)],
  ['page-max-concurrent-io', unsupported(JOURNAL_IO, int(MINUS_ONE_OR_GT_ZERO))],
  ['perf-blast-pages', unsupported('a HornetQ test setting', int(MINUS_ONE_OR_GT_ZERO))],
  ['run-sync-speed-test', unsupported('no sync speed test is run at start', bool)],
  [
    'persist-delivery-count-before-delivery',
    unsupported('the delivery count is always stored when a durable message is delivered (as if true)', bool),
  ],
  ['name', unsupported('the node name only appears in cluster topology, and ' + CLUSTER, text)],
  ['clustered', unsupported('deprecated by HornetQ itself and ignored (HQ221038)', bool)],
  ['check-for-live-server', unsupported(REPLICATION, bool)],
  ['backup', ha('backup', bool)],
  ['allow-failback', ha('allowFailback', bool)],
  ['backup-group-name', unsupported(REPLICATION, text)],
  ['failback-delay', ha('failbackDelay', long(both(GE_ZERO, AT_MOST_TIMER)))],
  ['failover-on-shutdown', ha('failoverOnShutdown', bool)],
  ['shared-store', ha('sharedStore', bool)],
  ['replication-clustername', unsupported(REPLICATION, text)],
  ['file-deployment-enabled', unsupported('hot deployment is chosen with the watch option instead', bool)],
  ['scheduled-thread-pool-max-size', unsupported(THREADS, int(GT_ZERO))],
  ['thread-pool-max-size', unsupported(THREADS, int(MINUS_ONE_OR_GT_ZERO))],
  ['async-connection-execution-enabled', unsupported(THREADS, bool)],
  ['security-invalidation-interval', unsupported(SECURITY, long(GT_ZERO))],
  ['wild-card-routing-enabled', unsupported('routing to wildcard addresses is not implemented', bool)],
  ['management-address', { use: 'broker', spec: nonEmpty }],
  ['management-notification-address', unsupported(MANAGEMENT, nonEmpty)],
  ['jmx-management-enabled', unsupported(MANAGEMENT, bool)],
  ['jmx-domain', unsupported(MANAGEMENT, nonEmpty)],
  // Read with <cluster-connections> (cluster-connection-reader.ts); the password is never shown.
  ['cluster-user', { use: 'broker', spec: nonEmpty }],
  ['cluster-password', { use: 'broker', spec: nonEmpty }],
  ['password-codec', unsupported('password masking is not implemented', nonEmpty)],
  ['mask-password', unsupported('password masking is not implemented', bool)],
  ['log-delegate-factory-class-name', unsupported('logs go to the logger given in the options', text)],
  ['message-counter-enabled', unsupported(COUNTERS, bool)],
  ['message-counter-sample-period', unsupported(COUNTERS, long(GT_ZERO))],
  ['message-counter-max-day-history', unsupported(COUNTERS, int(GT_ZERO))],
  [
    'transaction-timeout',
    unsupported('XA is not implemented and local transactions do not time out', long(GT_ZERO)),
  ],
  [
    'transaction-timeout-scan-period',
    unsupported('XA is not implemented and local transactions do not time out', long(GT_ZERO)),
  ],
  ['message-expiry-thread-priority', unsupported(THREADS, int(THREAD_PRIORITY))],
  ['server-dump-interval', unsupported('server dumps are not implemented', long(MINUS_ONE_OR_GT_ZERO))],
  ['memory-warning-threshold', unsupported('memory sampling is not implemented', int(PERCENTAGE))],
  ['memory-measure-interval', unsupported('memory sampling is not implemented', long(MINUS_ONE_OR_GT_ZERO))],
  ['remoting-interceptors', unsupported('Java interceptor classes cannot be loaded here')],
  ['remoting-incoming-interceptors', unsupported('Java interceptor classes cannot be loaded here')],
  ['remoting-outgoing-interceptors', unsupported('Java interceptor classes cannot be loaded here')],
  ['broadcast-groups', unsupported('UDP and JGroups broadcast is not implemented')],
  ['diverts', unsupported('diverts are not implemented: messages are not copied or moved between addresses')],
  ['bridges', unsupported('core bridges are not implemented')],
  ['cluster-connections', { use: 'section' }],
  [
    'grouping-handler',
    unsupported('clustered grouping is not implemented (message groups on this broker work)'),
  ],
  ['connector-services', unsupported('connector services are not implemented')],
  ...[...LIMIT_ELEMENTS].map(([name, { spec }]): [string, TopLevelElement] => [
    name,
    { use: 'broker', spec },
  ]),
  [NAME_ONLY_REATTACH_ELEMENT, { use: 'broker', spec: bool }],
  [CONSOLE_PORT_ELEMENT, { use: 'broker', spec: int(PORT) }],
  [CONSOLE_HOST_ELEMENT, { use: 'broker', spec: nonEmpty }],
]);
