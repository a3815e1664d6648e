import {
  HornetQException,
  type CreateSessionResponse,
  type Packet,
  type ReattachSessionResponse,
} from '../protocol';
import { PacketType } from '../protocol/packet-type';
import { EXTENSION_VERSION } from '../protocol/packets';
import {
  CHANNEL_ID,
  RemotingConnection,
  silentLogger,
  type Channel,
  type Logger,
  type Transport,
} from '../remoting';
import { abortable, type AbortOptions } from './abortable';
import { connectorForEndpoint, sameServer } from './announced-connector';
import { resolveClientOptions, type ClientOptions } from './client-options';
import { ClientSession } from './client-session';
import {
  connectTimeoutOf,
  DEFAULT_HOST,
  DEFAULT_PORT,
  describeConnector,
  isInVm,
  type TransportConfiguration,
} from './connector';
import {
  FailoverEventType,
  type FailoverEventListener,
  type FailoverStatistics,
  type SessionFailureListener,
} from './failover-events';
import { FirstBytesTransport } from './first-bytes-transport';
import { Pinger } from './pinger';
import { CancellableDelay, connectWithRetry, retryDelay, type RetryPolicy } from './retry-schedule';
import {
  newSessionIdentity,
  SessionContext,
  type SessionHost,
  type SessionIdentity,
  type SessionLink,
  type SessionSettings,
} from './session-context';
import {
  Topology,
  type TopologyEvent,
  type TopologyListener,
  type TopologyMember,
  type TopologySnapshot,
} from './topology';
import { applyDisconnect, applyTopologyChange } from './topology-feed';
import { plainClientOnTlsPort } from './tls-required';
import { TopologyWait } from './topology-wait';

/**
 * HornetQ 2.4's protocol version (its incrementing version 124), sent in every CREATESESSION and
 * SUBSCRIBE_TOPOLOGY_V2, also on a re-creation. The broker answers with its own (HornetQ 124,
 * Artemis 136): any is accepted, since only the client's version picks the encodings.
 */
export const CLIENT_VERSION = 124;

/** A temporary queue this factory's sessions created: re-created with them if the broker lost it. */
interface TemporaryQueue {
  address: string;
  name: string;
  filter: string | null;
  temporary: boolean;
}

/** A session and the context that carries it on the wire (the factory fails the context over). */
interface OpenSession {
  readonly session: ClientSession;
  readonly context: SessionContext;
}

/**
 * One connection to a broker and the sessions on it (HornetQ's ClientSessionFactory), and what
 * keeps them alive across failures. When the connection fails the factory reconnects
 * (reconnect-attempts, retry-interval × multiplier up to max-retry-interval, with jitter) and
 * reattaches every session: both sides replay what the other has not confirmed, so nothing is
 * lost, repeated or reordered. If the broker no longer has a session (restart, TTL, window -1)
 * the session is re-created instead. Application calls made meanwhile wait for the outcome.
 */
export class ClientSessionFactory {
  private readonly sessions = new Set<OpenSession>();
  private readonly failureListeners = new Set<SessionFailureListener>();
  private readonly failoverListeners = new Set<FailoverEventListener>();
  private readonly temporaryQueues = new Map<string, TemporaryQueue>();
  private connection!: RemotingConnection;
  private handshake!: Channel;
  /** The current connection's wait for its first topology answer. */
  private topologyWait: TopologyWait | null = null;
  /** The server a reconnection dials first: the one connected to, or the backup once taken. */
  private current: TransportConfiguration;
  /** With `ha`, the backup the topology names for the current server, dialled after it. */
  private backup: TransportConfiguration | null = null;
  /** The node the current connection serves, as its topology shows (null until known). */
  private servedNodeId: string | null = null;
  private readonly topologyListeners = new Set<TopologyListener>();
  private warnedTopologyFull = false;
  private pinger: Pinger | null = null;
  private failover: Promise<void> | null = null;
  private readonly retryDelay = new CancellableDelay();
  private readonly stats = {
    reattaches: 0,
    reconnects: 0,
    replayedCommands: 0,
    resentDurableSends: 0,
    resendBufferPeakBytes: 0,
  };
  private isClosed = false;
  /** The current connection's transport, which knows what the peer sent first. */
  private peer: FirstBytesTransport | null = null;

  private constructor(
    readonly options: ClientOptions,
    transport: Transport,
    /** The connector this factory was created with: announced servers are dialled with its TLS. */
    private readonly own: TransportConfiguration,
    /** The cluster as the brokers announced it, across reconnections (a ServerLocator's, shared). */
    private readonly cluster: Topology,
    private readonly logger: Logger,
  ) {
    this.current = own;
    this.attach(transport, own);
  }

  /** The connector of the server connected to (after a failover to a backup, the backup's). */
  get connector(): TransportConfiguration {
    return this.current;
  }

  /**
   * Connects (initial-connect-attempts rounds over the connectors) and resolves once the broker
   * has answered. Aborting `signal` stops it wherever it is: an aborted signal opens nothing; while
   * connecting or between attempts, the socket being opened is destroyed and no retry follows;
   * while waiting for the broker's first answer, the connection is closed. Every socket and timer
   * it made is released, and it rejects with the signal's reason.
   */
  static async connect(
    options: Partial<ClientOptions> = {},
    { signal }: AbortOptions = {},
  ): Promise<ClientSessionFactory> {
    signal?.throwIfAborted();
    const resolved = resolveClientOptions(options);
    return ClientSessionFactory.dial(resolved, resolved.connectors, new Topology(), signal);
  }

  /**
   * Connects to the first of `connectors` that answers (initial-connect-attempts rounds), merging
   * what the brokers announce into `cluster`. See connect().
   * @internal (ServerLocator creates its factories through it, with its shared topology)
   */
  static async dial(
    resolved: ClientOptions,
    connectors: readonly TransportConfiguration[],
    cluster: Topology,
    signal?: AbortSignal,
  ): Promise<ClientSessionFactory> {
    signal?.throwIfAborted();
    const logger = resolved.logger ?? silentLogger;
    const { transport, connector } = await connectWithRetry(
      connectors,
      { ...retryPolicy(resolved), attempts: resolved.initialConnectAttempts },
      resolved,
      new CancellableDelay(),
      signal,
    );
    const effective = isInVm(connector) ? withInVmLiveness(resolved) : resolved;
    const factory = new ClientSessionFactory(effective, transport, connector, cluster, logger);
    try {
      await abortable(factory.topologyWait?.received ?? Promise.resolve(), signal);
    } catch (error) {
      await factory.close({ signal });
      throw (await factory.tlsRequired(error, signal)) ?? factory.notABroker(error) ?? error;
    }
    return factory;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** True while a failure is being handled (reconnecting, reattaching or re-creating). */
  get failingOver(): boolean {
    return this.failover !== null;
  }

  addFailureListener(listener: SessionFailureListener): void {
    this.failureListeners.add(listener);
  }

  removeFailureListener(listener: SessionFailureListener): void {
    this.failureListeners.delete(listener);
  }

  addFailoverListener(listener: FailoverEventListener): void {
    this.failoverListeners.add(listener);
  }

  removeFailoverListener(listener: FailoverEventListener): void {
    this.failoverListeners.delete(listener);
  }

  /**
   * The cluster as the brokers announced it (HornetQ's topology): each node's live server and its
   * backup, merged by HornetQ's rules. A broker that is not clustered announces one member, itself,
   * reached through the connector this factory used. A snapshot: later changes make a new one.
   */
  topology(): TopologySnapshot {
    return this.cluster.snapshot();
  }

  /** Told when a member comes or changes (MEMBER_UP) and when one leaves (MEMBER_DOWN). */
  addTopologyListener(listener: TopologyListener): void {
    this.topologyListeners.add(listener);
  }

  removeTopologyListener(listener: TopologyListener): void {
    this.topologyListeners.delete(listener);
  }

  getStatistics(): FailoverStatistics {
    let bytes = 0;
    let peak = this.stats.resendBufferPeakBytes;
    for (const { context } of this.sessions) {
      bytes += context.resendBufferBytes;
      peak = Math.max(peak, context.resendBufferPeakBytes);
    }
    return {
      reattaches: this.stats.reattaches,
      reconnects: this.stats.reconnects,
      replayedCommands: this.stats.replayedCommands,
      resentDurableSends: this.stats.resentDurableSends,
      resendBufferBytes: bytes,
      resendBufferPeakBytes: peak,
    };
  }

  /**
   * Creates a session. A creation cut off by a connection failure is tried again once the factory
   * has reconnected (as HornetQ does), so callers racing a failover see no error. Aborting
   * `signal` rejects with its reason: before the request went (an aborted signal, or while a
   * failover is waited out) nothing is sent; while waiting for the broker's answer, a session the
   * broker creates all the same is closed again as soon as its answer arrives.
   */
  async createSession(
    settings: Partial<SessionSettings> = {},
    { signal }: AbortOptions = {},
  ): Promise<ClientSession> {
    signal?.throwIfAborted();
    const resolved: SessionSettings = {
      autoCommitSends: true,
      autoCommitAcks: true,
      preAcknowledge: this.options.preAcknowledge,
      ackBatchSize: this.options.ackBatchSize,
      username: null,
      password: null,
      ...settings,
    };
    for (;;) {
      await abortable(this.failoverEnded(), signal);
      if (this.isClosed) throw closedError();
      const connection = this.connection;
      const channelId = connection.generateChannelId();
      // Chosen here, as HornetQ's client does: the name a reattach presents, kept on a re-creation.
      // A fresh one for each attempt (HornetQ reuses it): a creation cut off by a failure may have
      // left a session of that name on the broker, which the broker will not hand to a newcomer.
      const identity: SessionIdentity = newSessionIdentity();
      let response: CreateSessionResponse;
      const opening = this.openBrokerSession(channelId, resolved, identity);
      try {
        response = await abortable(opening, signal, () =>
          this.closeWhenOpened(opening, connection, channelId, resolved, identity),
        );
      } catch (error) {
        if (HornetQException.is(error, 'UNBLOCKED') && !this.isClosed) continue;
        throw error;
      }
      if (connection !== this.connection || connection.closed) continue; // answered just before a failure
      return this.sessionOn(connection, channelId, identity, response, resolved);
    }
  }

  /** The client side of a session the broker has just created. */
  private sessionOn(
    connection: RemotingConnection,
    channelId: number,
    identity: SessionIdentity,
    response: CreateSessionResponse,
    settings: SessionSettings,
  ): ClientSession {
    const channel = connection.createChannel(channelId, {
      confirmationWindowSize: this.options.confirmationWindowSize,
      callTimeoutMs: this.options.callTimeout,
    });
    const host = this.hostFor(() => {
      if (this.sessions.delete(open)) this.noteResendBufferPeak(context);
    });
    const context = new SessionContext(
      identity,
      response,
      channel,
      settings,
      this.options,
      host,
      this.logger,
    );
    const open: OpenSession = {
      session: new ClientSession(context, settings, this.options, this.logger),
      context,
    };
    this.sessions.add(open);
    return open.session;
  }

  /** What a session's context needs from this factory: the failover watch and the temporary queues. */
  private hostFor(closed: () => void): SessionHost {
    const failingOver = (): boolean => this.failingOver;
    return {
      get failingOver() {
        return failingOver();
      },
      failoverEnded: () => this.failoverEnded(),
      whenNotFailingOver: () => this.whenNotFailingOver(),
      addFailoverListener: (listener) => this.addFailoverListener(listener),
      removeFailoverListener: (listener) => this.removeFailoverListener(listener),
      temporaryQueueCreated: (queue) => this.temporaryQueues.set(queue.name, queue),
      temporaryQueueDeleted: (name) => this.temporaryQueues.delete(name),
      closed,
    };
  }

  /** What a session's context needs of the current connection to reattach or re-create. */
  private linkToCurrentConnection(): SessionLink {
    let temporaryQueuesTaken = false;
    const handshake = this.handshake;
    return {
      connection: this.connection,
      openSession: (channelId, settings, identity) => this.openBrokerSession(channelId, settings, identity),
      reattach: async (request) => (await handshake.sendBlocking(request)) as ReattachSessionResponse,
      // Re-created once, with the first session re-created on this connection.
      takeTemporaryQueues: () => {
        if (temporaryQueuesTaken) return [];
        temporaryQueuesTaken = true;
        return [...this.temporaryQueues.values()];
      },
    };
  }

  /**
   * A createSession aborted after its request went: if the broker creates the session anyway, it
   * is closed at once, so that it does not live on the broker until the connection ends.
   */
  private closeWhenOpened(
    opening: Promise<CreateSessionResponse>,
    connection: RemotingConnection,
    channelId: number,
    settings: SessionSettings,
    identity: SessionIdentity,
  ): void {
    opening.then(
      (response) => {
        if (connection !== this.connection || connection.closed || this.isClosed) return;
        const session = this.sessionOn(connection, channelId, identity, response, settings);
        session.close().catch((error: unknown) => {
          this.logger.debug({ err: error, session: session.name }, 'closing an abandoned session failed');
        });
      },
      () => undefined,
    );
  }

  /**
   * Asks the broker for a session on channel `channelId`, once the connection has its topology;
   * used to create and to re-create (same name, same channel id, version 124 again). The trailer
   * offers our extension: a broker of ours answers with one, a real HornetQ or Artemis ignores it.
   */
  private async openBrokerSession(
    channelId: number,
    settings: SessionSettings,
    identity: SessionIdentity,
  ): Promise<CreateSessionResponse> {
    const connection = this.connection;
    try {
      await this.topologyWait?.received;
    } catch (error) {
      // The link failed before it was ready: nothing was sent, and the failover will bring a new
      // one, so the caller may try again (createSession does), as after an unanswered request.
      if (connection.closed && HornetQException.is(error) && !this.isClosed) throw unblocked(error);
      throw error;
    }
    return (await this.handshake.sendBlocking({
      type: PacketType.CREATESESSION,
      name: identity.name,
      sessionChannelId: channelId,
      version: CLIENT_VERSION,
      username: settings.username,
      password: settings.password,
      minLargeMessageSize: this.options.minLargeMessageSize,
      xa: false,
      autoCommitSends: settings.autoCommitSends,
      autoCommitAcks: settings.autoCommitAcks,
      windowSize: this.options.confirmationWindowSize,
      preAcknowledge: settings.preAcknowledge,
      defaultAddress: null,
      extension: { version: EXTENSION_VERSION, reattachSecret: identity.reattachSecret },
    })) as CreateSessionResponse;
  }

  /** A closed session's peak still counts in getStatistics. */
  private noteResendBufferPeak(context: SessionContext): void {
    this.stats.resendBufferPeakBytes = Math.max(
      this.stats.resendBufferPeakBytes,
      context.resendBufferPeakBytes,
    );
  }

  /**
   * Resolves once no failover is in progress, or after call-failover-timeout (-1: no limit), when
   * the caller proceeds anyway and meets whatever state the connection is in. For closing, which
   * ends the session on this side whatever the broker says.
   */
  async whenNotFailingOver(): Promise<void> {
    await this.waitForFailover(() => undefined);
  }

  /**
   * Resolves once no failover is in progress. A call that has waited call-failover-timeout for it
   * rejects with NOT_CONNECTED instead of proceeding: written to a link that is not there, it would
   * be held for replay and applied if the session reattached later, after its caller had been told
   * it failed (or, without a resend buffer, dropped while its caller was told it went).
   */
  async failoverEnded(): Promise<void> {
    await this.waitForFailover((limit) => {
      throw new HornetQException(
        'NOT_CONNECTED',
        `Timed out after ${limit} ms (call-failover-timeout) waiting for the failover to end; the call was not sent`,
      );
    });
  }

  private async waitForFailover(onTimeout: (limit: number) => void): Promise<void> {
    const failover = this.failover;
    if (failover === null) return;
    const limit = this.options.callFailoverTimeout;
    if (limit === -1) return failover;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = Symbol('timed out');
    const outcome = await Promise.race([
      failover,
      new Promise<typeof timedOut>((resolve) => (timer = setTimeout(() => resolve(timedOut), limit))),
    ]);
    clearTimeout(timer);
    if (outcome === timedOut) onTimeout(limit);
  }

  /**
   * Closes every session, then the connection. Idempotent; settles even if the broker is gone.
   * Aborting `signal` stops waiting for the broker to answer the sessions' close requests: each
   * session ends here, the socket is closed, and the close rejects with the signal's reason once
   * done. The broker then ends the sessions when it sees the socket close (or, if the close never
   * reaches it, at connection-ttl).
   */
  async close({ signal }: AbortOptions = {}): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.retryDelay.cancel();
    if (this.failover !== null) this.handshake.returnBlocking(closedError());
    await Promise.allSettled([...this.sessions].map(({ session }) => session.close({ signal })));
    this.pinger?.stop();
    this.topologyWait?.connectionFailed(closedError());
    this.handshake.close();
    this.connection.close();
    // A peer that does not answer may not read either: it would never see the FIN, and the
    // half-closed socket would stay open here for as long as it lives.
    if (signal?.aborted === true) this.peer?.destroy();
    signal?.throwIfAborted();
  }

  /** `await using`: close() without a signal. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** A failure before the broker's first answer because the port wants TLS; null otherwise. */
  private async tlsRequired(
    error: unknown,
    signal: AbortSignal | undefined,
  ): Promise<HornetQException | null> {
    if (this.peer === null || signal?.aborted === true) return null;
    const timeoutMs = connectTimeoutOf(this.connector, this.options.callTimeout);
    return plainClientOnTlsPort(error, this.connector, this.peer.firstBytesReceived, timeoutMs);
  }

  /**
   * A protocol error before the broker's first answer: what answered is no HornetQ broker (an
   * HTTP server, say), which its first bytes show. Null for any other failure.
   */
  private notABroker(error: unknown): HornetQException | null {
    const sent = this.peer?.firstBytes ?? null;
    if (!HornetQException.is(error, 'UNSUPPORTED_PACKET') || sent === null || isInVm(this.connector)) {
      return null;
    }
    const where = `${this.connector.host ?? DEFAULT_HOST}:${this.connector.port ?? DEFAULT_PORT}`;
    return new HornetQException(
      'NOT_CONNECTED',
      `the peer at ${where} is not a HornetQ broker (it sent '${sent}')`,
      {
        cause: error,
      },
    );
  }

  /**
   * Takes a new connection into use: the ping (which tells the broker our TTL), then the topology
   * subscription every HornetQ 2.4 client sends, on channel 0.
   */
  private attach(transport: Transport, connector: TransportConfiguration): void {
    // A wait left from a connection given up (an interrupted failover) ends with it.
    this.topologyWait?.connectionFailed(closedError());
    const peer = new FirstBytesTransport(transport);
    this.peer = peer;
    const connection = new RemotingConnection(peer, {
      logger: this.logger,
      maxFrameBytes: this.options.maxFrameBytes,
    });
    this.connection = connection;
    this.handshake = connection.createChannel(CHANNEL_ID.SESSION, {
      confirmationWindowSize: -1,
      callTimeoutMs: this.options.callTimeout,
      serialBlockingCalls: true,
    });
    const wait = new TopologyWait(
      describeConnector(connector),
      connectTimeoutOf(connector, this.options.callTimeout),
    );
    this.topologyWait = wait;
    connection.setUnroutedHandler((packet) => this.handleControlPacket(connection, connector, wait, packet));
    connection.addFailureListener((error) => {
      wait.connectionFailed(error);
      this.onConnectionFailure(connection, error);
    });
    this.pinger?.stop();
    const pinger = new Pinger(connection, this.options.connectionTTL, this.options.clientFailureCheckPeriod);
    this.pinger = pinger;
    // A delivery of a large message arrives in chunks bigger than a HornetQ broker's socket buffer:
    // a ping acknowledges each part at once (the broker echoes it, as it echoes every ping).
    connection.setLargeFrameListener(() => pinger.ping());
    pinger.start();
    connection.write(CHANNEL_ID.PING, {
      type: PacketType.SUBSCRIBE_TOPOLOGY_V2,
      clusterConnection: false,
      clientVersion: CLIENT_VERSION,
    });
  }

  private handleControlPacket(
    connection: RemotingConnection,
    connector: TransportConfiguration,
    wait: TopologyWait,
    packet: Packet,
  ): void {
    switch (packet.type) {
      case PacketType.PING:
        return;
      case PacketType.CLUSTER_TOPOLOGY:
      case PacketType.CLUSTER_TOPOLOGY_V2:
        if (!packet.exit) this.warnIfTopologyFull(packet.nodeId);
        // A node going down: its backup, learnt before, is where the failover goes.
        if (packet.exit && connection === this.connection) this.followTopology(packet.nodeId);
        this.emitTopology(applyTopologyChange(this.cluster, packet, connector));
        if (connection === this.connection) this.followTopology(packet.nodeId);
        // The first says the broker is ready for sessions.
        wait.topologyReceived();
        return;
      case PacketType.DISCONNECT:
        if (connection === this.connection) this.followTopology(packet.nodeId ?? undefined);
        if (packet.nodeId !== null) this.emitTopology(applyDisconnect(this.cluster, packet.nodeId));
        // HornetQ's client takes it as the node going down and fails the connection (a failover
        // follows, as for any failure).
        connection.fail(
          new HornetQException(
            'DISCONNECTED',
            `The connection was disconnected because of server shutdown (node ${packet.nodeId ?? 'unknown'} at ${connection.remoteAddress})`,
          ),
        );
        return;
      default:
        throw new HornetQException(
          'UNSUPPORTED_PACKET',
          `unexpected packet type ${packet.type} on a control channel`,
        );
    }
  }

  private onConnectionFailure(connection: RemotingConnection, error: HornetQException): void {
    if (connection !== this.connection) return;
    if (this.isClosed) {
      // close() is under way: the close requests its sessions wait for will never be answered.
      for (const { session } of [...this.sessions]) session.closeLocally(unblocked(error));
      return;
    }
    this.pinger?.stop();
    // A reattach or create request waiting on the dead connection will never be answered.
    this.handshake.returnBlocking(unblocked(error));
    if (this.failover !== null) return; // the running failover notices and tries the next connection
    this.failover = this.handleFailure(error).finally(() => {
      this.failover = null;
    });
  }

  /** HornetQ's failoverOrReconnect, one failure at a time. */
  private async handleFailure(error: HornetQException): Promise<void> {
    this.emit({ type: FailoverEventType.FAILURE_DETECTED, cause: error });
    const server = describeConnector(this.current);
    const reconnecting = this.options.reconnectAttempts !== 0;
    // The application's logger hears of it once per failure, as an operator would want to.
    this.logger.warn(
      { code: error.code, server },
      `connection to ${server} failed (${error.code}: ${error.message}); ${reconnecting ? 'reconnecting' : 'not reconnecting (reconnectAttempts is 0)'}`,
    );
    this.followTopology(); // what another factory of the same locator learnt counts too
    const sessions = [...this.sessions];
    for (const { context } of sessions) context.beginFailover();
    const outcome = reconnecting ? await this.reconnectAndRestore(sessions) : null;
    if (outcome === null) {
      if (reconnecting && !this.isClosed)
        this.logger.error({ code: error.code, server }, `could not reconnect to ${server}; giving up`);
      this.giveUp(error, sessions);
      return;
    }
    if (outcome.reattached) this.stats.reattaches++;
    else this.stats.reconnects++;
    const now = describeConnector(this.current);
    this.logger.info(
      { server: now, reattached: outcome.reattached },
      `${outcome.reattached ? 'reattached to' : 'reconnected to'} ${now}`,
    );
    this.emit({
      type: FailoverEventType.FAILOVER_COMPLETED,
      reattached: outcome.reattached,
      nodeId: this.servedNodeId,
      cause: error,
    });
    for (const listener of [...this.failureListeners]) listener(error, true);
  }

  /**
   * Reconnects, then reattaches (or re-creates) every session. Every connection attempt counts
   * against reconnect-attempts, whether the connection is refused or fails during the reattach,
   * and every retry waits its turn in the back-off schedule: a broker that accepts connections and
   * drops them at once must not be hammered. Null when attempts run out or the factory is closed.
   */
  private async reconnectAndRestore(sessions: OpenSession[]): Promise<{ reattached: boolean } | null> {
    const policy = retryPolicy(this.options);
    const limit = this.options.reconnectAttempts;
    for (let attempt = 0; !this.isClosed && (limit === -1 || attempt < limit); attempt++) {
      if (attempt > 0) await this.retryDelay.wait(retryDelay(policy, attempt));
      if (this.isClosed) return null;
      let transport: Transport;
      let connector: TransportConfiguration;
      try {
        ({ transport, connector } = await connectWithRetry(
          this.backup === null ? [this.current] : [this.current, this.backup],
          { ...policy, attempts: 1 },
          this.options,
          this.retryDelay,
        ));
      } catch {
        continue;
      }
      if (this.isClosed) {
        transport.destroy();
        return null;
      }
      if (connector === this.backup) this.takeBackup(connector);
      this.attach(transport, connector);
      try {
        return await this.restoreSessions(sessions);
      } catch (error) {
        if (this.isClosed) return null;
        this.logger.warn({ err: error }, 'failover interrupted by another failure; reconnecting again');
        // A reattach that timed out leaves a live link behind: give it up before the next attempt.
        this.pinger?.stop();
        this.connection.close();
      }
    }
    return null;
  }

  /**
   * HornetQ's rule: a backup that answered becomes the server to reconnect to, and the slot stays
   * empty until the topology names a backup for it.
   */
  private takeBackup(backup: TransportConfiguration): void {
    this.logger.info({ backup: describeConnector(backup) }, 'failing over to the backup');
    this.current = backup;
    this.backup = null;
  }

  /**
   * Finds the node served in the topology and, with `ha`, takes the backup it names (HornetQ's
   * setBackupConnector, which HornetQ also runs for factories without `ha`: this one does not).
   * `nodeId`: only that member changed (one topology packet), so only it is looked at: a broker
   * announcing a large cluster costs one look per packet, not one per member.
   */
  private followTopology(nodeId?: string): void {
    const member = nodeId === undefined ? this.memberServed() : this.servingMember(nodeId);
    if (member === null) return;
    this.servedNodeId = member.nodeId;
    if (!this.options.ha || member.backup === null) return;
    const backup = connectorForEndpoint(member.backup, this.own);
    if (!sameServer(backup, this.current)) this.backup = backup;
  }

  /** The member whose live server is the current connector's (same host and port), else the last one seen. */
  private memberServed(): TopologyMember | null {
    const byAddress = this.cluster.snapshot().members.find((member) => this.serves(member));
    if (byAddress !== undefined) return byAddress;
    return this.servedNodeId === null ? null : this.cluster.member(this.servedNodeId);
  }

  /** The member `nodeId` if it is the one served (by address, or the node served so far). */
  private servingMember(nodeId: string): TopologyMember | null {
    const member = this.cluster.member(nodeId);
    return member !== null && (nodeId === this.servedNodeId || this.serves(member)) ? member : null;
  }

  private serves(member: TopologyMember): boolean {
    return member.live !== null && sameServer(connectorForEndpoint(member.live, this.own), this.current);
  }

  private async restoreSessions(sessions: OpenSession[]): Promise<{ reattached: boolean }> {
    let reattached = true;
    const link = this.linkToCurrentConnection();
    for (const { context } of sessions) {
      if (context.closed) continue;
      const result = await context.failOver(link);
      if (result.reattached) this.stats.replayedCommands += result.replayed;
      else if (!context.closed) reattached = false; // a session that was closing is simply gone
      this.stats.resentDurableSends += result.resent;
    }
    return { reattached };
  }

  private giveUp(error: HornetQException, sessions: OpenSession[]): void {
    this.emit({ type: FailoverEventType.FAILOVER_FAILED, cause: error });
    const released = unblocked(error);
    for (const { session } of sessions) session.closeLocally(released);
    for (const listener of [...this.failureListeners]) listener(error, false);
    this.isClosed = true;
    this.pinger?.stop();
    this.topologyWait?.connectionFailed(closedError());
    this.handshake.close();
    this.connection.close();
  }

  private emitTopology(event: TopologyEvent | null): void {
    if (event === null) return;
    for (const listener of [...this.topologyListeners]) {
      try {
        listener(event);
      } catch (error) {
        this.logger.warn({ err: error }, 'a topology listener threw');
      }
    }
  }

  /** A peer announcing ever more nodes is ignored past the bound; said once, not per packet. */
  private warnIfTopologyFull(nodeId: string): void {
    if (this.warnedTopologyFull || !this.cluster.full || this.cluster.member(nodeId) !== null) return;
    this.warnedTopologyFull = true;
    this.logger.warn(
      { nodeId, members: this.cluster.snapshot().members.length },
      'the broker announced more cluster members than the client keeps; further new members are ignored',
    );
  }

  private emit(event: Parameters<FailoverEventListener>[0]): void {
    for (const listener of [...this.failoverListeners]) {
      try {
        listener(event);
      } catch (error) {
        this.logger.warn({ err: error }, 'a failover listener threw');
      }
    }
  }
}

function retryPolicy(options: ClientOptions): RetryPolicy {
  return {
    attempts: options.reconnectAttempts,
    retryInterval: options.retryInterval,
    retryIntervalMultiplier: options.retryIntervalMultiplier,
    maxRetryInterval: options.maxRetryInterval,
    retryJitter: options.retryJitter,
  };
}

function unblocked(cause: HornetQException): HornetQException {
  return new HornetQException(
    'UNBLOCKED',
    'Connection failure detected. Unblocking a blocking call that will never get a response',
    { cause },
  );
}

function closedError(): HornetQException {
  return new HornetQException('OBJECT_CLOSED', 'The session factory is closed');
}

/** HornetQ's rule: an in-VM link cannot silently die, so it is not pinged unless asked to be. */
function withInVmLiveness(options: ClientOptions): ClientOptions {
  if (options.connectionTTL !== 60_000 || options.clientFailureCheckPeriod !== 30_000) return options;
  return { ...options, connectionTTL: -1, clientFailureCheckPeriod: -1 };
}
