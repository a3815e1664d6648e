import { HornetQConnectionFactory, type HornetQConnection, type TopologyEvent } from '../../src';
import { PacketType } from '../../src/core/protocol/packet-type';
import { RawClient } from '../support/raw-client';
import { waitFor } from '../support/test-broker';
import { InteropServer, SERVER_VERSIONS, type ServerKind } from './support/interop-server';

/**
 * The topology our client holds after connecting to a real HornetQ 2.4.7 and Artemis 2.40.0 (each
 * a lone server, not clustered), and what a restart of the server does to it.
 */
const KINDS: readonly ServerKind[] = ['hornetq', 'artemis', 'ours'];

describe.each(KINDS)('the topology from %s', (kind) => {
  let server: InteropServer | null = null;
  let connection: HornetQConnection | null = null;

  beforeAll(async () => {
    server = await InteropServer.start(kind);
  });

  afterAll(async () => {
    await connection?.close();
    await server?.stop();
  });

  it(`${SERVER_VERSIONS[kind]} on the wire: CLUSTER_TOPOLOGY_V2 to a version-124 client, CLUSTER_TOPOLOGY (V1) below 122`, async () => {
    const running = server!;
    for (const [version, type] of [
      [124, PacketType.CLUSTER_TOPOLOGY_V2],
      [121, PacketType.CLUSTER_TOPOLOGY],
    ] as const) {
      const client = await RawClient.connect(running.port);
      try {
        const answer = await client.subscribeTopology(version);
        expect(answer).toMatchObject({
          type,
          exit: false,
          nodeId: running.nodeId,
          live: null,
          backup: null,
          last: true,
        });
      } finally {
        await client.close();
      }
    }
  });

  it(`${SERVER_VERSIONS[kind]}: one member, the server's node id, reached as the client connected; a restart is told as MEMBER_DOWN then MEMBER_UP`, async () => {
    const running = server!;
    const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: running.port });
    factory.setReconnectAttempts(-1);
    factory.setRetryInterval(200);
    const before = Date.now();
    connection = await factory.createConnection();
    const { members } = connection.topology();
    expect(members).toHaveLength(1);
    const member = members[0]!;
    expect(member.nodeId).toBe(running.nodeId);
    expect(member.backup).toBeNull();
    expect(member.uniqueEventId).toBeGreaterThan(before - 60_000); // the server's clock, this machine's
    expect([member.live?.host, member.live?.port]).toEqual(['127.0.0.1', running.port]);
    // What the server announced, as it was (printed for the record of what is on the wire).
    process.stdout.write(`${kind} topology: ${JSON.stringify(members)}\n`);

    const events: TopologyEvent[] = [];
    connection.addTopologyListener((event) => events.push(event));
    const oldNode = running.nodeId;
    await running.restart();
    await waitFor(
      () => events.some((e) => e.type === 'MEMBER_UP' && e.member.nodeId === running.nodeId),
      'the restarted server announced',
      60_000,
    );
    process.stdout.write(
      `${kind} restart events: ${JSON.stringify(events.map((e) => [e.type, e.member.nodeId]))}\n`,
    );
    expect(events[0]).toMatchObject({ type: 'MEMBER_DOWN', member: { nodeId: oldNode } });
    expect(connection.topology().members.map((m) => m.nodeId)).toEqual([running.nodeId]);
  });
});
