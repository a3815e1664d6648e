import { ClientSessionFactory } from '../../../src/core/client/client-session-factory';
import { Topology, type TopologyEvent } from '../../../src/core/client/topology';
import { applyDisconnect, applyTopologyChange } from '../../../src/core/client/topology-feed';
import { decodeFrame, encodePacket } from '../../../src/core/protocol/packet-codec';
import { PacketType } from '../../../src/core/protocol/packet-type';
import type {
  ClusterTopologyChange,
  Packet,
  TransportConfiguration,
} from '../../../src/core/protocol/packets';
import { loadPacketVectors } from '../../fixtures/hornetq-2.4.7/golden-vectors';
import { CapturingLogger } from '../../support/test-broker';
import { ScriptedBroker } from './scripted-broker';

const USED = { host: '10.0.0.9', port: 5445 };
const NODE = '6a1f2d3c-2b3d-11ef-9a4b-0242ac120002';

/** A topology packet as HornetQ 2.4.7 wrote it (test/fixtures), decoded by our codec. */
function fixture(name: string): ClusterTopologyChange {
  const vector = loadPacketVectors().vectors.find((v) => v.name === name);
  if (vector === undefined) throw new Error(`no fixture named ${name}`);
  const packet = decodeFrame(Buffer.from(vector.hex, 'hex')).packet;
  if (packet.type !== PacketType.CLUSTER_TOPOLOGY && packet.type !== PacketType.CLUSTER_TOPOLOGY_V2) {
    throw new Error(`${name} is not a topology packet`);
  }
  return packet;
}

/** Through our encoder and decoder, as the client would receive it. */
function overTheWire(packet: ClusterTopologyChange): ClusterTopologyChange {
  return decodeFrame(encodePacket(0, packet)).packet as ClusterTopologyChange;
}

function netty(host: string, port: number | string): TransportConfiguration {
  return {
    name: `${host}`,
    factoryClassName: 'org.apache.activemq.artemis.core.remoting.impl.netty.NettyConnectorFactory',
    params: [
      ['host', { type: 'string', value: host }],
      typeof port === 'number'
        ? ['port', { type: 'int', value: port }]
        : ['port', { type: 'string', value: port }],
    ],
  };
}

function up(
  nodeId: string,
  uniqueEventId: number,
  live: TransportConfiguration | null,
  backup: TransportConfiguration | null,
  last = false,
): ClusterTopologyChange {
  return {
    type: PacketType.CLUSTER_TOPOLOGY_V2,
    exit: false,
    nodeId,
    uniqueEventId,
    live,
    backup,
    last,
    nodeName: 'group-1',
  };
}

function down(nodeId: string, uniqueEventId: number): ClusterTopologyChange {
  return {
    type: PacketType.CLUSTER_TOPOLOGY_V2,
    exit: true,
    nodeId,
    uniqueEventId,
    live: null,
    backup: null,
    last: false,
    nodeName: null,
  };
}

describe('topology packets from HornetQ 2.4.7 (fixture bytes), merged', () => {
  it('V2 from a lone server (no connectors): one member reached through the connector used', () => {
    const topology = new Topology();
    const event = applyTopologyChange(
      topology,
      fixture('CLUSTER_TOPOLOGY_V2, not clustered (what a lone server answers)'),
      USED,
    );
    expect(event?.type).toBe('MEMBER_UP');
    expect(topology.snapshot().members).toEqual([
      {
        nodeId: NODE,
        nodeName: 'hornetq-node',
        uniqueEventId: 1700000000456,
        backup: null,
        live: expect.objectContaining({
          origin: 'connector',
          host: '10.0.0.9',
          port: 5445,
          factoryClassName: null,
        }),
      },
    ]);
  });

  it('V2 with a live connector: its params as data, the Java class name only as a string', () => {
    const topology = new Topology();
    applyTopologyChange(topology, fixture('CLUSTER_TOPOLOGY_V2 with a live connector'), USED);
    const [member] = topology.snapshot().members;
    expect(member?.live).toEqual({
      origin: 'announced',
      name: 'netty',
      factoryClassName: 'org.hornetq.core.remoting.impl.netty.NettyConnectorFactory',
      host: '127.0.0.1',
      port: 5445,
      sslEnabled: false,
      httpUpgradeEnabled: false,
      httpUpgradeEndpoint: null,
      serverId: null,
      params: { host: '127.0.0.1', port: 5445, 'use-nio': true, 'batch-delay': 0 },
    });
    expect(member?.uniqueEventId).toBe(1700000000456);
  });

  it('V2 exit removes the node it names', () => {
    const topology = new Topology();
    applyTopologyChange(topology, up(NODE, 1700000000000, netty('a', 5445), null), USED);
    const event = applyTopologyChange(topology, fixture('CLUSTER_TOPOLOGY_V2, a node leaves'), USED);
    expect(event).toMatchObject({
      type: 'MEMBER_DOWN',
      uniqueEventId: 1700000000456,
      member: { nodeId: NODE },
    });
    expect(topology.snapshot().members).toEqual([]);
  });

  it('V1 (no event id) gets the client’s clock, and always orders after what is known of the node', () => {
    const topology = new Topology();
    const before = Date.now();
    applyTopologyChange(topology, fixture('CLUSTER_TOPOLOGY (V1)'), USED);
    const first = topology.member(NODE);
    expect(first?.uniqueEventId).toBeGreaterThanOrEqual(before);
    expect(first?.live?.host).toBe('127.0.0.1');
    // A second V1 in the same millisecond still replaces the first: it came later on the link.
    const moved = { ...fixture('CLUSTER_TOPOLOGY (V1)'), live: netty('moved', 5445) };
    expect(applyTopologyChange(topology, moved, USED)?.type).toBe('MEMBER_UP');
    expect(topology.member(NODE)?.live?.host).toBe('moved');
    expect(topology.member(NODE)?.uniqueEventId).toBeGreaterThan(first?.uniqueEventId ?? Infinity);
  });
});

describe('topology packets through our codec, merged', () => {
  it('V2 with live and backup (a port sent as a string) and V1 exit', () => {
    const topology = new Topology();
    applyTopologyChange(
      topology,
      overTheWire(up('n1', 100, netty('live-1', '61616'), netty('backup-1', 61617), true)),
      USED,
    );
    expect(
      topology.snapshot().members.map((m) => [m.nodeId, m.nodeName, m.live?.port, m.backup?.host]),
    ).toEqual([['n1', 'group-1', 61616, 'backup-1']]);
    const v1Exit = overTheWire({ ...down('n1', 0), type: PacketType.CLUSTER_TOPOLOGY });
    expect(v1Exit.uniqueEventId).toBe(0); // V1 carries none: the client's clock decides
    expect(applyTopologyChange(topology, v1Exit, USED)?.type).toBe('MEMBER_DOWN');
    expect(topology.snapshot().members).toEqual([]);
  });

  it('a DISCONNECT naming a node removes it, ordered by the server’s clock not the client’s', () => {
    const topology = new Topology();
    // The server's clock is far behind the client's: its restart must still be taken.
    applyTopologyChange(topology, up('n1', 1_000, netty('a', 5445), null), USED);
    expect(applyDisconnect(topology, 'n1')?.type).toBe('MEMBER_DOWN');
    expect(applyTopologyChange(topology, up('n1', 1_002, netty('a', 5445), null), USED)?.type).toBe(
      'MEMBER_UP',
    );
    expect(applyDisconnect(topology, 'unknown')).toBeNull();
  });
});

describe('ClientSessionFactory topology (a scripted clustered broker)', () => {
  const brokers: ScriptedBroker[] = [];
  const factories: ClientSessionFactory[] = [];
  afterEach(async () => {
    await Promise.allSettled(factories.splice(0).map((f) => f.close()));
    await Promise.all(brokers.splice(0).map((b) => b.stop()));
  });

  /** Answers the subscription as a clustered HornetQ does: every member, the last one flagged. */
  async function clusteredBroker(burst: ClusterTopologyChange[]): Promise<number> {
    const broker = new ScriptedBroker({
      intercept: (frame, reply) => {
        if (frame.packet.type !== PacketType.SUBSCRIBE_TOPOLOGY_V2) return false;
        for (const packet of burst) reply(packet);
        return true;
      },
    });
    brokers.push(broker);
    return broker.start();
  }

  async function connect(port: number, logger = new CapturingLogger()): Promise<ClientSessionFactory> {
    const factory = await ClientSessionFactory.connect({
      connectors: [{ host: '127.0.0.1', port }],
      callTimeout: 5_000,
      reconnectAttempts: 0,
      logger,
    });
    factories.push(factory);
    return factory;
  }

  it('holds every member of the burst, and hears later changes as MEMBER_UP / MEMBER_DOWN', async () => {
    const port = await clusteredBroker([
      up('n1', 100, netty('live-1', 5445), netty('backup-1', 5446)),
      up('n2', 100, netty('live-2', 5445), null, true),
    ]);
    const factory = await connect(port);
    await until(() => factory.topology().members.length === 2);
    const events: TopologyEvent[] = [];
    factory.addTopologyListener((event) => events.push(event));
    expect(factory.topology().members.map((m) => [m.nodeId, m.live?.host, m.backup?.host ?? null])).toEqual([
      ['n1', 'live-1', 'backup-1'],
      ['n2', 'live-2', null],
    ]);
    const broker = brokers[0]!;
    const send = (packet: Packet): void => broker.send(0, packet);
    send(up('n2', 101, null, netty('backup-2', 5446))); // a backup-only update
    send(up('n1', 99, netty('stale', 1), null)); // older: ignored
    send(down('n1', 102));
    send(up('n1', 101, netty('late', 1), null)); // older than the removal: ignored
    await until(() => events.length >= 2);
    await factory.createSession(); // a round trip on the link: anything sent before it has arrived
    expect(events.map((e) => `${e.type} ${e.member.nodeId}`)).toEqual(['MEMBER_UP n2', 'MEMBER_DOWN n1']);
    expect(factory.topology().members.map((m) => [m.nodeId, m.live?.host, m.backup?.host])).toEqual([
      ['n2', 'live-2', 'backup-2'],
    ]);
  });

  it('a listener that throws does not stop the others or the connection', async () => {
    const port = await clusteredBroker([up('n1', 100, netty('live-1', 5445), null, true)]);
    const factory = await connect(port);
    const seen: string[] = [];
    factory.addTopologyListener(() => {
      throw new Error('listener bug');
    });
    const second = (event: TopologyEvent): void => void seen.push(event.member.nodeId);
    factory.addTopologyListener(second);
    brokers[0]!.send(0, up('n2', 100, netty('live-2', 5445), null));
    await until(() => seen.length === 1);
    factory.removeTopologyListener(second);
    brokers[0]!.send(0, up('n3', 100, netty('live-3', 5445), null));
    await factory.createSession();
    expect(seen).toEqual(['n2']);
    expect(factory.topology().members).toHaveLength(3);
  });

  it('a broker announcing ever more nodes cannot grow the client: 1024 members kept, one warning', async () => {
    const port = await clusteredBroker([up('n0', 100, netty('live-0', 5445), null, true)]);
    const logger = new CapturingLogger();
    const factory = await connect(port, logger);
    for (let i = 1; i < 3_000; i++) brokers[0]!.send(0, up(`n${i}`, 100, netty(`live-${i}`, 5445), null));
    brokers[0]!.send(0, up('n0', 101, netty('moved-0', 5445), null)); // a known member still updates
    await until(() => factory.topology().members[0]?.live?.host === 'moved-0', 20_000);
    expect(factory.topology().members).toHaveLength(1024);
    expect(factory.topology().members.at(-1)?.nodeId).toBe('n1023');
    expect(logger.find(/more cluster members than the client keeps/, ['warn'])).toHaveLength(1);
    expect(factory.closed).toBe(false);
  });

  it('a DISCONNECT naming the node removes it from the topology, and the connection fails', async () => {
    const port = await clusteredBroker([up('n1', 100, null, null, true)]);
    const factory = await connect(port);
    const events: TopologyEvent[] = [];
    factory.addTopologyListener((event) => events.push(event));
    expect(factory.topology().members.map((m) => [m.nodeId, m.live?.origin, m.live?.port])).toEqual([
      ['n1', 'connector', port],
    ]);
    brokers[0]!.send(0, { type: PacketType.DISCONNECT, nodeId: 'n1' });
    await until(() => factory.closed);
    expect(events.map((e) => `${e.type} ${e.member.nodeId}`)).toEqual(['MEMBER_DOWN n1']);
    expect(factory.topology().members).toEqual([]);
  });
});

/** Polls `condition` every 5 ms, failing after `ms` (generous: the machine is shared). */
async function until(condition: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
