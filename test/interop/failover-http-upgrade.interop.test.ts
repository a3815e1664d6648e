import {
  Broker,
  FailoverEventType,
  HornetQQueue,
  selectorFilterFactory,
  Session,
  type HornetQConnection,
  type TextMessage,
  type TransportConfiguration,
} from '../../src';
import { FaultProxy } from '../support/fault-proxy';
import { waitFor } from '../support/test-broker';
import { freePorts } from './support/free-port';
import { ourBrokerConfiguration } from './support/our-interop-broker';
import { failoverFactory, FailoverLog } from './support/produce-consume-run';

/**
 * Issue 25, item 7's HTTP-upgrade acceptor, with our own brokers: neither real server here has a
 * usable one (a standalone Artemis 2.40.0 answers activemq-remoting with 403 and leaves
 * hornetq-remoting unanswered, its httpUpgradeEnabled acceptor waits for a web container to hand
 * it channels; HornetQ 2.4.7 has the same design, for WildFly). A live and a backup of ours, each
 * listening only on an upgrade acceptor (as WildFly's http-acceptor on the web port), the backup
 * behind a fault proxy that counts its connections; the topology names both with
 * http-upgrade-enabled. The live stops: the client fails over to the backup, upgrading there too.
 */
const QUEUE = 'upgradeFailover';
const ACCEPTOR = 'http-acceptor';
const RECEIVE_MS = 20_000;
const FAILOVER_MS = 60_000;

async function upgradeOnlyBroker(port: number): Promise<Broker> {
  const base = ourBrokerConfiguration(port, { queues: [QUEUE] });
  const broker = new Broker(
    {
      ...base,
      acceptors: [{ name: ACCEPTOR, type: 'tcp', host: '127.0.0.1', port, httpUpgrade: {} }],
    },
    selectorFilterFactory,
  );
  await broker.start();
  return broker;
}

const upgrade = (port: number): TransportConfiguration => ({
  host: '127.0.0.1',
  port,
  'http-upgrade-enabled': true,
  'http-upgrade-endpoint': ACCEPTOR,
});

let live: Broker | null = null;
let backup: Broker | null = null;
let backupProxy: FaultProxy | null = null;
let connection: HornetQConnection | null = null;

afterAll(async () => {
  await connection?.close();
  await backupProxy?.close();
  await live?.stop();
  await backup?.stop();
});

test('ha over HTTP upgrade: the live stops, the client upgrades on the backup the topology names and goes on', async () => {
  const [livePort, backupPort] = await freePorts(2);
  live = await upgradeOnlyBroker(livePort!);
  backup = await upgradeOnlyBroker(backupPort!);
  backupProxy = await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: backupPort! });

  const factory = failoverFactory({
    port: livePort!,
    ha: true,
    duplicateIds: true,
    reconnectAttempts: -1,
    httpUpgradeEndpoint: ACCEPTOR,
  });
  // Our brokers are not clustered: the topology a clustered server would send, told by hand.
  factory
    .getServerLocator()
    .announce(live.nodeId, { live: upgrade(livePort!), backup: upgrade(backupProxy.port) });
  const open = await factory.createConnection();
  connection = open;
  const log = new FailoverLog(open);
  const session = await open.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const queue = new HornetQQueue(QUEUE);
  const producer = await session.createProducer(queue);
  const consumer = await session.createConsumer(queue);
  await open.start();
  await producer.send(session.createTextMessage('on the live'));
  expect(((await consumer.receive(RECEIVE_MS)) as TextMessage | null)?.getText()).toBe('on the live');
  expect(backupProxy.connectionsAccepted).toBe(0);

  await live.stop();
  live = null;
  await waitFor(() => log.completed().length > 0, 'the failover to the backup', FAILOVER_MS);
  expect(log.events.map((event) => event.type)).not.toContain(FailoverEventType.FAILOVER_FAILED);
  expect(log.completed()[0]).toMatchObject({ reattached: false });
  expect(backupProxy.connectionsAccepted).toBeGreaterThanOrEqual(1);
  await producer.send(session.createTextMessage('on the backup'));
  expect(((await consumer.receive(RECEIVE_MS)) as TextMessage | null)?.getText()).toBe('on the backup');
});
