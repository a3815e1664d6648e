import net from 'node:net';
import { TcpTransport, type Transport } from '../../core/remoting';
import type { TcpAcceptorConfiguration } from '../broker-configuration';

/** Listens on host:port and hands each accepted socket to the broker as a transport. */
export class TcpAcceptor {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(
    readonly config: TcpAcceptorConfiguration,
    onTransport: (transport: Transport) => void,
  ) {
    this.server = net.createServer((socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      onTransport(new TcpTransport(socket));
    });
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
    await Promise.all([...this.sockets].map((socket) => closeWithin(socket, graceMs)));
    await closed;
  }
}

function closeWithin(socket: net.Socket, graceMs: number): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => socket.destroy(), graceMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.end();
  });
}
