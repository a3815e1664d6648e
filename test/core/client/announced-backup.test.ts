import {
  ClientSessionFactory,
  FailoverEventType,
  type ClientOptions,
  type FailoverEvent,
} from '../../../src/core/client';
import { PacketType } from '../../../src/core/protocol/packet-type';
import type { TransportConfiguration as Announced } from '../../../src/core/protocol/packets';
import { FaultProxy } from '../../support/fault-proxy';
import { useTestBrokers, waitFor } from '../../support/test-broker';
import { ScriptedBroker } from './scripted-broker';

/**
 * The backup as a clustered broker names it on the wire: a live played by the test answers the
 * topology subscription with CLUSTER_TOPOLOGY_V2 naming itself and, as its backup, one of our
 * brokers (behind a proxy that counts dials), with a Java class name the client must not act on.
 */
const brokers = useTestBrokers();

const LIVE_NODE = '0b5c2f7e-0f5c-11ee-9a43-0242ac120002';

function netty(port: number): Announced {
  return {
    name: `netty-${port}`,
    factoryClassName: 'org.apache.activemq.artemis.core.remoting.impl.netty.NettyConnectorFactory',
    params: [
      ['host', { type: 'string', value: '127.0.0.1' }],
      ['port', { type: 'string', value: String(port) }],
    ],
  };
}

async function scenario(options: Partial<ClientOptions>): Promise<{
  factory: ClientSessionFactory;
  events: FailoverEvent[];
  live: ScriptedBroker;
  backupProxy: FaultProxy;
  backupNodeId: string;
}> {
  const backup = await brokers.startBroker();
  const backupProxy = brokers.track(
    await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: backup.getPort() }),
  );
  let livePort = 0;
  const live = new ScriptedBroker({
    intercept: (frame, reply) => {
      if (frame.packet.type !== PacketType.SUBSCRIBE_TOPOLOGY_V2) return false;
      reply({
        type: PacketType.CLUSTER_TOPOLOGY_V2,
        exit: false,
        nodeId: LIVE_NODE,
        uniqueEventId: Date.now(),
        live: netty(livePort),
        backup: netty(backupProxy.port),
        last: true,
        nodeName: null,
      });
      return true;
    },
  });
  brokers.track({ close: () => live.stop() });
  livePort = await live.start();
  const factory = brokers.track(
    await ClientSessionFactory.connect({
      connectors: [{ host: '127.0.0.1', port: livePort }],
      confirmationWindowSize: 1024 * 1024,
      reconnectAttempts: 4,
      retryInterval: 50,
      retryJitter: 0,
      callTimeout: 5_000,
      ...options,
    }),
  );
  const events: FailoverEvent[] = [];
  factory.addFailoverListener((event) => events.push(event));
  await factory.createSession();
  return { factory, events, live, backupProxy, backupNodeId: backup.nodeId };
}

describe('a backup announced in CLUSTER_TOPOLOGY_V2', () => {
  it('with ha: the live gone, the session is re-created on the backup', async () => {
    const { factory, events, live, backupProxy, backupNodeId } = await scenario({ ha: true });
    expect(factory.topology().members).toMatchObject([
      { nodeId: LIVE_NODE, backup: { port: backupProxy.port, factoryClassName: expect.any(String) } },
    ]);
    await live.stop();
    await waitFor(() => events.some((e) => e.type === FailoverEventType.FAILOVER_COMPLETED), 'the failover');
    expect(events.at(-1)).toMatchObject({ reattached: false, nodeId: backupNodeId });
    expect(factory.connector).toEqual({ host: '127.0.0.1', port: backupProxy.port });
    await (await factory.createSession()).createQueue('on.backup', 'on.backup');
  });

  it('without ha: the backup is never dialled', async () => {
    const { events, live, backupProxy } = await scenario({ ha: false });
    await live.stop();
    await waitFor(() => events.some((e) => e.type === FailoverEventType.FAILOVER_FAILED), 'giving up');
    expect(backupProxy.connectionsAccepted).toBe(0);
  });
});
