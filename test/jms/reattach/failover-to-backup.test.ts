import {
  FailoverEventType,
  HornetQConnectionFactory,
  Session,
  type Broker,
  type FailoverEvent,
  type HornetQConnection,
} from '../../../src';
import { FaultProxy } from '../../support/fault-proxy';
import { useTestBrokers, waitFor } from '../../support/test-broker';
import { CORE_QUEUE, numbered, QUEUE, receiveMessages, seqOf, WINDOW } from './rig';

/**
 * HornetQConnectionFactory(ha true, live) with the backup told to its locator (our brokers announce
 * no backup; a clustered HornetQ or Artemis would): the live stops, the connection's sessions are
 * re-created on the backup, the failover listener hears which node, and producer and consumer go
 * on. With ha false the backup is never dialled.
 */
const brokers = useTestBrokers();
const queueOnEach = { queues: [{ name: CORE_QUEUE, address: CORE_QUEUE, filter: null, durable: true }] };

let connection: HornetQConnection | null = null;
afterEach(async () => {
  await connection?.close();
  connection = null;
});

async function pairBehindFactory(ha: boolean): Promise<{
  live: Broker;
  backup: Broker;
  backupProxy: FaultProxy;
  factory: HornetQConnectionFactory;
}> {
  const live = await brokers.startBroker(queueOnEach);
  const backup = await brokers.startBroker(queueOnEach);
  const backupProxy = brokers.track(
    await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: backup.getPort() }),
  );
  const liveConnector = { host: '127.0.0.1', port: live.getPort() };
  const factory = new HornetQConnectionFactory(ha, liveConnector);
  factory.setConfirmationWindowSize(WINDOW);
  factory.setReconnectAttempts(ha ? -1 : 3);
  factory.setRetryInterval(50);
  factory.setRetryJitter(0);
  factory
    .getServerLocator()
    .announce(live.nodeId, { live: liveConnector, backup: { host: '127.0.0.1', port: backupProxy.port } });
  return { live, backup, backupProxy, factory };
}

test('ha true: the live stops, the connection goes on on the backup', async () => {
  const { live, backup, factory } = await pairBehindFactory(true);
  expect(factory.isHA()).toBe(true);
  const open = await factory.createConnection();
  connection = open;
  const events: FailoverEvent[] = [];
  open.setFailoverListener((event) => events.push(event));
  const session = await open.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const queue = session.createQueue(QUEUE);
  const producer = await session.createProducer(queue);
  const consumer = await session.createConsumer(queue);
  await open.start();
  await producer.send(numbered(session, 0));
  expect((await receiveMessages(consumer, 1)).map(seqOf)).toEqual([0]);

  await live.stop();
  await waitFor(() => events.some((e) => e.type === FailoverEventType.FAILOVER_COMPLETED), 'the failover');
  expect(events.find((e) => e.type === FailoverEventType.FAILOVER_COMPLETED)).toMatchObject({
    reattached: false,
    nodeId: backup.nodeId,
  });
  await producer.send(numbered(session, 1));
  await producer.send(numbered(session, 2));
  expect((await receiveMessages(consumer, 2)).map(seqOf)).toEqual([1, 2]);
});

test('ha false: the backup is never dialled, the connection fails', async () => {
  const { live, backupProxy, factory } = await pairBehindFactory(false);
  const open = await factory.createConnection();
  connection = open;
  const events: FailoverEvent[] = [];
  open.setFailoverListener((event) => events.push(event));
  await live.stop();
  await waitFor(() => events.some((e) => e.type === FailoverEventType.FAILOVER_FAILED), 'giving up');
  expect(backupProxy.connectionsAccepted).toBe(0);
});
