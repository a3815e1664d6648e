import { createServer } from 'node:net';

/**
 * A port on 127.0.0.1 that was free a moment ago, for a JVM that must be told its port: listen on
 * 0, read the port the kernel chose, close. (A Java server cannot report an ephemeral port back
 * as cheaply, and every test server here binds 127.0.0.1 only.)
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('listening on port 0 gave no port'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}

/** `count` different free ports (two calls of freePort may, rarely, be handed the same one). */
export async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}
