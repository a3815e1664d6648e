import {
  HornetQConnectionFactory,
  IllegalStateException,
  type Broker,
  type HornetQConnection,
  type TopologyEvent,
} from '../../src';
import { FaultProxy } from '../support/fault-proxy';
import { useTestBrokers, waitFor } from '../support/test-broker';

/**
 * The topology the client holds from our broker, over real sockets. Our broker is not clustered:
 * it answers SUBSCRIBE_TOPOLOGY_V2 as a lone HornetQ does, with its node id and no connectors, so
 * the client's one member is reached through the connector it used.
 */
const brokers = useTestBrokers();

function describeMembers(
  members: readonly {
    nodeId: string;
    live: { origin: string; host: string; port: number } | null;
    backup: unknown;
  }[],
): unknown[] {
  return members.map((m) => [m.nodeId, m.live?.origin, m.live?.host, m.live?.port, m.backup]);
}

describe('the topology our broker announces', () => {
  it('the core factory holds one member: the broker’s node id, reached through the connector used', async () => {
    const broker = await brokers.startBroker();
    const before = Date.now();
    const factory = await brokers.connect(broker);
    const { members } = factory.topology();
    expect(describeMembers(members)).toEqual([
      [broker.nodeId, 'connector', '127.0.0.1', broker.getPort(), null],
    ]);
    expect(members[0]?.uniqueEventId).toBeGreaterThanOrEqual(before);
    expect(members[0]?.uniqueEventId).toBeLessThanOrEqual(Date.now());
  });

  it('a broker stop is a MEMBER_DOWN; the broker that comes back on the port is a MEMBER_UP', async () => {
    const first = await brokers.startBroker();
    const port = first.getPort();
    const factory = await brokers.connect(first, {
      reconnectAttempts: -1,
      retryInterval: 50,
      callTimeout: 5_000,
    });
    const events: TopologyEvent[] = [];
    factory.addTopologyListener((event) => events.push(event));
    await first.stop();
    await waitFor(() => events.length === 1, 'the node down');
    expect(events[0]).toMatchObject({ type: 'MEMBER_DOWN', member: { nodeId: first.nodeId } });
    expect(factory.topology().members).toEqual([]);
    // Without a journal the broker that comes back is another node (a fresh node id).
    const second: Broker = await brokers.startBroker({
      acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port }],
    });
    await waitFor(() => events.length === 2, 'the new node up');
    expect(events[1]).toMatchObject({ type: 'MEMBER_UP', member: { nodeId: second.nodeId } });
    expect(second.nodeId).not.toBe(first.nodeId);
    expect(describeMembers(factory.topology().members)).toEqual([
      [second.nodeId, 'connector', '127.0.0.1', port, null],
    ]);
  });

  it('a reconnection to the same node re-announces it without an event', async () => {
    const broker = await brokers.startBroker();
    const proxy = brokers.track(
      await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: broker.getPort() }),
    );
    const factory = await brokers.connect(proxy.port, { reconnectAttempts: -1, retryInterval: 50 });
    const events: TopologyEvent[] = [];
    factory.addTopologyListener((event) => events.push(event));
    const session = await factory.createSession();
    const eventIdBefore = factory.topology().members[0]?.uniqueEventId ?? Infinity;
    await new Promise((resolve) => setTimeout(resolve, 5)); // the next announcement has a later clock
    const reconnected = new Promise<void>((resolve) => factory.addFailureListener(() => resolve()));
    proxy.cut();
    await reconnected;
    await session.createQueue('a', 'q'); // the session works again
    expect(events).toEqual([]);
    expect(factory.topology().members).toHaveLength(1);
    expect(factory.topology().members[0]?.uniqueEventId).toBeGreaterThan(eventIdBefore);
  });
});

describe('the JMS connection’s topology', () => {
  let connection: HornetQConnection | null = null;
  afterEach(async () => {
    await connection?.close();
    connection = null;
  });

  it('shows the same member and takes listeners; closed, it refuses', async () => {
    const broker = await brokers.startBroker();
    const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: broker.getPort() });
    const open = await factory.createConnection();
    connection = open;
    expect(describeMembers(open.topology().members)).toEqual([
      [broker.nodeId, 'connector', '127.0.0.1', broker.getPort(), null],
    ]);
    const events: TopologyEvent[] = [];
    open.addTopologyListener((event) => events.push(event));
    open.removeTopologyListener((event) => events.push(event)); // another function: no effect
    await broker.stop();
    await waitFor(() => events.length === 1, 'the node down through the JMS connection');
    expect(events[0]).toMatchObject({ type: 'MEMBER_DOWN', member: { nodeId: broker.nodeId } });
    await open.close();
    expect(() => open.topology()).toThrow(IllegalStateException);
  });
});
