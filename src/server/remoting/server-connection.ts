import { HornetQException, type Packet } from '../../core/protocol';
import { PacketType } from '../../core/protocol/packet-type';
import { CHANNEL_ID, LivenessMonitor, type Logger, type RemotingConnection } from '../../core/remoting';
import type { LoginRequest } from '../security/broker-security';
import { LoginMemo } from '../security/login-memo';
import type { ServerSession } from '../session/server-session';
import type { BrokerServices } from './broker-services';
import { HandshakeHandler, type HandshakeConnection } from './handshake-handler';

const CONGESTION = Object.freeze({ reason: 'output above the high-water mark' });

/**
 * The broker's side of one client connection: its pings (the session handshake on channels 0 and
 * 1 is the HandshakeHandler's), the sessions it carries, and the temporary queues that live as
 * long as it does. When the
 * link fails, sessions that keep resend buffers stay (detached) until the connection's TTL runs
 * out, so that their client can reattach them to a new connection.
 */
export class ServerConnection implements HandshakeConnection {
  /** The TTL check: the client's pings set its TTL (unless the broker overrides them). */
  private readonly liveness: LivenessMonitor;
  private readonly sessions = new Set<ServerSession>();
  private readonly temporaryQueues = new Set<string>();
  readonly logger: Logger;
  private ended = false;
  private transportGone = false;
  private readonly openedAt = Date.now();
  /** A session was created on (or reattached to) this connection: it is not an idle probe. */
  private hadSession = false;
  /** When the output went above its high-water mark; null while below it. */
  private congestedSince: number | null = null;
  /** What keeps the connection from being read: its congestion, and sessions holding answers. */
  private readonly readingHeldBy = new Set<object>();
  /** CREATESESSION, REATTACH_SESSION and the topology requests. */
  private readonly handshake: HandshakeHandler;

  constructor(
    readonly remoting: RemotingConnection,
    private readonly broker: BrokerServices,
    defaultTtl: number,
    /** In-process clients are the broker's own code: the TTL and session deadlines are for remote ones. */
    private readonly inVm = false,
  ) {
    this.logger = broker.logger.child({ connection: remoting.id });
    this.handshake = new HandshakeHandler(this, broker, this.logger);
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
  readonly loginRequest: LoginRequest = {
    abandoned: (): boolean => this.ended || this.transportGone,
    memo: new LoginMemo(),
  };

  get isEnded(): boolean {
    return this.ended;
  }

  get linkGone(): boolean {
    return this.transportGone;
  }

  /** Epoch ms when the connection was accepted. */
  get creationTime(): number {
    return this.openedAt;
  }

  /** Its open sessions (management lists them). */
  sessionList(): ServerSession[] {
    return [...this.sessions];
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
   * Closes the connection on an operator's word (management): logged as the broker closing it, its
   * client told the broker is going away. Its sessions end at once, so that a reattach is refused
   * and the client starts over (as after HornetQ's closeConnectionsForAddress).
   */
  closeByManagement(reason: string): void {
    if (this.ended) return;
    this.logger.warn(
      { reason },
      `closing connection ${this.remoting.id} from ${this.remoting.remoteAddress}: ${reason}`,
    );
    this.disconnect();
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
    } else {
      this.handshake.handle(packet, channelId);
    }
  }

  /**
   * A session created on this connection, or reattached to it: taken from the connection it was
   * on (which may close, left without sessions), and kept here.
   */
  adoptSession(session: ServerSession): void {
    const previous = session.owner;
    if (previous instanceof ServerConnection && previous !== this) previous.handOver(session, this);
    this.sessions.add(session);
    this.hadSession = true;
    session.owner = this;
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
   * The client leaves far more unconfirmed than the protocol lets it (section 6 of docs/reference/protocol.md):
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
  containFailure(error: unknown, activity: string): void {
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
    this.handshake.close();
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
