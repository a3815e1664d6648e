import { range, receiveCount, seqOf, sequenced, waitFor } from '../../support/test-broker';
import { QUEUE, sendRange, sleep, useReattachKit } from './rig';

/**
 * hornetq-spec §2 and §7.8 (PingTest), through the fault proxy. A black hole drops every byte and
 * holds back FIN and RST, so only pings can tell that the link is dead: the client must notice
 * within about connection-ttl (checked every client-failure-check-period), and the broker must
 * reap a connection that stayed silent past its TTL.
 */

const kit = useReattachKit();
const TTL = 500;
const CHECK = 100;

test('a black-holed link is detected by the client within about connection-ttl, and the session reattaches after pass()', async () => {
  // The broker keeps the session much longer than the client takes to notice, so it can reattach.
  const { broker, proxy, factory, recorder } = await kit.rig({
    broker: { connectionTtlOverride: 10_000 },
    client: { connectionTTL: TTL, clientFailureCheckPeriod: CHECK },
  });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  await sendRange(producer, 0, 10);
  const silencedAt = Date.now();
  proxy.blackHole();
  // Sent into the black hole: kept in the resend buffer and replayed after the reattach.
  await sendRange(producer, 10, 20);
  await waitFor(() => recorder.count('FAILURE_DETECTED') === 1, 'the client to notice the dead link', 5000);
  const detectedAfter = recorder.events[0]!.at - silencedAt;
  expect(recorder.events[0]!.cause).toMatchObject({ code: 'CONNECTION_TIMEDOUT' });
  // Data last arrived at most one check period before the black hole; the failure comes at the
  // first check at least TTL after the last check that saw data.
  expect(detectedAfter).toBeGreaterThanOrEqual(TTL - CHECK - 5);
  expect(detectedAfter).toBeLessThan(TTL + CHECK + 2000);
  // New links are black-holed too: each attempt dies of the same silence until the network heals.
  await sleep(2 * TTL);
  expect(recorder.count('FAILOVER_COMPLETED')).toBe(0);
  expect(proxy.connectionsAccepted).toBeGreaterThan(1);
  // The network heals. A link that lived through the black hole lost bytes for good (real TCP
  // would have retransmitted them), so it is cut: the client's next attempt gets a clean link.
  proxy.pass();
  proxy.cut();
  await recorder.ended(1);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:true']);
  expect(broker.getSessionCount()).toBe(1);
  // The connection the broker still thought alive is finished once its last session moved away.
  await waitFor(() => broker.getConnectionCount() === 1, 'the half-open connection to go');
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  expect((await receiveCount(consumer, 20)).map(seqOf)).toEqual(range(20));
  expect(await consumer.receiveImmediate()).toBeNull();
});

test('the broker reaps a silent connection after its TTL; a later reattach is refused and the session re-created', async () => {
  const { broker, proxy, factory, recorder } = await kit.rig({
    client: { connectionTTL: TTL, clientFailureCheckPeriod: CHECK },
  });
  const session = await factory.createSession();
  await session.createQueue('replies', 'replies.tmp', { temporary: true, durable: false });
  // Durable, so blocking: the broker has it before the link goes silent.
  await session.createProducer(QUEUE).send(sequenced(1, { durable: true }));
  expect(broker.getConnectionCount()).toBe(1);
  proxy.refuseNewConnections();
  const silencedAt = Date.now();
  proxy.blackHole();
  await waitFor(() => broker.getConnectionCount() === 0, 'the broker to reap the connection', 5000);
  const reapedAfter = Date.now() - silencedAt;
  // The broker learnt the TTL from the client's pings; it scans every 100 ms.
  expect(reapedAfter).toBeGreaterThanOrEqual(TTL - CHECK - 5);
  expect(reapedAfter).toBeLessThan(TTL + 2 * 100 + 2000);
  // Reaping forgets the sessions and deletes the connection's temporary queues.
  expect(broker.getSessionCount()).toBe(0);
  expect(broker.listQueues().map((q) => q.name)).not.toContain('replies.tmp');
  proxy.pass();
  await recorder.ended(1);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:false']);
  expect(factory.getStatistics()).toMatchObject({ reattaches: 0, reconnects: 1 });
  expect(broker.getSessionCount()).toBe(1);
  expect(broker.listQueues().find((q) => q.name === 'replies.tmp')).toMatchObject({ temporary: true });
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([1]);
});

test('an idle link with pinging never fails: same connection on both sides, pings flowing', async () => {
  const { broker, proxy, factory, recorder } = await kit.rig({
    client: { connectionTTL: 300, clientFailureCheckPeriod: CHECK },
  });
  const session = await factory.createSession();
  const before = (broker.findSession(session.name) as { owner: unknown }).owner;
  const bytesBefore = proxy.bytesToServer + proxy.bytesToClient;
  // Five TTLs of silence from the application.
  await sleep(1500);
  expect(recorder.events).toEqual([]);
  expect(recorder.failures).toEqual([]);
  expect(proxy.connectionsAccepted).toBe(1);
  expect(broker.getConnectionCount()).toBe(1);
  expect((broker.findSession(session.name) as { owner: unknown }).owner).toBe(before);
  // About 15 pings each way; at least a handful must have gone through.
  expect(proxy.bytesToServer + proxy.bytesToClient - bytesBefore).toBeGreaterThan(5 * 2 * 13);
  await session.createProducer(QUEUE).send(sequenced(3));
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([3]);
});

test('half-close (FIN, no RST) is a failure like any other and the session reattaches', async () => {
  const { proxy, factory, recorder } = await kit.rig();
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  await sendRange(producer, 0, 5);
  proxy.halfClose();
  await recorder.ended(1);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:true']);
  await sendRange(producer, 5, 10);
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  expect((await receiveCount(consumer, 10)).map(seqOf)).toEqual(range(10));
});
