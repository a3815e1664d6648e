import type { ClientOptions, ClientSession, ClientSessionFactory } from '../../src';
import { MAX_HELD_ANSWERS } from '../../src/server/session/server-session';
import { DeferredSyncStorage } from '../support/deferred-sync-storage';
import { CapturingLogger, range, receiveCount, seqOf, sequenced, waitFor } from '../support/test-broker';
import { QUEUE, REATTACH_CLIENT, outcome, sleep, useReattachKit } from './reattach/rig';

/**
 * The durability rule (DESIGN.md's reattach contract, item 1): the broker answers a blocking
 * durable send, a commit and a confirmation only once their records are on disk; nothing
 * non-durable waits for a sync; answers keep packet order. The store here completes its syncs
 * only when the test says so (DeferredSyncStorage), so "not yet answered" can be watched.
 */

const kit = useReattachKit();

/** Confirms every packet at once (a window of one byte), so a confirmation held back shows. */
const CONFIRM_EACH = { ...REATTACH_CLIENT, confirmationWindowSize: 1 };

/** Whether a promise has settled, without waiting for it. */
function tracked<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  return { promise, settled: () => done };
}

/** Long enough for an answer that did not wait to have come back over loopback many times. */
const SETTLE_MS = 300;

async function setUp(client: Partial<ClientOptions> = CONFIRM_EACH): Promise<{
  storage: DeferredSyncStorage;
  factory: ClientSessionFactory;
  session: ClientSession;
  logger: CapturingLogger;
  rig: Awaited<ReturnType<typeof kit.rig>>;
}> {
  const storage = new DeferredSyncStorage();
  storage.autoRelease = true;
  const logger = new CapturingLogger();
  const rig = await kit.rig({ broker: { storage, logger, connectionTtlOverride: 60_000 }, client });
  const session = await rig.factory.createSession();
  storage.autoRelease = false;
  return { storage, factory: rig.factory, session, logger, rig };
}

test('a blocking durable send is answered, and confirmed, only after its sync', async () => {
  const { storage, factory, session } = await setUp();
  const producer = session.createProducer(QUEUE);
  await waitFor(() => factory.getStatistics().resendBufferBytes === 0, 'the producer to be confirmed');

  const send = tracked(producer.send(sequenced(0, { durable: true })));
  await waitFor(() => storage.pendingSyncs === 1, 'the broker to store the message');
  await sleep(SETTLE_MS);
  expect(send.settled()).toBe(false);
  // Not confirmed either: the client still holds the send for replay.
  expect(factory.getStatistics().resendBufferBytes).toBeGreaterThan(0);

  storage.releaseSyncs();
  expect(await outcome(send.promise)).toMatchObject({ ok: true });
  await waitFor(() => factory.getStatistics().resendBufferBytes === 0, 'the confirmation after the sync');
});

test('a non-durable send, and a query, are answered at once while nothing earlier waits', async () => {
  const { storage, session } = await setUp({ ...CONFIRM_EACH, blockOnNonDurableSend: true });
  const producer = session.createProducer(QUEUE);
  storage.autoRelease = false;
  await producer.send(sequenced(0, { durable: false }));
  expect(await session.queueQuery(QUEUE)).toMatchObject({ messageCount: 1 });
  expect(storage.pendingSyncs).toBe(0);
});

test('a commit is answered only after its sync; its sends and acknowledgements are one storage transaction', async () => {
  const { storage, factory } = await setUp();
  const tx = await factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
  const producer = tx.createProducer(QUEUE);
  const before = storage.syncRequests;
  for (const seq of range(3)) await producer.send(sequenced(seq, { durable: true }));
  // Held in the transaction: nothing stored, nothing to sync yet.
  expect(storage.syncRequests).toBe(before);

  const commit = tracked(tx.commit());
  await waitFor(() => storage.pendingSyncs === 1, 'the commit to be stored');
  // One sync for the whole commit: it was one storage transaction.
  expect(storage.syncRequests).toBe(before + 1);
  expect(storage.transactionOpen).toBe(false);
  await sleep(SETTLE_MS);
  expect(commit.settled()).toBe(false);

  storage.releaseSyncs();
  expect(await outcome(commit.promise)).toMatchObject({ ok: true });
  expect([...storage.loadReferences(QUEUE)].map((ref) => seqOf(ref.message))).toEqual(range(3));
});

test('a later answer that needs no sync waits behind an earlier durable one', async () => {
  const { storage, session, rig } = await setUp({ ...REATTACH_CLIENT, blockOnNonDurableSend: true });
  const producer = session.createProducer(QUEUE);
  const order: string[] = [];
  const durable = producer.send(sequenced(0, { durable: true })).then(() => order.push('durable send'));
  await waitFor(() => storage.pendingSyncs === 1, 'the durable send to be stored');
  const nonDurable = producer
    .send(sequenced(1, { durable: false }))
    .then(() => order.push('non-durable send'));
  const query = session.queueQuery(QUEUE).then(() => order.push('queue query'));
  await waitFor(() => rig.broker.listQueues()[0]?.messageCount === 2, 'the broker to take the second send');
  await sleep(SETTLE_MS);
  expect(order).toEqual([]);

  storage.releaseSyncs();
  await Promise.all([durable, nonDurable, query]);
  // (The order on the wire is AnswerQueue's; the client's promises may settle in any order.)
  expect(order.sort()).toEqual(['durable send', 'non-durable send', 'queue query']);
});

test('a reattach during a pending sync waits for it: nothing is replayed twice, nothing lost', async () => {
  const { storage, session, rig, logger } = await setUp({ ...REATTACH_CLIENT, blockOnDurableSend: false });
  const producer = session.createProducer(QUEUE);
  const count = 20;
  // Not blocking: the sends go out back to back, and all wait for the same sync.
  for (const seq of range(count)) await producer.send(sequenced(seq, { durable: true }));
  await waitFor(() => [...storage.loadReferences(QUEUE)].length === count, 'the broker to store every send');
  expect(storage.pendingSyncs).toBeGreaterThan(0);

  rig.proxy.cut();
  await waitFor(
    () => logger.find(/reattach of session .* waits for \d+ answers/).length === 1,
    'the reattach to reach the broker and wait for the sync',
  );
  storage.releaseSyncs();
  await rig.recorder.ended(1);
  expect(rig.recorder.last('FAILOVER_COMPLETED')?.reattached).toBe(true);

  storage.autoRelease = true;
  const reader = await (await kit.connect(rig.broker)).createSession();
  const consumer = await reader.createConsumer(QUEUE);
  reader.start();
  expect((await receiveCount(consumer, count)).map(seqOf)).toEqual(range(count));
  expect(await consumer.receive(SETTLE_MS)).toBeNull();
  expect(await reader.queueQuery(QUEUE)).toMatchObject({ messageCount: count });
});

test.each([
  ['a sync fails', (storage: DeferredSyncStorage, error: Error) => storage.failSyncs(error)],
  ['the store reports a failure', (storage: DeferredSyncStorage, error: Error) => storage.fail(error)],
])(
  '%s: the broker stops with an error naming the cause, and answers nothing it did not store',
  async (_, failure) => {
    const { storage, session, rig, logger } = await setUp({ ...CONFIRM_EACH, reconnectAttempts: 0 });
    const producer = session.createProducer(QUEUE);
    const send = tracked(producer.send(sequenced(0, { durable: true })));
    await waitFor(() => storage.pendingSyncs === 1, 'the broker to store the message');

    const stoppedBecause: Error[] = [];
    rig.broker.onFailure((error) => stoppedBecause.push(error));
    failure(storage, new Error('EIO: i/o error, fdatasync'));
    await waitFor(() => !rig.broker.started, 'the broker to stop');
    await waitFor(() => stoppedBecause.length === 1, 'the failure listener');
    expect(stoppedBecause[0]?.message).toBe('EIO: i/o error, fdatasync');
    expect(logger.find(/critical I\/O error.*EIO: i\/o error, fdatasync/, ['error'])).toHaveLength(1);
    expect(await outcome(send.promise)).toMatchObject({ ok: false });
  },
);

test('a session holding many answers for a slow sync stops its connection being read, and resumes after it', async () => {
  const { storage, session } = await setUp({ ...REATTACH_CLIENT, blockOnDurableSend: false });
  const producer = session.createProducer(QUEUE);
  const count = 3 * MAX_HELD_ANSWERS;
  const sends = range(count).map((seq) => producer.send(sequenced(seq, { durable: true })));
  const stored = (): number => [...storage.inner.loadReferences(QUEUE)].length;
  await waitFor(() => stored() >= MAX_HELD_ANSWERS, 'the broker to hold its most answers');
  await sleep(SETTLE_MS);
  // What one read of the socket brought in beyond the bound is handled; nothing after it is read.
  expect(stored()).toBeLessThan(2 * MAX_HELD_ANSWERS);

  storage.autoRelease = true;
  storage.releaseSyncs();
  await Promise.all(sends);
  await waitFor(() => stored() === count, 'every send to be handled once reading resumed');
});
