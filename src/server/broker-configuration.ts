import path from 'node:path';
import { DEFAULT_MAX_FRAME_BYTES, DEFAULT_PRE_AUTH_MAX_FRAME_BYTES } from '../core/protocol';
import { invalidValue } from '../lang/argument-errors';
import type { Logger, TlsSettings } from '../core/remoting';
import { validateClusterConfiguration, type ClusterConfiguration } from './cluster/cluster-configuration';
import { validateAddressSettings, type AddressSettings } from './postoffice/address-settings';
import type { AcceptorFactory } from './remoting/acceptor';
import type { LoginThrottlePolicy } from './security/login-throttle';
import type { SecurityManager } from './security/security-manager';
import { MANAGEMENT_ADDRESS } from './security/permission';
import type { SecuritySetting } from './security/security-store';
import {
  DEFAULT_PERSISTENCE_CONFIGURATION,
  persistenceConfigurationProblems,
  type PersistenceConfiguration,
} from './storage/persistence-configuration';
import type { PageFileSystem } from './paging/page-file-system';
import {
  DEFAULT_HA_CONFIGURATION,
  haConfigurationProblems,
  type HaConfiguration,
} from './ha/ha-configuration';
import type { StorageManager } from './storage/storage-manager';

export interface TcpAcceptorConfiguration {
  name: string;
  type: 'tcp';
  host: string;
  /** 0 picks a free port (tests); Broker.getPort tells which. */
  port: number;
  /** ssl-enabled: when present, the acceptor speaks TLS only (and plain TCP not at all). */
  tls?: TcpAcceptorTlsConfiguration;
  /**
   * connections-allowed (Artemis' connectionsAllowed): TCP connections this acceptor holds at
   * once; a further one is closed as it comes, with a log line. -1: no limit (Artemis' default).
   * DEFAULT_CONNECTIONS_ALLOWED when absent.
   */
  connectionsAllowed?: number;
  /**
   * http-upgrade-enabled: every connection opens with an HTTP request to switch to the core
   * protocol (HornetQ's 'hornetq-remoting' or Artemis' 'activemq-remoting' spelling), as on
   * WildFly's web port; one that does not is answered with an HTTP error and closed.
   */
  httpUpgrade?: HttpUpgradeAcceptorConfiguration;
}

export interface HttpUpgradeAcceptorConfiguration {
  /**
   * How long a new connection may take to send its whole upgrade request, in ms (Artemis'
   * handshake-timeout, there in seconds); DEFAULT_HTTP_UPGRADE_TIMEOUT_MS when absent.
   */
  timeoutMs?: number;
}

/** Artemis' default handshake-timeout (10 s): a slow client gets this long, an idle socket no longer. */
export const DEFAULT_HTTP_UPGRADE_TIMEOUT_MS = 10_000;

/** Ours (Artemis has no limit by default): plenty for any pool of clients, and a bound still. */
export const DEFAULT_CONNECTIONS_ALLOWED = 4096;

/**
 * HornetQ's TLS params of a netty acceptor. The key store (the broker's certificate and key) is
 * required; the trust store is what client certificates are checked against.
 */
export interface TcpAcceptorTlsConfiguration extends TlsSettings {
  keyStorePath: string;
  /** need-client-auth: a client without a certificate that leads to the trust store is refused. */
  needClientAuth: boolean;
  /** Ours (Artemis' handshake-timeout): a connection not through its handshake by then is closed (ms). */
  handshakeTimeout: number;
}

export interface InVmAcceptorConfiguration {
  name: string;
  type: 'invm';
  serverId: number;
}

export type AcceptorConfiguration = TcpAcceptorConfiguration | InVmAcceptorConfiguration;

export interface CoreQueueConfiguration {
  name: string;
  address: string;
  filter: string | null;
  durable: boolean;
}

/**
 * The broker's settings. The persistence settings (PersistenceConfiguration: journal, bindings,
 * large-messages and paging directories, journal file sizes, sync policy) are used when
 * persistenceEnabled is true and no `storage` is given. The HA settings (HaConfiguration) make it
 * one of a live/backup pair on those directories.
 */
export interface BrokerConfiguration extends PersistenceConfiguration, HaConfiguration {
  /**
   * persistence-enabled: durable queues and persistent messages are kept in journals on disk and
   * survive a restart (or a crash). false: they are kept in memory only, and lost with the process.
   */
  persistenceEnabled: boolean;
  /**
   * Ours: the directory that relative journal, bindings, large-messages and paging directories
   * resolve against (`hornetq server --data-dir`); the working directory by default ('.').
   */
  dataDirectory: string;
  acceptors: AcceptorConfiguration[];
  /**
   * The cluster connection of a live/backup pair (cluster-connections, cluster-user,
   * cluster-password): the broker serves its topology {live, backup} to clients, and a backup
   * announces itself to its live. Null: not clustered (a subscriber hears of this broker alone).
   */
  cluster: ClusterConfiguration | null;
  /** Address settings by match ('#', 'jms.queue.*', …), merged most specific last. */
  addressSettings: Record<string, Partial<AddressSettings>>;
  /** Queues created at start if they do not exist yet. */
  queues: CoreQueueConfiguration[];
  /** If not -1, the TTL for every connection, whatever clients ask for (ms). */
  connectionTtlOverride: number;
  /** TTL of a TCP connection until its client's first ping says otherwise (ms). */
  defaultConnectionTtl: number;
  /** How often connections are checked against their TTL and confirmations flushed (ms). */
  connectionTtlCheckInterval: number;
  maxFrameBytes: number;
  /** Ours: the largest body a large message may have; it is assembled in memory. */
  maxLargeMessageBytes: number;
  /** Frame cap until a session is authenticated: the unauthenticated surface stays small. */
  preAuthMaxFrameBytes: number;
  /** Ms between scans for expired messages; -1 turns the scan off (message-expiry-scan-period). */
  messageExpiryScanPeriod: number;
  /** Duplicate-detection ids each address remembers (id-cache-size). */
  idCacheSize: number;
  /** Keep the duplicate-id caches in storage so that they survive a restart (persist-id-cache). */
  persistIdCache: boolean;
  /**
   * Ours: the bound on what the broker queues for one connection whose client does not read (bytes
   * written, not yet taken by the client). Above it, nothing more is delivered to that connection
   * (the queues' other consumers get the messages) and nothing more is read from it.
   */
  connectionOutputHighWaterMark: number;
  /** Ours: a connection that stays above its output high-water mark this long is closed (ms). */
  connectionOutputStallTimeout: number;
  /**
   * Ours: the longest connection TTL a client's ping may ask for (ms); a larger one, or -1
   * (never), gets this. connectionTtlOverride, when set, wins. Not applied to in-VM connections.
   */
  maxClientConnectionTtl: number;
  /** Ours: a TCP connection that has created no session (nor reattached one) by then is closed (ms). */
  sessionlessConnectionTimeout: number;
  /** Ours: sessions one connection may hold at a time. */
  maxSessionsPerConnection: number;
  /** Ours: consumers (and browsers) one connection may hold at a time, over all its sessions. */
  maxConsumersPerConnection: number;
  /** Ours: producers one connection may hold at a time, over all its sessions. */
  maxProducersPerConnection: number;
  /**
   * Ours: bytes of large-message bodies the broker assembles for one connection at a time, over all
   * its sessions (each session's message is also bounded by maxLargeMessageBytes).
   */
  maxLargeMessageBytesPerConnection: number;
  /** Ours: queues on the broker in all (durable, non-durable and temporary ones). */
  maxQueues: number;
  /** Ours: the longest queue name or address, in characters (from clients and from configuration). */
  maxNameLength: number;
  /**
   * Ours: the longest duplicate-detection id (_HQ_DUPL_ID) a message may carry: characters of a
   * string id, bytes of a bytes id. Each address remembers id-cache-size of them.
   */
  maxDuplicateIdLength: number;
  /**
   * Ours: bytes that frames not yet complete may hold, over all connections together (each one's
   * frame is bounded by maxFrameBytes). A frame that would take them past it closes its
   * connection, with a log line that says so. At least maxFrameBytes.
   */
  maxUnfinishedFrameBytes: number;
  /**
   * Ours (name-only-reattach-enabled): whether a session created without our extension's reattach
   * secret (a HornetQ Java client's) may be reattached by its name alone, HornetQ's rule and the
   * default. Its REATTACH_SESSION carries nothing but the name, so anyone who knows the name may
   * take the session over. false: such a reattach is answered "not reattached", and the client
   * creates its session again as after a broker restart (what it had not acknowledged comes back
   * redelivered). Sessions created with the secret are reattached with it either way.
   */
  nameOnlyReattachEnabled: boolean;
  /**
   * security-enabled: every session logs in (CREATESESSION's user and password, checked by
   * `securityManager`) and every operation is checked against `securitySettings`. false: anyone
   * connects and may do anything (tests, a broker behind its own access control).
   */
  securityEnabled: boolean;
  /**
   * Who may log in, with which roles; required when securityEnabled. EmbeddedJMS makes a
   * FileSecurityManager from hornetq-users.xml unless one is given.
   */
  securityManager?: SecurityManager;
  /**
   * `<security-settings>`: the roles granted each permission per address match. The most specific
   * match covering an address holds the only permissions there; an address none covers allows
   * nothing (HornetQ's default is no settings at all).
   */
  securitySettings: readonly SecuritySetting[];
  /**
   * `<management-address>`: a message sent here is a management request (HornetQ's management by
   * message), answered on its JMSReplyTo; it needs the `manage` permission on this address.
   */
  managementAddress: string;
  /** Ours: how failed logins slow the next attempts from the same host. */
  loginThrottle?: Partial<LoginThrottlePolicy>;
  /**
   * Where durable state lives, when the caller provides it (tests, embedding); otherwise the
   * broker makes journals from the persistence settings, or an in-memory store when
   * persistenceEnabled is false.
   */
  storage?: StorageManager;
  /**
   * The file layer under the page files (tests: a disk that fills up); node:fs when absent. Only
   * used with persistenceEnabled, where an address pages.
   */
  pageFileSystem?: PageFileSystem;
  logger?: Logger;
  /** How each of `acceptors` is made; TCP and in-VM (`defaultAcceptorFactory`) when absent. */
  acceptorFactory?: AcceptorFactory;
}

/** The settings that bound what clients may make the broker hold (hornetq-configuration.xml extensions). */
export type BrokerLimits = Pick<
  BrokerConfiguration,
  | 'connectionOutputHighWaterMark'
  | 'connectionOutputStallTimeout'
  | 'maxClientConnectionTtl'
  | 'sessionlessConnectionTimeout'
  | 'maxSessionsPerConnection'
  | 'maxConsumersPerConnection'
  | 'maxProducersPerConnection'
  | 'maxLargeMessageBytesPerConnection'
  | 'maxQueues'
  | 'maxNameLength'
  | 'maxDuplicateIdLength'
  | 'maxUnfinishedFrameBytes'
>;

/** Ours: generous for any honest client, yet a bound on what one (or all) can make the broker hold. */
export const DEFAULT_BROKER_LIMITS: Readonly<BrokerLimits> = Object.freeze({
  connectionOutputHighWaterMark: 4 * 1024 * 1024,
  connectionOutputStallTimeout: 30_000,
  maxClientConnectionTtl: 300_000,
  sessionlessConnectionTimeout: 10_000,
  maxSessionsPerConnection: 2_000,
  maxConsumersPerConnection: 10_000,
  maxProducersPerConnection: 10_000,
  maxLargeMessageBytesPerConnection: 200 * 1024 * 1024,
  maxQueues: 100_000,
  maxNameLength: 4_096,
  // A UUID is 36 characters; 512 bounds each address' cache to id-cache-size × 512.
  maxDuplicateIdLength: 512,
  // Six frames of the default maximum at once: honest clients send big frames now and then
  // (large messages go in 100 KiB chunks), and no number of connections can hold more.
  maxUnfinishedFrameBytes: 64 * 1024 * 1024,
});

/** HornetQ's defaults where HornetQ has one. */
export const DEFAULT_BROKER_CONFIGURATION: BrokerConfiguration = {
  persistenceEnabled: true,
  dataDirectory: '.',
  ...DEFAULT_PERSISTENCE_CONFIGURATION,
  ...DEFAULT_HA_CONFIGURATION,
  acceptors: [{ name: 'netty', type: 'tcp', host: 'localhost', port: 5445 }],
  cluster: null,
  addressSettings: {},
  queues: [],
  connectionTtlOverride: -1,
  defaultConnectionTtl: 60_000,
  connectionTtlCheckInterval: 2000,
  maxFrameBytes: DEFAULT_MAX_FRAME_BYTES,
  maxLargeMessageBytes: 100 * 1024 * 1024,
  preAuthMaxFrameBytes: DEFAULT_PRE_AUTH_MAX_FRAME_BYTES,
  messageExpiryScanPeriod: 30_000,
  idCacheSize: 20_000,
  persistIdCache: true,
  ...DEFAULT_BROKER_LIMITS,
  nameOnlyReattachEnabled: true,
  securityEnabled: true,
  securitySettings: [],
  managementAddress: MANAGEMENT_ADDRESS,
};

/** Below this the socket's own buffer (16 KiB) could hold it all and never report a drain. */
export const MIN_OUTPUT_HIGH_WATER_MARK = 64 * 1024;

/** Node fires a longer timer after 1 ms, so no period may exceed it. */
const MAX_TIMER_MS = 2_147_483_647;
/** Counts are Java ints in HornetQ's configuration. */
const MAX_INT = 2_147_483_647;
/** A name (3 bytes per character at worst) must leave room in a frame of the default cap. */
const MAX_NAME_LENGTH = 1024 * 1024;

/** Checks values at construction, naming the setting, the value and what is allowed. */
export function validateBrokerConfiguration(config: BrokerConfiguration): void {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const acceptor of config.acceptors) {
    if (names.has(acceptor.name)) problems.push(`acceptor name '${acceptor.name}' is used twice`);
    names.add(acceptor.name);
    if (
      acceptor.type === 'tcp' &&
      (!Number.isInteger(acceptor.port) || acceptor.port < 0 || acceptor.port > 65535)
    ) {
      problems.push(
        `acceptor '${acceptor.name}': port must be an integer in 0..65535 (actual value: ${acceptor.port})`,
      );
    }
    if (acceptor.type === 'tcp' && acceptor.tls !== undefined) problems.push(...tlsProblems(acceptor));
    const upgradeTimeout = acceptor.type === 'tcp' ? acceptor.httpUpgrade?.timeoutMs : undefined;
    if (upgradeTimeout !== undefined && !(Number.isSafeInteger(upgradeTimeout) && upgradeTimeout > 0)) {
      problems.push(
        `acceptor '${acceptor.name}': httpUpgrade.timeoutMs must be an integer > 0 (actual value: ${upgradeTimeout})`,
      );
    }
    if (acceptor.type === 'tcp' && acceptor.connectionsAllowed !== undefined) {
      const allowed = acceptor.connectionsAllowed;
      if (!(allowed === -1 || (Number.isSafeInteger(allowed) && allowed >= 1 && allowed <= MAX_INT))) {
        problems.push(
          `acceptor '${acceptor.name}': connections-allowed must be -1 (no limit) or an integer in 1..${MAX_INT} (actual value: ${allowed})`,
        );
      }
    }
    if (acceptor.type === 'invm' && (!Number.isInteger(acceptor.serverId) || acceptor.serverId < 0)) {
      problems.push(
        `acceptor '${acceptor.name}': server-id must be an integer >= 0 (actual value: ${acceptor.serverId})`,
      );
    }
  }
  if (typeof config.managementAddress !== 'string' || config.managementAddress === '')
    problems.push(
      `managementAddress must be a non-empty string (actual value: ${String(config.managementAddress)})`,
    );
  if (config.cluster !== null) {
    try {
      validateClusterConfiguration(config.cluster);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (!(config.connectionTtlCheckInterval > 0)) {
    problems.push(
      `connection-ttl-check-interval must be > 0 (actual value: ${config.connectionTtlCheckInterval})`,
    );
  }
  if (config.connectionTtlOverride !== -1 && !(config.connectionTtlOverride > 0)) {
    problems.push(
      `connection-ttl-override must be -1 or > 0 (actual value: ${config.connectionTtlOverride})`,
    );
  }
  if (!(Number.isSafeInteger(config.maxLargeMessageBytes) && config.maxLargeMessageBytes > 0)) {
    problems.push(
      `maxLargeMessageBytes must be an integer > 0 (actual value: ${config.maxLargeMessageBytes})`,
    );
  }
  if (!(
    Number.isSafeInteger(config.maxUnfinishedFrameBytes) &&
    config.maxUnfinishedFrameBytes >= config.maxFrameBytes
  )) {
    problems.push(
      `maxUnfinishedFrameBytes (max-unfinished-frame-bytes) must be an integer of at least maxFrameBytes (${config.maxFrameBytes}) bytes (actual value: ${config.maxUnfinishedFrameBytes})`,
    );
  }
  if (!(config.preAuthMaxFrameBytes >= 1024 && config.preAuthMaxFrameBytes <= config.maxFrameBytes)) {
    problems.push(
      `preAuthMaxFrameBytes must be between 1024 and maxFrameBytes (${config.maxFrameBytes}) (actual value: ${config.preAuthMaxFrameBytes})`,
    );
  }
  problems.push(...messagingProblems(config), ...limitProblems(config), ...persistenceProblems(config));
  problems.push(
    ...haConfigurationProblems(config, config.persistenceEnabled === true && config.storage === undefined),
  );
  if (problems.length > 0) throw invalidValue(`invalid broker configuration: ${problems.join('; ')}`);
}

/** The shape of an acceptor's TLS settings; the stores themselves are read when it starts. */
function tlsProblems(acceptor: TcpAcceptorConfiguration): string[] {
  const tls = acceptor.tls;
  if (tls === undefined) return [];
  const problems: string[] = [];
  const where = `acceptor '${acceptor.name}'`;
  if (typeof tls.keyStorePath !== 'string' || tls.keyStorePath === '') {
    problems.push(`${where}: ssl-enabled requires key-store-path (the broker's certificate and key)`);
  }
  if (typeof tls.needClientAuth !== 'boolean') {
    problems.push(
      `${where}: need-client-auth must be true or false (actual value: ${String(tls.needClientAuth)})`,
    );
  }
  if (!(
    Number.isInteger(tls.handshakeTimeout) &&
    tls.handshakeTimeout >= 1 &&
    tls.handshakeTimeout <= MAX_TIMER_MS
  )) {
    problems.push(
      `${where}: handshakeTimeout must be an integer in 1..${MAX_TIMER_MS} ms (actual value: ${tls.handshakeTimeout})`,
    );
  }
  return problems;
}

/** persistence-enabled, the data directory and the journal's settings. */
function persistenceProblems(config: BrokerConfiguration): string[] {
  const problems = persistenceConfigurationProblems(config);
  if (typeof config.persistenceEnabled !== 'boolean') {
    problems.push(
      `persistenceEnabled (persistence-enabled) must be true or false (actual value: ${String(config.persistenceEnabled)})`,
    );
  }
  if (
    typeof config.dataDirectory !== 'string' ||
    config.dataDirectory === '' ||
    config.dataDirectory.includes('\0')
  ) {
    problems.push(
      `dataDirectory must be a directory path (actual value: ${JSON.stringify(config.dataDirectory)})`,
    );
  }
  return problems;
}

/**
 * The persistence settings with each directory resolved against the data directory (an absolute
 * one stays as it is), as the journals and the page store use them.
 */
export function resolvedPersistence(config: BrokerConfiguration): PersistenceConfiguration {
  const base = path.resolve(config.dataDirectory);
  return {
    journalDirectory: path.resolve(base, config.journalDirectory),
    bindingsDirectory: path.resolve(base, config.bindingsDirectory),
    largeMessagesDirectory: path.resolve(base, config.largeMessagesDirectory),
    pagingDirectory: path.resolve(base, config.pagingDirectory),
    createJournalDir: config.createJournalDir,
    createBindingsDir: config.createBindingsDir,
    journalFileSize: config.journalFileSize,
    journalMinFiles: config.journalMinFiles,
    journalCompactMinFiles: config.journalCompactMinFiles,
    journalCompactPercentage: config.journalCompactPercentage,
    journalSyncTransactional: config.journalSyncTransactional,
    journalSyncNonTransactional: config.journalSyncNonTransactional,
    journalBufferTimeout: config.journalBufferTimeout,
    journalBufferSize: config.journalBufferSize,
    skipCorruptRecords: config.skipCorruptRecords,
    acceptDamage: config.acceptDamage,
  };
}

/** The expiry scan, the duplicate-id cache and every address-settings match. */
function messagingProblems(config: BrokerConfiguration): string[] {
  const problems: string[] = [];
  const period = config.messageExpiryScanPeriod;
  if (!(period === -1 || (Number.isInteger(period) && period >= 1 && period <= MAX_TIMER_MS))) {
    problems.push(
      `messageExpiryScanPeriod (message-expiry-scan-period) must be -1 (off) or an integer in 1..${MAX_TIMER_MS} ms (actual value: ${period})`,
    );
  }
  if (!(
    Number.isInteger(config.idCacheSize) &&
    config.idCacheSize >= 1 &&
    config.idCacheSize <= MAX_TIMER_MS
  )) {
    problems.push(
      `idCacheSize (id-cache-size) must be an integer in 1..${MAX_TIMER_MS} (actual value: ${config.idCacheSize})`,
    );
  }
  if (typeof config.persistIdCache !== 'boolean') {
    problems.push(
      `persistIdCache (persist-id-cache) must be true or false (actual value: ${String(config.persistIdCache)})`,
    );
  }
  if (typeof config.securityEnabled !== 'boolean') {
    problems.push(
      `securityEnabled (security-enabled) must be true or false (actual value: ${String(config.securityEnabled)})`,
    );
  }
  if (typeof config.nameOnlyReattachEnabled !== 'boolean') {
    problems.push(
      `nameOnlyReattachEnabled (name-only-reattach-enabled) must be true or false (actual value: ${String(config.nameOnlyReattachEnabled)})`,
    );
  }
  for (const [match, settings] of Object.entries(config.addressSettings)) {
    try {
      validateAddressSettings(match, settings);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return problems;
}

/** A positive integer no larger than `max`, or a problem naming the setting, its value and range. */
function rangeProblem(name: string, value: number, min: number, max: number, unit = ''): string[] {
  if (Number.isSafeInteger(value) && value >= min && value <= max) return [];
  return [`${name} must be an integer in ${min}..${max}${unit} (actual value: ${value})`];
}

/** The bounds on what one client (or all of them) may make the broker hold. */
function limitProblems(config: BrokerConfiguration): string[] {
  return [
    ...rangeProblem(
      'connectionOutputHighWaterMark (connection-output-high-water-mark)',
      config.connectionOutputHighWaterMark,
      MIN_OUTPUT_HIGH_WATER_MARK,
      Number.MAX_SAFE_INTEGER,
      ' bytes',
    ),
    ...rangeProblem(
      'connectionOutputStallTimeout (connection-output-stall-timeout)',
      config.connectionOutputStallTimeout,
      1,
      MAX_TIMER_MS,
      ' ms',
    ),
    ...rangeProblem(
      'maxClientConnectionTtl (max-client-connection-ttl)',
      config.maxClientConnectionTtl,
      1,
      MAX_TIMER_MS,
      ' ms',
    ),
    ...rangeProblem(
      'sessionlessConnectionTimeout (sessionless-connection-timeout)',
      config.sessionlessConnectionTimeout,
      1,
      MAX_TIMER_MS,
      ' ms',
    ),
    ...rangeProblem(
      'maxSessionsPerConnection (max-sessions-per-connection)',
      config.maxSessionsPerConnection,
      1,
      MAX_INT,
    ),
    ...rangeProblem(
      'maxConsumersPerConnection (max-consumers-per-connection)',
      config.maxConsumersPerConnection,
      1,
      MAX_INT,
    ),
    ...rangeProblem(
      'maxProducersPerConnection (max-producers-per-connection)',
      config.maxProducersPerConnection,
      1,
      MAX_INT,
    ),
    ...rangeProblem(
      'maxLargeMessageBytesPerConnection (max-large-message-bytes-per-connection)',
      config.maxLargeMessageBytesPerConnection,
      1,
      Number.MAX_SAFE_INTEGER,
      ' bytes',
    ),
    ...rangeProblem('maxQueues (max-queues)', config.maxQueues, 1, MAX_INT),
    ...rangeProblem('maxNameLength (max-name-length)', config.maxNameLength, 1, MAX_NAME_LENGTH),
    ...rangeProblem(
      'maxDuplicateIdLength (max-duplicate-id-length)',
      config.maxDuplicateIdLength,
      1,
      MAX_NAME_LENGTH,
    ),
  ];
}
