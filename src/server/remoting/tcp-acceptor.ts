import net from 'node:net';
import { TcpTransport, silentLogger, type Logger, type Transport } from '../../core/remoting';
import type { TcpAcceptorConfiguration } from '../broker-configuration';

/**
 * Listens on host:port and hands each accepted socket to the broker as a transport. Everything it
 * runs comes from socket events and timers, where a throw would end the process: a failure is
 * logged and costs at most the socket it concerns.
 */
export class TcpAcceptor {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(
    readonly config: TcpAcceptorConfiguration,
    onTransport: (transport: Transport) => void,
    private readonly logger: Logger = silentLogger,
  ) {
    this.server = net.createServer((socket) => this.accept(socket, onTransport));
  }

  /** The port actually bound (the configured one, or the one picked for port 0). */
  get port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address !== null ? address.port : this.config.port;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void =>
        reject(
          new Error(
            `acceptor '${this.config.name}' cannot listen on ${this.config.host}:${this.config.port}: ${error.message}`,
            { cause: error },
          ),
        );
      this.server.once('error', onError);
      this.server.listen(this.config.port, this.config.host, () => {
        this.server.removeListener('error', onError);
        // Once listening, errors are those of accepting (out of file descriptors while clients
        // flood it): the server goes on listening, and an unheard 'error' would end the process.
        this.server.on('error', (error) => this.logFailure(error, 'accepting a connection failed'));
        resolve();
      });
    });
  }

  /**
   * Stops listening and waits until every socket it accepted is gone. Sockets get a short grace
   * period to flush what was written (the broker's DISCONNECT) before they are destroyed.
   */
  async stop(graceMs = 500): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    await Promise.all([...this.sockets].map((socket) => this.closeWithin(socket, graceMs)));
    await closed;
  }

  private accept(socket: net.Socket, onTransport: (transport: Transport) => void): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    try {
      onTransport(new TcpTransport(socket));
    } catch (error) {
      this.logFailure(
        error,
        `taking the connection from ${socket.remoteAddress}:${socket.remotePort} failed; it is closed`,
      );
      socket.destroy();
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
