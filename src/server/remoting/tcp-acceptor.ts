import net from 'node:net';
import tls from 'node:tls';
import {
  describeTlsError,
  loadTls,
  TcpTransport,
  silentLogger,
  type Logger,
  type Transport,
} from '../../core/remoting';
import {
  DEFAULT_CONNECTIONS_ALLOWED,
  DEFAULT_HTTP_UPGRADE_TIMEOUT_MS,
  type HttpUpgradeAcceptorConfiguration,
  type TcpAcceptorConfiguration,
  type TcpAcceptorTlsConfiguration,
} from '../broker-configuration';
import { acceptHttpUpgrade } from './http-upgrade-acceptance';

/** Refusals for connections-allowed are logged at most once per this period (with their count). */
const REFUSAL_LOG_PERIOD_MS = 10_000;

/**
 * Listens on host:port and hands each accepted socket to the broker as a transport; with `tls`,
 * only once its TLS handshake is through. At most connections-allowed connections at once (TLS
 * ones counted from their handshake's start): Node closes a further one as it comes, and the
 * refusal is logged. With httpUpgrade (http-upgrade-enabled), a connection must first ask to switch
 * from HTTP, as on WildFly's web port, and is handed over once switched. Everything it runs comes
 * from socket events and timers, where a throw would end the process: a failure is logged and
 * costs at most the socket it concerns.
 */
export class TcpAcceptor {
  private server: net.Server | null = null;
  /** Sockets handed to the broker (TLS ones once secure). */
  private readonly sockets = new Set<net.Socket>();
  /** TLS only: every TCP connection, secure or still in its handshake, until it closes. */
  private readonly connections = new Set<net.Socket>();
  /** Connections refused for connections-allowed since the last line logged about them. */
  private refusedSinceLogged = 0;
  private lastRefusalLoggedAt = -Infinity;

  constructor(
    readonly config: TcpAcceptorConfiguration,
    private readonly onTransport: (transport: Transport) => void,
    private readonly logger: Logger = silentLogger,
  ) {}

  /** The port actually bound (the configured one, or the one picked for port 0). */
  get port(): number {
    const address = this.server?.address();
    return typeof address === 'object' && address !== null ? address.port : this.config.port;
  }

  get listening(): boolean {
    return this.server?.listening === true;
  }

  /** Reads the TLS stores (once: a missing file or wrong password fails the start), then listens. */
  start(): Promise<void> {
    let server: net.Server;
    try {
      server = this.config.tls === undefined ? this.plainServer() : this.tlsServer(this.config.tls);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    this.server = server;
    const allowed = this.config.connectionsAllowed ?? DEFAULT_CONNECTIONS_ALLOWED;
    if (allowed !== -1) {
      server.maxConnections = allowed;
      server.on('drop', (dropped) => this.refused(allowed, dropped));
    }
    return new Promise((resolve, reject) => {
      // Keeps Node's code (EADDRINUSE, EACCES...) as the error's own, which callers test first.
      const onError = (error: NodeJS.ErrnoException): void =>
        reject(
          Object.assign(
            new Error(
              `acceptor '${this.config.name}' cannot listen on ${this.config.host}:${this.config.port}: ${error.message}`,
              { cause: error },
            ),
            error.code === undefined ? {} : { code: error.code },
          ),
        );
      server.once('error', onError);
      server.listen(this.config.port, this.config.host, () => {
        server.removeListener('error', onError);
        // Once listening, errors are those of accepting (out of file descriptors while clients
        // flood it): the server goes on listening, and an unheard 'error' would end the process.
        server.on('error', (error) => this.logFailure(error, 'accepting a connection failed'));
        resolve();
      });
    });
  }

  /**
   * Stops listening and waits until every socket it accepted is gone. Sockets get a short grace
   * period to flush what was written (the broker's DISCONNECT) before they are destroyed; TLS
   * connections still in their handshake are destroyed then.
   */
  async stop(graceMs = 500): Promise<void> {
    const server = this.server;
    if (server === null) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.all([...this.sockets].map((socket) => this.closeWithin(socket, graceMs)));
    for (const connection of this.connections) connection.destroy();
    await closed;
  }

  private plainServer(): net.Server {
    return net.createServer((socket) => this.accept(socket));
  }

  private tlsServer(settings: TcpAcceptorTlsConfiguration): tls.Server {
    const { options } = loadTls(settings, `acceptor '${this.config.name}'`);
    const server = tls.createServer({
      ...options,
      requestCert: settings.needClientAuth,
      rejectUnauthorized: settings.needClientAuth,
      handshakeTimeout: settings.handshakeTimeout,
    });
    server.on('connection', (socket: net.Socket) => {
      this.connections.add(socket);
      socket.once('close', () => this.connections.delete(socket));
    });
    server.on('secureConnection', (socket: tls.TLSSocket) => this.accept(socket));
    // With a listener here Node leaves the socket open (a handshake timeout included): only this
    // connection is closed, and the reason logged.
    server.on('tlsClientError', (error: Error, socket: tls.TLSSocket) => {
      socket.destroy();
      try {
        this.logger.warn(
          { acceptor: this.config.name, remote: `${socket.remoteAddress}:${socket.remotePort}` },
          `acceptor '${this.config.name}': TLS handshake with ${socket.remoteAddress}:${socket.remotePort} failed: ${describeTlsError(error)}`,
        );
      } catch {
        // A logger that throws must not take the broker down with it.
      }
    });
    return server;
  }

  private accept(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    const upgrade = this.config.httpUpgrade;
    if (upgrade === undefined) {
      this.handOver(socket);
      return;
    }
    this.upgradeThenHandOver(socket, upgrade);
  }

  /**
   * http-upgrade-enabled: the connection must first ask to switch from HTTP; what the client sent
   * after its request is put back in front of the stream, so the broker reads it as the first bytes.
   */
  private upgradeThenHandOver(socket: net.Socket, upgrade: HttpUpgradeAcceptorConfiguration): void {
    const remote = `${socket.remoteAddress}:${socket.remotePort}`;
    acceptHttpUpgrade(
      socket,
      { acceptorName: this.config.name, timeoutMs: upgrade.timeoutMs ?? DEFAULT_HTTP_UPGRADE_TIMEOUT_MS },
      {
        upgraded: (rest) => {
          if (rest.length > 0) socket.unshift(rest);
          this.handOver(socket);
          socket.resume();
        },
        refused: (reason) => {
          try {
            this.logger.warn(
              { acceptor: this.config.name, remote, reason },
              `acceptor '${this.config.name}': closing connection from ${remote}: ${reason}`,
            );
          } catch {
            // A logger that throws must not take the broker down with it.
          }
        },
      },
    );
  }

  private handOver(socket: net.Socket): void {
    try {
      this.onTransport(new TcpTransport(socket));
    } catch (error) {
      this.logFailure(
        error,
        `taking the connection from ${socket.remoteAddress}:${socket.remotePort} failed; it is closed`,
      );
      socket.destroy();
    }
  }

  /**
   * Node closed a connection beyond connections-allowed. Logged so that an operator knows why
   * clients cannot connect, yet at most once per REFUSAL_LOG_PERIOD_MS (with the count), since a
   * flood of connections would otherwise flood the log too.
   */
  private refused(allowed: number, dropped: net.DropArgument | undefined): void {
    this.refusedSinceLogged++;
    const now = Date.now();
    if (now - this.lastRefusalLoggedAt < REFUSAL_LOG_PERIOD_MS) return;
    const count = this.refusedSinceLogged;
    this.refusedSinceLogged = 0;
    this.lastRefusalLoggedAt = now;
    const from = dropped === undefined ? 'a client' : `${dropped.remoteAddress}:${dropped.remotePort}`;
    try {
      this.logger.warn(
        { acceptor: this.config.name, remote: from, refused: count, connectionsAllowed: allowed },
        `acceptor '${this.config.name}': connection from ${from} refused and closed: it holds connections-allowed (${allowed}) connections already${count > 1 ? ` (${count} refused since the previous such line, this one included)` : ''}`,
      );
    } catch {
      // A logger that throws must not take the broker down with it.
    }
  }

  private closeWithin(socket: net.Socket, graceMs: number): Promise<void> {
    if (socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        try {
          socket.destroy();
        } catch (error) {
          this.logFailure(error, 'destroying a socket that did not close in time failed');
          resolve();
        }
      }, graceMs);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.end();
    });
  }

  private logFailure(error: unknown, what: string): void {
    const detail = error instanceof Error ? error.message : String(error);
    try {
      this.logger.error(
        { err: error, acceptor: this.config.name },
        `acceptor '${this.config.name}': ${what} (${detail})`,
      );
    } catch {
      // A logger that throws must not take the broker down with it.
    }
  }
}
