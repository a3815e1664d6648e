import type { ClientSession } from '../../../src';
import { range, receiveCount, seqOf, sequenced, waitFor } from '../../support/test-broker';
import { QUEUE, outcome, sendRange, useReattachKit, type Rig } from './rig';

/**
 * What a re-created session promises (hornetq-spec §1.7, §1.8, §7.10 adapted to one broker; DESIGN
 * "The reattach contract" items 3 and 4). The broker loses the session either by a restart or by
 * reaping a connection that stayed silent past its TTL; calls in flight are then released with
 * UNBLOCKED, a transaction with work becomes rollback-only, and unacknowledged messages come back.
 * With a reattach instead, the same calls complete normally.
 */

const kit = useReattachKit();

/** Client TTL 500 ms (the broker adopts it from the pings), checked every 100 ms on both sides. */
const SHORT_TTL = { connectionTTL: 500, clientFailureCheckPeriod: 100, ackBatchSize: 0 };

/**
 * Silences the link until the broker has reaped the client's connection (TTL expired), then lets
 * the client reconnect: its reattach is refused and its sessions are re-created.
 */
async function loseSessionsByTtl({ broker, proxy, recorder }: Rig, failoversBefore = 0): Promise<void> {
  proxy.refuseNewConnections();
  proxy.blackHole();
  await waitFor(() => broker.getConnectionCount() === 0, 'the broker to reap the silent connection', 10_000);
  expect(broker.getSessionCount()).toBe(0);
  proxy.pass();
  await recorder.ended(failoversBefore + 1);
  expect(recorder.last('FAILOVER_COMPLETED')?.reattached).toBe(false);
}

async function transacted(rig: Rig): Promise<ClientSession> {
  return rig.factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
}

function queueDepth(rig: Rig, name = QUEUE): number {
  return rig.broker.listQueues().find((q) => q.name === name)?.messageCount ?? -1;
}

describe('transactions on a re-created session', () => {
  test('sent before the broker restarted: rollback-only, commit throws TRANSACTION_ROLLED_BACK, then the session works', async () => {
    const broker = await kit.startBroker({
      connectionTtlCheckInterval: 100,
      queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: true }],
    });
    const factory = await kit.connect(broker, {
      confirmationWindowSize: 1 << 20,
      reconnectAttempts: -1,
      retryInterval: 50,
      retryJitter: 0,
    });
    const session = await factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
    const producer = session.createProducer(QUEUE);
    await sendRange(producer, 0, 5, { durable: true });
    const failovers: string[] = [];
    factory.addFailoverListener((e) => failovers.push(e.type));
    const restarted = await kit.restart(broker);
    await waitFor(() => failovers.includes('FAILOVER_COMPLETED'), 'the re-creation');
    expect(session.isRollbackOnly).toBe(true);
    expect(await outcome(session.commit())).toMatchObject({ ok: false, code: 'TRANSACTION_ROLLED_BACK' });
    expect(session.isRollbackOnly).toBe(false);
    // Usable again: a new transaction commits, and only its message is on the queue.
    await producer.send(sequenced(100, { durable: true }));
    await session.commit();
    const reader = await factory.createSession();
    const consumer = await reader.createConsumer(QUEUE);
    reader.start();
    expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([100]);
    expect(await consumer.receiveImmediate()).toBeNull();
    expect(restarted.listQueues().find((q) => q.name === QUEUE)?.messagesAdded).toBe(1);
  });

  test('received before the session was lost: commit throws TRANSACTION_ROLLED_BACK, the messages come back and can be committed', async () => {
    const rig = await kit.rig({ client: SHORT_TTL });
    const sender = await rig.factory.createSession();
    await sendRange(sender.createProducer(QUEUE), 0, 10, { durable: true });
    const session = await transacted(rig);
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const first = await receiveCount(consumer, 5);
    await first[4]?.acknowledge();
    await loseSessionsByTtl(rig);
    expect(session.isRollbackOnly).toBe(true);
    expect(await outcome(session.commit())).toMatchObject({ ok: false, code: 'TRANSACTION_ROLLED_BACK' });
    const again = await receiveCount(consumer, 10);
    expect(again.map(seqOf)).toEqual(range(10));
    await again[9]?.acknowledge();
    await session.commit();
    await waitFor(() => queueDepth(rig) === 0, 'the queue to be empty after the commit');
  });

  test('no work before the session was lost: not rollback-only, the next commit succeeds', async () => {
    const rig = await kit.rig({ client: SHORT_TTL });
    const session = await transacted(rig);
    const producer = session.createProducer(QUEUE);
    await sendRange(producer, 0, 3, { durable: true });
    await session.commit();
    await loseSessionsByTtl(rig);
    expect(session.isRollbackOnly).toBe(false);
    await sendRange(producer, 3, 6, { durable: true });
    await session.commit();
    await waitFor(() => queueDepth(rig) === 6, 'six committed messages');
  });

  test('commit in flight when the session is lost for good: TRANSACTION_OUTCOME_UNKNOWN (or ROLLED_BACK), then the session works', async () => {
    const rig = await kit.rig({ client: SHORT_TTL });
    const session = await transacted(rig);
    const producer = session.createProducer(QUEUE);
    await sendRange(producer, 0, 5, { durable: true });
    rig.proxy.refuseNewConnections();
    rig.proxy.blackHole();
    const commit = outcome(session.commit());
    await loseSessionsByTtl(rig);
    const result = await commit;
    expect(result.ok).toBe(false);
    expect(['TRANSACTION_OUTCOME_UNKNOWN', 'TRANSACTION_ROLLED_BACK']).toContain(!result.ok && result.code);
    // The commit never reached the broker, so nothing was added.
    expect(queueDepth(rig)).toBe(0);
    expect(session.isRollbackOnly).toBe(false);
    await sendRange(producer, 5, 8, { durable: true });
    await session.commit();
    await waitFor(() => queueDepth(rig) === 3, 'the three messages of the new transaction');
  });

  test('commit in flight with a reattach: it completes normally and its messages are there exactly once', async () => {
    const rig = await kit.rig();
    const session = await transacted(rig);
    const producer = session.createProducer(QUEUE);
    // Request lost: the broker never saw the commit; the client replays it.
    await sendRange(producer, 0, 5, { durable: true });
    rig.proxy.blackHole();
    const lostRequest = session.commit();
    rig.proxy.pass();
    rig.proxy.cut();
    await lostRequest;
    // Answer lost: the broker committed; it replays the answer.
    await sendRange(producer, 5, 10, { durable: true });
    rig.proxy.cutAfterBytes(0, 'toClient');
    rig.proxy.once('reset', () => rig.proxy.pass());
    await session.commit();
    await rig.recorder.ended(2);
    expect(rig.recorder.trace).toEqual([
      'FAILURE_DETECTED',
      'FAILOVER_COMPLETED:true',
      'FAILURE_DETECTED',
      'FAILOVER_COMPLETED:true',
    ]);
    const reader = await rig.factory.createSession();
    const consumer = await reader.createConsumer(QUEUE);
    reader.start();
    expect((await receiveCount(consumer, 10)).map(seqOf)).toEqual(range(10));
    expect(await consumer.receiveImmediate()).toBeNull();
  });
});

test('unacknowledged messages are redelivered to the re-created consumer with a higher delivery count', async () => {
  const rig = await kit.rig({ client: SHORT_TTL });
  const session = await rig.factory.createSession();
  await sendRange(session.createProducer(QUEUE), 0, 10, { durable: true });
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  const first = await receiveCount(consumer, 5);
  expect(first.every((m) => m.deliveryCount === 1 && !m.redelivered)).toBe(true);
  await loseSessionsByTtl(rig);
  const again = await receiveCount(consumer, 10);
  expect(again.map(seqOf)).toEqual(range(10));
  // The five the application saw, and the five that waited in the consumer's buffer, all count
  // as delivered: the broker cannot tell which the client looked at.
  expect(again.map((m) => m.deliveryCount)).toEqual(range(10).map(() => 2));
  expect(again.every((m) => m.redelivered)).toBe(true);
  await again[9]?.acknowledge();
  await waitFor(() => queueDepth(rig) === 0, 'everything acknowledged');
});

describe('blocking calls in flight', () => {
  test('during a re-creation they reject with UNBLOCKED', async () => {
    const rig = await kit.rig({ client: SHORT_TTL });
    const session = await rig.factory.createSession();
    await session.createQueue('other', 'other', { durable: true });
    const producer = session.createProducer(QUEUE);
    // The first send fetches producer credits: the next one goes straight on the wire.
    await producer.send(sequenced(0, { durable: true }));
    rig.proxy.refuseNewConnections();
    rig.proxy.blackHole();
    const query = outcome(session.queueQuery(QUEUE));
    const send = outcome(producer.send(sequenced(1, { durable: true })));
    const create = outcome(session.createConsumer('other'));
    await loseSessionsByTtl(rig);
    expect(await query).toMatchObject({ ok: false, code: 'UNBLOCKED' });
    expect(await send).toMatchObject({ ok: false, code: 'UNBLOCKED' });
    expect(await create).toMatchObject({ ok: false, code: 'UNBLOCKED' });
    // The session itself is fine, and the consumer whose creation was cut off does not exist.
    expect((await session.queueQuery(QUEUE)).exists).toBe(true);
    await waitFor(() => rig.broker.getSessionCount() === 1, 'the re-created session');
    expect(rig.broker.listQueues().find((q) => q.name === 'other')?.consumerCount).toBe(0);
  });

  test('with a reattach they complete normally, whether the request or the answer was lost', async () => {
    const rig = await kit.rig();
    const session = await rig.factory.createSession();
    rig.proxy.blackHole();
    const query = session.queueQuery(QUEUE);
    const send = session.createProducer(QUEUE).send(sequenced(1, { durable: true }));
    rig.proxy.pass();
    rig.proxy.cut();
    expect(await query).toMatchObject({ exists: true, durable: true });
    await send;
    rig.proxy.cutAfterBytes(0, 'toClient');
    rig.proxy.once('reset', () => rig.proxy.pass());
    const consumer = await session.createConsumer(QUEUE);
    await rig.recorder.ended(2);
    expect(rig.recorder.trace.filter((t) => t.startsWith('FAILOVER'))).toEqual([
      'FAILOVER_COMPLETED:true',
      'FAILOVER_COMPLETED:true',
    ]);
    session.start();
    expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([1]);
    expect(await consumer.receiveImmediate()).toBeNull();
  });

  test('receiveImmediate in flight settles: null across a re-creation, the message across a reattach', async () => {
    const rig = await kit.rig({ client: SHORT_TTL });
    const session = await rig.factory.createSession();
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    rig.proxy.refuseNewConnections();
    rig.proxy.blackHole();
    const lost = consumer.receiveImmediate();
    await loseSessionsByTtl(rig);
    expect(await lost).toBeNull();
    rig.proxy.blackHole();
    // Sent straight to the broker: its delivery to the consumer vanishes in the black hole.
    const direct = await (await kit.connect(rig.broker)).createSession();
    await direct.createProducer(QUEUE).send(sequenced(5, { durable: true }));
    const replayed = consumer.receiveImmediate();
    rig.proxy.pass();
    rig.proxy.cut();
    const message = await replayed;
    expect(message === null ? null : seqOf(message)).toBe(5);
    await rig.recorder.ended(2);
    expect(rig.recorder.last('FAILOVER_COMPLETED')?.reattached).toBe(true);
  });

  test('a consumer closing during a re-creation is not brought back on the broker', async () => {
    const rig = await kit.rig({ client: SHORT_TTL });
    const session = await rig.factory.createSession();
    const closing = await session.createConsumer(QUEUE);
    const staying = await session.createConsumer(QUEUE);
    session.start();
    rig.proxy.refuseNewConnections();
    rig.proxy.blackHole();
    const closed = outcome(closing.close());
    await loseSessionsByTtl(rig);
    expect(await closed).toMatchObject({ ok: true });
    expect(closing.closed).toBe(true);
    await waitFor(
      () => rig.broker.listQueues().find((q) => q.name === QUEUE)?.consumerCount === 1,
      'exactly one consumer on the queue',
    );
    // Every message goes to the consumer that stayed; none is stranded on a phantom consumer.
    await sendRange(session.createProducer(QUEUE), 0, 20);
    expect((await receiveCount(staying, 20)).map(seqOf)).toEqual(range(20));
    expect(rig.broker.listQueues().find((q) => q.name === QUEUE)?.consumerCount).toBe(1);
  });
});
