import type { Broker, ClientSession, ClientSessionFactory } from '../../../src';
import type { QueueStatistics } from '../../../src/server';
import type { FaultProxy } from '../../support/fault-proxy';
import { seqOf, sequenced, waitFor } from '../../support/test-broker';
import { FailoverRecorder, QUEUE, REATTACH_BROKER, REATTACH_CLIENT, outcome, useReattachKit } from './rig';

/**
 * duplicate-id-on-durable-send across a re-creation (issue 25 item 4): a broker with persistence
 * and its duplicate cache is stopped while durable sends are in flight and started again on the
 * same data directory, so the client must re-create its sessions, as it does on a backup. Each
 * producer's link passes a fixed number of bytes and is then reset (the fault proxy), so the old
 * broker has stored some sends it never confirmed and never saw the rest.
 *
 * With the option, the re-created session sends again every durable send the old broker never
 * confirmed, in order and before anything new, and the new broker's persistent duplicate cache
 * drops those it already had: every send resolves and is consumed exactly once, in order. Without
 * it (HornetQ's semantics): a blocking send in flight fails UNBLOCKED, and a send in the
 * confirmation window that never reached the broker is lost although its promise resolved.
 */

const kit = useReattachKit();

/** Sends in the confirmation window (not blocking): they resolve once written. */
const WINDOWED_SENDS = 300;
/** Blocking sends, all in flight at once: each waits for the broker's answer. */
const BLOCKING_SENDS = 150;
/** Where the blocking producer's seqs start (the windowed one's start at 0). */
const BLOCKING_BASE = 10_000;
const BODY = Buffer.alloc(1000, 7);
/** Bytes each link passes toward the broker before the proxy resets it: about half of each run. */
const WINDOWED_CUT_BYTES = 150_000;
const BLOCKING_CUT_BYTES = 70_000;

interface Producer {
  factory: ClientSessionFactory;
  session: ClientSession;
  recorder: FailoverRecorder;
  proxy: FaultProxy;
  send(seq: number): Promise<void>;
}

/** A factory through a proxy of its own, one session and one producer on QUEUE. */
async function producerVia(
  broker: Broker,
  blocking: boolean,
  duplicateIdOnDurableSend: boolean,
  transacted = false,
): Promise<Producer> {
  const proxy = await kit.proxyFor(broker);
  const factory = await kit.connect(proxy.port, {
    ...REATTACH_CLIENT,
    duplicateIdOnDurableSend,
    blockOnDurableSend: blocking,
    // No credits to wait for: every send is on the wire at once, so the cut falls among them.
    producerWindowSize: -1,
  });
  const session = await factory.createSession({ autoCommitSends: !transacted });
  const producer = session.createProducer(QUEUE);
  return {
    factory,
    session,
    recorder: new FailoverRecorder(factory),
    proxy,
    send: (seq) => producer.send(sequenced(seq, { durable: true, body: BODY })),
  };
}

/** The link passes `bytes` toward the broker, is reset, and no new link is let through. */
function cutAfter(proxy: FaultProxy, bytes: number): void {
  proxy.once('reset', () => proxy.refuseNewConnections());
  proxy.cutAfterBytes(bytes, 'toServer');
}

/** Everything on QUEUE, acknowledged, in the order it is delivered. */
async function drain(broker: Broker): Promise<number[]> {
  const factory = await kit.connect(broker);
  const session = await factory.createSession();
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  const seqs: number[] = [];
  for (;;) {
    const message = await consumer.receive(1_000);
    if (message === null) return seqs;
    seqs.push(seqOf(message));
    await message.acknowledge();
  }
}

function range(from: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => from + i);
}

function countOf(seqs: readonly number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const seq of seqs) counts.set(seq, (counts.get(seq) ?? 0) + 1);
  return counts;
}

/** The reattach broker on a journal of its own, which a restart reads back. */
function startBroker(): Promise<Broker> {
  return kit.startBroker(REATTACH_BROKER, { journal: true });
}

function queueOf(broker: Broker): QueueStatistics | undefined {
  return broker.listQueues().find((q) => q.name === QUEUE);
}

/**
 * Once each producer's cut is detected, stops the broker and starts it again on the same port
 * and data directory, then lets the producers through; resolves once each has re-created its
 * session.
 */
async function restartUnder(broker: Broker, producers: readonly Producer[]): Promise<Broker> {
  for (const each of producers) {
    await waitFor(() => each.recorder.count('FAILURE_DETECTED') === 1, 'the cut to be detected');
  }
  const restarted = await kit.restart(broker);
  for (const each of producers) {
    each.proxy.pass();
    await each.recorder.ended(1, 30_000);
    expect(each.recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:false']);
  }
  return restarted;
}

/**
 * Runs both producers into the cut, restarts the broker on its data directory, and returns each
 * send's outcome, what the old broker held when it stopped, how many sends each producer sent
 * again, and what the new broker delivers.
 */
async function sendThroughRestart(duplicateIdOnDurableSend: boolean) {
  const broker = await startBroker();
  const windowed = await producerVia(broker, false, duplicateIdOnDurableSend);
  const blocking = await producerVia(broker, true, duplicateIdOnDurableSend);
  cutAfter(windowed.proxy, WINDOWED_CUT_BYTES);
  cutAfter(blocking.proxy, BLOCKING_CUT_BYTES);

  const windowedSends = range(0, WINDOWED_SENDS).map((seq) => outcome(windowed.send(seq)));
  const blockingSends = range(BLOCKING_BASE, BLOCKING_SENDS).map((seq) => outcome(blocking.send(seq)));
  await waitFor(() => (queueOf(broker)?.messageCount ?? 0) > 0, 'the old broker to store some sends');
  const heldByOldBroker = queueOf(broker)?.messageCount ?? 0;
  const restarted = await restartUnder(broker, [windowed, blocking]);
  return {
    windowed: await Promise.all(windowedSends),
    blocking: await Promise.all(blockingSends),
    heldByOldBroker,
    resent: [windowed, blocking].map((each) => each.factory.getStatistics().resentDurableSends),
    delivered: await drain(restarted),
  };
}

test('with duplicate-id-on-durable-send, every durable send resolves and is consumed exactly once, in order, across a re-creation', async () => {
  const run = await sendThroughRestart(true);
  // The cut fell among the sends: the old broker had some (the resends of those are duplicates)
  // and not the others (only a resend brings them).
  expect(run.heldByOldBroker).toBeGreaterThan(0);
  expect(run.heldByOldBroker).toBeLessThan(WINDOWED_SENDS + BLOCKING_SENDS);
  for (const resent of run.resent) expect(resent).toBeGreaterThan(0);
  expect(run.windowed.filter((each) => !each.ok)).toEqual([]);
  expect(run.blocking.filter((each) => !each.ok)).toEqual([]);
  const windowedSeqs = run.delivered.filter((seq) => seq < BLOCKING_BASE);
  const blockingSeqs = run.delivered.filter((seq) => seq >= BLOCKING_BASE);
  expect(windowedSeqs).toEqual(range(0, WINDOWED_SENDS));
  expect(blockingSeqs).toEqual(range(BLOCKING_BASE, BLOCKING_SENDS));
}, 90_000);

test('without it (HornetQ semantics), blocking sends in flight fail UNBLOCKED and windowed sends the broker never had are lost; nothing is duplicated', async () => {
  const run = await sendThroughRestart(false);
  const delivered = countOf(run.delivered);
  expect([...delivered.values()].filter((count) => count > 1)).toEqual([]);
  expect(run.resent).toEqual([0, 0]);

  // Windowed: every promise resolved (it was written), but only what reached the old broker is there.
  expect(run.windowed.filter((each) => !each.ok)).toEqual([]);
  const windowedDelivered = run.delivered.filter((seq) => seq < BLOCKING_BASE);
  expect(windowedDelivered.length).toBeGreaterThan(0);
  expect(windowedDelivered.length).toBeLessThan(WINDOWED_SENDS);
  // The old broker had a prefix of them, in order: the rest never reached it.
  expect(windowedDelivered).toEqual(range(0, windowedDelivered.length));

  // Blocking: each either had its answer (and is there once) or was released with UNBLOCKED;
  // the sends the cut caught were released.
  const released = run.blocking.filter((each) => !each.ok);
  expect(released.length).toBeGreaterThan(0);
  expect(released.filter((each) => !each.ok && each.code !== 'UNBLOCKED')).toEqual([]);
  run.blocking.forEach((each, index) => {
    if (each.ok) expect(delivered.get(BLOCKING_BASE + index)).toBe(1);
  });
}, 90_000);

test('inside a transaction nothing is sent again: the transaction is rolled back, and commit says so', async () => {
  const broker = await startBroker();
  const transacted = await producerVia(broker, false, true, true);
  cutAfter(transacted.proxy, WINDOWED_CUT_BYTES);
  const sends = range(0, WINDOWED_SENDS).map((seq) => outcome(transacted.send(seq)));
  const restarted = await restartUnder(broker, [transacted]);
  expect((await Promise.all(sends)).filter((each) => !each.ok)).toEqual([]);
  expect(transacted.factory.getStatistics().resentDurableSends).toBe(0);
  expect(transacted.session.isRollbackOnly).toBe(true);
  await expect(transacted.session.commit()).rejects.toMatchObject({ code: 'TRANSACTION_ROLLED_BACK' });
  // The retry is a new transaction, and the only one there.
  await transacted.send(WINDOWED_SENDS);
  await transacted.session.commit();
  expect(await drain(restarted)).toEqual([WINDOWED_SENDS]);
}, 90_000);
