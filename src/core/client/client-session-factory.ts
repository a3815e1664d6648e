import { HornetQException, PacketType, type CreateSessionResponse, type Packet } from '../protocol';
import {
  CHANNEL_ID,
  RemotingConnection,
  silentLogger,
  type Channel,
  type FailureListener,
  type Logger,
  type Transport,
} from '../remoting';
import { resolveClientOptions, type ClientOptions } from './client-options';
import { ClientSession, type SessionSettings } from './client-session';
import { connectTransport, describeConnector, isInVm, type TransportConfiguration } from './connector';

/** Must equal the broker's SERVER_VERSION: the wire format both sides speak. */
export const CLIENT_VERSION = 1;

/**
 * One connection to a broker and the sessions on it (HornetQ's ClientSessionFactory). Connecting
 * tries each connector in turn, initialConnectAttempts times, waiting retryInterval (times the
 * multiplier, up to maxRetryInterval) between rounds.
 */
export class ClientSessionFactory {
  private readonly sessions = new Set<ClientSession>();
  private readonly failureListeners = new Set<FailureListener>();
  private readonly handshake: Channel;
  private isClosed = false;

  private constructor(
    readonly options: ClientOptions,
    private readonly connection: RemotingConnection,
    readonly connector: TransportConfiguration,
    private readonly logger: Logger,
  ) {
    this.handshake = connection.createChannel(CHANNEL_ID.SESSION, {
      confirmationWindowSize: -1,
      callTimeoutMs: options.callTimeout,
    });
    connection.setUnroutedHandler((packet) => this.handleControlPacket(packet));
    connection.addFailureListener((error) => this.onConnectionFailure(error));
    connection.write(CHANNEL_ID.PING, { type: PacketType.PING, connectionTtl: options.connectionTTL });
  }

  static async connect(options: Partial<ClientOptions> = {}): Promise<ClientSessionFactory> {
    const resolved = resolveClientOptions(options);
    const logger = resolved.logger ?? silentLogger;
    const { transport, connector } = await connectWithRetry(resolved);
    const effective = isInVm(connector) ? withInVmLiveness(resolved) : resolved;
    const connection = new RemotingConnection(transport, { logger, maxFrameBytes: resolved.maxFrameBytes });
    return new ClientSessionFactory(effective, connection, connector, logger);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Told once when the connection fails (not when it is closed). */
  addFailureListener(listener: FailureListener): void {
    this.failureListeners.add(listener);
  }

  removeFailureListener(listener: FailureListener): void {
    this.failureListeners.delete(listener);
  }

  async createSession(settings: Partial<SessionSettings> = {}): Promise<ClientSession> {
    if (this.isClosed) throw new HornetQException('OBJECT_CLOSED', 'The session factory is closed');
    const resolved: SessionSettings = {
      autoCommitSends: true,
      autoCommitAcks: true,
      preAcknowledge: this.options.preAcknowledge,
      ackBatchSize: this.options.ackBatchSize,
      username: null,
      password: null,
      ...settings,
    };
    const channelId = this.connection.generateChannelId();
    const response = (await this.handshake.sendBlocking({
      type: PacketType.CREATESESSION,
      correlationId: 0,
      name: `session-${channelId}`,
      sessionChannelId: channelId,
      version: CLIENT_VERSION,
      username: resolved.username,
      password: resolved.password,
      minLargeMessageSize: this.options.minLargeMessageSize,
      xa: false,
      autoCommitSends: resolved.autoCommitSends,
      autoCommitAcks: resolved.autoCommitAcks,
      preAcknowledge: resolved.preAcknowledge,
      windowSize: this.options.confirmationWindowSize,
      defaultAddress: null,
    })) as CreateSessionResponse;
    const channel = this.connection.createChannel(channelId, {
      confirmationWindowSize: this.options.confirmationWindowSize,
      callTimeoutMs: this.options.callTimeout,
    });
    const session = new ClientSession(
      response.sessionName,
      response.reattachToken,
      channel,
      resolved,
      this.options,
      this,
      this.logger,
    );
    this.sessions.add(session);
    return session;
  }

  sessionClosed(session: ClientSession): void {
    this.sessions.delete(session);
  }

  /** Closes every session, then the connection. Idempotent; settles even if the broker is gone. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    await Promise.allSettled([...this.sessions].map((session) => session.close()));
    this.handshake.close();
    this.connection.close();
  }

  private handleControlPacket(packet: Packet): void {
    if (packet.type === PacketType.PING) return;
    if (packet.type === PacketType.DISCONNECT) {
      this.connection.fail(
        new HornetQException(
          'DISCONNECTED',
          `The connection was disconnected because of server shutdown${packet.reason === null ? '' : `: ${packet.reason}`}`,
        ),
      );
      return;
    }
    throw new HornetQException(
      'UNSUPPORTED_PACKET',
      `unexpected packet type ${packet.type} on a control channel`,
    );
  }

  /** Every session ends: blocked calls are released with UNBLOCKED, receives get null. */
  private onConnectionFailure(error: HornetQException): void {
    if (this.isClosed) return;
    this.isClosed = true;
    const unblocked = new HornetQException(
      'UNBLOCKED',
      'Connection failure detected. Unblocking a blocking call that will never get a response',
      { cause: error },
    );
    this.handshake.returnBlocking(unblocked);
    for (const session of [...this.sessions]) session.closeLocally(unblocked);
    for (const listener of [...this.failureListeners]) listener(error);
  }
}

async function connectWithRetry(
  options: ClientOptions,
): Promise<{ transport: Transport; connector: TransportConfiguration }> {
  const attempts = Math.max(options.initialConnectAttempts, 1);
  const forever = options.initialConnectAttempts === -1;
  let interval = options.retryInterval;
  let lastError: unknown = null;
  for (let attempt = 1; forever || attempt <= attempts; attempt++) {
    for (const connector of options.connectors) {
      try {
        return { transport: await connectTransport(connector, options.callTimeout), connector };
      } catch (error) {
        lastError = error;
      }
    }
    if (!forever && attempt === attempts) break;
    await delay(jittered(interval, options.retryJitter));
    interval = Math.min(interval * options.retryIntervalMultiplier, options.maxRetryInterval);
  }
  const tried = options.connectors.map(describeConnector).join(', ');
  const reason = lastError instanceof Error ? lastError.message : String(lastError);
  throw new HornetQException('NOT_CONNECTED', `Cannot connect to server(s) ${tried}: ${reason}`, {
    cause: lastError,
  });
}

/** HornetQ's rule: an in-VM link cannot silently die, so it is not pinged unless asked to be. */
function withInVmLiveness(options: ClientOptions): ClientOptions {
  if (options.connectionTTL !== 60_000 || options.clientFailureCheckPeriod !== 30_000) return options;
  return { ...options, connectionTTL: -1, clientFailureCheckPeriod: -1 };
}

/** `ms` varied by up to ± `jitter` of itself, so that many clients do not retry in step. */
export function jittered(ms: number, jitter: number): number {
  return jitter === 0 ? ms : ms * (1 + jitter * (2 * Math.random() - 1));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
