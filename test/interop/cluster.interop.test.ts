import { HornetQConnectionFactory, ServerLocator, type ClientSessionFactory } from '../../src';
import { stableHash } from '../../src/core/client/load-balancing-policy';
import { seededRandom } from '../support/fault-proxy';
import { waitFor } from '../support/test-broker';
import { ArtemisCluster } from './support/artemis-cluster';

/**
 * Issue 25, item 7: ten new connections spread over the two live nodes of a real Artemis 2.40.0
 * cluster by each load-balancing policy. Each locator is given node 0 only: its first connection
 * learns the cluster from the topology node 0 announces, and the ten after it go where the policy
 * says among the announced live servers, offered in node-id order. The random policies draw from
 * a seeded source, so the test knows which node each draw names.
 */
const HORNETQ = 'org.hornetq.api.core.client.loadbalance.';
const ARTEMIS = 'org.apache.activemq.artemis.api.core.client.loadbalance.';
const TOPOLOGY_MS = 60_000;
const CONNECTIONS = 10;

let cluster: ArtemisCluster | null = null;
/** The nodes' ports in node-id order: the order the locator offers the live servers in. */
let byNodeId: number[] = [];
const opened: ClientSessionFactory[] = [];

beforeAll(async () => {
  cluster = await ArtemisCluster.start();
  const nodes = cluster.ports.map((port, i) => ({ port, nodeId: cluster!.nodeIds[i]! }));
  byNodeId = nodes.sort((a, b) => (a.nodeId < b.nodeId ? -1 : 1)).map((node) => node.port);
});

afterEach(async () => {
  for (const factory of opened.splice(0)) await factory.close();
});

afterAll(async () => {
  await cluster?.stop();
});

/** A locator on node 0 that has learnt the cluster through one connection (kept open). */
async function learntLocator(locator: ServerLocator): Promise<ServerLocator> {
  opened.push(await locator.createSessionFactory());
  await waitFor(
    () => locator.topology().members.filter((member) => member.live !== null).length === 2,
    'the locator knowing both live nodes',
    TOPOLOGY_MS,
  );
  return locator;
}

function locatorFor(policy: string, random?: () => number): ServerLocator {
  return new ServerLocator(
    {
      connectors: [{ host: '127.0.0.1', port: cluster!.ports[0]! }],
      connectionLoadBalancingPolicyClassName: policy,
    },
    { random },
  );
}

/** Opens `count` connections one after the other: the index (in node-id order) each landed on. */
async function landings(locator: ServerLocator, count: number, key: string | null = null): Promise<number[]> {
  const indexes: number[] = [];
  for (let n = 0; n < count; n++) {
    const factory = await locator.createSessionFactory({ key });
    opened.push(factory);
    indexes.push(byNodeId.indexOf(Number(factory.connector.port)));
  }
  return indexes;
}

/** What `draws` of a seeded source pick among two servers, as every policy maps a draw. */
function picks(seed: number, draws: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: draws }, () => Math.min(1, Math.floor(random() * 2)));
}

describe('ten new connections over the two live nodes of an Artemis cluster', () => {
  it('RoundRobin (HornetQ’s default): alternating, five on each node', async () => {
    const locator = await learntLocator(locatorFor(`${HORNETQ}RoundRobinConnectionLoadBalancingPolicy`));
    const indexes = await landings(locator, CONNECTIONS);
    expect(indexes.filter((i) => i === 0)).toHaveLength(5);
    expect(indexes.every((index, n) => n === 0 || index !== indexes[n - 1])).toBe(true);
  });

  it('Random: each connection where its draw says, both nodes used', async () => {
    const seed = 7;
    const locator = await learntLocator(
      locatorFor(`${ARTEMIS}RandomConnectionLoadBalancingPolicy`, seededRandom(seed)),
    );
    // The learning connection took the first draw (among node 0 alone).
    const expected = picks(seed, CONNECTIONS + 1).slice(1);
    expect(new Set(expected)).toEqual(new Set([0, 1]));
    expect(await landings(locator, CONNECTIONS)).toEqual(expected);
  });

  it('RandomSticky: all ten on one node', async () => {
    const locator = await learntLocator(
      locatorFor(`${HORNETQ}RandomStickyConnectionLoadBalancingPolicy`, seededRandom(11)),
    );
    const indexes = await landings(locator, CONNECTIONS);
    expect(new Set(indexes).size).toBe(1);
    expect(indexes[0]).not.toBe(-1);
  });

  it('FirstElement: all ten on the node with the lowest node id', async () => {
    const locator = await learntLocator(locatorFor(`${ARTEMIS}FirstElementConnectionLoadBalancingPolicy`));
    expect(await landings(locator, CONNECTIONS)).toEqual(Array<number>(CONNECTIONS).fill(0));
  });

  it('key-sticky (ours, through the JMS factory’s locator): each key on its node, keyless ones alternating', async () => {
    const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: cluster!.ports[0]! });
    factory.setConnectionLoadBalancingPolicyClassName('key-sticky');
    const locator = await learntLocator(factory.getServerLocator());
    // Two client ids whose home is the first node and two whose home is the second.
    const candidates = Array.from({ length: 32 }, (_, n) => `durable-subscriber-${n}`);
    const keys = [0, 1].flatMap((home) =>
      candidates.filter((key) => stableHash(key) % 2 === home).slice(0, 2),
    );
    const homes = keys.map((key) => stableHash(key) % 2);
    expect(homes).toEqual([0, 0, 1, 1]);
    const landed: number[][] = [];
    for (const key of keys) landed.push(await landings(locator, CONNECTIONS / 2, key));
    expect(landed).toEqual(homes.map((home) => Array<number>(CONNECTIONS / 2).fill(home)));
    const keyless = await landings(locator, 4);
    expect(keyless.every((index, n) => n === 0 || index !== keyless[n - 1])).toBe(true);
  });
});
