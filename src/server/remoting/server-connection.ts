import { timingSafeEqual } from 'node:crypto';
import {
  EXTENSION_VERSION,
  HornetQException,
  ProtocolError,
  packetTypeName,
  type CreateSession,
  type Packet,
  type ReattachExtension,
  type ReattachSession,
  type ServerSessionExtension,
} from '../../core/protocol';
import { PacketType } from '../../core/protocol/packet-type';
import {
  CHANNEL_ID,
  FIRST_SESSION_CHANNEL,
  LivenessMonitor,
  MAX_UNCONFIRMED_COMMANDS,
  type Logger,
  type RemotingConnection,
} from '../../core/remoting';
import type { BrokerLimits } from '../broker-configuration';
import type { PostOffice } from '../postoffice/post-office';
import type { BrokerSecurity } from '../security/broker-security';
import { LoginMemo } from '../security/login-memo';
import { OPEN_GUARD, type SessionGuard } from '../security/session-guard';
import type { MetadataRegistry } from '../session/metadata-registry';
import { ServerSession, type SessionOwner } from '../session/server-session';
import type { Durability } from '../storage/storage-manager';
import { OrderedReplies } from './ordered-replies';

/** HornetQ 2.4's incrementing version: what CREATESESSION_RESP answers. */
export const SERVER_VERSION = 124;
/** The client versions a HornetQ 2.4 server takes (2.4.x clients send 124; 122 and 123 are 2.3's). */
export const MIN_CLIENT_VERSION = 122;
/** Below it a client gets CLUSTER_TOPOLOGY (110); from it on CLUSTER_TOPOLOGY_V2 (114). */
export const TOPOLOGY_V2_CLIENT_VERSION = 122;

/** The holder of a connection's reading while its output is above the high-water mark. */
/**
 * Session requests (CREATESESSION, REATTACH_SESSION) a connection may have unanswered on channel
 * 1. Clients make them one at a time (HornetQ's sendBlockingLock, our serial channel-1 calls); a
 * reattach can wait for its session's answers, so without a bound a peer could queue replies
 * behind it without end.
 */
export const MAX_UNANSWERED_SESSION_REQUESTS = 16;

const CONGESTION = Object.freeze({ reason: 'output above the high-water mark' });

/** What a connection needs from its broker. */
export interface BrokerServices {
  readonly postOffice: PostOffice;
  readonly logger: Logger;
  readonly connectionTtlOverride: number;
  /** The broker's node id (a UUID, stable over its life and, when it persists, its restarts). */
  readonly nodeId: string;
  readonly metadata: MetadataRegistry<ServerSession>;
  /** The largest body a large message may have (it is assembled in memory). */
  readonly maxLargeMessageBytes: number;
  /** What one connection may hold, and how long it may go without a session or stuck. */
  readonly limits: Readonly<BrokerLimits>;
  /** Whether a session created without our reattach secret may be reattached by its name alone. */
  readonly nameOnlyReattachEnabled: boolean;
  /** Who a client logs in as, and what each login may do. */
  readonly security: BrokerSecurity;
  /** Whether what a session stored is on disk yet: its answers wait for that. */
  readonly durability: Durability;
  /** The store failed (HornetQ's critical I/O error): the broker stops. */
  storageFailed(error: Error): void;
  registerSession(session: ServerSession): void;
  unregisterSession(session: ServerSession): void;
  findSession(name: string): ServerSession | undefined;
  connectionClosed(connection: ServerConnection): void;
  /** A session was reattached to this connection (counted for metrics). */
  sessionReattached(): void;
}

/**
 * The broker's side of one client connection: pings and the session handshake on channels 0 and
 * 1, the sessions it carries, and the temporary queues that live as long as it does. When the
 * link fails, sessions that keep resend buffers stay (detached) until the connection's TTL runs
 * out, so that their client can reattach them to a new connection.
 */
export class ServerConnection implements SessionOwner {
  /** The TTL check: the client's pings set its TTL (unless the broker overrides them). */
  private readonly liveness: LivenessMonitor;
  private readonly sessions = new Set<ServerSession>();
  private readonly temporaryQueues = new Set<string>();
  private readonly logger: Logger;
  private ended = false;
  private transportGone = false;
  private readonly openedAt = Date.now();
  /** A session was created on (or reattached to) this connection: it is not an idle probe. */
  private hadSession = false;
  /** When the output went above its high-water mark; null while below it. */
  private congestedSince: number | null = null;
  /** What keeps the connection from being read: its congestion, and sessions holding answers. */
  private readonly readingHeldBy = new Set<object>();
  /** Answers on channel 1, in the order of their requests. */
  private readonly handshakeReplies = new OrderedReplies<Packet>((reply) =>
    this.remoting.write(CHANNEL_ID.SESSION, reply),
  );
  /**
   * The client's protocol version (from its topology subscription or first CREATESESSION), 0 until
   * it says: it decides which topology packet it gets.
   */
  private clientVersion = 0;

  constructor(
    readonly remoting: RemotingConnection,
    private readonly broker: BrokerServices,
    defaultTtl: number,
    /** In-process clients are the broker's own code: the TTL and session deadlines are for remote ones. */
    private readonly inVm = false,
  ) {
    this.logger = broker.logger.child({ connection: remoting.id });
    this.liveness = new LivenessMonitor(remoting, {
      ttl: broker.connectionTtlOverride !== -1 ? broker.connectionTtlOverride : defaultTtl,
      // The broker answers its client's pings; it sends none of its own on a timer.
      pinging: false,
      onSilent: (ttl) => this.reap(ttl),
    });
    remoting.setUnroutedHandler((packet, channelId) => this.handleControlPacket(packet, channelId));
    remoting.addFailureListener((error) => this.onFailure(error));
    remoting.setCongestionListener((congested) => this.onCongestion(congested));
    // A Java producer's large-message chunks are bigger than its socket buffer: a ping acknowledges
    // each part at once (HornetQ's clients take a ping from the broker as data received, nothing more).
    remoting.setLargeFrameListener(() => this.liveness.ping());
  }

  /**
   * A login of this connection's is abandoned once the connection is gone (nobody waits for it);
   * the memo lets the sessions its client creates or reattaches one after another log in once.
   */
  private readonly loginRequest = {
    abandoned: (): boolean => this.ended || this.transportGone,
    memo: new LoginMemo(),
  };

  get linkGone(): boolean {
    return this.transportGone;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Consumers and browsers over all the connection's sessions. */
  get consumerCount(): number {
    let count = 0;
    for (const session of this.sessions) count += session.consumerCount;
    return count;
  }

  /** Producers over all the connection's sessions. */
  get producerCount(): number {
    let count = 0;
    for (const session of this.sessions) count += session.producerCount;
    return count;
  }

  /** Messages delivered over this connection's sessions and not yet acknowledged. */
  get deliveringCount(): number {
    let count = 0;
    for (const session of this.sessions) count += session.deliveringCount;
    return count;
  }

  addTemporaryQueue(name: string): void {
    this.temporaryQueues.add(name);
  }

  removeTemporaryQueue(name: string): void {
    this.temporaryQueues.delete(name);
  }

  ownsTemporaryQueue(name: string): boolean {
    return this.temporaryQueues.has(name);
  }

  addUniqueMetadata(session: ServerSession, key: string, data: string): void {
    this.broker.metadata.add(session, key, data);
  }

  sessionClosed(session: ServerSession): void {
    this.sessions.delete(session);
    this.broker.unregisterSession(session);
  }

  storageFailed(error: Error): void {
    this.broker.storageFailed(error);
  }

  holdReading(holder: object, hold: boolean): void {
    const wasHeld = this.readingHeldBy.size > 0;
    if (hold) this.readingHeldBy.add(holder);
    else this.readingHeldBy.delete(holder);
    const held = this.readingHeldBy.size > 0;
    if (held && !wasHeld) this.remoting.transport.pauseReading();
    else if (!held && wasHeld) this.remoting.transport.resumeReading();
  }

  /**
   * Tells the client the broker is going away, then closes (broker stop). Its sessions close as
   * if the client had vanished: it may have shown the application everything delivered to it, so
   * those deliveries keep their counts (in storage too) and come back redelivered after a restart.
   */
  disconnect(): void {
    this.remoting.write(CHANNEL_ID.PING, { type: PacketType.DISCONNECT, nodeId: this.broker.nodeId });
    this.end(true);
    this.remoting.close();
  }

  /**
   * The TTL check (every few seconds): a connection that received nothing for its TTL is failed
   * and its sessions are cleared up, so a later reattach is answered "not reattached". Others get
   * their pending confirmations flushed. Returns true when the connection was reaped.
   */
  checkTtl(now: number): boolean {
    if (!this.transportGone && this.checkDeadlines(now)) return true;
    return !this.liveness.check(now);
  }

  /** Nothing arrived for the TTL: the connection is failed and its detached sessions go with it. */
  private reap(ttl: number): void {
    this.logger.warn(
      { ttl },
      `Did not receive data from ${this.remoting.remoteAddress} within the ${ttl}ms connection TTL. The connection will now be closed.`,
    );
    this.remoting.fail(new HornetQException('CONNECTION_TIMEDOUT', `connection TTL of ${ttl} ms expired`));
    this.end(true);
  }

  /**
   * Two deadlines besides the TTL: a connection that created no session in time was opened only to
   * hold a socket, and one whose client has not taken what the broker queued for it since the
   * stall timeout has stopped reading. Both are failed; returns true when this one was.
   */
  private checkDeadlines(now: number): boolean {
    const { sessionlessConnectionTimeout, connectionOutputStallTimeout } = this.broker.limits;
    let reason: string | null = null;
    if (!this.inVm && !this.hadSession && now - this.openedAt >= sessionlessConnectionTimeout) {
      reason = `no session was created within ${sessionlessConnectionTimeout} ms (sessionlessConnectionTimeout)`;
    } else if (this.congestedSince !== null && now - this.congestedSince >= connectionOutputStallTimeout) {
      reason = `the client has not read what the broker sent for ${connectionOutputStallTimeout} ms (${this.remoting.transport.pendingBytes} bytes pending; connectionOutputStallTimeout)`;
    }
    if (reason === null) return false;
    this.logger.warn(
      { reason },
      `closing connection ${this.remoting.id} from ${this.remoting.remoteAddress}: ${reason}`,
    );
    this.remoting.fail(new HornetQException('CONNECTION_TIMEDOUT', reason));
    return true;
  }

  /**
   * The client does not take what the broker writes fast enough. Above the high-water mark the
   * connection's consumers answer BUSY (their queues serve other consumers) and nothing more is
   * read from it (a client that only sends pings gets no more echoes queued); once it drains,
   * both resume.
   */
  private onCongestion(congested: boolean): void {
    if (congested) {
      this.congestedSince = Date.now();
      this.holdReading(CONGESTION, true);
      this.logger.debug(
        { pendingBytes: this.remoting.transport.pendingBytes },
        `connection ${this.remoting.id} is above its output high-water mark; delivery and reading pause`,
      );
      return;
    }
    this.congestedSince = null;
    this.holdReading(CONGESTION, false);
    for (const session of this.sessions) session.resumeDelivery();
  }

  /** What a client's ping may set: at most the broker's maximum; -1 (never) gets the maximum. */
  private clientTtl(asked: number): number {
    if (this.inVm) return asked;
    const max = this.broker.limits.maxClientConnectionTtl;
    return asked > 0 && asked <= max ? asked : max;
  }

  private handleControlPacket(packet: Packet, channelId: number): void {
    if (channelId === CHANNEL_ID.PING && packet.type === PacketType.PING) {
      if (this.broker.connectionTtlOverride === -1) this.liveness.ttl = this.clientTtl(packet.connectionTtl);
      this.remoting.write(CHANNEL_ID.PING, packet);
    } else if (
      channelId === CHANNEL_ID.PING &&
      (packet.type === PacketType.SUBSCRIBE_TOPOLOGY || packet.type === PacketType.SUBSCRIBE_TOPOLOGY_V2)
    ) {
      if (packet.type === PacketType.SUBSCRIBE_TOPOLOGY_V2) this.clientVersion = packet.clientVersion;
      this.remoting.write(CHANNEL_ID.PING, this.topology());
    } else if (channelId === CHANNEL_ID.SESSION && packet.type === PacketType.CREATESESSION) {
      this.createSession(packet, this.reserveSessionReply(packet));
    } else if (channelId === CHANNEL_ID.SESSION && packet.type === PacketType.REATTACH_SESSION) {
      this.reattach(packet, this.reserveSessionReply(packet));
    } else {
      throw new ProtocolError(`${packetTypeName(packet.type)} is not allowed on channel ${channelId}`);
    }
  }

  private reserveSessionReply(packet: Packet): (reply: Packet) => void {
    if (this.handshakeReplies.pending >= MAX_UNANSWERED_SESSION_REQUESTS) {
      throw new ProtocolError(
        `${packetTypeName(packet.type)} while ${MAX_UNANSWERED_SESSION_REQUESTS} session requests are unanswered on channel 1 (a client makes them one at a time)`,
      );
    }
    return this.handshakeReplies.reserve();
  }

  /**
   * A broker that is not clustered answers a topology subscription as HornetQ's does: one node,
   * itself, with no connectors (the client keeps the one it connected with), and nothing follows.
   */
  private topology(): Packet {
    const v2 = this.clientVersion >= TOPOLOGY_V2_CLIENT_VERSION;
    return {
      type: v2 ? PacketType.CLUSTER_TOPOLOGY_V2 : PacketType.CLUSTER_TOPOLOGY,
      exit: false,
      nodeId: this.broker.nodeId,
      uniqueEventId: v2 ? Date.now() : 0,
      live: null,
      backup: null,
      last: true,
      nodeName: null,
    };
  }

  /**
   * Answers a CREATESESSION once its login is checked (asynchronously: a password hash takes a
   * while, and a slowed source waits its turn); the answers of channel 1 still go out in the
   * order of the requests. With security disabled there is nobody to check, and the session is
   * made at once, before the next packet of the same read.
   */
  private createSession(packet: CreateSession, reply: (answer: Packet) => void): void {
    try {
      this.checkVersion(packet);
    } catch (error) {
      reply(this.sessionRefusal(error));
      return;
    }
    const security = this.broker.security;
    if (!security.enabled) {
      reply(this.answerCreateSession(packet, () => this.openSession(packet, OPEN_GUARD)));
      return;
    }
    security
      .login(packet.username, packet.password, this.remoting.remoteAddress, this.loginRequest)
      .then(
        (guard) => reply(this.answerCreateSession(packet, () => this.openLoggedInSession(packet, guard))),
        (error: unknown) => reply(this.sessionRefusal(error)),
      )
      .catch((error: unknown) => this.containFailure(error, 'answering a CREATESESSION'));
  }

  private openLoggedInSession(packet: CreateSession, guard: SessionGuard): ServerSession {
    if (this.ended) {
      throw new HornetQException('DISCONNECTED', 'the connection closed while the login was being checked');
    }
    return this.openSession(packet, guard);
  }

  private answerCreateSession(packet: CreateSession, open: () => ServerSession): Packet {
    let session: ServerSession;
    try {
      session = open();
    } catch (error) {
      return this.sessionRefusal(error);
    }
    const extension: ServerSessionExtension | null =
      packet.extension === null ? null : { version: Math.min(packet.extension.version, EXTENSION_VERSION) };
    this.logger.debug(
      { session: session.name, extended: extension !== null },
      `session ${session.name} created`,
    );
    return { type: PacketType.CREATESESSION_RESP, serverVersion: SERVER_VERSION, extension };
  }

  private sessionRefusal(error: unknown): Packet {
    const failure = HornetQException.is(error)
      ? error
      : new HornetQException('INTERNAL_ERROR', String(error));
    // A version mismatch is the client's to report; a refused login is logged where it is checked.
    if (failure.code !== 'INCOMPATIBLE_CLIENT_SERVER_VERSIONS' && failure.code !== 'SECURITY_EXCEPTION') {
      this.logger.warn({ code: failure.code }, `session creation refused: ${failure.message}`);
    }
    return { type: PacketType.EXCEPTION, code: failure.code, message: failure.message };
  }

  /** HornetQ checks the version first: a client of another version learns that and nothing else. */
  private checkVersion(packet: CreateSession): void {
    if (packet.version < MIN_CLIENT_VERSION || packet.version > SERVER_VERSION) {
      throw new HornetQException(
        'INCOMPATIBLE_CLIENT_SERVER_VERSIONS',
        `Server and client versions incompatible (client version ${packet.version}; this server takes ${MIN_CLIENT_VERSION} to ${SERVER_VERSION})`,
      );
    }
    if (this.clientVersion === 0) this.clientVersion = packet.version;
  }

  /** Everything after the login: synchronous, so that no other packet comes between the checks and the session. */
  private openSession(packet: CreateSession, guard: SessionGuard): ServerSession {
    const user = guard.user ?? packet.username;
    const maxSessions = this.broker.limits.maxSessionsPerConnection;
    if (this.sessions.size >= maxSessions) {
      throw new HornetQException(
        'SESSION_CREATION_REJECTED',
        `this connection already has ${maxSessions} sessions, the most the broker allows one connection (maxSessionsPerConnection)`,
      );
    }
    if (packet.xa) {
      throw new HornetQException(
        'SESSION_CREATION_REJECTED',
        'XA sessions are not supported by this broker: create the session with xa false',
      );
    }
    this.claimSessionName(packet, user);
    if (
      packet.sessionChannelId < FIRST_SESSION_CHANNEL ||
      this.remoting.getChannel(packet.sessionChannelId)
    ) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        `session channel id ${packet.sessionChannelId} is not available`,
      );
    }
    if (packet.minLargeMessageSize <= 0) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        `min-large-message-size must be > 0 (actual value: ${packet.minLargeMessageSize})`,
      );
    }
    if (packet.windowSize < -1) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        `confirmation window size must be -1 or >= 0 (actual value: ${packet.windowSize})`,
      );
    }
    const channel = this.remoting.createChannel(packet.sessionChannelId, {
      confirmationWindowSize: packet.windowSize,
      callTimeoutMs: 30_000,
      unconfirmedLimit: {
        ...unconfirmedLimitFor(packet.windowSize, packet.extension !== null),
        // The session's owner at the time: a reattach moves the session to another connection.
        exceeded: () => session.owner.clientFellBehind(session, packet.sessionChannelId),
      },
    });
    const session = new ServerSession(
      channel,
      {
        name: packet.name,
        // A copy: the decoded packet's bytes may be a view of a socket read.
        reattachSecret: packet.extension === null ? null : Buffer.from(packet.extension.reattachSecret),
        username: user,
        guard,
        autoCommitSends: packet.autoCommitSends,
        autoCommitAcks: packet.autoCommitAcks,
        preAcknowledge: packet.preAcknowledge,
        minLargeMessageSize: packet.minLargeMessageSize,
        maxLargeMessageBytes: this.broker.maxLargeMessageBytes,
        defaultAddress: packet.defaultAddress === '' ? null : packet.defaultAddress,
      },
      this.broker.postOffice,
      this,
      this.logger,
      this.broker.durability,
    );
    this.sessions.add(session);
    this.hadSession = true;
    this.broker.registerSession(session);
    this.remoting.authenticate();
    return session;
  }

  /**
   * Session names are the client's (HornetQ's clients pick a UUID), and a reattach finds a session
   * by its name. A name a live session holds is taken only by the client that holds it: one whose
   * CREATESESSION answer was lost in a cut asks again with the same name (ours and HornetQ's
   * clients do), and the earlier session, which it never got, is closed. Proof of that: the same
   * reattach secret and user for a session of ours; for a plain session (a Java client's), the
   * same user and a session whose link is gone or that lives on this same connection, which
   * name-only reattach would hand over anyway. Anything else is refused: no CREATESESSION
   * replaces or kills another client's session (HornetQ would replace it in its table, out of
   * reach of its own client).
   */
  private claimSessionName(packet: CreateSession, user: string | null): void {
    const { name } = packet;
    const maxLength = this.broker.limits.maxNameLength;
    if (name.length === 0 || name.length > maxLength) {
      throw new HornetQException(
        'SESSION_CREATION_REJECTED',
        `a session name must have 1 to ${maxLength} characters (maxNameLength), not ${name.length}`,
      );
    }
    const holder = this.broker.findSession(name);
    if (holder === undefined || holder.isClosed) return;
    if (!this.isHolderOf(holder, packet, user)) {
      throw new HornetQException(
        'SESSION_CREATION_REJECTED',
        `a session named ${JSON.stringify(name)} already exists on this broker; a session name may be used by one session at a time`,
      );
    }
    // The name at debug only: a plain session's name is all a name-only reattach asks for.
    this.logger.info(
      {},
      'a session is created again by its client; the earlier session of that name is closed',
    );
    this.logger.debug({ session: name }, `session ${name} is created again by its client`);
    // As if its client had vanished: what it was delivered may have been seen, and comes back redelivered.
    holder.close(true);
  }

  /**
   * Whether a CREATESESSION, logged in as `user`, comes from the client that holds `holder` (see
   * claimSessionName). Always the same user: a plain session whose link is gone waits for its
   * client, and another user who learned its name must not close it before that client is back.
   */
  private isHolderOf(holder: ServerSession, packet: CreateSession, user: string | null): boolean {
    if (holder.username !== user) return false;
    if (holder.reattachSecret !== null) {
      return (
        packet.extension !== null && secretMatches(holder.reattachSecret, packet.extension.reattachSecret)
      );
    }
    return packet.extension === null && (holder.owner === this || holder.owner.linkGone);
  }

  /**
   * Moves a session of a failed (or failing) connection onto this one and replays what its client
   * has not confirmed. Refused, with the same answer whatever the reason, unless the name and the
   * secret token match and the user is the one that created the session: knowing a session's
   * name is not enough to take it over, and a refused attempt leaves the session untouched.
   *
   * The answer waits until every packet the session has handled is confirmed and answered (some
   * may be waiting for their sync, which the live broker is about to finish): the last confirmed
   * command it reports must include them all, or the client would send them again and they would
   * be applied twice. Their answers went into the resend buffer meanwhile, and go out with the
   * replay if the client has not seen them.
   */
  private reattach(packet: ReattachSession, reply: (answer: Packet) => void): void {
    const refused: Packet = {
      type: PacketType.REATTACH_SESSION_RESP,
      lastConfirmedCommandId: -1,
      reattached: false,
    };
    this.reattachable(packet)
      .then((session) => {
        if (session === null || this.ended || session.isClosed) reply(refused);
        else this.reattachWhenAnswered(session, packet, reply, refused);
      })
      .catch((error: unknown) => this.containFailure(error, 'answering a REATTACH_SESSION'));
  }

  private reattachWhenAnswered(
    session: ServerSession,
    packet: ReattachSession,
    reply: (answer: Packet) => void,
    refused: Packet,
  ): void {
    if (session.pendingAnswers > 0) {
      this.logger.debug(
        { session: session.name, pending: session.pendingAnswers },
        `reattach of session ${session.name} waits for ${session.pendingAnswers} answers to be synced and sent`,
      );
    }
    session.whenAnswered((error) => {
      try {
        // The wait may have outlasted the session (its TTL ran out) or this connection.
        const answer =
          error !== null || this.ended || session.isClosed
            ? refused
            : (this.refuseBrokenNumbering(session, packet) ?? this.moveHere(session, packet));
        reply(answer);
      } catch (failure) {
        this.containFailure(failure, `reattaching session ${session.name}`);
      }
    });
  }

  /**
   * The session a reattach request names, if it may be reattached by whoever sent it.
   *
   * A session created with our extension's secret is reattached only by a request that presents
   * the same secret and logs in (user and password, checked as at CREATESESSION) as the user the
   * session was created by: knowing its name is not enough, nor is the secret without the
   * password. With security disabled nobody logs in, and the user is compared as named.
   *
   * A session created without it (a HornetQ Java client's) can be checked for its name alone:
   * HornetQ's REATTACH_SESSION carries the name and a command id, no user, and the new connection
   * has authenticated nobody (the Java client sends it first). HornetQ reattaches on the name;
   * so do we unless name-only-reattach-enabled is false, when the client is told "not
   * reattached" and creates its session again, as after a broker restart.
   */
  private async reattachable(packet: ReattachSession): Promise<ServerSession | null> {
    const session = this.broker.findSession(packet.name);
    if (session === undefined || !session.supportsReattach || session.isClosed) return null;
    if (session.reattachSecret === null) {
      if (this.broker.nameOnlyReattachEnabled) return session;
      this.logger.warn(
        { session: session.name, remote: this.remoting.remoteAddress },
        `reattach of session ${session.name} refused: it was created without a reattach secret (a HornetQ Java client's) and name-only-reattach-enabled is false; its client creates it again`,
      );
      return null;
    }
    const presented = packet.extension;
    const secretShown = presented !== null && secretMatches(session.reattachSecret, presented.reattachSecret);
    const user = secretShown ? await this.reattachingUser(presented) : null;
    if (user === null || session.username !== user.name) {
      this.logger.warn(
        { remote: this.remoting.remoteAddress },
        'reattach refused: the session was created with a reattach secret and the request did not present it, or did not log in as the user that created it',
      );
      return null;
    }
    return session;
  }

  /**
   * Who a reattach with our extension logs in as (null: the login failed, and was logged and
   * counted as any failed login).
   */
  private async reattachingUser(presented: ReattachExtension): Promise<{ name: string | null } | null> {
    if (!this.broker.security.enabled) return { name: presented.username };
    try {
      const guard = await this.broker.security.login(
        presented.username,
        presented.password,
        this.remoting.remoteAddress,
        this.loginRequest,
      );
      return { name: guard.user };
    } catch {
      return null;
    }
  }

  /**
   * A client whose last confirmed id is not one this side can account for (it claims packets
   * never sent, or has lost some whose frames are gone) cannot be replayed to: its session is
   * closed, as if its client had vanished, and the client hears "not reattached" and creates its
   * session again. Null when the id is fine.
   */
  private refuseBrokenNumbering(session: ServerSession, packet: ReattachSession): Packet | null {
    if (session.channel.accountsFor(packet.lastConfirmedCommandId)) return null;
    this.logger.warn(
      { remote: this.remoting.remoteAddress, claimed: packet.lastConfirmedCommandId },
      'reattach refused: the client claims a count of our packets that does not match what was sent; its session is closed and created again',
    );
    session.close(true);
    return { type: PacketType.REATTACH_SESSION_RESP, lastConfirmedCommandId: -1, reattached: false };
  }

  /** Takes the session over from its previous connection and replays what its client has not seen. */
  private moveHere(session: ServerSession, packet: ReattachSession): Packet {
    const previous = session.owner;
    if (previous instanceof ServerConnection && previous !== this) previous.handOver(session, this);
    this.sessions.add(session);
    this.hadSession = true;
    session.owner = this;
    const serverLastConfirmed = session.channel.lastConfirmedCommandId;
    session.channel.transferTo(this.remoting);
    const replayed = session.channel.replay(packet.lastConfirmedCommandId);
    this.remoting.authenticate();
    // Its consumers may have stopped on the old connection's congestion: this one may take more.
    session.resumeDelivery();
    this.broker.sessionReattached();
    // The name at debug only (see claimSessionName).
    this.logger.info({ replayed }, `a session reattached, ${replayed} packets replayed to the client`);
    this.logger.debug({ session: session.name }, `session ${session.name} reattached`);
    return {
      type: PacketType.REATTACH_SESSION_RESP,
      lastConfirmedCommandId: serverLastConfirmed,
      reattached: true,
    };
  }

  /**
   * Gives a session (and the temporary queues, which belong to the client's connection) to the
   * connection its client reattached through. A connection left without sessions is finished: if
   * its link still looked alive it was half-open, and the client has moved on.
   */
  private handOver(session: ServerSession, next: ServerConnection): void {
    this.sessions.delete(session);
    for (const name of this.temporaryQueues) next.addTemporaryQueue(name);
    this.temporaryQueues.clear();
    if (this.sessions.size === 0) {
      const reason = 'the client reattached its sessions elsewhere';
      this.logger.info(
        { reason },
        `closing connection ${this.remoting.id} from ${this.remoting.remoteAddress}: ${reason}`,
      );
      this.remoting.fail(new HornetQException('DISCONNECTED', reason));
      this.end(true);
    }
  }

  /** Throws when the connection already holds as many consumers as the broker allows one. */
  checkConsumerLimit(): void {
    const max = this.broker.limits.maxConsumersPerConnection;
    if (this.consumerCount >= max) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        `this connection already has ${max} consumers, the most the broker allows one connection (maxConsumersPerConnection)`,
      );
    }
  }

  largeMessageRefusal(bytes: number): HornetQException | null {
    const max = this.broker.limits.maxLargeMessageBytesPerConnection;
    let held = 0;
    for (const session of this.sessions) held += session.largeMessageBytes;
    if (held + bytes <= max) return null;
    return new HornetQException(
      'LARGE_MESSAGE_ERROR_BODY',
      `large message refused: this connection's sessions are already sending ${held} bytes of large messages to the broker, and ${bytes} more would pass the ${max} bytes it assembles for one connection at a time (maxLargeMessageBytesPerConnection)`,
    );
  }

  /** Throws when the connection already holds as many producers as the broker allows one. */
  checkProducerLimit(): void {
    const max = this.broker.limits.maxProducersPerConnection;
    if (this.producerCount >= max) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        `this connection already has ${max} producers, the most the broker allows one connection (maxProducersPerConnection)`,
      );
    }
  }

  /**
   * The client leaves far more unconfirmed than the protocol lets it (section 6 of PROTOCOL.md):
   * what the session's resend buffer holds would grow without bound. A connected client loses its
   * connection (it may reattach, which confirms what it has); a detached session is closed (its
   * client will re-create it). It runs from a tick of its own (the channel's limit check), with
   * nothing above it to catch: whatever goes wrong here fails this connection, never the broker.
   */
  clientFellBehind(session: ServerSession, channelId: number): void {
    const reason = `the client left more than the broker keeps unconfirmed on session channel ${channelId}`;
    try {
      this.giveUpOn(session, reason);
    } catch (error) {
      this.containFailure(error, reason);
    }
  }

  private giveUpOn(session: ServerSession, reason: string): void {
    if (!this.transportGone) {
      this.logger.warn({ reason }, `closing connection ${this.remoting.id}: ${reason}`);
      this.remoting.fail(new HornetQException('UNSUPPORTED_PACKET', `protocol error: ${reason}`));
    } else if (this.sessions.has(session)) {
      this.logger.warn({ reason }, `closing detached session ${session.name}: ${reason}`);
      session.close(true);
      this.sessionClosed(session);
    }
  }

  /**
   * Something failed where no caller can catch it: logged (if the logger itself still works) and
   * the connection is failed, which closes its sessions; the broker and its other clients go on.
   */
  private containFailure(error: unknown, activity: string): void {
    const detail = error instanceof Error ? error.message : String(error);
    this.logError(error, `handling "${activity}" failed (${detail}); closing the connection`);
    try {
      this.remoting.fail(new HornetQException('INTERNAL_ERROR', `${activity}: ${detail}`, { cause: error }));
      // A link already gone is not failed again: its detached sessions go now instead.
      if (this.transportGone) this.end(true);
    } catch (closeError) {
      this.logError(closeError, `closing the connection after "${activity}" failed as well`);
    }
  }

  /** Logs where nothing may throw: a logger that fails is not allowed to take the broker with it. */
  private logError(error: unknown, message: string): void {
    try {
      this.logger.error({ err: error }, `connection ${this.remoting.id}: ${message}`);
    } catch {
      // Nothing is left to report to; the caller goes on containing the failure.
    }
  }

  /**
   * The link is gone. Sessions that can be reattached wait for their client until the TTL check
   * reaps the connection; the others are closed now.
   */
  private onFailure(error: HornetQException): void {
    this.transportGone = true;
    if (this.ended) return;
    const openSessions = this.sessions.size;
    for (const session of [...this.sessions]) {
      if (!session.supportsReattach || this.liveness.ttl === -1) {
        session.close(true);
        this.sessionClosed(session);
      }
    }
    if (openSessions === 0 && isPlainClose(error)) {
      // The client closed its sessions, then its socket: a close, as HornetQ's clients end, not a failure.
      this.logger.debug({}, `connection ${this.remoting.id} closed by its client`);
      this.end(false);
    } else if (this.sessions.size === 0) {
      this.logger.info(
        { reason: error.message, sessions: openSessions },
        `connection ${this.remoting.id} failed with ${openSessions} sessions open; they are cleared up`,
      );
      this.end(true);
    } else {
      this.logger.info(
        { reason: error.message, sessions: this.sessions.size, ttl: this.liveness.ttl },
        `connection ${this.remoting.id} failed; its sessions wait up to ${this.liveness.ttl} ms for their client to reattach`,
      );
    }
  }

  /** Closes every session and deletes the connection's temporary queues; runs once. */
  private end(failed: boolean): void {
    if (this.ended) return;
    this.ended = true;
    for (const session of [...this.sessions]) {
      session.close(failed);
      this.sessionClosed(session);
    }
    for (const name of this.temporaryQueues) {
      try {
        this.broker.postOffice.deleteTemporaryQueue(name);
      } catch (error) {
        this.logger.warn({ queue: name, err: error }, `could not delete temporary queue ${name}`);
      }
    }
    this.temporaryQueues.clear();
    this.broker.connectionClosed(this);
  }
}

/** The link ended without an error of its own (the peer closed its socket), not a reset or a protocol fault. */
function isPlainClose(error: HornetQException): boolean {
  return error.code === 'NOT_CONNECTED' && error.cause === undefined;
}

/** Constant-time comparison of the session's reattach secret with the one presented. */
function secretMatches(expected: Buffer, presented: Buffer): boolean {
  if (presented.length !== expected.length) {
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(expected, presented);
}

/**
 * What a session's client may leave unconfirmed before the broker gives up on it: far more than
 * a client that keeps the protocol ever does, yet a bound: a client that never confirms cannot
 * make the broker keep everything it sent. Every client confirms each window's bytes, so the byte
 * bound applies to all. Only our own client also confirms every MAX_UNCONFIRMED_COMMANDS
 * commands; a HornetQ Java client confirms by bytes alone (a 10 MiB window of 100-byte
 * deliveries is some 100 000 commands), so the command bound applies only to sessions that
 * negotiated our extension. Commands are frames of at least 13 bytes, so the byte bound caps them
 * for the others.
 */
export function unconfirmedLimitFor(
  windowSize: number,
  extended: boolean,
): { bytes: number; commands: number } {
  return {
    bytes: 8 * Math.max(windowSize, 0) + 32 * 1024 * 1024,
    commands: extended ? 64 * MAX_UNCONFIRMED_COMMANDS : Infinity,
  };
}
