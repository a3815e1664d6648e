import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { HornetQException, InputBudget } from '../core/protocol';
import { RemotingConnection, silentLogger, type Logger, type Transport } from '../core/remoting';
import {
  DEFAULT_BROKER_CONFIGURATION,
  resolvedPersistence,
  validateBrokerConfiguration,
  type BrokerConfiguration,
  type BrokerLimits,
} from './broker-configuration';
import { AddressSettingsRepository } from './postoffice/address-settings';
import { ExpiryReaper } from './postoffice/expiry-reaper';
import type { Filter } from './postoffice/filter';
import { PostOffice } from './postoffice/post-office';
import { defaultAcceptorFactory, type Acceptor } from './remoting/acceptor';
import type { BrokerServices, ClusterServices } from './remoting/broker-services';
import { BackupAnnouncer } from './cluster/backup-announcer';
import { BrokerTopology } from './cluster/broker-topology';
import { announcedConnector } from './cluster/cluster-configuration';
import { ClusterCredentials } from './cluster/cluster-credentials';
import { ServerConnection } from './remoting/server-connection';
import { BrokerSecurity } from './security/broker-security';
import type { SecurityManager } from './security/security-manager';
import type { SecuritySetting } from './security/security-store';
import { MetadataRegistry } from './session/metadata-registry';
import type { ServerSession } from './session/server-session';
import { InMemoryStorage } from './storage/in-memory-storage';
import type { Durability, StorageLoadReport, StorageManager } from './storage/storage-manager';
import { createBrokerJournal, lockBrokerJournal, openBrokerNodeManager } from './broker-journal';
import { takeoverDelay } from './ha/ha-configuration';
import { LiveLockMonitor } from './ha/live-lock-monitor';
import type { NodeManager } from './ha/node-manager';
import { DataDirectoryLockedError } from './lock/data-directory-locked-error';
import { describeHolder } from './lock/lock-holder';
import { StorageError } from './storage/storage-error';
import { createJournalSyncHistogram, type JournalSyncHistogram } from './metrics/journal-sync-histogram';
import type { BrokerManagement } from './management/broker-management';
import { BrokerManagementService } from './management/broker-management-service';
import type { ManagementEndpoint } from './management/management-endpoint';
import { ManagementMessageHandler } from './management/management-message-handler';
import { SERVER_VERSION } from './remoting/handshake-handler';

/** What the management view reports for one queue. */
export interface QueueStatistics {
  name: string;
  address: string;
  durable: boolean;
  temporary: boolean;
  /** Waiting, scheduled and delivering messages. */
  messageCount: number;
  deliveringCount: number;
  /** Messages waiting for their scheduled delivery time or redelivery delay. */
  scheduledCount: number;
  consumerCount: number;
  messagesAdded: number;
  messagesAcknowledged: number;
  messagesExpired: number;
  /** Messages given up on after max-delivery-attempts (sent to the dead-letter address or dropped). */
  messagesKilled: number;
}

/** What the management view reports for one client connection. */
export interface ConnectionStatistics {
  id: number;
  remoteAddress: string;
  sessionCount: number;
  consumerCount: number;
  producerCount: number;
  /** Messages delivered to its consumers and not yet acknowledged. */
  deliveringCount: number;
  /** Bytes written to the connection that its client has not taken yet. */
  pendingOutputBytes: number;
  /** Above the output high-water mark: nothing more is delivered to it or read from it. */
  congested: boolean;
}

/**
 * Where a broker is in its life: `stopping` from the first moment of stop() (or of a storage
 * failure). `waiting`: a backup waiting for its live to go, or a live waiting for the backup that
 * serves in its place to hand back; its acceptors are closed and it holds no store.
 */
export type BrokerState = 'stopped' | 'starting' | 'waiting' | 'started' | 'stopping';

/** Node fires a longer timer after 1 ms: "wait until stopped" is waits of this length. */
const MAX_TIMER_MS = 2_147_483_647;

/** Waits `ms`; an abort of `signal` rejects with its reason. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw error;
  }
}

/** Filters (selectors) arrive with the JMS layer; until one is installed, a filter is refused. */
function refuseFilter(expression: string): Filter {
  throw new HornetQException(
    'INVALID_FILTER_EXPRESSION',
    `filters are not supported by this broker: '${expression}'`,
  );
}

/**
 * The broker: acceptors, connections, sessions and the post office. `start()` loads durable state
 * from its storage and opens the acceptors; `stop()` tells every client it is going away and
 * releases every port. A stopped broker can be started again.
 */
export class Broker implements BrokerServices {
  readonly config: BrokerConfiguration;
  readonly logger: Logger;
  readonly storage: StorageManager;
  /** @internal (the server connections share it) */
  readonly metadata = new MetadataRegistry<ServerSession>();
  /**
   * Logins and permissions (security-enabled, the security manager, <security-settings>).
   * @internal (the server connections log in through it)
   */
  readonly security: BrokerSecurity;
  /**
   * The topology served to clients and the cluster login (config.cluster); null when not clustered.
   * @internal (the server connections serve and update it)
   */
  readonly cluster: ClusterServices | null;
  private office: PostOffice | null = null;
  private acceptors: Acceptor[] = [];
  private readonly connections = new Set<ServerConnection>();
  /** What unfinished frames hold over all connections (maxUnfinishedFrameBytes); made at construction. */
  private readonly unfinishedFrames: InputBudget;
  private readonly sessions = new Map<string, ServerSession>();
  private state: BrokerState = 'stopped';
  /** Why the broker last stopped itself (its store failed); null after a clean start. */
  private storageFailure: Error | null = null;
  /** Sessions reattached to a new connection since the broker was made (a counter for metrics). */
  private reattached = 0;
  /**
   * How long each fdatasync of its journals took, when the broker keeps its own journals
   * (persistence enabled, no storage given); null otherwise.
   * @internal (MetricsServer serves it)
   */
  readonly journalSyncs: JournalSyncHistogram | null;
  private ttlTimer: NodeJS.Timeout | null = null;
  private expiryReaper: ExpiryReaper | null = null;
  private readonly failureListeners: Array<(error: Error) => void> = [];
  private currentNodeId: string | null = null;
  /** Persistence on and no storage given: journals in the data directory, which the broker locks. */
  private readonly keepsOwnJournal: boolean;
  /**
   * server.lock's node manager, open from start to stop when the broker keeps its own journal: the
   * live lock held while it serves (one live broker per directory), the backup lock while it is
   * the backup waiting for it.
   */
  private nodeManager: NodeManager | null = null;
  /** While serving with its own journal: stops the broker once server.lock no longer keeps others out. */
  private lockMonitor: LiveLockMonitor | null = null;
  /** The backup's life (wait, serve, hand back, wait again), or a returning live's wait: until stop(). */
  private activation: Promise<void> | null = null;
  private readonly activationAbort = { controller: new AbortController() };
  private readonly stateListeners: Array<(state: BrokerState) => void> = [];
  /** Epoch ms of the last start; null before the first. */
  private lastStart: number | null = null;
  /**
   * The management operations on this broker (queues, messages, connections, subscriptions), for
   * embedding code, the HTTP API and the management address. It trusts its caller: whoever
   * exposes it checks permissions.
   */
  readonly management: BrokerManagement;
  /**
   * Where sessions hand messages sent to the management address (config.managementAddress).
   * @internal (the server sessions use it)
   */
  readonly managementEndpoint: ManagementEndpoint;
  /** The stop under way, which a second stop() (a store failure during a stop, say) waits for. */
  private stopInProgress: Promise<void> | null = null;

  constructor(
    config: Partial<BrokerConfiguration> = {},
    private readonly filterFactory: (expression: string) => Filter = refuseFilter,
  ) {
    this.config = { ...DEFAULT_BROKER_CONFIGURATION, ...config };
    // A larger maxFrameBytes alone raises the default, so that one such frame always fits.
    if (config.maxUnfinishedFrameBytes === undefined) {
      this.config.maxUnfinishedFrameBytes = Math.max(
        DEFAULT_BROKER_CONFIGURATION.maxUnfinishedFrameBytes,
        this.config.maxFrameBytes,
      );
    }
    validateBrokerConfiguration(this.config);
    this.unfinishedFrames = new InputBudget(this.config.maxUnfinishedFrameBytes);
    this.logger = this.config.logger ?? silentLogger;
    this.security = new BrokerSecurity({
      enabled: this.config.securityEnabled,
      manager: this.config.securityManager ?? null,
      settings: this.config.securitySettings,
      throttle: this.config.loginThrottle,
      logger: this.logger,
    });
    this.cluster =
      this.config.cluster === null
        ? null
        : {
            topology: new BrokerTopology(),
            credentials: new ClusterCredentials(this.config.cluster.user, this.config.cluster.password),
          };
    this.keepsOwnJournal = this.config.persistenceEnabled && this.config.storage === undefined;
    this.journalSyncs = this.keepsOwnJournal ? createJournalSyncHistogram() : null;
    this.storage = this.config.storage ?? this.createStorage();
    this.storage.onFailure((error) => this.storageFailed(error));
    this.management = new BrokerManagementService(this);
    this.managementEndpoint = new ManagementMessageHandler(
      this.config.managementAddress,
      this.management,
      (reply) => this.postOffice.send(this.postOffice.prepare(reply)),
      this.logger,
    );
  }

  /** Epoch ms of the last start; null before the first. */
  get startedAt(): number | null {
    return this.lastStart;
  }

  get managementAddress(): string {
    return this.config.managementAddress;
  }

  /** What management reports as the version: HornetQ's core protocol version this broker speaks. */
  get version(): string {
    return `hornetq-js (HornetQ core protocol ${SERVER_VERSION})`;
  }

  /**
   * The open client connections.
   * @internal (management lists them)
   */
  serverConnections(): Iterable<ServerConnection> {
    return this.connections;
  }

  /** Journals in the persistence directories, or memory when persistence-enabled is false. */
  private createStorage(): StorageManager {
    const syncs = this.journalSyncs;
    if (syncs === null) return new InMemoryStorage();
    return createBrokerJournal(this.config, this.logger, (journal, seconds) =>
      syncs.observe({ journal }, seconds),
    );
  }

  get durability(): Durability {
    return this.storage;
  }

  /**
   * The store failed after opening (a write or a sync): nothing more can be promised durable, so
   * the broker stops (HornetQ's critical I/O error) and answers nothing it could not store.
   */
  storageFailed(error: Error): void {
    if (this.state !== 'started' && this.state !== 'starting') return;
    this.storageFailure = error;
    this.logger.error(
      { err: error },
      `critical I/O error in the message store (${error.message}): the broker stops, since nothing more can be stored`,
    );
    this.stop()
      .catch((stopError: unknown) =>
        this.logger.error({ err: stopError }, 'stopping after the storage failure failed as well'),
      )
      .finally(() => {
        for (const listener of this.failureListeners) listener(error);
      });
  }

  /**
   * Called once the broker has stopped itself because of `error` (a storage failure), so that what
   * runs it (`hornetq server`, a supervisor) does not go on as if it were serving.
   */
  onFailure(listener: (error: Error) => void): void {
    this.failureListeners.push(listener);
  }

  /** @internal (the server sessions route through it) */
  get postOffice(): PostOffice {
    if (this.office === null) throw new HornetQException('ILLEGAL_STATE', 'the broker is not started');
    return this.office;
  }

  get maxLargeMessageBytes(): number {
    return this.config.maxLargeMessageBytes;
  }

  get limits(): Readonly<BrokerLimits> {
    return this.config;
  }

  /**
   * The UUID that names this broker to its clients (topology, DISCONNECT). A broker that keeps its
   * own journal reads it from server.lock when it starts (a new directory gets a fresh one written
   * there), so that a restart does not make it another server in the clients' eyes; one that does
   * not gets a fresh id for its life. A backup has its pair's id (the live's) from the moment it
   * waits, and serves with it.
   */
  get nodeId(): string {
    if (this.currentNodeId === null) {
      if (this.keepsOwnJournal) {
        throw new HornetQException(
          'ILLEGAL_STATE',
          'the node id of a broker that keeps its own journal is read from server.lock when it first starts',
        );
      }
      this.currentNodeId = randomUUID();
    }
    return this.currentNodeId;
  }

  get connectionTtlOverride(): number {
    return this.config.connectionTtlOverride;
  }

  get nameOnlyReattachEnabled(): boolean {
    return this.config.nameOnlyReattachEnabled;
  }

  /**
   * Redeployed `<security-settings>`: every later permission check uses them (sends, consumers,
   * queue creation of sessions already open too). Throws RangeError, changing nothing, for
   * settings that are not valid.
   */
  setSecuritySettings(settings: readonly SecuritySetting[]): void {
    this.security.replaceSettings(settings);
  }

  /** Redeployed users (hornetq-users.xml): every later login uses them. */
  setSecurityManager(manager: SecurityManager): void {
    this.security.replaceManager(manager);
  }

  get started(): boolean {
    return this.state === 'started';
  }

  get status(): BrokerState {
    return this.state;
  }

  /** The store failure that made the broker stop itself, until it is started again. */
  get failure(): Error | null {
    return this.storageFailure;
  }

  /** Sessions reattached to a new connection by their client since the broker was made. */
  get reattachCount(): number {
    return this.reattached;
  }

  /** @internal (server connections count the sessions they reattach) */
  sessionReattached(): void {
    this.reattached++;
  }

  /** Whether every acceptor is listening (one that cannot tell is taken at its word: it started). */
  get acceptorsListening(): boolean {
    return this.state === 'started' && this.acceptors.every((acceptor) => acceptor.listening !== false);
  }

  /** `name tcp://host:port` of each acceptor, with the port it got. */
  get acceptorAddresses(): string[] {
    return this.describeAcceptors();
  }

  /**
   * Tells the clients subscribed to the topology that this broker serves its node as live,
   * through its cluster connection's connector (a backup keeps the one known). Called when the
   * broker starts as live, and by a backup's activation once it has taken over. Nothing when the
   * broker is not clustered.
   */
  publishAsLive(): void {
    if (this.cluster === null || this.config.cluster === null) return;
    const connector = this.config.cluster.connection.connector;
    this.cluster.topology.publishLive(this.nodeId, null, announcedConnector(connector));
    this.logger.info(
      { nodeId: this.nodeId, connector: `${connector.host}:${connector.port}` },
      `node ${this.nodeId} announced as live at ${connector.host}:${connector.port}`,
    );
  }

  /**
   * What a backup runs while it waits for the live's lock: it announces itself, as a backup of
   * `nodeId` (the pair's, from the shared server.lock), to the live its cluster connection's
   * static connectors name. The caller starts and stops it.
   */
  backupAnnouncer(nodeId: string): BackupAnnouncer {
    const cluster = this.config.cluster;
    if (cluster === null) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        'a backup announces itself through its cluster connection, and this broker has none (cluster-connections)',
      );
    }
    const connection = cluster.connection;
    return new BackupAnnouncer({
      lives: connection.staticConnectors,
      nodeId,
      nodeName: null,
      connector: connection.connector,
      user: cluster.user,
      password: cluster.password,
      retryInterval: connection.retryInterval,
      maxRetryInterval: connection.maxRetryInterval,
      logger: this.logger,
    });
  }

  /**
   * Starts the broker. A live broker resolves once it serves (its journal loaded, its acceptors
   * open). A backup (`backup`), or a live whose directory a backup serves in its place, resolves
   * once it waits (status `waiting`): it serves later, when the lock is its own; onStateChange
   * tells when.
   */
  async start(): Promise<void> {
    if (this.state !== 'stopped')
      throw new HornetQException('ILLEGAL_STATE', `cannot start a broker that is ${this.state}`);
    this.setState('starting');
    this.storageFailure = null;
    try {
      if (!this.keepsOwnJournal) return await this.serve();
      if (this.config.backup) return await this.startAsBackup();
      const waiting = await this.lockDataDirectory();
      if (waiting) return;
      await this.serve();
    } catch (error) {
      await this.releaseDataDirectory();
      this.setState('stopped');
      throw error;
    }
  }

  /**
   * Stops serving (or waiting) and lets go of the store: with its own journal, server.lock says
   * PAUSED after a clean stop (a backup keeps waiting) unless failover-on-shutdown (then LIVE, and
   * the backup takes over); after a storage failure it stays as after a crash.
   */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    if (this.stopInProgress !== null) return this.stopInProgress;
    // A start or a stop in progress finishes on its own; only a background life is stopped midway.
    if ((this.state === 'starting' || this.state === 'stopping') && this.activation === null) return;
    this.stopInProgress ??= this.stopEverything().finally(() => (this.stopInProgress = null));
    await this.stopInProgress;
  }

  private async stopEverything(): Promise<void> {
    // Without a background life, stopServing runs before the first await: the status says
    // `stopping` from the moment stop() is called (a readiness probe goes down at once).
    if (this.activation !== null) await this.endActivation();
    if (this.state === 'started') await this.stopServing();
    await this.releaseDataDirectory();
    this.setState('stopped');
    this.logger.info({}, 'broker stopped');
  }

  /**
   * Called at each change of status(): `waiting` (a backup that waits), `started` (serving, as
   * live or as the backup that took over), `stopping`, `stopped`. For the parts of the broker that
   * act on its role (announcing a backup to its live, the topology).
   */
  onStateChange(listener: (state: BrokerState) => void): void {
    this.stateListeners.push(listener);
  }

  /** Whether this broker was configured as a backup and now serves in its live's place. */
  get servingAsBackup(): boolean {
    return this.config.backup && this.state === 'started';
  }

  private setState(state: BrokerState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.stateListeners) {
      try {
        listener(state);
      } catch (error) {
        this.logger.error({ err: error }, `a broker state listener failed: ${String(error)}`);
      }
    }
  }

  /** Loads the store and opens the acceptors; a failure undoes what was done (the node manager stays). */
  private async serve(): Promise<void> {
    this.setState('starting');
    let opened = false;
    try {
      const startedAt = Date.now();
      const report = await this.storage.open();
      opened = true;
      this.logger.info({ nodeId: this.nodeId }, `broker node id ${this.nodeId}`);
      this.security.open();
      this.logSecurity();
      const office = this.createPostOffice();
      this.logLoad(report, Date.now() - startedAt);
      if (!this.config.persistenceEnabled) {
        this.logger.warn(
          { persistenceEnabled: false },
          'persistence is disabled (persistence-enabled is false): durable queues and persistent messages are kept in memory only, and nothing survives a restart of the process',
        );
      }
      this.office = office;
      this.expiryReaper = new ExpiryReaper(
        this.config.messageExpiryScanPeriod,
        (now) => office.expireMessages(now),
        (error) => this.logger.error({ err: error }, 'the expiry scan failed; the broker carries on'),
      );
      this.expiryReaper.start();
      const createAcceptor = this.config.acceptorFactory ?? defaultAcceptorFactory;
      this.acceptors = this.config.acceptors.map((acceptor) =>
        createAcceptor(acceptor, (transport) => this.accept(transport), this.logger),
      );
      for (const acceptor of this.acceptors) await acceptor.start();
      this.publishAsLive();
      this.ttlTimer = setInterval(() => this.checkConnections(), this.config.connectionTtlCheckInterval);
      this.watchLiveLock();
      this.lastStart = Date.now();
      this.setState('started');
      this.logger.info({ acceptors: this.describeAcceptors() }, 'broker started');
    } catch (error) {
      this.security.close();
      await this.stopAcceptors();
      await this.stopPostOffice();
      if (opened) await this.closeStorage();
      throw error;
    }
  }

  /** Disconnects every client, closes the acceptors, the post office and the store; keeps the lock. */
  private async stopServing(): Promise<void> {
    this.setState('stopping');
    this.lockMonitor?.stop();
    this.lockMonitor = null;
    if (this.ttlTimer !== null) clearInterval(this.ttlTimer);
    this.ttlTimer = null;
    for (const connection of [...this.connections]) connection.disconnect();
    this.security.close();
    await this.stopAcceptors();
    this.connections.clear();
    this.sessions.clear();
    await this.stopPostOffice();
    await this.closeStorage();
  }

  /** A backup: server.lock opened, then waiting (in the background) for its turn; see backupLife. */
  private async startAsBackup(): Promise<void> {
    const manager = await openBrokerNodeManager(this.config);
    this.nodeManager = manager;
    this.currentNodeId = manager.nodeId;
    this.setState('waiting');
    this.runActivation((signal) => this.backupLife(manager, signal));
  }

  /**
   * HornetQ's shared-store backup activation, until stop(): the backup lock (one backup waits at a
   * time), the live lock once the live is gone, a pause for a live that lost its lock to finish
   * stopping, then the store loaded and the acceptors opened with the pair's node id. With
   * allow-failback it hands back when its live returns (the live writes FAILING_BACK) and waits
   * again.
   */
  private async backupLife(manager: NodeManager, signal: AbortSignal): Promise<void> {
    for (;;) {
      await manager.startBackup(signal);
      this.currentNodeId = manager.nodeId;
      this.logger.info(
        { nodeId: manager.nodeId, directory: manager.directory },
        `backup of node ${manager.nodeId ?? '(not yet known)'}: waiting for its live server to go (server.lock in ${manager.directory}); acceptors stay closed`,
      );
      await this.announcedWhile(manager.nodeId, () => manager.awaitLiveNode(signal));
      this.currentNodeId = manager.nodeId;
      const delay = takeoverDelay(this.config);
      this.logger.warn(
        { nodeId: manager.nodeId },
        `the live server of node ${manager.nodeId} is gone: taking over its store in ${delay} ms`,
      );
      await pause(delay, signal);
      await this.serveOrGiveBack(manager);
      await manager.releaseBackup();
      this.logger.info({ nodeId: this.nodeId }, `backup serving as live for node ${this.nodeId}`);
      if (!this.config.allowFailback) {
        await pause(MAX_TIMER_MS, signal);
        continue;
      }
      await this.awaitFailbackRequest(manager, signal);
      this.logger.warn(
        { nodeId: this.nodeId },
        'the live server is back and asks for its store (fail-back): this backup stops serving and waits again',
      );
      await this.stopServing();
      await manager.crashLiveServer();
      this.setState('waiting');
    }
  }

  /**
   * Runs `waiting` while this backup announces itself to its live through its cluster connection
   * (so that the live's clients know where to go before anything fails); the announcer stops
   * before the backup goes on, so that it never announces a backup that has started to serve.
   * Without a cluster connection, or before the pair's node id is in server.lock, it only waits.
   */
  private async announcedWhile(nodeId: string | null, waiting: () => Promise<void>): Promise<void> {
    if (this.config.cluster === null || nodeId === null) return waiting();
    const announcer = this.backupAnnouncer(nodeId);
    announcer.start();
    try {
      await waiting();
    } finally {
      await announcer.stop();
    }
  }

  /** serve(); when it fails the live lock goes back (LIVE kept) so that another backup may try. */
  private async serveOrGiveBack(manager: NodeManager): Promise<void> {
    try {
      await this.serve();
    } catch (error) {
      this.logger.error({ err: error }, `the backup could not take over: ${String(error)}`);
      await manager.crashLiveServer();
      throw error;
    }
  }

  /** Resolves once a returning live has written FAILING_BACK, read every poll period. */
  private async awaitFailbackRequest(manager: NodeManager, signal: AbortSignal): Promise<void> {
    while (!(await manager.isAwaitingFailback())) await pause(this.config.haLockPollPeriod, signal);
  }

  /**
   * The live's hold on its directory (server.lock, with the node id kept there): true when it must
   * wait, because a backup serves the directory in its place (it has failed over) and the pair
   * shares its store: it asks for its store back (fail-back) in the background. Any other holder
   * is DataDirectoryLockedError, as for any broker: one live broker per directory.
   */
  private async lockDataDirectory(): Promise<boolean> {
    try {
      const lock = await lockBrokerJournal(this.config);
      this.nodeManager = lock.nodeManager;
      this.currentNodeId = lock.nodeId;
      return false;
    } catch (error) {
      if (!(this.config.sharedStore && DataDirectoryLockedError.is(error) && error.holder?.role === 'backup'))
        throw error;
      const manager = await openBrokerNodeManager(this.config);
      this.nodeManager = manager;
      this.currentNodeId = manager.nodeId;
      this.setState('waiting');
      this.logger.warn(
        { holder: error.holder },
        `a backup serves ${manager.directory} in this broker's place (${describeHolder(error.holder)}): asking for it back in ${this.config.failbackDelay} ms (failback-delay), then waiting for it to hand back`,
      );
      this.runActivation((signal) => this.failBack(manager, signal));
      return true;
    }
  }

  /** HornetQ's returning live: failback-delay, then FAILING_BACK and the live lock, waited for; then serve. */
  private async failBack(manager: NodeManager, signal: AbortSignal): Promise<void> {
    await pause(this.config.failbackDelay, signal);
    await manager.startLive(signal);
    this.currentNodeId = manager.nodeId;
    this.logger.info({ nodeId: manager.nodeId }, 'the backup has handed back: serving again as live');
    await this.serve();
  }

  /**
   * Runs a waiting life in the background until stop() aborts it. One that ends in an error
   * (other than the abort) leaves the broker stopped and tells the failure listeners, as a store
   * failure does: what runs the broker must not take a broker that gave up for one that waits.
   */
  private runActivation(life: (signal: AbortSignal) => Promise<void>): void {
    const controller = new AbortController();
    this.activationAbort.controller = controller;
    this.activation = life(controller.signal).catch(async (error: unknown) => {
      if (controller.signal.aborted) return;
      const failure = error instanceof Error ? error : new Error(String(error));
      this.storageFailure = failure;
      this.logger.error({ err: failure }, `the broker cannot go on waiting or serving: ${failure.message}`);
      this.activation = null;
      if (this.state === 'started') await this.stopServing();
      await this.releaseDataDirectory();
      this.setState('stopped');
      for (const listener of this.failureListeners) listener(failure);
    });
  }

  /** Aborts the background life (a wait, or the watch for a fail-back request) and waits for it to end. */
  private async endActivation(): Promise<void> {
    const activation = this.activation;
    if (activation === null) return;
    this.activation = null;
    this.activationAbort.controller.abort(new Error('the broker is stopping'));
    await activation;
  }

  /** While serving with its own journal: a server.lock that no longer keeps others out stops the broker. */
  private watchLiveLock(): void {
    const manager = this.nodeManager;
    if (manager === null) return;
    this.lockMonitor = new LiveLockMonitor(
      () => manager.liveLockProblem(),
      this.config.liveLockCheckPeriod,
      (reason) => {
        this.logger.error(
          { directory: manager.directory },
          `the data directory lock is lost: ${reason}. Stopping at once, before a backup can take the store over: two brokers must never write one journal`,
        );
        this.storageFailed(new StorageError(`the data directory lock is lost: ${reason}`));
      },
    );
    this.lockMonitor.start();
  }

  /** `await using`: stop(). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  private logSecurity(): void {
    if (this.config.securityEnabled) return;
    this.logger.warn(
      { securityEnabled: false },
      'security is disabled (security-enabled is false): every client is let in without a password and may send, consume, and create and delete queues',
    );
  }

  /**
   * After the journals have closed: the live lock let go, with PAUSED in server.lock after a clean
   * stop unless failover-on-shutdown (LIVE stays then, and after a storage failure, as after a
   * crash: a waiting backup takes over); then server.lock closed. A failure to do so is reported.
   */
  private async releaseDataDirectory(): Promise<void> {
    const manager = this.nodeManager;
    this.nodeManager = null;
    if (manager === null) return;
    try {
      if (this.storageFailure === null && !this.config.failoverOnShutdown) await manager.pauseLiveServer();
    } catch (error) {
      this.logger.error({ err: error }, `releasing the data directory lock failed: ${String(error)}`);
    } finally {
      await this.closeNodeManager(manager);
    }
  }

  private async closeNodeManager(manager = this.nodeManager): Promise<void> {
    this.nodeManager = null;
    try {
      await manager?.close();
    } catch (error) {
      this.logger.error({ err: error }, `closing server.lock failed: ${String(error)}`);
    }
  }

  /** Writes out and syncs what is pending; a store that cannot is reported, the stop goes on. */
  private async closeStorage(): Promise<void> {
    try {
      await this.storage.close();
    } catch (error) {
      this.logger.error({ err: error }, `closing the message store failed: ${String(error)}`);
    }
  }

  /** Where durable state is, what was loaded and how long it took (including building the queues). */
  private logLoad(report: StorageLoadReport, milliseconds: number): void {
    const { location, queues, messages, bytes } = report;
    this.logger.info(
      { location, queues, messages, bytes, milliseconds },
      `message store at ${location}: loaded ${queues} durable queues and ${messages} messages (${bytes} bytes) in ${milliseconds} ms`,
    );
    for (const note of report.notes) this.logger.warn({ location }, `message store: ${note}`);
  }

  /** The port an acceptor is bound to (useful with port 0). */
  getPort(acceptorName?: string): number {
    const port = this.acceptors.find(
      (a) =>
        a.config.type === 'tcp' &&
        a.port !== undefined &&
        (acceptorName === undefined || a.config.name === acceptorName),
    )?.port;
    if (port === undefined)
      throw new HornetQException('ILLEGAL_STATE', `no started TCP acceptor ${acceptorName ?? ''}`);
    return port;
  }

  getConnectionCount(): number {
    return this.connections.size;
  }

  /** Bytes held now by frames not yet complete, over every connection (at most maxUnfinishedFrameBytes). */
  getUnfinishedFrameBytes(): number {
    return this.unfinishedFrames.heldBytes;
  }

  getSessionCount(): number {
    return this.sessions.size;
  }

  listConnections(): ConnectionStatistics[] {
    return [...this.connections].map((connection) => ({
      id: connection.remoting.id,
      remoteAddress: connection.remoting.remoteAddress,
      sessionCount: connection.sessionCount,
      consumerCount: connection.consumerCount,
      producerCount: connection.producerCount,
      deliveringCount: connection.deliveringCount,
      pendingOutputBytes: connection.remoting.transport.pendingBytes,
      congested: connection.remoting.congested,
    }));
  }

  listQueues(): QueueStatistics[] {
    return this.postOffice.allQueues().map((queue) => ({
      name: queue.name,
      address: queue.address,
      durable: queue.durable,
      temporary: queue.temporary,
      messageCount: queue.messageCount,
      deliveringCount: queue.deliveringCount,
      scheduledCount: queue.scheduledCount,
      consumerCount: queue.consumerCount,
      messagesAdded: queue.messagesAdded,
      messagesAcknowledged: queue.messagesAcknowledged,
      messagesExpired: queue.messagesExpired,
      messagesKilled: queue.messagesKilled,
    }));
  }

  /** @internal (server connections reattach sessions through it) */
  findSession(name: string): ServerSession | undefined {
    return this.sessions.get(name);
  }

  /** @internal (server connections register the sessions they open) */
  registerSession(session: ServerSession): void {
    this.sessions.set(session.name, session);
  }

  /** @internal (server connections unregister the sessions they close) */
  unregisterSession(session: ServerSession): void {
    this.metadata.release(session);
    if (this.sessions.get(session.name) === session) this.sessions.delete(session.name);
  }

  /** @internal (server connections report their end) */
  connectionClosed(connection: ServerConnection): void {
    this.connections.delete(connection);
  }

  /**
   * Reaps connections silent past their TTL and flushes the others' confirmations. Runs from a
   * timer: a connection whose check throws is logged and failed, and the others are still checked.
   */
  private checkConnections(): void {
    const now = Date.now();
    for (const connection of [...this.connections]) {
      try {
        connection.checkTtl(now);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        this.logger.error({ err: error }, `connection check failed: ${reason}; closing the connection`);
        connection.remoting.fail(new HornetQException('INTERNAL_ERROR', reason, { cause: error }));
      }
    }
  }

  private createPostOffice(): PostOffice {
    const settings = new AddressSettingsRepository();
    for (const [match, value] of Object.entries(this.config.addressSettings)) settings.add(match, value);
    const office = new PostOffice(this.storage, settings, this.filterFactory, {
      idCacheSize: this.config.idCacheSize,
      persistIdCache: this.config.persistIdCache,
      maxQueues: this.config.maxQueues,
      maxNameLength: this.config.maxNameLength,
      maxDuplicateIdLength: this.config.maxDuplicateIdLength,
      // Page files are part of what persistence-enabled false turns off: PAGE then keeps accepting in memory.
      pagingDirectory: this.config.persistenceEnabled
        ? resolvedPersistence(this.config).pagingDirectory
        : null,
      ...(this.config.pageFileSystem === undefined ? {} : { pageFileSystem: this.config.pageFileSystem }),
      logger: this.logger,
    });
    office.load();
    for (const queue of this.config.queues) {
      if (office.getQueue(queue.name) === undefined) office.createQueue({ ...queue, temporary: false });
    }
    return office;
  }

  /**
   * Stops the expiry scan and every queue timer, then lets the post office go once its page files
   * are settled and removed.
   */
  private async stopPostOffice(): Promise<void> {
    this.expiryReaper?.stop();
    this.expiryReaper = null;
    const office = this.office;
    this.office = null;
    office?.stop();
    await office?.closePaging();
  }

  private accept(transport: Transport): void {
    if (this.state !== 'started') {
      transport.destroy();
      return;
    }
    const remoting = new RemotingConnection(transport, {
      logger: this.logger,
      acceptPreamble: true,
      maxFrameBytes: this.config.maxFrameBytes,
      preAuthMaxFrameBytes: this.config.preAuthMaxFrameBytes,
      // What the broker keeps (queued messages) is up to its clients: each message its own memory.
      detachMessages: true,
      outputHighWaterMark: this.config.connectionOutputHighWaterMark,
      inputBudget: this.unfinishedFrames,
    });
    const inVm = transport.remoteAddress.startsWith('invm');
    const ttl = inVm ? -1 : this.config.defaultConnectionTtl;
    this.connections.add(new ServerConnection(remoting, this, ttl, inVm));
  }

  private async stopAcceptors(): Promise<void> {
    const acceptors = this.acceptors;
    this.acceptors = [];
    await Promise.all(acceptors.map((acceptor) => acceptor.stop()));
  }

  private describeAcceptors(): string[] {
    return this.acceptors.map(({ config, port }) =>
      config.type === 'tcp'
        ? `${config.name} tcp://${config.host}:${port ?? config.port}${config.tls === undefined ? '' : ' (TLS)'}${config.httpUpgrade === undefined ? '' : ' (HTTP upgrade)'}`
        : `${config.name} invm://${config.serverId}`,
    );
  }
}
