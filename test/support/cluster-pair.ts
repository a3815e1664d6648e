import net from 'node:net';
import type { ClusterConfiguration } from '../../src/server/cluster/cluster-configuration';

/** A port nobody listens on now: a cluster connector names its port before its broker starts. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A pair member's cluster connection on loopback: it announces 127.0.0.1:`port`, and a backup
 * (`livePort` given) dials its live there, retrying fast so that tests need not wait.
 */
export function pairCluster(port: number, livePort: number | null, password: string): ClusterConfiguration {
  return {
    connection: {
      name: 'pair',
      connector: { name: 'netty', host: '127.0.0.1', port },
      staticConnectors: livePort === null ? [] : [{ name: 'live', host: '127.0.0.1', port: livePort }],
      retryInterval: 50,
      maxRetryInterval: 200,
    },
    user: 'pair-cluster-user',
    password,
  };
}
