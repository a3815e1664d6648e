import {
  FailoverEventType,
  ServerLocator,
  type Broker,
  type ClientOptions,
  type ClientSessionFactory,
  type FailoverEvent,
  type TransportConfiguration,
} from '../../src';
import { PacketType } from '../../src/core/protocol';
import { FaultProxy } from '../support/fault-proxy';
import { createSessionPacket, newReattachSecret, RawClient } from '../support/raw-client';
import {
  CapturingLogger,
  receiveCount,
  seqOf,
  sequenced,
  useTestBrokers,
  waitFor,
} from '../support/test-broker';

/**
 * Failover to a backup with two of our brokers over real sockets. Our broker is not clustered and
 * announces no backup, so the test tells the locator of the pair (ServerLocator.announce: the node
 * of the live broker, with the second broker as its backup), as a clustered broker's
 * CLUSTER_TOPOLOGY_V2 would. The backup is reached through a fault proxy, which counts the dials.
 * Each broker keeps its own queues (no shared store), so the queue is made on both.
 */
const brokers = useTestBrokers();

const QUEUE = 'failover.q';

interface Pair {
  live: Broker;
  backup: Broker;
  backupProxy: FaultProxy;
  liveConnector: TransportConfiguration;
  backupConnector: TransportConfiguration;
  locator: ServerLocator;
}

async function startPair(options: Partial<ClientOptions>): Promise<Pair> {
  const live = await brokers.startBroker();
  const backup = await brokers.startBroker();
  const backupProxy = brokers.track(
    await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: backup.getPort() }),
  );
  const liveConnector = { host: '127.0.0.1', port: live.getPort() };
  const backupConnector = { host: '127.0.0.1', port: backupProxy.port };
  const locator = new ServerLocator({
    connectors: [liveConnector],
    confirmationWindowSize: 1024 * 1024,
    reconnectAttempts: -1,
    retryInterval: 50,
    retryJitter: 0,
    callTimeout: 5_000,
    ...options,
  });
  // The backup's queue, as a shared store would have it.
  const admin = await brokers.connect(backup);
  const adminSession = await admin.createSession();
  await adminSession.createQueue(QUEUE, QUEUE);
  await admin.close();
  return { live, backup, backupProxy, liveConnector, backupConnector, locator };
}

async function factoryOf(pair: Pair): Promise<ClientSessionFactory> {
  return brokers.track(await pair.locator.createSessionFactory());
}

function recordEvents(factory: ClientSessionFactory): FailoverEvent[] {
  const events: FailoverEvent[] = [];
  factory.addFailoverListener((event) => events.push(event));
  return events;
}

function completed(events: FailoverEvent[]): FailoverEvent | undefined {
  return events.find((event) => event.type === FailoverEventType.FAILOVER_COMPLETED);
}

describe('failover to the backup the topology names (ha true)', () => {
  it('re-creates the session on the backup: FAILOVER_COMPLETED names its node, a send held meanwhile goes there, the consumer goes on', async () => {
    const pair = await startPair({ ha: true });
    pair.locator.announce(pair.live.nodeId, { live: pair.liveConnector, backup: pair.backupConnector });
    const factory = await factoryOf(pair);
    const events = recordEvents(factory);
    const session = await factory.createSession();
    await session.createQueue(QUEUE, QUEUE);
    const producer = session.createProducer(QUEUE);
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    await producer.send(sequenced(0));
    const [first] = await receiveCount(consumer, 1);
    await first?.acknowledge();

    // A send made once the failure is seen is held until the session is re-created on the backup.
    let heldSend: Promise<void> | null = null;
    factory.addFailoverListener((event) => {
      if (event.type === FailoverEventType.FAILURE_DETECTED)
        setImmediate(() => (heldSend = producer.send(sequenced(1))));
    });
    // The backup is still starting for a moment: refused connections are failed attempts.
    pair.backupProxy.refuseNewConnections(300);
    await pair.live.stop();
    await waitFor(() => completed(events) !== undefined, 'the failover to complete');

    expect(completed(events)).toMatchObject({ reattached: false, nodeId: pair.backup.nodeId });
    expect(events.some((event) => event.type === FailoverEventType.FAILOVER_FAILED)).toBe(false);
    expect(factory.connector).toMatchObject(pair.backupConnector);
    expect(pair.backupProxy.connectionsRefused).toBeGreaterThanOrEqual(1);
    expect(heldSend).not.toBeNull();
    await heldSend;
    await producer.send(sequenced(2));
    const after = await receiveCount(consumer, 2);
    expect(after.map(seqOf)).toEqual([1, 2]);
    expect(factory.getStatistics().reconnects).toBe(1);
  });

  it('retries a backup that refuses to create the session for a while (SESSION_CREATION_REJECTED)', async () => {
    const logger = new CapturingLogger();
    const pair = await startPair({ ha: true, logger, retryInterval: 100 });
    pair.locator.announce(pair.live.nodeId, { live: pair.liveConnector, backup: pair.backupConnector });
    const factory = await factoryOf(pair);
    const events = recordEvents(factory);
    const session = await factory.createSession();
    // Another client holds a session of the same name on the backup (with another secret): the
    // backup refuses our re-creation until it is closed.
    const squatter = brokers.track({
      client: await RawClient.connect(pair.backup.getPort()),
      close() {
        this.client.socket.destroy();
      },
    }).client;
    const claim = await squatter.roundTrip(
      createSessionPacket(10, { name: session.name, reattachSecret: newReattachSecret() }),
      1,
    );
    expect(claim.type).toBe(PacketType.CREATESESSION_RESP);

    await pair.live.stop();
    await waitFor(
      () => logger.find(/SESSION_CREATION_REJECTED|already exists/).length >= 2,
      'two refused re-creations',
    );
    expect(completed(events)).toBeUndefined();
    await squatter.roundTrip({ type: PacketType.SESS_CLOSE });
    await waitFor(() => completed(events) !== undefined, 'the failover to complete');

    expect(completed(events)).toMatchObject({ reattached: false, nodeId: pair.backup.nodeId });
    await session.createQueue('after.q', 'after.q'); // the re-created session answers
    expect(pair.backupProxy.connectionsAccepted).toBeGreaterThanOrEqual(3);
  });

  it('fills the backup slot again from the topology after taking the backup', async () => {
    const pair = await startPair({ ha: true });
    pair.locator.announce(pair.live.nodeId, { live: pair.liveConnector, backup: pair.backupConnector });
    const factory = await factoryOf(pair);
    const events = recordEvents(factory);
    await factory.createSession();
    await pair.live.stop();
    await waitFor(() => completed(events) !== undefined, 'the failover to the backup');
    // The backup's node now names a backup of its own: the live broker, back on another port.
    const returned = await brokers.startBroker();
    const returnedProxy = brokers.track(
      await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: returned.getPort() }),
    );
    pair.locator.announce(pair.backup.nodeId, {
      live: pair.backupConnector,
      backup: { host: '127.0.0.1', port: returnedProxy.port },
    });
    // Its proxy goes with it: a proxy in front of a dead broker would accept every dial.
    await Promise.all([pair.backup.stop(), pair.backupProxy.close()]);
    await waitFor(
      () => events.filter((e) => e.type === FailoverEventType.FAILOVER_COMPLETED).length === 2,
      'a second failover',
    );
    expect(events.filter((e) => e.type === FailoverEventType.FAILOVER_COMPLETED)[1]).toMatchObject({
      reattached: false,
      nodeId: returned.nodeId,
    });
    expect(returnedProxy.connectionsAccepted).toBeGreaterThanOrEqual(1);
  });
});

describe('ha false', () => {
  it('never dials the backup, even one announced after the connection was made', async () => {
    const pair = await startPair({ ha: false, reconnectAttempts: 4 });
    const factory = await factoryOf(pair);
    const events = recordEvents(factory);
    await factory.createSession();
    // HornetQ's factories adopt a backup announced later whatever their ha: ours do not.
    pair.locator.announce(pair.live.nodeId, { live: pair.liveConnector, backup: pair.backupConnector });
    await pair.live.stop();
    await waitFor(
      () => events.some((event) => event.type === FailoverEventType.FAILOVER_FAILED),
      'the reconnection to give up',
    );
    expect(pair.backupProxy.connectionsAccepted + pair.backupProxy.connectionsRefused).toBe(0);
    expect(completed(events)).toBeUndefined();
  });
});
