import type { Broker, TopologyEvent, TopologyMember } from '../../../src';
import type { BackupAnnouncer } from '../../../src/server/cluster/backup-announcer';
import { PacketType } from '../../../src/core/protocol/packet-type';
import { FaultProxy } from '../../support/fault-proxy';
import { RawClient } from '../../support/raw-client';
import { freePort, pairCluster } from '../../support/cluster-pair';
import { CapturingLogger, useTestBrokers, waitFor } from '../../support/test-broker';

/**
 * A live/backup pair's announcement over real sockets on loopback: the backup's announcer dials
 * the live, logs in as the cluster user and sends NODE_ANNOUNCE; the live pushes {live, backup}
 * to every subscribed client, and takes the backup out again when its connection goes.
 */
const brokers = useTestBrokers();
const CLUSTER_PASSWORD = 'pair-secret-7f3a';

async function startClustered(
  live: number | null,
  logger: CapturingLogger,
  password?: string,
): Promise<Broker> {
  const port = await freePort();
  return brokers.startBroker({
    acceptors: [{ name: 'netty', type: 'tcp', host: '127.0.0.1', port }],
    cluster: pairCluster(port, live, password ?? CLUSTER_PASSWORD),
    logger,
  });
}

function reach(member: TopologyMember | undefined): unknown {
  if (member === undefined) return undefined;
  const endpoint = (e: TopologyMember['live']): unknown => (e === null ? null : [e.origin, e.host, e.port]);
  return { nodeId: member.nodeId, live: endpoint(member.live), backup: endpoint(member.backup) };
}

function tracked(announcer: BackupAnnouncer): BackupAnnouncer {
  brokers.track({ close: () => announcer.stop() });
  return announcer;
}

describe('a backup announces itself to its live, and the live’s clients learn the pair', () => {
  it('the client sees {live, backup}; when the backup’s connection drops the backup is gone, and it comes back when the announcer redials', async () => {
    const liveLog = new CapturingLogger();
    const live = await startClustered(null, liveLog);
    const factory = await brokers.connect(live);
    const events: TopologyEvent[] = [];
    factory.addTopologyListener((event) => events.push(event));
    expect(factory.topology().members.map(reach)).toEqual([
      { nodeId: live.nodeId, live: ['announced', '127.0.0.1', live.getPort()], backup: null },
    ]);

    // The backup reaches the live through a proxy, so that its connection can be cut.
    const proxy = brokers.track(
      await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: live.getPort() }),
    );
    const backup = await startClustered(proxy.port, new CapturingLogger());
    const announcer = tracked(backup.backupAnnouncer(live.nodeId));
    announcer.start();

    const paired = (): boolean => factory.topology().members[0]?.backup?.port === backup.getPort();
    await waitFor(paired, 'the client to learn the backup');
    expect(factory.topology().members.map(reach)).toEqual([
      {
        nodeId: live.nodeId,
        live: ['announced', '127.0.0.1', live.getPort()],
        backup: ['announced', '127.0.0.1', backup.getPort()],
      },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'MEMBER_UP', member: { nodeId: live.nodeId } });

    // The live tells the node down at once (its up without the backup follows later, unless the
    // announcer is back first, as here: it redials after 50 ms).
    const beforeCut = events.length;
    proxy.cut();
    await waitFor(
      () => events.slice(beforeCut).some((e) => e.type === 'MEMBER_DOWN' && e.member.nodeId === live.nodeId),
      'the client to hear the node down when the backup went',
    );
    await waitFor(
      () => liveLog.find(/backup 127\.0\.0\.1:\d+ of node .* is gone/).length === 1,
      'the log line',
    );

    // The announcer dials again (retry forever) and the live announces the pair again.
    await waitFor(paired, 'the backup to be announced again after the cut');
    await announcer.stop();
    await waitFor(
      () => factory.topology().members[0]?.backup === null,
      'the backup gone after its announcer stopped',
    );
    expect(announcer.announced).toBe(false);
  });

  it('a client that subscribes after the announcement gets the pair in its first topology', async () => {
    const live = await startClustered(null, new CapturingLogger());
    const backup = await startClustered(live.getPort(), new CapturingLogger());
    const announcer = tracked(backup.backupAnnouncer(live.nodeId));
    announcer.start();
    await waitFor(() => announcer.announced, 'the announcement');
    await waitFor(
      () => live.cluster?.topology.member(live.nodeId)?.backup != null,
      'the live to merge the backup',
    );
    const factory = await brokers.connect(live);
    expect(reach(factory.topology().members[0])).toEqual({
      nodeId: live.nodeId,
      live: ['announced', '127.0.0.1', live.getPort()],
      backup: ['announced', '127.0.0.1', backup.getPort()],
    });
  });

  it('a backup with the wrong cluster password is refused, and the refusal is logged without any password', async () => {
    const liveLog = new CapturingLogger();
    const live = await startClustered(null, liveLog);
    const factory = await brokers.connect(live);
    const backupLog = new CapturingLogger();
    const wrong = 'not-the-pair-secret-19c2';
    const backup = await startClustered(live.getPort(), backupLog, wrong);
    const announcer = tracked(backup.backupAnnouncer(live.nodeId));
    announcer.start();
    await waitFor(() => liveLog.find(/cluster login refused/).length >= 2, 'two refused attempts');
    await announcer.stop();
    expect(liveLog.find(/cluster login refused/, ['warn'])[0]?.message).toMatch(
      /presented the wrong password for cluster user pair-cluster-user/,
    );
    expect(
      backupLog.find(/could not announce the backup .*refused the cluster login/, ['warn']),
    ).toHaveLength(1);
    expect(factory.topology().members[0]?.backup).toBeNull();
    expect(live.cluster?.topology.member(live.nodeId)?.backup).toBeNull();
    for (const secret of [wrong, CLUSTER_PASSWORD]) {
      expect(liveLog.find(new RegExp(secret))).toEqual([]);
      expect(backupLog.find(new RegExp(secret))).toEqual([]);
    }
  });

  it('NODE_ANNOUNCE without the cluster login closes the connection, saying why, and announces nothing', async () => {
    const liveLog = new CapturingLogger();
    const live = await startClustered(null, liveLog);
    const raw = brokers.track(await RawClient.connect(live.getPort()));
    raw.send(0, {
      type: PacketType.NODE_ANNOUNCE,
      nodeId: live.nodeId,
      nodeName: null,
      backup: true,
      currentEventId: Date.now(),
      connector: { name: 'evil', factoryClassName: 'x', params: [['port', { type: 'int', value: 1 }]] },
      backupConnector: null,
    });
    await waitFor(() => raw.closed, 'the broker to close the connection');
    expect(
      liveLog.find(
        /closing connection \d+ from .*NODE_ANNOUNCE from a connection that has not logged in as the cluster user/,
      ),
    ).toHaveLength(1);
    expect(live.cluster?.topology.member(live.nodeId)?.backup).toBeNull();
  });
});
