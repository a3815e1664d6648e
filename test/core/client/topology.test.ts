import {
  endpointFromAnnounced,
  endpointFromConnector,
  Topology,
  type MemberUpdate,
  type TopologyEndpoint,
  type TopologyEvent,
} from '../../../src/core/client/topology';

function announced(host: string, port: number): TopologyEndpoint {
  return endpointFromAnnounced({
    name: `${host}-${port}`,
    factoryClassName: 'org.hornetq.core.remoting.impl.netty.NettyConnectorFactory',
    params: [
      ['host', { type: 'string', value: host }],
      ['port', { type: 'int', value: port }],
    ],
  });
}

const LIVE_A = announced('live-a', 5445);
const LIVE_A2 = announced('live-a2', 5445);
const BACKUP_A = announced('backup-a', 5446);
const BACKUP_A2 = announced('backup-a2', 5446);

type Step =
  | {
      up: string;
      at: number;
      live?: TopologyEndpoint | null;
      backup?: TopologyEndpoint | null;
      name?: string;
    }
  | { down: string; at: number };

function apply(topology: Topology, step: Step): TopologyEvent | null {
  if ('down' in step) return topology.remove(step.down, step.at);
  const update: MemberUpdate = {
    nodeId: step.up,
    uniqueEventId: step.at,
    nodeName: step.name ?? null,
    live: step.live ?? null,
    backup: step.backup ?? null,
  };
  return topology.update(update);
}

/** A member as the table states it: node id, live host, backup host, event id. */
function brief(topology: Topology): string[] {
  return topology
    .snapshot()
    .members.map(
      (m) => `${m.nodeId} live=${m.live?.host ?? '-'} backup=${m.backup?.host ?? '-'} @${m.uniqueEventId}`,
    );
}

function briefEvent(event: TopologyEvent | null): string {
  if (event === null) return 'none';
  return event.type === 'MEMBER_UP' ? `up ${event.member.nodeId}` : `down ${event.member.nodeId}`;
}

interface Row {
  name: string;
  steps: Step[];
  /** The event each step raised, in order. */
  events: string[];
  members: string[];
}

const rows: Row[] = [
  {
    name: 'a new node is added',
    steps: [{ up: 'A', at: 10, live: LIVE_A, backup: BACKUP_A }],
    events: ['up A'],
    members: ['A live=live-a backup=backup-a @10'],
  },
  {
    name: 'a newer update replaces the live',
    steps: [
      { up: 'A', at: 10, live: LIVE_A },
      { up: 'A', at: 11, live: LIVE_A2 },
    ],
    events: ['up A', 'up A'],
    members: ['A live=live-a2 backup=- @11'],
  },
  {
    name: 'an older update is ignored (its live does not replace the newer one)',
    steps: [
      { up: 'A', at: 20, live: LIVE_A },
      { up: 'A', at: 19, live: LIVE_A2 },
    ],
    events: ['up A', 'none'],
    members: ['A live=live-a backup=- @20'],
  },
  {
    name: 'a duplicate (same event id, same content) changes nothing',
    steps: [
      { up: 'A', at: 10, live: LIVE_A, backup: BACKUP_A },
      { up: 'A', at: 10, live: LIVE_A, backup: BACKUP_A },
    ],
    events: ['up A', 'none'],
    members: ['A live=live-a backup=backup-a @10'],
  },
  {
    name: 'a newer re-announcement of the same endpoints moves the event id without an event',
    steps: [
      { up: 'A', at: 10, live: LIVE_A },
      { up: 'A', at: 30, live: LIVE_A },
    ],
    events: ['up A', 'none'],
    members: ['A live=live-a backup=- @30'],
  },
  {
    name: 'a newer backup-only update keeps the live',
    steps: [
      { up: 'A', at: 10, live: LIVE_A },
      { up: 'A', at: 11, backup: BACKUP_A },
    ],
    events: ['up A', 'up A'],
    members: ['A live=live-a backup=backup-a @11'],
  },
  {
    name: 'a newer live-only update keeps the backup',
    steps: [
      { up: 'A', at: 10, live: LIVE_A, backup: BACKUP_A },
      { up: 'A', at: 11, live: LIVE_A2 },
    ],
    events: ['up A', 'up A'],
    members: ['A live=live-a2 backup=backup-a @11'],
  },
  {
    name: 'an older update still fills a backup not yet known (and nothing else)',
    steps: [
      { up: 'A', at: 10, live: LIVE_A },
      { up: 'A', at: 9, live: LIVE_A2, backup: BACKUP_A },
    ],
    events: ['up A', 'up A'],
    members: ['A live=live-a backup=backup-a @10'],
  },
  {
    name: 'an older update does not replace a known backup',
    steps: [
      { up: 'A', at: 10, live: LIVE_A, backup: BACKUP_A },
      { up: 'A', at: 9, backup: BACKUP_A2 },
    ],
    events: ['up A', 'none'],
    members: ['A live=live-a backup=backup-a @10'],
  },
  {
    name: 'down removes the member',
    steps: [
      { up: 'A', at: 10, live: LIVE_A },
      { up: 'B', at: 10, live: LIVE_A2 },
      { down: 'A', at: 11 },
    ],
    events: ['up A', 'up B', 'down A'],
    members: ['B live=live-a2 backup=- @10'],
  },
  {
    name: 'a down older than the member is ignored (it predates the start)',
    steps: [
      { up: 'A', at: 10, live: LIVE_A },
      { down: 'A', at: 9 },
    ],
    events: ['up A', 'none'],
    members: ['A live=live-a backup=- @10'],
  },
  {
    name: 'down then a late, older up: the tombstone ignores it',
    steps: [
      { up: 'A', at: 10, live: LIVE_A },
      { down: 'A', at: 12 },
      { up: 'A', at: 11, live: LIVE_A },
    ],
    events: ['up A', 'down A', 'none'],
    members: [],
  },
  {
    name: 'down then a newer up: the node is back',
    steps: [
      { up: 'A', at: 10, live: LIVE_A },
      { down: 'A', at: 12 },
      { up: 'A', at: 13, live: LIVE_A2 },
    ],
    events: ['up A', 'down A', 'up A'],
    members: ['A live=live-a2 backup=- @13'],
  },
  {
    name: 'an up at the removal’s own event id is accepted (HornetQ orders by <)',
    steps: [
      { up: 'A', at: 10, live: LIVE_A },
      { down: 'A', at: 12 },
      { up: 'A', at: 12, live: LIVE_A },
    ],
    events: ['up A', 'down A', 'up A'],
    members: ['A live=live-a backup=- @12'],
  },
  {
    name: 'a down for a node never seen still leaves a tombstone for its late up',
    steps: [
      { down: 'A', at: 12 },
      { up: 'A', at: 11, live: LIVE_A },
    ],
    events: ['none', 'none'],
    members: [],
  },
  {
    name: 'event id 0 passes a tombstone (HornetQ: a sender with no clock)',
    steps: [
      { down: 'A', at: 12 },
      { up: 'A', at: 0, live: LIVE_A },
    ],
    events: ['none', 'up A'],
    members: ['A live=live-a backup=- @0'],
  },
  {
    name: 'a second down does not lower the tombstone',
    steps: [
      { up: 'A', at: 10, live: LIVE_A },
      { down: 'A', at: 20 },
      { down: 'A', at: 15 },
      { up: 'A', at: 18, live: LIVE_A },
    ],
    events: ['up A', 'down A', 'none', 'none'],
    members: [],
  },
  {
    name: 'nodes merge independently, in the order first seen',
    steps: [
      { up: 'B', at: 50, live: LIVE_A2 },
      { up: 'A', at: 10, live: LIVE_A },
      { up: 'B', at: 40, live: LIVE_A },
    ],
    events: ['up B', 'up A', 'none'],
    members: ['B live=live-a2 backup=- @50', 'A live=live-a backup=- @10'],
  },
  {
    name: 'a newer update with a different node name is a change',
    steps: [
      { up: 'A', at: 10, live: LIVE_A, name: 'g1' },
      { up: 'A', at: 11, live: LIVE_A, name: 'g2' },
    ],
    events: ['up A', 'up A'],
    members: ['A live=live-a backup=- @11'],
  },
];

describe('Topology merge rules (HornetQ 2.4 Topology.updateMember / removeMember)', () => {
  it.each(rows)('$name', ({ steps, events, members }) => {
    const topology = new Topology();
    expect(steps.map((step) => briefEvent(apply(topology, step)))).toEqual(events);
    expect(brief(topology)).toEqual(members);
  });

  it('a MEMBER_DOWN carries what was known of the member and the removal’s event id', () => {
    const topology = new Topology();
    topology.update({ nodeId: 'A', uniqueEventId: 10, nodeName: 'n', live: LIVE_A, backup: BACKUP_A });
    const event = topology.remove('A', 15);
    expect(event).toEqual({
      type: 'MEMBER_DOWN',
      uniqueEventId: 15,
      member: { nodeId: 'A', uniqueEventId: 10, nodeName: 'n', live: LIVE_A, backup: BACKUP_A },
    });
  });

  it('a snapshot does not change when the topology does, and cannot be changed', () => {
    const topology = new Topology();
    topology.update({ nodeId: 'A', uniqueEventId: 10, nodeName: null, live: LIVE_A, backup: null });
    const before = topology.snapshot();
    topology.update({ nodeId: 'B', uniqueEventId: 10, nodeName: null, live: LIVE_A2, backup: null });
    topology.remove('A', 20);
    expect(before.members.map((m) => m.nodeId)).toEqual(['A']);
    expect(Object.isFrozen(before.members)).toBe(true);
    expect(Object.isFrozen(before.members[0])).toBe(true);
    expect(Object.isFrozen(before.members[0]?.live?.params)).toBe(true);
  });

  it('holds at most maxMembers members: newcomers beyond are ignored, known ones still update', () => {
    const topology = new Topology({ maxMembers: 3, maxTombstones: 3 });
    for (let i = 0; i < 10; i++) {
      topology.update({ nodeId: `n${i}`, uniqueEventId: 1, nodeName: null, live: LIVE_A, backup: null });
    }
    expect(topology.snapshot().members.map((m) => m.nodeId)).toEqual(['n0', 'n1', 'n2']);
    expect(topology.full).toBe(true);
    const event = topology.update({
      nodeId: 'n1',
      uniqueEventId: 2,
      nodeName: null,
      live: LIVE_A2,
      backup: null,
    });
    expect(event?.type).toBe('MEMBER_UP');
  });

  it('remembers at most maxTombstones removals, forgetting the oldest first', () => {
    const topology = new Topology({ maxMembers: 10, maxTombstones: 2 });
    for (const id of ['x', 'y', 'z']) topology.remove(id, 100);
    expect(topology.lastEventIdOf('x')).toBeNull();
    expect(topology.lastEventIdOf('y')).toBe(100);
    expect(topology.lastEventIdOf('z')).toBe(100);
    // x's tombstone is gone: its late up is taken; y's is kept: its late up is not.
    expect(
      topology.update({ nodeId: 'x', uniqueEventId: 50, nodeName: null, live: LIVE_A, backup: null }),
    ).not.toBeNull();
    expect(
      topology.update({ nodeId: 'y', uniqueEventId: 50, nodeName: null, live: LIVE_A, backup: null }),
    ).toBeNull();
  });
});

describe('topology endpoints', () => {
  it('reads host, port, TLS and HTTP upgrade from announced params, as typed or as strings', () => {
    const endpoint = endpointFromAnnounced({
      name: 'artemis',
      factoryClassName: 'org.apache.activemq.artemis.core.remoting.impl.netty.NettyConnectorFactory',
      params: [
        ['host', { type: 'string', value: 'broker-1.example' }],
        ['port', { type: 'string', value: '61616' }],
        ['ssl-enabled', { type: 'string', value: 'true' }],
        ['http-upgrade-enabled', { type: 'boolean', value: true }],
        ['http-upgrade-endpoint', { type: 'string', value: 'http-acceptor' }],
        ['trust-store-password', { type: 'string', value: 'secret' }],
        ['use-nio', { type: 'boolean', value: true }],
      ],
    });
    expect(endpoint).toEqual({
      origin: 'announced',
      name: 'artemis',
      factoryClassName: 'org.apache.activemq.artemis.core.remoting.impl.netty.NettyConnectorFactory',
      host: 'broker-1.example',
      port: 61616,
      sslEnabled: true,
      httpUpgradeEnabled: true,
      httpUpgradeEndpoint: 'http-acceptor',
      serverId: null,
      params: {
        host: 'broker-1.example',
        port: '61616',
        'ssl-enabled': 'true',
        'http-upgrade-enabled': true,
        'http-upgrade-endpoint': 'http-acceptor',
        'use-nio': true,
      },
    });
  });

  it.each([
    ['absent', [], 'localhost', 5445],
    ['not a number', [['port', { type: 'string', value: '54x5' }]], 'localhost', 5445],
    ['out of range', [['port', { type: 'int', value: 70_000 }]], 'localhost', 5445],
    ['an empty host', [['host', { type: 'string', value: '' }]], 'localhost', 5445],
  ] as const)('falls back to HornetQ’s defaults when the address is %s', (_name, params, host, port) => {
    const endpoint = endpointFromAnnounced({ name: 'x', factoryClassName: 'y', params: [...params] });
    expect([endpoint.host, endpoint.port, endpoint.sslEnabled, endpoint.httpUpgradeEnabled]).toEqual([
      host,
      port,
      false,
      false,
    ]);
  });

  it('takes the connector this client used without its secrets', () => {
    const endpoint = endpointFromConnector({
      host: '127.0.0.1',
      port: 5446,
      'ssl-enabled': true,
      'key-store-password': 'secret',
      'trust-store-path': '/ca.pem',
    });
    expect(endpoint).toMatchObject({ origin: 'connector', name: null, factoryClassName: null });
    expect([endpoint.host, endpoint.port, endpoint.sslEnabled]).toEqual(['127.0.0.1', 5446, true]);
    expect(endpoint.params).toEqual({
      host: '127.0.0.1',
      port: 5446,
      'ssl-enabled': true,
      'trust-store-path': '/ca.pem',
    });
    expect(JSON.stringify(endpoint)).not.toContain('secret');
  });
});
