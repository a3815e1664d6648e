import { randomUUID } from 'node:crypto';
import { HornetQException, type Packet } from '../../core/protocol';
import { PacketType } from '../../core/protocol/packet-type';
import {
  CHANNEL_ID,
  FIRST_SESSION_CHANNEL,
  LivenessMonitor,
  RemotingConnection,
  TcpTransport,
  type Logger,
} from '../../core/remoting';
import { announcedConnector, type ClusterConnector } from './cluster-configuration';

/** HornetQ 2.4's protocol version, as its servers' cluster connections send it. */
const ANNOUNCER_VERSION = 124;
/** How long a dial and the login may take before the attempt counts as failed. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** The TTL the announcer's pings ask for; it pings every third of it. */
const ANNOUNCER_TTL_MS = 30_000;

export interface BackupAnnouncerOptions {
  /** The live (or lives, tried in turn) to announce to: the cluster connection's static connectors. */
  lives: readonly ClusterConnector[];
  /** The node id the backup serves: the live's, read from the shared store's server.lock. */
  nodeId: string;
  /** HornetQ's backup group name, or null. */
  nodeName: string | null;
  /** How clients reach this backup once it is live: the cluster connection's connector-ref. */
  connector: ClusterConnector;
  user: string;
  password: string;
  retryInterval: number;
  maxRetryInterval: number;
  logger: Logger;
}

/** The connection an announcement went out on, kept open: the backup is known while it lasts. */
interface Announcement {
  readonly remoting: RemotingConnection;
  readonly liveness: LivenessMonitor;
}

/**
 * A backup's half of HornetQ's BackupManager: it dials its live, logs in as the cluster user and
 * sends NODE_ANNOUNCE (backup, its connector), so that the live tells its clients where to go
 * when it fails. The connection stays open (pinged) while the backup waits; when it drops, the
 * live forgets the backup and the announcer dials again, forever, pausing retryInterval doubling
 * up to maxRetryInterval between failed attempts. `stop()` ends all of it and settles at once.
 */
export class BackupAnnouncer {
  private running = false;
  private current: Announcement | null = null;
  private pause: { timer: NodeJS.Timeout; wake: () => void } | null = null;
  private loop: Promise<void> | null = null;
  private announcedOnce = false;

  /** Ends a dial in progress when the announcer stops. */
  private readonly stopping = new AbortController();

  constructor(private readonly options: BackupAnnouncerOptions) {
    if (options.lives.length === 0) {
      throw new RangeError(
        'a backup announcer needs the live to announce to (static-connectors of its cluster connection)',
      );
    }
  }

  /** Whether the live has the announcement now (the connection it went out on is open). */
  get announced(): boolean {
    return this.current !== null && !this.current.remoting.closed;
  }

  /** Starts announcing; an announcer that was stopped is not started again (make another). */
  start(): void {
    if (this.running || this.stopping.signal.aborted) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops dialing and closes the announcing connection (the live then forgets this backup). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stopping.abort();
    this.pause?.wake();
    this.closeCurrent();
    await this.loop;
    this.loop = null;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      const live = this.liveFor(failures);
      try {
        const ended = await this.announceTo(live);
        failures = 0;
        await ended;
      } catch (error) {
        failures++;
        if (!this.running) break;
        this.logAttemptFailed(live, error, failures);
      }
      if (this.running) await this.sleep(this.delayAfter(failures));
    }
  }

  /** The lives are tried in turn, one per failed attempt (the constructor checked there is one). */
  private liveFor(failures: number): ClusterConnector {
    const lives = this.options.lives;
    return lives[failures % lives.length] as ClusterConnector;
  }

  private delayAfter(failures: number): number {
    const { retryInterval, maxRetryInterval } = this.options;
    if (failures === 0) return retryInterval;
    return Math.min(retryInterval * 2 ** Math.min(failures - 1, 30), maxRetryInterval);
  }

  /**
   * One announcement: dial, log in, announce. Resolves to a promise that settles when the
   * connection ends; throws when any step fails (the connection is then closed).
   */
  private async announceTo(live: ClusterConnector): Promise<Promise<void>> {
    const transport = await TcpTransport.connect(
      live.host,
      live.port,
      ATTEMPT_TIMEOUT_MS,
      this.stopping.signal,
    );
    const remoting = new RemotingConnection(transport, { logger: this.options.logger });
    const ended = new Promise<void>((resolve) => remoting.addFailureListener(() => resolve()));
    // Channel 0 carries the live's pings and topology: nothing there is for the announcer.
    remoting.setUnroutedHandler(() => undefined);
    const liveness = new LivenessMonitor(remoting, {
      ttl: ANNOUNCER_TTL_MS,
      pinging: true,
      onSilent: (ttl) =>
        remoting.fail(new HornetQException('CONNECTION_TIMEDOUT', `the live sent nothing for ${ttl} ms`)),
    });
    this.current = { remoting, liveness };
    try {
      if (!this.running) throw new HornetQException('DISCONNECTED', 'the announcer stopped');
      liveness.start(ANNOUNCER_TTL_MS / 3);
      await this.logIn(remoting);
      remoting.write(CHANNEL_ID.PING, this.announcement());
    } catch (error) {
      this.closeCurrent();
      throw error;
    }
    this.options.logger.info(
      { live: `${live.host}:${live.port}`, nodeId: this.options.nodeId },
      `backup announced to its live ${live.host}:${live.port} for node ${this.options.nodeId}`,
    );
    this.announcedOnce = true;
    return ended.then(() => this.connectionEnded(live));
  }

  /** A CREATESESSION as the cluster user: the live takes an announcement only after it. */
  private async logIn(remoting: RemotingConnection): Promise<void> {
    const handshake = remoting.createChannel(CHANNEL_ID.SESSION, {
      confirmationWindowSize: -1,
      callTimeoutMs: ATTEMPT_TIMEOUT_MS,
      serialBlockingCalls: true,
    });
    // A connection that fails (or is stopped) while the login is on its way ends the wait.
    remoting.addFailureListener((error) => handshake.returnBlocking(error));
    remoting.createChannel(FIRST_SESSION_CHANNEL, {
      confirmationWindowSize: -1,
      callTimeoutMs: ATTEMPT_TIMEOUT_MS,
    });
    try {
      await handshake.sendBlocking({
        type: PacketType.CREATESESSION,
        name: `cluster-announcer-${randomUUID()}`,
        sessionChannelId: FIRST_SESSION_CHANNEL,
        version: ANNOUNCER_VERSION,
        username: this.options.user,
        password: this.options.password,
        minLargeMessageSize: 100 * 1024,
        xa: false,
        autoCommitSends: true,
        autoCommitAcks: true,
        windowSize: -1,
        preAcknowledge: false,
        defaultAddress: null,
        extension: null,
      });
    } catch (error) {
      // The live's EXCEPTION answer: say it was the login (the password itself is never in it).
      if (HornetQException.is(error) && error.code === 'SECURITY_EXCEPTION') {
        throw new HornetQException(error.code, `the live refused the cluster login (${error.message})`);
      }
      throw error;
    }
  }

  private announcement(): Packet {
    return {
      type: PacketType.NODE_ANNOUNCE,
      nodeId: this.options.nodeId,
      nodeName: this.options.nodeName,
      backup: true,
      currentEventId: Date.now(),
      connector: announcedConnector(this.options.connector),
      backupConnector: null,
    };
  }

  private connectionEnded(live: ClusterConnector): void {
    this.closeCurrent();
    if (!this.running) return;
    this.options.logger.warn(
      { live: `${live.host}:${live.port}` },
      `the connection to the live ${live.host}:${live.port} ended; the backup announces itself again`,
    );
  }

  private logAttemptFailed(live: ClusterConnector, error: unknown, failures: number): void {
    const reason = error instanceof Error ? error.message : String(error);
    const log = this.announcedOnce || failures > 1 ? this.options.logger.debug : this.options.logger.warn;
    log.call(
      this.options.logger,
      { live: `${live.host}:${live.port}`, failures, reason },
      `could not announce the backup to its live ${live.host}:${live.port} (${reason}); trying again`,
    );
  }

  private closeCurrent(): void {
    const current = this.current;
    this.current = null;
    if (current === null) return;
    current.liveness.stop();
    // A failure, not a close: it ends whatever waits on the connection (the login, the announcement's life).
    current.remoting.fail(new HornetQException('DISCONNECTED', 'the backup announcer closed its connection'));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.pause = null;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.pause = { timer, wake };
    });
  }
}
