import net from 'node:net';
import { Broker } from '../../src';
import type { ClusterConfiguration } from '../../src/server/cluster/cluster-configuration';
import { JmsDriver, type JavaTopologyMember } from './support/jms-driver';

/**
 * HornetQ 2.4.7's Java JMS client (ha=true) connected to our live broker learns the pair: the
 * backup's announcer logs in to the live as the cluster user and announces itself, and the live
 * pushes CLUSTER_TOPOLOGY_V2 {live, backup}, which the Java client's locator merges into its
 * topology (and would fail over to). When the backup's announcer stops, the backup leaves it.
 */
const PASSWORD = 'interop-pair-secret';
const TOPOLOGY_MS = 60_000;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function clusteredBroker(live: number | null): Promise<Broker> {
  const port = await freePort();
  const cluster: ClusterConfiguration = {
    connection: {
      name: 'pair',
      connector: { name: 'netty', host: '127.0.0.1', port },
      staticConnectors: live === null ? [] : [{ name: 'live', host: '127.0.0.1', port: live }],
      retryInterval: 100,
      maxRetryInterval: 1000,
    },
    user: 'pair-user',
    password: PASSWORD,
  };
  const broker = new Broker({
    acceptors: [{ name: 'netty', type: 'tcp', host: '127.0.0.1', port }],
    persistenceEnabled: false,
    securityEnabled: false,
    cluster,
  });
  await broker.start();
  return broker;
}

async function until(
  read: () => Promise<JavaTopologyMember[]>,
  accept: (members: JavaTopologyMember[]) => boolean,
  what: string,
): Promise<JavaTopologyMember[]> {
  const deadline = Date.now() + TOPOLOGY_MS;
  let last: JavaTopologyMember[] = [];
  while (Date.now() < deadline) {
    last = await read();
    if (accept(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: the Java client's topology stayed ${JSON.stringify(last)}`);
}

describe('HornetQ 2.4.7’s Java client and our live/backup pair', () => {
  let driver: JmsDriver | null = null;
  const brokers: Broker[] = [];

  afterEach(async () => {
    await driver?.close();
    driver = null;
    await Promise.allSettled(brokers.splice(0).map((broker) => broker.stop()));
  });

  it('the Java client connected to the live receives {live, backup}, and sees the backup go', async () => {
    const live = await clusteredBroker(null);
    brokers.push(live);
    const backup = await clusteredBroker(live.getPort());
    brokers.push(backup);
    driver = await JmsDriver.start();
    const java = driver;
    const connection = await java.connect({ port: live.getPort(), ha: true });
    const read = (): Promise<JavaTopologyMember[]> => java.topology(connection);
    await until(read, (m) => m.length === 1, 'the live alone');

    const announcer = backup.backupAnnouncer(live.nodeId);
    announcer.start();
    try {
      const paired = await until(
        read,
        (m) => m[0]?.backup !== null && m[0]?.backup !== undefined,
        'the pair',
      );
      expect(paired).toEqual([
        {
          nodeId: live.nodeId,
          live: { host: '127.0.0.1', port: String(live.getPort()) },
          backup: { host: '127.0.0.1', port: String(backup.getPort()) },
        },
      ]);
    } finally {
      await announcer.stop();
    }
    const alone = await until(read, (m) => m.length === 1 && m[0]?.backup === null, 'the backup gone');
    expect(alone[0]?.live).toEqual({ host: '127.0.0.1', port: String(live.getPort()) });
  });
});
