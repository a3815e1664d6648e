import { HornetQException } from '../../../src';
import { ServerConnection } from '../../../src/server/remoting/server-connection';
import { range, receiveCount, seqOf, sequenced, waitFor } from '../../support/test-broker';
import { QUEUE, collect, outcome, sendRange, sleep, useReattachKit, waitForLength } from './rig';

/**
 * hornetq-spec §7.1 (ReattachTest), adapted to one broker behind the fault proxy: the proxy cuts
 * the link (RST) or refuses new connections where HornetQ's test fails its in-VM connector.
 */

const kit = useReattachKit();

/** The broker-side connection a session lives on. */
function ownerOf(broker: { findSession(name: string): unknown }, sessionName: string): ServerConnection {
  const session = broker.findSession(sessionName) as { owner: unknown } | undefined;
  if (session === undefined) throw new Error(`the broker has no session ${sessionName}`);
  if (!(session.owner instanceof ServerConnection)) throw new Error('session owner is not a connection');
  return session.owner;
}

test('immediate reattach: every message arrives once, in order, across ten cuts', async () => {
  const { proxy, factory, recorder } = await kit.rig();
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  for (let iteration = 0; iteration < 10; iteration++) {
    await sendRange(producer, 0, 100);
    const consumer = await session.createConsumer(QUEUE);
    expect(proxy.cut()).toBe(1);
    session.start();
    const received = await receiveCount(consumer, 100);
    expect(received.map(seqOf)).toEqual(range(100));
    expect(received.map((m) => m.message.body.toString())).toEqual(range(100).map((i) => `m${i}`));
    await received[99]?.acknowledge();
    expect(await consumer.receiveImmediate()).toBeNull();
    await consumer.close();
    await session.stop();
    await recorder.ended(iteration + 1);
  }
  expect(recorder.count('FAILOVER_COMPLETED')).toBe(10);
  expect(recorder.events.filter((e) => e.type === 'FAILOVER_COMPLETED').every((e) => e.reattached)).toBe(
    true,
  );
  expect(recorder.failures).toHaveLength(10);
  expect(recorder.failures.every((f) => f.failedOver)).toBe(true);
  expect(factory.getStatistics()).toMatchObject({ reattaches: 10, reconnects: 0 });
  expect(session.closed).toBe(false);
});

test('delayed reattach: three connection attempts refused, then 1000 messages in order', async () => {
  const { proxy, factory, recorder } = await kit.rig({ client: { retryInterval: 50 } });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  const consumer = await session.createConsumer(QUEUE);
  const received = collect(consumer);
  session.start();
  await sendRange(producer, 0, 500);
  // Refused until three attempts have been (not for a time: on a loaded machine fewer retries
  // would fit in it), then let through.
  proxy.refuseNewConnections();
  proxy.cut();
  // Sent while the client is disconnected: they wait for the failover, then go after the replay.
  const sending = sendRange(producer, 500, 1000);
  await waitFor(() => proxy.connectionsRefused >= 3, 'three refused reconnection attempts');
  proxy.pass();
  await sending;
  await waitForLength(received, 1000, 'messages received');
  expect(received).toEqual(range(1000));
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:true']);
});

test('reattach attempts exhausted: FAILOVER_FAILED, failure listener told failedOver=false, every call throws OBJECT_CLOSED', async () => {
  const { proxy, factory, recorder } = await kit.rig({ client: { reconnectAttempts: 3, retryInterval: 30 } });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  const consumer = await session.createConsumer(QUEUE);
  const waiting = consumer.receive(0);
  proxy.refuseNewConnections();
  proxy.cut();
  await recorder.ended(1);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_FAILED']);
  expect(recorder.failures.map((f) => f.failedOver)).toEqual([false]);
  expect(proxy.connectionsRefused).toBe(3);
  expect(await waiting).toBeNull();
  expect(session.closed).toBe(true);
  expect(consumer.closed).toBe(true);
  expect(() => consumer.receive()).toThrow(expect.objectContaining({ code: 'OBJECT_CLOSED' }));
  expect(factory.closed).toBe(true);
  expect(() => session.start()).toThrow(expect.objectContaining({ code: 'OBJECT_CLOSED' }));
  expect(await outcome(producer.send(sequenced(1)))).toMatchObject({ ok: false, code: 'OBJECT_CLOSED' });
  expect(await outcome(session.createConsumer(QUEUE))).toMatchObject({ ok: false, code: 'OBJECT_CLOSED' });
  expect(await outcome(session.commit())).toMatchObject({ ok: false, code: 'OBJECT_CLOSED' });
  expect(await outcome(factory.createSession())).toMatchObject({ ok: false, code: 'OBJECT_CLOSED' });
  await session.close();
  await factory.close();
});

test('reattach succeeds on the last of 10 attempts and nothing is lost', async () => {
  // Growing pauses (10 ms × 1.5^n) keep the run short and leave ~250 ms before the 10th attempt
  // for the test to see the 9th refusal and let connections through.
  const { proxy, factory, recorder } = await kit.rig({
    client: {
      reconnectAttempts: 10,
      retryInterval: 10,
      retryIntervalMultiplier: 1.5,
      maxRetryInterval: 1000,
    },
  });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  await sendRange(producer, 0, 500);
  proxy.refuseNewConnections();
  proxy.cut();
  // Sent while the link is down: they go as far as the producer window lets them (HornetQ's
  // 64 KiB), the rest wait for credits the reattached session brings.
  const duringFailover = sendRange(producer, 500, 1000);
  await proxy.waitUntil(() => proxy.connectionsRefused >= 9, 10_000, '9 refused connections');
  proxy.pass();
  await duringFailover;
  await recorder.ended(1);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:true']);
  expect(proxy.connectionsRefused).toBe(9);
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  expect((await receiveCount(consumer, 1000)).map(seqOf)).toEqual(range(1000));
  expect(await consumer.receiveImmediate()).toBeNull();
});

describe('retry timing (jitter 0)', () => {
  /**
   * Cuts the link, refuses connections until `failures` attempts were refused, then lets the next
   * one through; returns the time from FAILURE_DETECTED to FAILOVER_COMPLETED.
   */
  async function timeFailover(client: Parameters<typeof kit.rig>[0], failures: number): Promise<number> {
    const { proxy, factory, recorder } = await kit.rig(client);
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    proxy.refuseNewConnections();
    proxy.cut();
    await proxy.waitUntil(() => proxy.connectionsRefused >= failures, 20_000, `${failures} refusals`);
    proxy.pass();
    await recorder.ended(1, 20_000);
    expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:true']);
    expect(proxy.connectionsRefused).toBe(failures);
    await producer.send(sequenced(1));
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    expect(seqOf((await receiveCount(consumer, 1))[0]!)).toBe(1);
    const started = recorder.last('FAILURE_DETECTED')!.at;
    return recorder.last('FAILOVER_COMPLETED')!.at - started;
  }

  test('retry interval: one refused attempt costs one interval', async () => {
    const elapsed = await timeFailover({ client: { retryInterval: 300 } }, 1);
    expect(elapsed).toBeGreaterThanOrEqual(300 - 2);
    expect(elapsed).toBeLessThan(300 + 3000);
  });

  test('exponential back-off: 50, 100, 200 ms after three refusals', async () => {
    const elapsed = await timeFailover(
      { client: { retryInterval: 50, retryIntervalMultiplier: 2, maxRetryInterval: 10_000 } },
      3,
    );
    expect(elapsed).toBeGreaterThanOrEqual(50 + 100 + 200 - 3);
    expect(elapsed).toBeLessThan(350 + 3000);
  });

  test('exponential back-off capped by max-retry-interval: 50 + 5 × 100 ms, not 3150 ms', async () => {
    const elapsed = await timeFailover(
      { client: { retryInterval: 50, retryIntervalMultiplier: 2, maxRetryInterval: 100 } },
      6,
    );
    expect(elapsed).toBeGreaterThanOrEqual(550 - 6);
    // Uncapped the pauses would add up to 50 + 100 + 200 + 400 + 800 + 1600 = 3150 ms.
    expect(elapsed).toBeLessThan(2500);
  });
});

describe('reconnect-attempts N means exactly N connection attempts', () => {
  test.each([1, 4])('%i attempt(s)', async (attempts) => {
    const { proxy, recorder } = await kit.rig({ client: { reconnectAttempts: attempts, retryInterval: 20 } });
    proxy.refuseNewConnections();
    proxy.cut();
    await recorder.ended(1);
    expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_FAILED']);
    // Nothing more is tried after giving up.
    await sleep(100);
    expect(proxy.connectionsRefused).toBe(attempts);
    expect(proxy.connectionsAccepted).toBe(1);
  });

  test('0 attempts: no reconnection at all, the failure is final', async () => {
    const { proxy, factory, recorder } = await kit.rig({ client: { reconnectAttempts: 0 } });
    const session = await factory.createSession();
    proxy.cut();
    await recorder.ended(1);
    expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_FAILED']);
    expect(recorder.failures.map((f) => f.failedOver)).toEqual([false]);
    await sleep(100);
    expect(proxy.connectionsAccepted + proxy.connectionsRefused).toBe(1);
    expect(session.closed).toBe(true);
  });
});

test('two sessions on one connection (ARTEMIS-2870): both reattach, the broker keeps none on the old connection, and a second cut reattaches both again', async () => {
  const { broker, proxy, factory, recorder } = await kit.rig();
  const first = await factory.createSession();
  const second = await factory.createSession();
  const before = ownerOf(broker, first.name);
  expect(ownerOf(broker, second.name)).toBe(before);
  expect(before.sessionCount).toBe(2);

  for (let round = 1; round <= 2; round++) {
    const previous = ownerOf(broker, first.name);
    proxy.cut();
    await recorder.ended(round);
    expect(recorder.last('FAILOVER_COMPLETED')?.reattached).toBe(true);
    const now = ownerOf(broker, first.name);
    expect(now).not.toBe(previous);
    expect(ownerOf(broker, second.name)).toBe(now);
    expect(now.sessionCount).toBe(2);
    expect(previous.sessionCount).toBe(0);
    await waitFor(() => broker.getConnectionCount() === 1, 'the old connection to go');
    expect(broker.getSessionCount()).toBe(2);
  }

  // Both still work: each sends to the other's queue and receives what the other sent.
  await first.createQueue('a', 'a', { durable: false });
  await second.createQueue('b', 'b', { durable: false });
  await sendRange(first.createProducer('b'), 0, 50);
  await sendRange(second.createProducer('a'), 0, 50);
  const fromSecond = await first.createConsumer('a');
  const fromFirst = await second.createConsumer('b');
  first.start();
  second.start();
  expect((await receiveCount(fromSecond, 50)).map(seqOf)).toEqual(range(50));
  expect((await receiveCount(fromFirst, 50)).map(seqOf)).toEqual(range(50));
  expect(factory.getStatistics()).toMatchObject({ reattaches: 2, reconnects: 0 });
});

test('overflow producer credits: a cut while waiting for credits does not lose them (window 1000, 5000-byte messages)', async () => {
  const { proxy, factory, recorder } = await kit.rig({ client: { producerWindowSize: 1000 } });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  const body = (seq: number): Buffer => Buffer.alloc(5000, seq);
  for (let seq = 0; seq < 10; seq++) {
    // The next bytes from the broker (the credits this send waits for, or the ones asked for by
    // the previous send) reset the link: the broker must replay them after the reattach.
    proxy.cutAfterBytes(0, 'toClient');
    proxy.once('reset', () => proxy.pass());
    await producer.send(sequenced(seq, { body: body(seq) }));
  }
  await proxy.waitUntil(() => proxy.linksReset >= 1, 5000, 'a cut');
  await recorder.ended(proxy.linksReset);
  expect(recorder.count('FAILOVER_COMPLETED')).toBe(proxy.linksReset);
  expect(recorder.events.filter((e) => e.type === 'FAILOVER_COMPLETED').every((e) => e.reattached)).toBe(
    true,
  );
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  const received = await receiveCount(consumer, 10);
  expect(received.map(seqOf)).toEqual(range(10));
  for (const message of received) expect(message.message.body.equals(body(seqOf(message)))).toBe(true);
  expect(await consumer.receiveImmediate()).toBeNull();
});

test('overflow producer credits: the credit request itself lost in a cut is replayed by the client', async () => {
  const { proxy, factory, recorder } = await kit.rig({ client: { producerWindowSize: 1000 } });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  for (let seq = 0; seq < 10; seq++) {
    const sent = producer.send(sequenced(seq, { body: Buffer.alloc(5000, seq) }));
    proxy.cut();
    await sent;
    await recorder.ended(seq + 1);
  }
  expect(recorder.count('FAILOVER_COMPLETED')).toBe(10);
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  expect((await receiveCount(consumer, 10)).map(seqOf)).toEqual(range(10));
});

test('createSession and createQueue called during failover succeed once it is over', async () => {
  const { proxy, factory, recorder } = await kit.rig();
  const session = await factory.createSession();
  proxy.refuseNewConnections(200);
  proxy.cut();
  await waitFor(() => factory.failingOver, 'the failover to start');
  const sessions = Promise.all(range(10).map(() => factory.createSession()));
  const queues = Promise.all(
    range(10).map((i) => session.createQueue(`cq${i}`, `cq${i}`, { durable: false })),
  );
  const created = await sessions;
  await queues;
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:true']);
  expect(proxy.connectionsRefused).toBeGreaterThanOrEqual(1);
  for (const [i, other] of created.entries()) {
    await other.createProducer(`cq${i}`).send(sequenced(i));
    const consumer = await other.createConsumer(`cq${i}`);
    other.start();
    expect(seqOf((await receiveCount(consumer, 1))[0]!)).toBe(i);
    await other.close();
  }
  expect(factory.sessionCount).toBe(1);
});

test('sessions created and closed in parallel while the link is cut every few ms: no call fails', async () => {
  // A short TTL, so that sessions whose creation answer was lost in a cut (orphans on a dead
  // connection) are reaped within the test.
  const { broker, proxy, factory } = await kit.rig({
    client: { retryInterval: 10, connectionTTL: 1000, clientFailureCheckPeriod: 200 },
  });
  const cuts = proxy.randomCuts({ meanIntervalMs: 15, maxCuts: 40, log: () => undefined });
  const errors: string[] = [];
  let queues = 0;
  let finished = false;
  void cuts.done.then(() => (finished = true));
  const worker = async (): Promise<void> => {
    for (let i = 0; i < 10 || !finished; i++) {
      let step = 'createSession';
      try {
        const session = await factory.createSession();
        const name = `w${queues++}`;
        step = 'createQueue';
        await session.createQueue(name, name, { durable: false });
        step = 'close';
        await session.close();
      } catch (error) {
        errors.push(`${step}: ${HornetQException.is(error) ? error.code : String(error)}`);
      }
    }
  };
  await Promise.all(range(10).map(() => worker()));
  expect(errors).toEqual([]);
  expect(cuts.linksCut).toBeGreaterThan(10);
  expect(factory.sessionCount).toBe(0);
  expect(broker.listQueues().filter((q) => q.name.startsWith('w'))).toHaveLength(queues);
  // Every session was closed: none may have been brought back by a failover during its close.
  await waitFor(() => broker.getSessionCount() === 0, 'the broker to hold no session', 10_000);
}, 60_000);

test('a session whose close answer is lost in a cut is closed, not brought back by the failover', async () => {
  const { broker, proxy, factory, recorder } = await kit.rig();
  const session = await factory.createSession();
  const other = await factory.createSession();
  expect(broker.getSessionCount()).toBe(2);
  // The broker closes the session and forgets it; its answer never reaches the client, whose
  // reattach is then refused.
  proxy.cutAfterBytes(0, 'toClient');
  proxy.once('reset', () => proxy.pass());
  await session.close();
  await recorder.ended(1);
  expect(session.closed).toBe(true);
  expect(factory.sessionCount).toBe(1);
  expect(broker.getSessionCount()).toBe(1);
  expect(broker.findSession(other.name)).toBeDefined();
  // The surviving session was reattached, not re-created.
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:true']);
  await other.createProducer(QUEUE).send(sequenced(7));
  const consumer = await other.createConsumer(QUEUE);
  other.start();
  expect(seqOf((await receiveCount(consumer, 1))[0]!)).toBe(7);
});

test('a reattach answer that never comes (ARTEMIS-2259): the call times out, the attempt counts, FAILOVER_FAILED follows promptly', async () => {
  const { proxy, factory, recorder } = await kit.rig({ client: { reconnectAttempts: 1, callTimeout: 300 } });
  const session = await factory.createSession();
  proxy.cut();
  // The reconnection succeeds, but nothing comes back on it.
  proxy.blackHole();
  await recorder.ended(1, 5000);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_FAILED']);
  expect(recorder.events[1]!.at - recorder.events[0]!.at).toBeLessThan(300 + 2000);
  expect(proxy.connectionsAccepted).toBe(2);
  expect(session.closed).toBe(true);
  expect(factory.closed).toBe(true);
});

describe('connections that open and then fail (proxy up, broker down)', () => {
  test('are retried on the back-off schedule, not in a busy loop', async () => {
    const { broker, proxy, factory, recorder } = await kit.rig({ client: { retryInterval: 200 } });
    const session = await factory.createSession();
    const port = broker.getPort();
    await broker.stop();
    await waitFor(() => factory.failingOver, 'the failover to start');
    const before = proxy.connectionsAccepted;
    await sleep(1000);
    const attempts = proxy.connectionsAccepted - before;
    // One attempt per 200 ms: about five in a second (a busy loop makes hundreds).
    expect(attempts).toBeGreaterThanOrEqual(2);
    expect(attempts).toBeLessThanOrEqual(8);
    await kit.startBroker({
      ...broker.config,
      acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port }],
    });
    await recorder.ended(1);
    expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:false']);
    expect(session.closed).toBe(false);
  });

  test('count against reconnect-attempts like refused ones: exactly N in all', async () => {
    const { broker, proxy, factory, recorder } = await kit.rig({
      client: { reconnectAttempts: 3, retryInterval: 100 },
    });
    // A session, so that each new connection must reach the broker to count as a success.
    const session = await factory.createSession();
    // The first attempt is refused, the next ones open and fail during the reattach.
    proxy.refuseNewConnections();
    await broker.stop();
    await proxy.waitUntil(() => proxy.connectionsRefused === 1, 5000, 'one refused attempt');
    proxy.pass();
    await recorder.ended(1);
    expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_FAILED']);
    await sleep(200);
    expect(proxy.connectionsRefused).toBe(1);
    expect(proxy.connectionsAccepted - 1).toBe(2);
    expect(session.closed).toBe(true);
  });
});

test('a temporary queue survives reattaches and goes when the factory that made it closes', async () => {
  const { broker, proxy, factory, recorder } = await kit.rig();
  const session = await factory.createSession();
  await session.createQueue('replies', 'replies.tmp', { temporary: true, durable: false });
  const received = collect(await session.createConsumer('replies.tmp'));
  session.start();
  const producer = session.createProducer('replies');
  for (let round = 0; round < 3; round++) {
    await sendRange(producer, round * 10, (round + 1) * 10);
    proxy.cut();
    await recorder.ended(round + 1);
    // The old connection is finished once the session moved; the queue moved with it.
    await waitFor(() => broker.getConnectionCount() === 1, 'one connection');
    expect(broker.listQueues().map((q) => q.name)).toContain('replies.tmp');
  }
  await waitForLength(received, 30, 'messages on the temporary queue');
  expect(received).toEqual(range(30));
  await factory.close();
  await waitFor(
    () => !broker.listQueues().some((q) => q.name === 'replies.tmp'),
    'the temporary queue to be deleted with its connection',
  );
});
