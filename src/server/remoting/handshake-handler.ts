import { timingSafeEqual } from 'node:crypto';
import {
  EXTENSION_VERSION,
  HornetQException,
  ProtocolError,
  packetTypeName,
  type CreateSession,
  type NodeAnnounce,
  type Packet,
  type ReattachExtension,
  type ReattachSession,
  type ServerSessionExtension,
  type TransportConfiguration,
} from '../../core/protocol';
import { PacketType } from '../../core/protocol/packet-type';
import {
  CHANNEL_ID,
  FIRST_SESSION_CHANNEL,
  MAX_UNCONFIRMED_COMMANDS,
  type Logger,
  type RemotingConnection,
} from '../../core/remoting';
import { clusterPeerGuard } from '../cluster/cluster-peer-guard';
import type { ClusterCredentials } from '../cluster/cluster-credentials';
import { describeConnector } from '../cluster/cluster-configuration';
import type { LoginRequest } from '../security/broker-security';
import { OPEN_GUARD, type SessionGuard } from '../security/session-guard';
import { ServerSession, type SessionOwner } from '../session/server-session';
import type { BrokerServices } from './broker-services';
import { OrderedReplies } from './ordered-replies';

/** HornetQ 2.4's incrementing version: what CREATESESSION_RESP answers. */
export const SERVER_VERSION = 124;
/** The client versions a HornetQ 2.4 server takes (2.4.x clients send 124; 122 and 123 are 2.3's). */
export const MIN_CLIENT_VERSION = 122;
/** Below it a client gets CLUSTER_TOPOLOGY (110); from it on CLUSTER_TOPOLOGY_V2 (114). */
export const TOPOLOGY_V2_CLIENT_VERSION = 122;

/**
 * Session requests (CREATESESSION, REATTACH_SESSION) a connection may have unanswered on channel
 * 1. Clients make them one at a time (HornetQ's sendBlockingLock, our serial channel-1 calls); a
 * reattach can wait for its session's answers, so without a bound a peer could queue replies
 * behind it without end.
 */
export const MAX_UNANSWERED_SESSION_REQUESTS = 16;

/** What the handshake needs from the connection it runs on. */
export interface HandshakeConnection extends SessionOwner {
  readonly remoting: RemotingConnection;
  /** The connection has ended (closed, or failed and reaped): nothing more is created on it. */
  readonly isEnded: boolean;
  readonly sessionCount: number;
  /** Lets the logins of one connection be remembered, and abandoned once it is gone. */
  readonly loginRequest: LoginRequest;
  /** A session created here, or reattached here (taken from the connection it was on), joins it. */
  adoptSession(session: ServerSession): void;
  /** Something failed where no caller can catch it: logged, and the connection is failed. */
  containFailure(error: unknown, activity: string): void;
}

/**
 * The session handshake of one connection (HornetQ's and Artemis' packet handler of channel 1,
 * with the topology requests of channel 0): CREATESESSION, REATTACH_SESSION and the topology
 * subscription. Kept apart from the connection, which keeps its link, its sessions and their
 * limits: this decides who gets a session and how a reattached one is taken over.
 */
export class HandshakeHandler {
  /** Answers on channel 1, in the order of their requests. */
  private readonly handshakeReplies: OrderedReplies<Packet>;
  /**
   * The client's protocol version (from its topology subscription or first CREATESESSION), 0 until
   * it says: it decides which topology packet it gets.
   */
  private clientVersion = 0;
  private readonly remoting: RemotingConnection;
  /** Removes this connection's topology subscription; null until it subscribes (or when not clustered). */
  private unsubscribe: (() => void) | null = null;
  /** The connection logged in as the cluster user: it may announce a backup. */
  private clusterPeer = false;
  /** The backup this connection announced, which leaves the topology with it. */
  private announced: { nodeId: string; connector: TransportConfiguration } | null = null;

  constructor(
    private readonly connection: HandshakeConnection,
    private readonly broker: BrokerServices,
    private readonly logger: Logger,
  ) {
    this.remoting = connection.remoting;
    this.handshakeReplies = new OrderedReplies<Packet>((reply) =>
      this.remoting.write(CHANNEL_ID.SESSION, reply),
    );
  }

  /** Handles a handshake packet; throws a ProtocolError for any other packet of channels 0 and 1. */
  handle(packet: Packet, channelId: number): void {
    if (
      channelId === CHANNEL_ID.PING &&
      (packet.type === PacketType.SUBSCRIBE_TOPOLOGY || packet.type === PacketType.SUBSCRIBE_TOPOLOGY_V2)
    ) {
      if (packet.type === PacketType.SUBSCRIBE_TOPOLOGY_V2) this.clientVersion = packet.clientVersion;
      this.subscribeTopology();
    } else if (channelId === CHANNEL_ID.PING && packet.type === PacketType.NODE_ANNOUNCE) {
      this.nodeAnnounced(packet);
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
   * A clustered broker sends a subscriber every member of its topology, then every change, until
   * the connection ends (HornetQ's CoreProtocolManager with a cluster connection). One that is not
   * clustered answers as HornetQ's does: one node, itself, with no connectors (the client keeps the
   * one it connected with), and nothing follows.
   */
  private subscribeTopology(): void {
    const cluster = this.broker.cluster;
    if (cluster === null) {
      this.writeTopology(this.broker.nodeId, Date.now(), null, null, true);
      return;
    }
    if (this.unsubscribe !== null) return; // a second subscription adds nothing: every change is sent already
    this.unsubscribe = cluster.topology.subscribe({
      memberUp: (member, last) =>
        this.writeTopology(
          member.nodeId,
          member.uniqueEventId,
          member.live,
          member.backup,
          last,
          member.nodeName,
        ),
      memberDown: (nodeId, uniqueEventId) => this.writeTopologyExit(nodeId, uniqueEventId),
    });
  }

  private writeTopology(
    nodeId: string,
    uniqueEventId: number,
    live: TransportConfiguration | null,
    backup: TransportConfiguration | null,
    last: boolean,
    nodeName: string | null = null,
  ): void {
    const v2 = this.clientVersion >= TOPOLOGY_V2_CLIENT_VERSION;
    this.remoting.write(CHANNEL_ID.PING, {
      type: v2 ? PacketType.CLUSTER_TOPOLOGY_V2 : PacketType.CLUSTER_TOPOLOGY,
      exit: false,
      nodeId,
      uniqueEventId: v2 ? uniqueEventId : 0,
      live,
      backup,
      last,
      nodeName: v2 ? nodeName : null,
    });
  }

  private writeTopologyExit(nodeId: string, uniqueEventId: number): void {
    const v2 = this.clientVersion >= TOPOLOGY_V2_CLIENT_VERSION;
    this.remoting.write(CHANNEL_ID.PING, {
      type: v2 ? PacketType.CLUSTER_TOPOLOGY_V2 : PacketType.CLUSTER_TOPOLOGY,
      exit: true,
      nodeId,
      uniqueEventId: v2 ? uniqueEventId : 0,
      live: null,
      backup: null,
      last: false,
      nodeName: null,
    });
  }

  /**
   * A backup announces itself (NODE_ANNOUNCE, HornetQ's BackupManager): it is merged into the
   * member of its node id and every subscriber hears of {live, backup}; it leaves the topology
   * with this connection. HornetQ 2.4 takes the announcement from any connection; here it must
   * come from one that logged in as the cluster user first (a CREATESESSION with cluster-user and
   * cluster-password), so that nobody else can point this broker's clients at a server of theirs.
   */
  private nodeAnnounced(packet: NodeAnnounce): void {
    const cluster = this.broker.cluster;
    if (cluster === null) {
      throw new ProtocolError(
        'NODE_ANNOUNCE, but this broker has no cluster connection (cluster-connections)',
      );
    }
    if (!this.clusterPeer) {
      throw new ProtocolError(
        'NODE_ANNOUNCE from a connection that has not logged in as the cluster user (cluster-user, cluster-password)',
      );
    }
    if (!packet.backup || packet.connector === null) {
      throw new ProtocolError(
        'NODE_ANNOUNCE of a live server, or without a connector: only a backup announces itself to this broker',
      );
    }
    if (this.announced !== null)
      cluster.topology.removeBackup(this.announced.nodeId, this.announced.connector);
    const member = cluster.topology.addBackup(packet.nodeId, packet.connector);
    if (member === null) {
      this.announced = null;
      this.logger.warn(
        { nodeId: packet.nodeId, remote: this.remoting.remoteAddress },
        `a backup announced itself for node ${packet.nodeId}, which this broker does not serve; it is not announced to clients (does it share this broker's store?)`,
      );
      return;
    }
    this.announced = { nodeId: packet.nodeId, connector: packet.connector };
    this.logger.info(
      { nodeId: packet.nodeId, backup: describeConnector(packet.connector) },
      `backup ${describeConnector(packet.connector)} announced itself for node ${packet.nodeId}; clients are told`,
    );
  }

  /** The connection ended: it hears no more topology, and the backup it announced is gone. */
  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    const announced = this.announced;
    this.announced = null;
    if (announced === null || this.broker.cluster === null) return;
    if (this.broker.cluster.topology.removeBackup(announced.nodeId, announced.connector) !== null) {
      this.logger.info(
        { nodeId: announced.nodeId, backup: describeConnector(announced.connector) },
        `backup ${describeConnector(announced.connector)} of node ${announced.nodeId} is gone (its connection ended); clients are told`,
      );
    }
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
    const cluster = this.broker.cluster;
    if (cluster?.credentials.names(packet.username) === true) {
      reply(this.answerClusterLogin(packet, cluster.credentials));
      return;
    }
    const security = this.broker.security;
    if (!security.enabled) {
      reply(this.answerCreateSession(packet, () => this.openSession(packet, OPEN_GUARD)));
      return;
    }
    security
      .login(packet.username, packet.password, this.remoting.remoteAddress, this.connection.loginRequest)
      .then(
        (guard) => reply(this.answerCreateSession(packet, () => this.openLoggedInSession(packet, guard))),
        (error: unknown) => reply(this.sessionRefusal(error)),
      )
      .catch((error: unknown) => this.connection.containFailure(error, 'answering a CREATESESSION'));
  }

  /**
   * A peer (a backup) logs in as the cluster user: checked against cluster-password here, whether
   * security is enabled or not, and refused as a failed login is, logged without the password.
   */
  private answerClusterLogin(packet: CreateSession, credentials: ClusterCredentials): Packet {
    if (!credentials.accepts(packet.password)) {
      this.logger.warn(
        { user: packet.username, remote: this.remoting.remoteAddress },
        `cluster login refused: ${this.remoting.remoteAddress} presented the wrong password for cluster user ${credentials.user}`,
      );
      return this.sessionRefusal(
        new HornetQException('SECURITY_EXCEPTION', `Unable to validate cluster user: ${credentials.user}`),
      );
    }
    const answer = this.answerCreateSession(packet, () =>
      this.openSession(packet, clusterPeerGuard(credentials.user)),
    );
    if (answer.type === PacketType.CREATESESSION_RESP) this.clusterPeer = true;
    return answer;
  }

  private openLoggedInSession(packet: CreateSession, guard: SessionGuard): ServerSession {
    if (this.connection.isEnded) {
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
    if (this.connection.sessionCount >= maxSessions) {
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
        extensionVersion:
          packet.extension === null ? 0 : Math.min(packet.extension.version, EXTENSION_VERSION),
        username: user,
        guard,
        autoCommitSends: packet.autoCommitSends,
        autoCommitAcks: packet.autoCommitAcks,
        preAcknowledge: packet.preAcknowledge,
        minLargeMessageSize: packet.minLargeMessageSize,
        maxLargeMessageBytes: this.broker.maxLargeMessageBytes,
        defaultAddress: packet.defaultAddress === '' ? null : packet.defaultAddress,
        management: this.broker.managementEndpoint,
      },
      this.broker.postOffice,
      this.connection,
      this.logger,
      this.broker.durability,
    );
    this.connection.adoptSession(session);
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
    return packet.extension === null && (holder.owner === this.connection || holder.owner.linkGone);
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
        if (session === null || this.connection.isEnded || session.isClosed) reply(refused);
        else this.reattachWhenAnswered(session, packet, reply, refused);
      })
      .catch((error: unknown) => this.connection.containFailure(error, 'answering a REATTACH_SESSION'));
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
          error !== null || this.connection.isEnded || session.isClosed
            ? refused
            : (this.refuseBrokenNumbering(session, packet) ?? this.moveHere(session, packet));
        reply(answer);
      } catch (failure) {
        this.connection.containFailure(failure, `reattaching session ${session.name}`);
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
        this.connection.loginRequest,
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
    this.connection.adoptSession(session);
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
