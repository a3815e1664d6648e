import type { ClientOptions, ClientSession, QueueStatistics, ReceivedMessage } from '../../../src';
import { receiveCount, seqOf, sequenced, waitFor } from '../../support/test-broker';
import { HELD_CALL_CLIENT, QUEUE, outcome, useReattachKit, type Rig } from './rig';

/**
 * Every blocking call whose answer does not come within call-timeout because the link went
 * silent, not only a send (issue 11, item 8; held-send.test.ts covers sends). Its request is held
 * for replay, so its outcome is not known until the failover decides, and the call waits for
 * that instead of failing at call-timeout: reattached, the request is replayed and the call
 * completes (applied once); re-created, the request is gone and the call rejects with UNBLOCKED
 * (a commit with TRANSACTION_OUTCOME_UNKNOWN); no decision within the bounds, CALL_OUTCOME_UNKNOWN
 * (a commit, again, with TRANSACTION_OUTCOME_UNKNOWN).
 * Whatever the call's result, the broker's state agrees with it.
 */

const kit = useReattachKit();

const CLIENT = HELD_CALL_CLIENT;
/** Each acknowledgement goes to the broker at once and waits for its answer. */
const BLOCKING_ACKS: Partial<ClientOptions> = { ...CLIENT, blockOnAcknowledge: true, ackBatchSize: 0 };
/** The broker keeps the silent connection's session (its TTL is long), so the client reattaches. */
const KEEPS_SESSIONS = { connectionTtlOverride: 60_000 };
const OTHER = 'held-calls-other';
/** How late a settlement may be on a loaded 2-core machine. */
const MARGIN = 4_000;

/** A call's outcome once it settles, and whether it has. */
function track<T>(promise: Promise<T>): { readonly settled: boolean; result: ReturnType<typeof outcome<T>> } {
  let settled = false;
  const result = outcome(promise).finally(() => (settled = true));
  return {
    get settled() {
      return settled;
    },
    result,
  };
}

/** Waits until the black hole has swallowed something and the pings have found it. */
async function blackHoleFound(rig: Rig): Promise<void> {
  await waitFor(() => rig.proxy.bytesDropped > 0, 'the call to be swallowed');
  await waitFor(
    () => rig.recorder.count('FAILURE_DETECTED') === 1,
    'the pings to find the black hole',
    MARGIN,
  );
}

/** Silences the link until the broker has reaped the session, then lets the client re-create it. */
async function brokerLosesTheSession(rig: Rig): Promise<void> {
  rig.proxy.refuseNewConnections();
  rig.proxy.blackHole();
  await waitFor(() => rig.broker.getSessionCount() === 0, 'the broker to reap the session', 10_000);
  rig.proxy.pass();
}

function queue(rig: Rig, name = QUEUE): QueueStatistics {
  const found = rig.broker.listQueues().find((q) => q.name === name);
  if (found === undefined) throw new Error(`no queue ${name} on the broker`);
  return found;
}

/** What the queue holds, read by a fresh client straight from the broker. */
async function queuedSeqs(rig: Rig, count: number): Promise<number[]> {
  const session = await (await kit.connect(rig.broker)).createSession();
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  const seqs = (await receiveCount(consumer, count)).map(seqOf);
  expect(await consumer.receive(300)).toBeNull();
  return seqs;
}

async function sendTwo(rig: Rig): Promise<void> {
  const producer = (await rig.factory.createSession()).createProducer(QUEUE);
  for (const seq of [0, 1]) await producer.send(sequenced(seq, { durable: true }));
}

/** A session whose consumer has taken the first message (not yet acknowledged). */
async function receivedFirst(rig: Rig): Promise<{ session: ClientSession; first: ReceivedMessage }> {
  await sendTwo(rig);
  const session = await rig.factory.createSession();
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  const [first] = await receiveCount(consumer, 1);
  if (first === undefined) throw new Error('no first message');
  expect(seqOf(first)).toBe(0);
  return { session, first };
}

/** A transacted session with three messages sent in its transaction and processed by the broker. */
async function threeSentInATransaction(rig: Rig): Promise<ClientSession> {
  const session = await rig.factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
  const producer = session.createProducer(QUEUE);
  for (const seq of [0, 1, 2]) await producer.send(sequenced(seq));
  // A round trip after the sends: the broker has them in the transaction.
  await session.queueQuery(QUEUE);
  return session;
}

describe('a blocking acknowledgement', () => {
  test('reattached: it resolves once the failover has replayed it, and the message is consumed once', async () => {
    const rig = await kit.rig({ broker: KEEPS_SESSIONS, client: BLOCKING_ACKS });
    const { session, first } = await receivedFirst(rig);
    rig.proxy.blackHole();
    const ack = track(first.acknowledge());
    await blackHoleFound(rig);
    // Well past call-timeout, and still open: its outcome is not known yet.
    expect(ack.settled).toBe(false);
    rig.proxy.pass();
    expect(await ack.result).toMatchObject({ ok: true });
    await rig.recorder.ended(1);
    expect(rig.recorder.last('FAILOVER_COMPLETED')?.reattached).toBe(true);
    expect(queue(rig).messagesAcknowledged).toBe(1);
    // The second message, delivered and not acknowledged, goes back; the first is gone for good.
    await session.close();
    expect(await queuedSeqs(rig, 1)).toEqual([1]);
  });

  test('re-created: it rejects with UNBLOCKED saying the outcome is not known, and the message comes back', async () => {
    const rig = await kit.rig({ client: BLOCKING_ACKS });
    const { session, first } = await receivedFirst(rig);
    rig.proxy.blackHole();
    const ack = track(first.acknowledge());
    await waitFor(() => rig.proxy.bytesDropped > 0, 'the acknowledgement to be swallowed');
    await brokerLosesTheSession(rig);
    const result = await ack.result;
    expect(result).toMatchObject({ ok: false, code: 'UNBLOCKED' });
    expect(String(result.ok ? '' : result.error)).toMatch(/not known/);
    await rig.recorder.ended(1);
    expect(rig.recorder.last('FAILOVER_COMPLETED')?.reattached).toBe(false);
    // The black hole swallowed it, so the broker never had it: the message is redelivered.
    expect(queue(rig).messagesAcknowledged).toBe(0);
    await session.close();
    expect(await queuedSeqs(rig, 2)).toEqual([0, 1]);
  });
});

describe('a commit', () => {
  test('reattached: it resolves once the failover has replayed it, and the messages are there once', async () => {
    const rig = await kit.rig({ broker: KEEPS_SESSIONS, client: CLIENT });
    const session = await threeSentInATransaction(rig);
    rig.proxy.blackHole();
    const commit = track(session.commit());
    await blackHoleFound(rig);
    expect(commit.settled).toBe(false);
    rig.proxy.pass();
    expect(await commit.result).toMatchObject({ ok: true });
    await rig.recorder.ended(1);
    expect(rig.recorder.last('FAILOVER_COMPLETED')?.reattached).toBe(true);
    expect(await queuedSeqs(rig, 3)).toEqual([0, 1, 2]);
  });

  test('re-created: it rejects with TRANSACTION_OUTCOME_UNKNOWN, nothing was committed, and the session goes on', async () => {
    const rig = await kit.rig({ client: CLIENT });
    const session = await threeSentInATransaction(rig);
    rig.proxy.refuseNewConnections();
    rig.proxy.blackHole();
    const commit = track(session.commit());
    await waitFor(() => rig.proxy.bytesDropped > 0, 'the commit to be swallowed');
    await brokerLosesTheSession(rig);
    expect(await commit.result).toMatchObject({ ok: false, code: 'TRANSACTION_OUTCOME_UNKNOWN' });
    await rig.recorder.ended(1);
    expect(rig.recorder.last('FAILOVER_COMPLETED')?.reattached).toBe(false);
    expect(queue(rig).messageCount).toBe(0);
    await session.createProducer(QUEUE).send(sequenced(3));
    await session.commit();
    expect(await queuedSeqs(rig, 1)).toEqual([3]);
  });

  test('undecided: with the link gone for good it rejects with TRANSACTION_OUTCOME_UNKNOWN, naming the commit and the failover', async () => {
    const rig = await kit.rig({ client: { ...CLIENT, callFailoverTimeout: 500 } });
    const session = await threeSentInATransaction(rig);
    rig.proxy.blackHole();
    const started = performance.now();
    const result = await outcome(session.commit());
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ ok: false, code: 'TRANSACTION_OUTCOME_UNKNOWN' });
    expect(String(result.ok ? '' : result.error)).toMatch(
      /SESS_COMMIT.*failover did not end within call-failover-timeout \(500 ms\).*not known/,
    );
    expect(rig.recorder.count('FAILURE_DETECTED')).toBe(1);
    // call-timeout + the link found dead (ttl + 2 check periods) + call-failover-timeout.
    expect(elapsed).toBeLessThan(300 + 1_500 + 500 + MARGIN);
  });
});

test('reattached: create-consumer, stop, a queue query and a blocking large message wait past call-timeout and complete', async () => {
  const rig = await kit.rig({ broker: KEEPS_SESSIONS, client: { ...CLIENT, minLargeMessageSize: 1024 } });
  const session = await rig.factory.createSession();
  await session.createQueue(OTHER, OTHER);
  const producer = session.createProducer(QUEUE);
  await producer.send(sequenced(0, { durable: true }));
  session.start();
  rig.proxy.blackHole();
  const body = Buffer.alloc(5_000, 7);
  const calls = {
    largeSend: track(producer.send(sequenced(1, { durable: true, body }))),
    stop: track(session.stop()),
    createConsumer: track(session.createConsumer(OTHER)),
    queueQuery: track(session.queueQuery(QUEUE)),
  };
  await blackHoleFound(rig);
  for (const [name, call] of Object.entries(calls)) expect([name, call.settled]).toEqual([name, false]);
  rig.proxy.pass();
  for (const [name, call] of Object.entries(calls)) {
    expect([name, await call.result]).toMatchObject([name, { ok: true }]);
  }
  await rig.recorder.ended(1);
  expect(rig.recorder.last('FAILOVER_COMPLETED')?.reattached).toBe(true);
  expect(queue(rig, OTHER)).toMatchObject({ consumerCount: 1 });
  expect(await calls.queueQuery.result).toMatchObject({ value: { exists: true } });
  expect(await queuedSeqs(rig, 2)).toEqual([0, 1]);
});
