import type { Server } from 'node:http';
import type { Logger } from '../core/remoting';

/** What an HTTP listener of the broker (metrics, console) binds to and what one client may make it hold. */
export interface HttpListenerLimits {
  readonly host: string;
  readonly port: number;
  /** Clients connected at a time; more are refused by the socket layer. */
  readonly maxConnections: number;
  /** A request not received in full by then is answered 408 and closed (ms). */
  readonly requestTimeout: number;
  readonly logger: Logger;
}

/**
 * Applies `limits` to `server` and listens. The promise settles once: resolved when bound, or
 * rejected with an error naming `name`, the host and the port (a port in use, say). Errors after
 * that are the server's own and are logged, so that none is ever an uncaught error in the broker.
 */
export function listenHttp(server: Server, limits: HttpListenerLimits, name: string): Promise<void> {
  server.maxConnections = limits.maxConnections;
  server.requestTimeout = limits.requestTimeout;
  server.headersTimeout = Math.min(server.headersTimeout, limits.requestTimeout);
  const { host, port, logger } = limits;
  return new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void =>
      reject(new Error(`the ${name} cannot listen on ${host}:${port}: ${error.message}`, { cause: error }));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.removeListener('error', onError);
      server.on('error', (error) => logger.error({ err: error }, `${name}: ${error.message}`));
      resolve();
    });
  });
}

/**
 * Stops listening and destroys every open connection (a keep-alive socket too), once `listening`
 * (what listenHttp returned) has settled; a server that never bound has nothing to close.
 */
export async function closeHttp(server: Server, listening: Promise<void>): Promise<void> {
  const listened = await listening.then(
    () => true,
    () => false,
  );
  if (!listened) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

/** http://host:port + path, with an IPv6 host in brackets. */
export function httpUrl(host: string, port: number, path: string): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`;
}
