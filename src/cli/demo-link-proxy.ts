import net from 'node:net';

/**
 * The demo's stand-in for a flaky network: a TCP relay on 127.0.0.1 that forwards every link to
 * the broker and, on `cut()`, resets both halves of every link (RST, as a crashed router or a
 * dropped NAT entry does) so that neither end sees an orderly close.
 */
export class LinkProxy {
  private readonly links = new Set<{ client: net.Socket; upstream: net.Socket }>();

  private constructor(private readonly server: net.Server) {}

  static async start(targetHost: string, targetPort: number): Promise<LinkProxy> {
    const server = net.createServer();
    const proxy = new LinkProxy(server);
    server.on('connection', (client) => proxy.relay(client, targetHost, targetPort));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.removeListener('error', reject);
        resolve();
      });
    });
    return proxy;
  }

  get port(): number {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('the link proxy is not listening');
    return address.port;
  }

  get openLinks(): number {
    return this.links.size;
  }

  /** Resets every open link; returns how many there were. */
  cut(): number {
    const count = this.links.size;
    for (const { client, upstream } of this.links) {
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    }
    this.links.clear();
    return count;
  }

  /** Cuts what is open and stops listening. */
  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: net.Socket, host: string, port: number): void {
    const upstream = net.connect({ host, port });
    const link = { client, upstream };
    this.links.add(link);
    for (const socket of [client, upstream]) {
      socket.setNoDelay(true);
      // A reset link errors on both sides; the 'close' that follows is what matters.
      socket.on('error', () => undefined);
      socket.once('close', () => {
        this.links.delete(link);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
