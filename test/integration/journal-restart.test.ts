import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Broker, BrokerConfiguration, ReceivedMessage } from '../../src';
import { CapturingLogger, range, receiveCount, seqOf, sequenced, waitFor } from '../support/test-broker';
import {
  FailoverRecorder,
  QUEUE,
  REATTACH_BROKER,
  REATTACH_CLIENT,
  sendRange,
  useReattachKit,
} from './reattach/rig';

/**
 * The broker on a real journal (issue 12, items 2 and 6): it is stopped and a NEW broker (a new
 * store) is started on the same data directory; what was stored is there, what was acknowledged
 * is not, and a client whose session the restart lost gets its unacknowledged messages again,
 * marked redelivered with their delivery count.
 */

const kit = useReattachKit();
const TOPIC = 'jms.topic.news';
const SUBSCRIPTION = 'client-1.subscriber';

/** The reattach broker with a topic subscription, on a journal of its own (`{ journal: true }`). */
function journalConfig(logger = new CapturingLogger()): Partial<BrokerConfiguration> {
  return {
    ...REATTACH_BROKER,
    queues: [
      ...(REATTACH_BROKER.queues ?? []),
      { name: SUBSCRIPTION, address: TOPIC, filter: null, durable: true },
    ],
    logger,
  };
}

/** Stops `broker` and starts a new one, with a store of its own, on the same port and directory. */
function restart(broker: Broker, logger = new CapturingLogger()): Promise<Broker> {
  return kit.restart(broker, { logger });
}

async function drain(broker: Broker, queue: string, count: number): Promise<ReceivedMessage[]> {
  const session = await (await kit.connect(broker)).createSession();
  const consumer = await session.createConsumer(queue);
  session.start();
  const received = await receiveCount(consumer, count);
  expect(await consumer.receive(200)).toBeNull();
  return received;
}

test('persistent messages survive a restart on a new store; acknowledged ones do not come back', async () => {
  const broker = await kit.startBroker(journalConfig(), { journal: true });
  const session = await (await kit.connect(broker)).createSession();
  await sendRange(session.createProducer(QUEUE), 0, 10, { durable: true });
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  for (const message of await receiveCount(consumer, 3)) await message.acknowledge();
  await consumer.close();
  await waitFor(() => broker.listQueues().find((q) => q.name === QUEUE)?.messageCount === 7, 'the acks');

  const logger = new CapturingLogger();
  const restarted = await restart(broker, logger);
  expect(restarted.storage).not.toBe(broker.storage);
  expect(
    logger.find(
      new RegExp(
        `message store at .*${path.basename(broker.config.dataDirectory)}.*loaded 2 durable queues and 7 messages`,
        's',
      ),
      ['info'],
    ),
  ).toHaveLength(1);
  expect((await drain(restarted, QUEUE, 7)).map(seqOf)).toEqual(range(10).slice(3));
});

test('a durable subscription keeps its messages across a restart; non-persistent ones are gone', async () => {
  const broker = await kit.startBroker(journalConfig(), { journal: true });
  const session = await (await kit.connect(broker)).createSession();
  const producer = session.createProducer(TOPIC);
  for (const seq of range(6)) await producer.send(sequenced(seq, { durable: seq % 2 === 0 }));

  const restarted = await restart(broker);
  expect((await drain(restarted, SUBSCRIPTION, 3)).map(seqOf)).toEqual([0, 2, 4]);
});

test('a session re-created after the restart gets its unacknowledged messages back, redelivered with their count', async () => {
  const broker = await kit.startBroker(journalConfig(), { journal: true });
  const factory = await kit.connect(broker, { ...REATTACH_CLIENT, clientFailureCheckPeriod: 100 });
  const recorder = new FailoverRecorder(factory);
  const session = await factory.createSession();
  await sendRange(session.createProducer(QUEUE), 0, 5, { durable: true });
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  const first = await receiveCount(consumer, 5);
  expect(first.map((m) => [m.deliveryCount, m.redelivered])).toEqual(range(5).map(() => [1, false]));

  await restart(broker);
  await recorder.ended(1);
  expect(recorder.last('FAILOVER_COMPLETED')?.reattached).toBe(false);
  const again = await receiveCount(consumer, 5);
  expect(again.map(seqOf)).toEqual(range(5));
  expect(again.map((m) => [m.deliveryCount, m.redelivered])).toEqual(range(5).map(() => [2, true]));
});

test('with persistence disabled the broker warns that nothing survives a restart, and nothing does', async () => {
  const logger = new CapturingLogger();
  const broker = await kit.startBroker(
    { ...journalConfig(logger), persistenceEnabled: false },
    { journal: true },
  );
  expect(logger.find(/persistence is disabled .* nothing survives a restart/, ['warn'])).toHaveLength(1);
  const session = await (await kit.connect(broker)).createSession();
  await sendRange(session.createProducer(QUEUE), 0, 3, { durable: true });
  await broker.stop();
  expect(await fs.readdir(broker.config.dataDirectory)).toEqual([]);
});

test('a commit larger than one journal write (10 000 sends, then 10 000 acknowledgements) is stored whole', async () => {
  const COUNT = 10_000;
  const broker = await kit.startBroker(journalConfig(), { journal: true });
  const session = await (
    await kit.connect(broker)
  ).createSession({
    autoCommitSends: false,
    autoCommitAcks: false,
  });
  const producer = session.createProducer(QUEUE);
  for (let seq = 0; seq < COUNT; seq++) await producer.send(sequenced(seq, { durable: true }));
  await session.commit();
  let restarted = await restart(broker);
  expect(restarted.listQueues().find((q) => q.name === QUEUE)?.messageCount).toBe(COUNT);

  const consumerSession = await (
    await kit.connect(restarted)
  ).createSession({
    autoCommitSends: false,
    autoCommitAcks: false,
  });
  const consumer = await consumerSession.createConsumer(QUEUE);
  consumerSession.start();
  const received = await receiveCount(consumer, COUNT);
  expect(received.map(seqOf)).toEqual(range(COUNT));
  for (const message of received) await message.acknowledge();
  await consumerSession.commit();
  restarted = await restart(restarted);
  expect(restarted.listQueues().find((q) => q.name === QUEUE)?.messageCount).toBe(0);
}, 60_000);
