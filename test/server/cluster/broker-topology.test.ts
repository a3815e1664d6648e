import type { TransportConfiguration } from '../../../src/core/protocol';
import { BrokerTopology, type BrokerTopologyMember } from '../../../src/server/cluster/broker-topology';
import { announcedConnector } from '../../../src/server/cluster/cluster-configuration';

const LIVE = announcedConnector({ name: 'live', host: '127.0.0.1', port: 5445 });
const BACKUP = announcedConnector({ name: 'backup', host: '127.0.0.1', port: 5446 });
const NODE = '5b1c7a5e-0000-4000-8000-000000000001';

type Heard =
  | { up: [string, TransportConfiguration | null, TransportConfiguration | null, number]; last: boolean }
  | { down: [string, number] };

function recorder(): { heard: Heard[]; subscriber: Parameters<BrokerTopology['subscribe']>[0] } {
  const heard: Heard[] = [];
  return {
    heard,
    subscriber: {
      memberUp: (m: BrokerTopologyMember, last: boolean) =>
        heard.push({ up: [m.nodeId, m.live, m.backup, m.uniqueEventId], last }),
      memberDown: (nodeId: string, eventId: number) => heard.push({ down: [nodeId, eventId] }),
    },
  };
}

describe('BrokerTopology', () => {
  it('a subscriber first hears every member, the last one marked last, then each change with last false', () => {
    const topology = new BrokerTopology(() => 1000);
    topology.publishLive(NODE, null, LIVE);
    topology.publishLive('other-node', null, BACKUP);
    const { heard, subscriber } = recorder();
    topology.subscribe(subscriber);
    expect(heard.map((h) => ('up' in h ? [h.up[0], h.last] : h))).toEqual([
      [NODE, false],
      ['other-node', true],
    ]);
    topology.addBackup(NODE, BACKUP);
    expect(heard[2]).toEqual({ up: [NODE, LIVE, BACKUP, 1002], last: false });
  });

  it('a backup is merged into its live’s member; the event ids only grow, even on a clock that stands still', () => {
    const topology = new BrokerTopology(() => 1000);
    const live = topology.publishLive(NODE, 'group-a', LIVE);
    const merged = topology.addBackup(NODE, BACKUP);
    expect(merged).toEqual({
      nodeId: NODE,
      nodeName: 'group-a',
      live: LIVE,
      backup: BACKUP,
      uniqueEventId: 1001,
    });
    expect(live.uniqueEventId).toBe(1000);
    // The live publishes itself again (a restart of its acceptors): the backup is kept.
    expect(topology.publishLive(NODE, null, LIVE)).toMatchObject({
      backup: BACKUP,
      nodeName: 'group-a',
      uniqueEventId: 1002,
    });
  });

  it('a backup of a node this broker does not serve is not announced', () => {
    const topology = new BrokerTopology();
    topology.publishLive(NODE, null, LIVE);
    const { heard, subscriber } = recorder();
    topology.subscribe(subscriber);
    heard.length = 0;
    expect(topology.addBackup('someone-else', BACKUP)).toBeNull();
    expect(heard).toEqual([]);
    expect(topology.snapshot()).toHaveLength(1);
  });

  it('a backup that goes is told as the node down, then up without it, with a newer event id than the removal', () => {
    let now = 5000;
    const topology = new BrokerTopology(() => now, 0);
    topology.publishLive(NODE, null, LIVE);
    topology.addBackup(NODE, BACKUP);
    const { heard, subscriber } = recorder();
    topology.subscribe(subscriber);
    heard.length = 0;
    now = 4000; // the clock stepped back: the ids still grow
    expect(topology.removeBackup(NODE, BACKUP)).toMatchObject({ live: LIVE, backup: null });
    expect(heard).toEqual([{ down: [NODE, 5002] }, { up: [NODE, LIVE, null, 5003], last: false }]);
    expect(topology.member(NODE)?.backup).toBeNull();
  });

  it('only the backup that was announced is removed: a stale removal after a newer announcement changes nothing', () => {
    const topology = new BrokerTopology();
    topology.publishLive(NODE, null, LIVE);
    topology.addBackup(NODE, BACKUP);
    const newer = announcedConnector({ name: 'backup', host: '127.0.0.1', port: 5447 });
    topology.addBackup(NODE, newer);
    expect(topology.removeBackup(NODE, BACKUP)).toBeNull();
    expect(topology.member(NODE)?.backup).toBe(newer);
  });

  it('an unsubscribed subscriber hears nothing more', () => {
    const topology = new BrokerTopology();
    topology.publishLive(NODE, null, LIVE);
    const { heard, subscriber } = recorder();
    const unsubscribe = topology.subscribe(subscriber);
    unsubscribe();
    topology.addBackup(NODE, BACKUP);
    expect(heard).toHaveLength(1);
    expect(topology.subscriberCount).toBe(0);
  });
});
