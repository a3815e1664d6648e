import type { Broker } from '../../../src';
import { range, receiveCount, seqOf, sequenced, waitFor } from '../../support/test-broker';
import {
  FailoverRecorder,
  QUEUE,
  REATTACH_BROKER,
  REATTACH_CLIENT,
  collect,
  outcome,
  sendRange,
  useReattachKit,
  waitForLength,
} from './rig';

/**
 * hornetq-spec §7.4 (ReconnectTest) and §7.5 (JMSReconnectTest), one broker: it is stopped and a
 * new one started on the same port with the same storage, so every session is lost and the client
 * must re-create sessions, consumers, temporary queues and non-durable subscriptions. Window -1
 * takes the same path without a restart.
 */

const kit = useReattachKit();

/** The broker has nothing left to deliver or awaiting acknowledgement on QUEUE. */
function acknowledged(broker: Broker): boolean {
  const queue = broker.listQueues().find((q) => q.name === QUEUE);
  return queue !== undefined && queue.messageCount === 0 && queue.deliveringCount === 0;
}

/** A broker, and a factory connected straight to it (a restart keeps the port). */
async function direct(client: Parameters<typeof kit.connect>[1] = {}) {
  const broker = await kit.startBroker(REATTACH_BROKER);
  const factory = await kit.connect(broker, {
    ...REATTACH_CLIENT,
    clientFailureCheckPeriod: 100,
    ackBatchSize: 0,
    ...client,
  });
  return { broker, factory, recorder: new FailoverRecorder(factory) };
}

test('restart: the failure listener is called exactly once with failedOver=true, FAILOVER_COMPLETED says re-created', async () => {
  const { broker, factory, recorder } = await direct();
  const session = await factory.createSession();
  const oldName = session.name;
  await kit.restart(broker);
  await recorder.ended(1);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:false']);
  expect(recorder.failures).toHaveLength(1);
  expect(recorder.failures[0]).toMatchObject({ failedOver: true, error: { code: 'DISCONNECTED' } });
  expect(factory.getStatistics()).toMatchObject({ reattaches: 0, reconnects: 1 });
  expect(session.closed).toBe(false);
  // Re-created under the name the client chose, as HornetQ's client re-creates a session.
  expect(session.name).toBe(oldName);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(recorder.failures).toHaveLength(1);
});

test('restart: the same consumer object keeps receiving, the same producer keeps sending', async () => {
  const { broker, factory, recorder } = await direct();
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  const consumer = await session.createConsumer(QUEUE);
  const received = collect(consumer);
  session.start();
  await sendRange(producer, 0, 10, { durable: true });
  await waitForLength(received, 10, 'messages before the restart');
  await waitFor(() => acknowledged(broker), 'the acknowledgements to reach the broker');
  const restarted = await kit.restart(broker);
  await recorder.ended(1);
  await sendRange(producer, 10, 20, { durable: true });
  await waitForLength(received, 20, 'messages after the restart');
  expect(received).toEqual(range(20));
  await waitFor(() => acknowledged(restarted), 'every message acknowledged on the new broker');
  expect(restarted.listQueues().find((q) => q.name === QUEUE)?.consumerCount).toBe(1);
});

test('restart: a temporary queue and a non-durable subscription are re-created with their consumers', async () => {
  const { broker, factory, recorder } = await direct();
  const session = await factory.createSession();
  await session.createQueue('replies', 'replies.tmp', { temporary: true, durable: false });
  await session.createQueue('topic', 'topic.sub', { durable: false });
  const fromTemp = collect(await session.createConsumer('replies.tmp'));
  const fromTopic = collect(await session.createConsumer('topic.sub'));
  session.start();
  const restarted = await kit.restart(broker);
  expect(restarted.listQueues().map((q) => q.name)).not.toContain('replies.tmp');
  await recorder.ended(1);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:false']);
  // Consumers are re-created one-way: the broker may see them just after the event.
  await waitFor(
    () => restarted.listQueues().filter((q) => q.name.includes('.') && q.consumerCount === 1).length === 2,
    'both consumers on the new broker',
  );
  const queues = restarted.listQueues();
  expect(queues.find((q) => q.name === 'replies.tmp')).toMatchObject({ temporary: true, durable: false });
  expect(queues.find((q) => q.name === 'topic.sub')).toMatchObject({ durable: false, temporary: false });
  await sendRange(session.createProducer('replies'), 0, 100);
  await sendRange(session.createProducer('topic'), 0, 100);
  await waitForLength(fromTemp, 100, 'messages on the temporary queue');
  await waitForLength(fromTopic, 100, 'messages on the subscription');
  expect(fromTemp).toEqual(range(100));
  expect(fromTopic).toEqual(range(100));
});

test('window -1: a cut re-creates the session even though the broker never restarted', async () => {
  const { broker, proxy, factory, recorder } = await kit.rig({
    client: { confirmationWindowSize: -1, ackBatchSize: 0 },
  });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  const consumer = await session.createConsumer(QUEUE);
  const received = collect(consumer);
  session.start();
  await sendRange(producer, 0, 10, { durable: true });
  await waitForLength(received, 10, 'messages before the cut');
  await waitFor(() => acknowledged(broker), 'the acknowledgements to reach the broker');
  proxy.cut();
  await recorder.ended(1);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:false']);
  expect(factory.getStatistics()).toMatchObject({ reattaches: 0, reconnects: 1, resendBufferPeakBytes: 0 });
  // The old broker session went with its connection; only the re-created one is left.
  await waitFor(
    () => broker.getSessionCount() === 1 && broker.getConnectionCount() === 1,
    'one session left',
  );
  await sendRange(producer, 10, 20, { durable: true });
  await waitForLength(received, 20, 'messages after the cut');
  expect(received).toEqual(range(20));
});

test('reconnect-attempts 0 and a restart: the session is closed and closing everything neither throws nor hangs', async () => {
  const { broker, factory, recorder } = await direct({ reconnectAttempts: 0 });
  const session = await factory.createSession();
  await session.createQueue('replies', 'replies.tmp', { temporary: true, durable: false });
  const consumer = await session.createConsumer('replies.tmp');
  await kit.restart(broker);
  await recorder.ended(1);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_FAILED']);
  expect(recorder.failures.map((f) => f.failedOver)).toEqual([false]);
  expect(session.closed).toBe(true);
  await expect(consumer.close()).resolves.toBeUndefined();
  await expect(session.close()).resolves.toBeUndefined();
  await expect(factory.close()).resolves.toBeUndefined();
});

test('broker gone for good, reconnecting forever: closing the factory ends the loop and a waiting commit settles', async () => {
  const { broker, factory, recorder } = await direct({ retryInterval: 100 });
  const session = await factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
  await session.createProducer(QUEUE).send(sequenced(1));
  await broker.stop();
  await waitFor(() => factory.failingOver, 'the failover to start');
  const commit = outcome(session.commit());
  const closed = factory.close();
  const started = Date.now();
  expect(await commit).toMatchObject({ ok: false });
  await closed;
  expect(Date.now() - started).toBeLessThan(5000);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_FAILED']);
  expect(session.closed).toBe(true);
});

test('restart while a receive(0) waits: it keeps waiting and gets the message sent after the restart', async () => {
  const { broker, factory, recorder } = await direct();
  const session = await factory.createSession();
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  const waiting = consumer.receive(0);
  await kit.restart(broker);
  await recorder.ended(1);
  await session.createProducer(QUEUE).send(sequenced(42));
  expect(seqOf((await waiting)!)).toBe(42);
  expect(await receiveCount(consumer, 0)).toEqual([]);
});

test('after a re-creation the command counts agree: the next cut reattaches with nothing lost or repeated (hornetq-spec §1.11)', async () => {
  const { broker, proxy, factory, recorder } = await kit.rig({ client: { ackBatchSize: 0 } });
  const session = await factory.createSession();
  await session.createQueue('topic', 'topic.sub', { durable: false });
  const producer = session.createProducer('topic');
  const received = collect(await session.createConsumer('topic.sub'));
  session.start();
  await kit.restart(broker);
  await recorder.ended(1);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:false']);
  // Re-creating sent the queue, the consumer, its credits, the producer and start: had they not
  // been counted, the broker's confirmations would now release the wrong commands.
  for (let round = 0; round < 5; round++) {
    const sends = sendRange(producer, round * 100, (round + 1) * 100);
    proxy.cut();
    await sends;
    await recorder.ended(round + 2);
  }
  await waitForLength(received, 500, 'messages after the re-creation');
  expect(received).toEqual(range(500));
  expect(recorder.trace.slice(2).filter((t) => t !== 'FAILURE_DETECTED')).toEqual(
    range(5).map(() => 'FAILOVER_COMPLETED:true'),
  );
});
