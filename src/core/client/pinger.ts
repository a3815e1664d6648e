import { HornetQException } from '../protocol';
import { LivenessMonitor, type RemotingConnection } from '../remoting';

/**
 * The client's end of the liveness rule (core/remoting/liveness-monitor.ts): it pings the broker
 * with its connection-ttl on start and every client-failure-check-period (the broker echoes each
 * ping, so an idle link still carries data), and fails a link that went silent for connection-ttl
 * with CONNECTION_TIMEDOUT.
 */
export class Pinger {
  private readonly monitor: LivenessMonitor;

  constructor(
    connection: RemotingConnection,
    connectionTtl: number,
    private readonly checkPeriod: number,
  ) {
    this.monitor = new LivenessMonitor(connection, {
      ttl: connectionTtl,
      pinging: true,
      onSilent: (ttl) =>
        connection.fail(
          new HornetQException(
            'CONNECTION_TIMEDOUT',
            `Did not receive data from server for ${connection.remoteAddress} within ${ttl} ms`,
          ),
        ),
    });
  }

  /** Sends the first ping (it tells the broker our TTL) and starts the periodic check. */
  start(): void {
    this.monitor.start(this.checkPeriod);
  }

  stop(): void {
    this.monitor.stop();
  }

  /** Pings now, out of turn (see RemotingConnection.setLargeFrameListener). */
  ping(): void {
    this.monitor.ping();
  }
}
