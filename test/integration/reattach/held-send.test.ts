import { range, receiveCount, seqOf, sequenced, waitFor } from '../../support/test-broker';
import { HELD_CALL_CLIENT, QUEUE, outcome, useReattachKit, type Rig } from './rig';

/**
 * A blocking send whose answer does not come within call-timeout because the link went silent
 * (issue 11, item 8). Its request is held for replay, so its outcome is not known until the
 * failover decides, and the send waits for that instead of failing at call-timeout: reattached,
 * the request is replayed and the send resolves (the message delivered once); re-created, the
 * request is gone and the send rejects with UNBLOCKED (the message was not applied); no decision
 * within the bounds, it rejects with CALL_OUTCOME_UNKNOWN.
 */

const kit = useReattachKit();

const CLIENT = HELD_CALL_CLIENT;
/** How late a settlement may be on a loaded 2-core machine. */
const MARGIN = 4_000;

/** The send is wrapped: an async function returning a promise would wait for it to settle. */
async function sendOneThenBlackHole(rig: Rig): Promise<{ send: Promise<unknown> }> {
  const session = await rig.factory.createSession();
  const producer = session.createProducer(QUEUE);
  await producer.send(sequenced(0, { durable: true }));
  rig.proxy.blackHole();
  const send = producer.send(sequenced(1, { durable: true }));
  await waitFor(() => rig.proxy.bytesDropped > 0, 'the send to be swallowed');
  return { send };
}

async function queuedSeqs(rig: Rig, count: number): Promise<number[]> {
  const session = await (await kit.connect(rig.broker)).createSession();
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  const seqs = (await receiveCount(consumer, count)).map(seqOf);
  expect(await consumer.receive(300)).toBeNull();
  return seqs;
}

test('reattached: the send resolves once the failover has replayed it, and the message is there once', async () => {
  // The broker keeps the silent connection's session (its TTL is long), so the client reattaches.
  const rig = await kit.rig({ broker: { connectionTtlOverride: 60_000 }, client: CLIENT });
  const { send } = await sendOneThenBlackHole(rig);
  let settled = false;
  void send.then(
    () => (settled = true),
    () => (settled = true),
  );
  await waitFor(
    () => rig.recorder.count('FAILURE_DETECTED') === 1,
    'the pings to find the black hole',
    MARGIN,
  );
  // Well past call-timeout, and still open: its outcome is not known yet.
  expect(settled).toBe(false);
  rig.proxy.pass();
  expect(await outcome(send)).toMatchObject({ ok: true });
  await rig.recorder.ended(1);
  expect(rig.recorder.last('FAILOVER_COMPLETED')?.reattached).toBe(true);
  expect(await queuedSeqs(rig, 2)).toEqual(range(2));
});

test('re-created: the send rejects with UNBLOCKED saying the outcome is not known, and the message is not there', async () => {
  const rig = await kit.rig({ client: CLIENT });
  const { send } = await sendOneThenBlackHole(rig);
  rig.proxy.refuseNewConnections();
  // The broker adopts the client's TTL and reaps the silent connection with its session.
  await waitFor(() => rig.broker.getSessionCount() === 0, 'the broker to reap the session', 10_000);
  rig.proxy.pass();
  const result = await outcome(send);
  expect(result).toMatchObject({ ok: false, code: 'UNBLOCKED' });
  expect(String(result.ok ? '' : result.error)).toMatch(/not known/);
  await rig.recorder.ended(1);
  expect(rig.recorder.last('FAILOVER_COMPLETED')?.reattached).toBe(false);
  // It was swallowed by the black hole, so the broker never had it: the rejection was the truth.
  expect(await queuedSeqs(rig, 1)).toEqual([0]);
});

test('undecided: with the link gone for good the send rejects with CALL_OUTCOME_UNKNOWN, naming the failover and its timeout', async () => {
  const rig = await kit.rig({ client: { ...CLIENT, callFailoverTimeout: 500 } });
  const started = performance.now();
  const { send } = await sendOneThenBlackHole(rig);
  const result = await outcome(send);
  const elapsed = performance.now() - started;
  expect(result).toMatchObject({ ok: false, code: 'CALL_OUTCOME_UNKNOWN' });
  expect(String(result.ok ? '' : result.error)).toMatch(
    /failover did not end within call-failover-timeout \(500 ms\).*duplicate id/,
  );
  expect(rig.recorder.count('FAILURE_DETECTED')).toBe(1);
  // call-timeout + the link found dead (ttl + 2 check periods) + call-failover-timeout.
  expect(elapsed).toBeLessThan(300 + 1_500 + 500 + MARGIN);
});
