import { randomBytes } from 'node:crypto';
import {
  HornetQException,
  PacketType,
  ProtocolError,
  packetTypeName,
  type CreateSession,
  type Packet,
} from '../../core/protocol';
import { CHANNEL_ID, FIRST_SESSION_CHANNEL, type Logger, type RemotingConnection } from '../../core/remoting';
import type { PostOffice } from '../postoffice/post-office';
import { ServerSession, type SessionOwner } from '../session/server-session';

export const SERVER_VERSION = 1;

/** What a connection needs from its broker. */
export interface BrokerServices {
  readonly postOffice: PostOffice;
  readonly logger: Logger;
  readonly connectionTtlOverride: number;
  registerSession(session: ServerSession): void;
  unregisterSession(session: ServerSession): void;
  connectionClosed(connection: ServerConnection): void;
}

/**
 * The broker's side of one client connection: pings and the session handshake on channels 0 and
 * 1, the sessions it carries, and the temporary queues that live as long as it does.
 */
export class ServerConnection implements SessionOwner {
  /** Ms without data before the TTL check fails this connection; -1 never. */
  ttl: number;
  /** Time of the last TTL check that found data received since the one before. */
  lastCheckAt = Date.now();
  private readonly sessions = new Set<ServerSession>();
  private readonly temporaryQueues = new Set<string>();
  private readonly logger: Logger;
  private ended = false;

  constructor(
    readonly remoting: RemotingConnection,
    private readonly broker: BrokerServices,
    defaultTtl: number,
  ) {
    this.ttl = broker.connectionTtlOverride !== -1 ? broker.connectionTtlOverride : defaultTtl;
    this.logger = broker.logger.child({ connection: remoting.id });
    remoting.setUnroutedHandler((packet, channelId) => this.handleControlPacket(packet, channelId));
    remoting.addFailureListener((error) => this.onFailure(error));
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  addTemporaryQueue(name: string): void {
    this.temporaryQueues.add(name);
  }

  removeTemporaryQueue(name: string): void {
    this.temporaryQueues.delete(name);
  }

  sessionClosed(session: ServerSession): void {
    this.sessions.delete(session);
    this.broker.unregisterSession(session);
  }

  /** Tells the client the broker is going away, then closes (broker stop). */
  disconnect(reason: string): void {
    this.remoting.write(CHANNEL_ID.PING, { type: PacketType.DISCONNECT, reason });
    this.end(false);
    this.remoting.close();
  }

  /** Fails the connection as if its client vanished (TTL expiry). */
  fail(error: HornetQException): void {
    this.remoting.fail(error);
  }

  private handleControlPacket(packet: Packet, channelId: number): void {
    if (channelId === CHANNEL_ID.PING && packet.type === PacketType.PING) {
      if (this.broker.connectionTtlOverride === -1) this.ttl = packet.connectionTtl;
      this.remoting.write(CHANNEL_ID.PING, packet);
    } else if (channelId === CHANNEL_ID.SESSION && packet.type === PacketType.CREATESESSION) {
      this.remoting.write(CHANNEL_ID.SESSION, this.createSession(packet));
    } else if (channelId === CHANNEL_ID.SESSION && packet.type === PacketType.REATTACH_SESSION) {
      // Sessions do not outlive their connection yet, so there is never one to reattach to:
      // the client re-creates its sessions.
      this.remoting.write(CHANNEL_ID.SESSION, {
        type: PacketType.REATTACH_SESSION_RESP,
        correlationId: packet.correlationId,
        lastConfirmedCommandId: -1,
        reattached: false,
      });
    } else {
      throw new ProtocolError(`${packetTypeName(packet.type)} is not allowed on channel ${channelId}`);
    }
  }

  private createSession(packet: CreateSession): Packet {
    try {
      const session = this.openSession(packet);
      return {
        type: PacketType.CREATESESSION_RESP,
        correlationId: packet.correlationId,
        serverVersion: SERVER_VERSION,
        sessionName: session.name,
        reattachToken: session.reattachToken.toString('hex'),
      };
    } catch (error) {
      const failure = HornetQException.is(error)
        ? error
        : new HornetQException('INTERNAL_ERROR', String(error));
      return {
        type: PacketType.EXCEPTION,
        correlationId: packet.correlationId,
        code: failure.code,
        message: failure.message,
      };
    }
  }

  private openSession(packet: CreateSession): ServerSession {
    if (packet.version !== SERVER_VERSION) {
      throw new HornetQException(
        'INCOMPATIBLE_CLIENT_SERVER_VERSIONS',
        `Server and client versions incompatible: client ${packet.version}, server ${SERVER_VERSION}`,
      );
    }
    if (
      packet.sessionChannelId < FIRST_SESSION_CHANNEL ||
      this.remoting.getChannel(packet.sessionChannelId)
    ) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        `session channel id ${packet.sessionChannelId} is not available`,
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
    });
    const session = new ServerSession(
      channel,
      {
        name: randomBytes(16).toString('hex'),
        reattachToken: randomBytes(16),
        username: packet.username,
        autoCommitSends: packet.autoCommitSends,
        autoCommitAcks: packet.autoCommitAcks,
        preAcknowledge: packet.preAcknowledge,
      },
      this.broker.postOffice,
      this,
      this.logger,
    );
    this.sessions.add(session);
    this.broker.registerSession(session);
    this.remoting.authenticate();
    return session;
  }

  private onFailure(error: HornetQException): void {
    this.logger.info(
      { reason: error.message },
      `connection ${this.remoting.id} failed, clearing up its sessions`,
    );
    this.end(true);
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
        this.broker.postOffice.deleteQueue(name);
      } catch (error) {
        this.logger.warn({ queue: name, err: error }, `could not delete temporary queue ${name}`);
      }
    }
    this.temporaryQueues.clear();
    this.broker.connectionClosed(this);
  }
}
