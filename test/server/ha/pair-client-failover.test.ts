import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  Broker,
  FailoverEventType,
  ServerLocator,
  type BrokerConfiguration,
  type ClientSessionFactory,
  type FailoverEvent,
} from '../../../src';
import { freePort, pairCluster } from '../../support/cluster-pair';
import { receiveCount, seqOf, sequenced, waitFor } from '../../support/test-broker';

/**
 * A pair of our brokers on one data directory, end to end: the backup announces itself to the
 * live through its cluster connection while it waits, so a client with `ha` learns the backup
 * from the live's topology alone (nothing is told to its locator); the live hands over
 * (failover-on-shutdown) and the client re-creates its session on the backup, where the durable
 * messages are, under the pair's node id.
 */

const QUEUE = 'pair.q';
const CLUSTER_PASSWORD = 'pair-client-test-secret';
const directories: string[] = [];
const brokers: Broker[] = [];
const factories: ClientSessionFactory[] = [];

afterEach(async () => {
  await Promise.allSettled(factories.splice(0).map((factory) => factory.close()));
  await Promise.allSettled(brokers.splice(0).map((broker) => broker.stop()));
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function pairBroker(dataDirectory: string, port: number, extra: Partial<BrokerConfiguration>): Broker {
  const broker = new Broker({
    acceptors: [{ name: 'netty', type: 'tcp', host: '127.0.0.1', port }],
    securityEnabled: false,
    dataDirectory,
    journalFileSize: 128 * 1024,
    haLockPollPeriod: 20,
    liveLockCheckPeriod: 20,
    ...extra,
  });
  brokers.push(broker);
  return broker;
}

it('a client with ha follows our live to the backup it announced, and finds the durable messages there', async () => {
  const directory = await mkdtemp(path.join(tmpdir(), 'hornetq-pair-client-'));
  directories.push(directory);
  const [livePort, backupPort] = [await freePort(), await freePort()];
  const live = pairBroker(directory, livePort, {
    cluster: pairCluster(livePort, null, CLUSTER_PASSWORD),
    failoverOnShutdown: true,
  });
  await live.start();
  const backup = pairBroker(directory, backupPort, {
    backup: true,
    cluster: pairCluster(backupPort, livePort, CLUSTER_PASSWORD),
  });
  await backup.start();
  expect(backup.status).toBe('waiting');

  const locator = new ServerLocator({
    connectors: [{ host: '127.0.0.1', port: livePort }],
    ha: true,
    confirmationWindowSize: 1024 * 1024,
    reconnectAttempts: -1,
    retryInterval: 50,
    retryJitter: 0,
    duplicateIdOnDurableSend: true,
    ackBatchSize: 0,
  });
  const factory = await locator.createSessionFactory();
  factories.push(factory);
  const events: FailoverEvent[] = [];
  factory.addFailoverListener((event) => events.push(event));
  await waitFor(
    () => factory.topology().members.some((member) => member.backup?.port === backupPort),
    'the live to announce its backup',
  );
  const [member] = factory.topology().members;
  expect(member).toMatchObject({
    nodeId: live.nodeId,
    live: { port: livePort },
    backup: { port: backupPort },
  });

  const session = await factory.createSession();
  await session.createQueue(QUEUE, QUEUE);
  const producer = session.createProducer(QUEUE);
  for (let seq = 0; seq < 20; seq++) await producer.send(sequenced(seq, { durable: true }));
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  const firstFive = await receiveCount(consumer, 5);
  for (const message of firstFive) await message.acknowledge();

  await live.stop(); // failover-on-shutdown: the backup takes the store over
  await waitFor(() => backup.started, 'the backup to serve', 15_000);
  await waitFor(
    () => events.some((event) => event.type === FailoverEventType.FAILOVER_COMPLETED),
    'the client to fail over',
    15_000,
  );
  expect(events.find((event) => event.type === FailoverEventType.FAILOVER_COMPLETED)).toMatchObject({
    reattached: false,
    nodeId: live.nodeId,
  });
  expect(factory.connector.port).toBe(backupPort);

  await producer.send(sequenced(20, { durable: true }));
  const after: number[] = [];
  while (!after.includes(20)) {
    const [message] = await receiveCount(consumer, 1, 15_000);
    after.push(seqOf(message!));
    await message!.acknowledge();
  }
  // An acknowledged message comes again only if its acknowledgement had not reached the journal.
  expect(after.filter((seq) => seq >= 5)).toEqual(Array.from({ length: 16 }, (_, i) => i + 5));
  await waitFor(
    () => factory.topology().members.some((m) => m.nodeId === live.nodeId && m.live?.port === backupPort),
    'the backup to announce itself as the live of the node',
  );
});
