import net from 'node:net';
import {
  HornetQConnectionFactory,
  HornetQException,
  JMSException,
  ServerLocator,
  type Broker,
  type ClientOptions,
  type HornetQConnection,
  type TransportConfiguration,
} from '../../src';
import { FaultProxy } from '../support/fault-proxy';
import { useTestBrokers } from '../support/test-broker';

/**
 * Where new connections go: two of our brokers, each behind a fault proxy that counts the
 * connections it takes. Our brokers are not clustered, so the cluster's two live nodes are told to
 * the locator by hand (ServerLocator.announce), as a clustered broker's topology would name them.
 */
const brokers = useTestBrokers();

interface Node {
  broker: Broker;
  proxy: FaultProxy;
  connector: TransportConfiguration;
}

async function startNode(): Promise<Node> {
  const broker = await brokers.startBroker();
  const proxy = brokers.track(
    await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: broker.getPort() }),
  );
  return { broker, proxy, connector: { host: '127.0.0.1', port: proxy.port } };
}

/** Two nodes, ordered by node id (the order the locator offers them to its policy). */
async function twoNodes(): Promise<[Node, Node]> {
  const nodes = [await startNode(), await startNode()];
  nodes.sort((a, b) => (a.broker.nodeId < b.broker.nodeId ? -1 : 1));
  return nodes as [Node, Node];
}

function clusterLocator(
  nodes: Node[],
  options: Partial<ClientOptions>,
  random?: () => number,
): ServerLocator {
  const locator = new ServerLocator({ connectors: [nodes[0]!.connector], ...options }, { random });
  for (const node of nodes) locator.announce(node.broker.nodeId, { live: node.connector });
  return locator;
}

/** Opens `count` factories one after the other; the port each landed on. */
async function landings(locator: ServerLocator, count: number, key: string | null = null): Promise<number[]> {
  const ports: number[] = [];
  for (let n = 0; n < count; n++) {
    const factory = brokers.track(await locator.createSessionFactory({ key }));
    ports.push(Number(factory.connector.port));
  }
  return ports;
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const ROUND_ROBIN = 'org.hornetq.api.core.client.loadbalance.RoundRobinConnectionLoadBalancingPolicy';
const FIRST_ELEMENT =
  'org.apache.activemq.artemis.api.core.client.loadbalance.FirstElementConnectionLoadBalancingPolicy';

describe('new connections over the topology’s live servers', () => {
  it('round robin (the default) alternates ten connections over two nodes from a random start', async () => {
    const [first, second] = await twoNodes();
    const locator = clusterLocator([first, second], {}, () => 0.75);
    expect(locator.options.connectionLoadBalancingPolicyClassName).toBe(ROUND_ROBIN);
    const ports = await landings(locator, 10);
    const [p1, p2] = [first.proxy.port, second.proxy.port];
    expect(ports).toEqual([p2, p1, p2, p1, p2, p1, p2, p1, p2, p1]);
    expect([first.proxy.connectionsAccepted, second.proxy.connectionsAccepted]).toEqual([5, 5]);
  });

  it('first element: all ten on the node with the lowest id; a node that cannot be reached is passed over', async () => {
    const [first, second] = await twoNodes();
    const locator = clusterLocator([first, second], {
      connectionLoadBalancingPolicyClassName: FIRST_ELEMENT,
    });
    expect(new Set(await landings(locator, 10))).toEqual(new Set([first.proxy.port]));
    await first.proxy.close();
    expect(await landings(locator, 1)).toEqual([second.proxy.port]);
  });

  it('after one pass over servers none of which answers, fails naming each', async () => {
    const [deadA, deadB] = [await closedPort(), await closedPort()];
    const locator = new ServerLocator({
      connectors: [{ host: '127.0.0.1', port: deadA }],
      connectionLoadBalancingPolicyClassName: FIRST_ELEMENT,
    });
    locator.announce('node-a', { live: { host: '127.0.0.1', port: deadA } });
    locator.announce('node-b', { live: { host: '127.0.0.1', port: deadB } });
    const failure = locator.createSessionFactory();
    await expect(failure).rejects.toThrow(HornetQException);
    await expect(failure).rejects.toThrow(
      new RegExp(`any of 2 servers: .*127\\.0\\.0\\.1:${deadA}.*; .*127\\.0\\.0\\.1:${deadB}`),
    );
  });

  it('key-sticky: a connection with a given key always lands on the same node', async () => {
    const nodes = await twoNodes();
    const locator = clusterLocator(nodes, { connectionLoadBalancingPolicyClassName: 'key-sticky' });
    const keyed = await landings(locator, 5, 'durable-subscriber-7');
    expect(new Set(keyed).size).toBe(1);
    const other = await landings(locator, 5, 'durable-subscriber-8');
    expect(new Set(other).size).toBe(1);
    expect(locator.describeCandidates()).toEqual(nodes.map((node) => `tcp://127.0.0.1:${node.proxy.port}`));
  });

  it('uses the static connectors until a topology has arrived, then the topology, then the static ones it does not name', async () => {
    const [first, second] = await twoNodes();
    // No announcement: the static connectors, by the policy (round robin from the second).
    const locator = new ServerLocator(
      { connectors: [first.connector, second.connector] },
      { random: () => 0.9 },
    );
    expect(locator.describeCandidates()).toHaveLength(2);
    expect(await landings(locator, 1)).toEqual([second.proxy.port]);
    // That broker announced itself, its only member: from now on every connection goes there.
    expect(locator.topology().members.map((member) => member.nodeId)).toEqual([second.broker.nodeId]);
    expect(await landings(locator, 3)).toEqual([second.proxy.port, second.proxy.port, second.proxy.port]);
    // That node gone (no DISCONNECT reaches the client: its proxy just stops accepting), the static
    // connectors the topology does not name are tried after it, as Artemis does.
    await second.proxy.close();
    expect(locator.topology().members).toHaveLength(1);
    expect(await landings(locator, 1)).toEqual([first.proxy.port]);
  });
});

describe('the initial connection', () => {
  it('initial-connect-attempts: retried until a broker comes up within the attempts; one attempt fails at once', async () => {
    const port = await closedPort();
    const connector = { host: '127.0.0.1', port };
    const once = new ServerLocator({ connectors: [connector] });
    const started = Date.now();
    await expect(once.createSessionFactory()).rejects.toThrow(/Cannot connect to server\(s\)/);
    expect(Date.now() - started).toBeLessThan(1_000);

    const patient = new ServerLocator({
      connectors: [connector],
      initialConnectAttempts: 50,
      retryInterval: 50,
      retryJitter: 0,
    });
    const connecting = patient.createSessionFactory();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const broker = await brokers.startBroker({
      acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port }],
    });
    const factory = brokers.track(await connecting);
    expect(factory.topology().members.map((member) => member.nodeId)).toEqual([broker.nodeId]);
  });

  it('failover-on-initial-connection with ha: a live that cannot be reached is followed by its backup', async () => {
    const deadLive = { host: '127.0.0.1', port: await closedPort() };
    const backup = await startNode();
    const options = { connectors: [deadLive], ha: true, failoverOnInitialConnection: true };
    const locator = new ServerLocator(options);
    locator.announce('pair', { live: deadLive, backup: backup.connector });
    const factory = brokers.track(await locator.createSessionFactory());
    expect(factory.connector).toMatchObject(backup.connector);

    const without = new ServerLocator({ ...options, failoverOnInitialConnection: false });
    without.announce('pair', { live: deadLive, backup: backup.connector });
    await expect(without.createSessionFactory()).rejects.toThrow(/Cannot connect/);
    const noHa = new ServerLocator({ ...options, ha: false });
    noHa.announce('pair', { live: deadLive, backup: backup.connector });
    await expect(noHa.createSessionFactory()).rejects.toThrow(/Cannot connect/);
    expect(backup.proxy.connectionsAccepted).toBe(1);
  });
});

describe('through JMS', () => {
  const connections: HornetQConnection[] = [];
  afterEach(async () => {
    await Promise.allSettled(connections.splice(0).map((connection) => connection.close()));
  });

  it('the factory’s locator spreads connections by its policy; a preset client id sticks with key-sticky', async () => {
    const nodes = await twoNodes();
    const factory = new HornetQConnectionFactory(true, nodes[0].connector);
    factory.setConnectionLoadBalancingPolicyClassName('key-sticky');
    factory.setClientID('orders-durable');
    const locator = factory.getServerLocator();
    expect(() => factory.setReconnectAttempts(3)).toThrow('Cannot set attribute');
    expect(locator.options).toMatchObject({ ha: true, connectionLoadBalancingPolicyClassName: 'key-sticky' });
    for (const node of nodes) locator.announce(node.broker.nodeId, { live: node.connector });
    for (let n = 0; n < 4; n++) {
      const connection = await factory.createConnection();
      await connection.close();
    }
    const counts = nodes.map((node) => node.proxy.connectionsAccepted).sort();
    expect(counts).toEqual([0, 4]);
  });

  it('an unknown policy name from a setter fails createConnection, naming it', async () => {
    const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: await closedPort() });
    factory.setConnectionLoadBalancingPolicyClassName('com.example.MyPolicy');
    expect(factory.getConnectionLoadBalancingPolicyClassName()).toBe('com.example.MyPolicy');
    await expect(factory.createConnection()).rejects.toThrow(JMSException);
    await expect(factory.createConnection()).rejects.toThrow(
      /"com\.example\.MyPolicy" is not a policy this client has; known: RoundRobinConnectionLoadBalancingPolicy/,
    );
  });
});
