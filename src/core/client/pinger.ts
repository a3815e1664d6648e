import { HornetQException, PacketType } from '../protocol';
import { CHANNEL_ID, type RemotingConnection } from '../remoting';

/**
 * Keeps a connection honest: every client-failure-check-period it checks that something arrived
 * from the broker within connection-ttl (any packet counts; the broker echoes each ping, so an
 * idle link still carries data), then pings and flushes pending confirmations. A link that went
 * silent (a black hole: no RST, no FIN) is failed with CONNECTION_TIMEDOUT.
 */
export class Pinger {
  private timer: NodeJS.Timeout | null = null;
  private lastCheckAt = Date.now();

  constructor(
    private readonly connection: RemotingConnection,
    private readonly connectionTtl: number,
    private readonly checkPeriod: number,
  ) {}

  /** Sends the first ping (it tells the broker our TTL) and starts the periodic check. */
  start(): void {
    this.ping();
    if (this.checkPeriod === -1) return;
    this.timer = setInterval(() => this.check(), this.checkPeriod);
    // The socket keeps the process alive while the connection is open; the timer need not.
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private check(): void {
    const now = Date.now();
    if (this.connection.dataReceived) {
      this.connection.dataReceived = false;
      this.lastCheckAt = now;
    } else if (this.connectionTtl !== -1 && now - this.lastCheckAt >= this.connectionTtl) {
      this.stop();
      this.connection.fail(
        new HornetQException(
          'CONNECTION_TIMEDOUT',
          `Did not receive data from server for ${this.connection.remoteAddress} within ${this.connectionTtl} ms`,
        ),
      );
      return;
    }
    this.ping();
    for (const channel of this.connection.allChannels()) channel.flushConfirmations();
  }

  /** Pings now, out of turn (see RemotingConnection.setLargeFrameListener). */
  ping(): void {
    this.connection.write(CHANNEL_ID.PING, { type: PacketType.PING, connectionTtl: this.connectionTtl });
  }
}
