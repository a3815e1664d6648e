import v8 from 'node:v8';
import vm from 'node:vm';
import type { ClientSession } from '../../../src';
import { CapturingLogger, range, receiveCount, seqOf, sequenced, waitFor } from '../../support/test-broker';
import {
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
 * The minimum reconnection matrix of research/ecosystem.md §6, rows 1–9, each a failure mode that
 * a peer library shipped. Row 5 (several sessions on one connection) is also covered in depth in
 * reattach.test.ts; row 10 (the model run) lives with the property-based tests.
 */

const kit = useReattachKit();
const KB = 1024;

function body(seq: number, size: number): Buffer {
  return Buffer.alloc(size, seq % 251);
}

test('row 1: cuts in the middle of frames, both directions: no parse error, nothing lost or repeated', async () => {
  const brokerLog = new CapturingLogger();
  const clientLog = new CapturingLogger();
  const { proxy, factory, recorder } = await kit.rig({
    broker: { logger: brokerLog },
    client: { logger: clientLog, consumerWindowSize: 30 * KB },
  });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  // Offsets inside the length field, the header, a body, and a later frame.
  const offsets = [1, 7, 13, 100, 4099, 10_000, 25_000];
  let seq = 0;
  for (const [i, offset] of offsets.entries()) {
    proxy.cutAfterBytes(offset, 'toServer');
    proxy.once('reset', () => proxy.pass());
    const upTo = seq + 5;
    for (; seq < upTo; seq++) await producer.send(sequenced(seq, { body: body(seq, 10 * KB) }));
    // One cut at a time: the next one is armed on the link this failover opened.
    await recorder.ended(i + 1);
  }
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  const received: number[] = [];
  for (const [i, offset] of offsets.entries()) {
    proxy.cutAfterBytes(offset, 'toClient');
    proxy.once('reset', () => proxy.pass());
    for (const message of await receiveCount(consumer, 5)) {
      expect(message.message.body.equals(body(seqOf(message), 10 * KB))).toBe(true);
      received.push(seqOf(message));
      await message.acknowledge();
    }
    await recorder.ended(offsets.length + i + 1);
  }
  expect(received).toEqual(range(seq));
  expect(await consumer.receiveImmediate()).toBeNull();
  await recorder.ended(2 * offsets.length);
  expect(recorder.count('FAILOVER_COMPLETED')).toBe(2 * offsets.length);
  expect(recorder.events.filter((e) => e.type === 'FAILOVER_COMPLETED').every((e) => e.reattached)).toBe(
    true,
  );
  // A truncated frame is a closed link, never a malformed one.
  expect(brokerLog.find(/protocol error|malformed/i)).toEqual([]);
  expect(clientLog.find(/protocol error|malformed/i)).toEqual([]);
});

test('row 2: a black hole longer than the check period, with traffic both ways, is detected and reattached', async () => {
  const { proxy, factory, recorder } = await kit.rig({
    broker: { connectionTtlOverride: 10_000 },
    client: { connectionTTL: 400, clientFailureCheckPeriod: 100 },
  });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  const received = collect(await session.createConsumer(QUEUE));
  session.start();
  await sendRange(producer, 0, 50);
  proxy.blackHole();
  await sendRange(producer, 50, 100);
  await waitFor(() => recorder.count('FAILURE_DETECTED') === 1, 'the dead link to be noticed', 5000);
  // Links that lived through the black hole lost bytes for good (real TCP would have retransmitted
  // them): the healed network starts from clean links.
  proxy.pass();
  proxy.cut();
  await recorder.ended(1);
  await sendRange(producer, 100, 150);
  await waitForLength(received, 150, 'messages');
  expect(received).toEqual(range(150));
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:true']);
});

test('row 3: sending into a dead link fills the resend buffer to its bound, then sends wait; all arrive once the link is back', async () => {
  const window = 64 * KB;
  const { proxy, factory, recorder } = await kit.rig({
    client: { confirmationWindowSize: window, producerWindowSize: -1 },
  });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  const size = KB;
  // The client cannot tell: it keeps writing (and buffering) until the bound stops it.
  proxy.blackHole();
  let sent = 0;
  const total = 400;
  const sending = (async () => {
    for (let seq = 0; seq < total; seq++) {
      await producer.send(sequenced(seq, { body: body(seq, size) }));
      sent++;
    }
  })();
  await waitFor(
    () => factory.getStatistics().resendBufferBytes >= 2 * window - 2 * size,
    'the buffer to fill',
  );
  const plateau = sent;
  // Give the producer time to overrun the bound if it could.
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(sent).toBe(plateau);
  expect(sent).toBeLessThan(total);
  const frame = size + 200;
  expect(factory.getStatistics().resendBufferBytes).toBeLessThanOrEqual(2 * window + frame);
  proxy.pass();
  proxy.cut();
  await sending;
  await recorder.ended(1);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:true']);
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  const received = await receiveCount(consumer, total);
  expect(received.map(seqOf)).toEqual(range(total));
  expect(factory.getStatistics().resendBufferPeakBytes).toBeLessThanOrEqual(2 * window + frame);
});

test('row 4: a broker restart settles every pending promise with a coded error, and FAILOVER_COMPLETED says re-created', async () => {
  const { broker, proxy, factory, recorder } = await kit.rig();
  const session = await factory.createSession();
  const tx = await factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
  const producer = session.createProducer(QUEUE);
  await producer.send(sequenced(0, { durable: true }));
  await tx.createProducer(QUEUE).send(sequenced(1, { durable: true }));
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([0]);
  proxy.blackHole();
  const pending = {
    query: outcome(session.queueQuery(QUEUE)),
    durableSend: outcome(producer.send(sequenced(2, { durable: true }))),
    createConsumer: outcome(session.createConsumer(QUEUE)),
    commit: outcome(tx.commit()),
  };
  const waitingReceive = consumer.receive(0);
  await kit.restart(broker);
  proxy.pass();
  proxy.cut();
  await recorder.ended(1);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:false']);
  const settled = {
    query: await pending.query,
    durableSend: await pending.durableSend,
    createConsumer: await pending.createConsumer,
    commit: await pending.commit,
  };
  expect(settled).toMatchObject({
    query: { ok: false, code: 'UNBLOCKED' },
    durableSend: { ok: false, code: 'UNBLOCKED' },
    createConsumer: { ok: false, code: 'UNBLOCKED' },
    commit: { ok: false, code: 'TRANSACTION_OUTCOME_UNKNOWN' },
  });
  // A receive keeps waiting across the re-creation: it gets message 0 again (durable, never
  // acknowledged), then what is sent next. 1 was never committed and 2 never reached the broker.
  const next = await waitingReceive;
  expect(next === null ? null : seqOf(next)).toBe(0);
  await producer.send(sequenced(3, { durable: true }));
  expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([3]);
  expect(await consumer.receiveImmediate()).toBeNull();
  expect(session.closed).toBe(false);
  expect(tx.closed).toBe(false);
});

test('row 5: two sessions with traffic in flight on one connection reattach together', async () => {
  const { broker, proxy, factory, recorder } = await kit.rig();
  const sessions: ClientSession[] = [await factory.createSession(), await factory.createSession()];
  const lists = await Promise.all(
    sessions.map(async (session, i) => {
      await session.createQueue(`s${i}`, `s${i}`, { durable: false });
      const list = collect(await session.createConsumer(`s${i}`));
      session.start();
      return list;
    }),
  );
  const producers = sessions.map((session, i) => session.createProducer(`s${1 - i}`));
  for (let batch = 0; batch < 5; batch++) {
    const sends = producers.map((p) => sendRange(p, batch * 100, (batch + 1) * 100));
    proxy.cut();
    await Promise.all(sends);
    await recorder.ended(batch + 1);
  }
  for (const list of lists) await waitForLength(list, 500, 'messages');
  for (const list of lists) expect(list).toEqual(range(500));
  await recorder.ended(5);
  expect(factory.getStatistics()).toMatchObject({ reattaches: 5, reconnects: 0 });
  await waitFor(() => broker.getConnectionCount() === 1, 'one connection on the broker');
  expect(broker.getSessionCount()).toBe(2);
});

describe('row 6: a second failure during the reattach', () => {
  test('the reattach answer itself is cut mid-frame: the next connection reattaches', async () => {
    const { proxy, factory, recorder } = await kit.rig();
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    await sendRange(producer, 0, 100);
    proxy.cut();
    // The next link dies 10 bytes into what the broker sends back (ping echo or reattach answer).
    proxy.cutAfterBytes(10, 'toClient');
    proxy.once('reset', () => proxy.pass());
    const later = sendRange(producer, 100, 200);
    await recorder.ended(1);
    await later;
    expect(proxy.linksReset).toBe(2);
    expect(proxy.connectionsAccepted).toBeGreaterThanOrEqual(3);
    expect(recorder.count('FAILOVER_FAILED')).toBe(0);
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    expect((await receiveCount(consumer, 200)).map(seqOf)).toEqual(range(200));
    expect(await consumer.receiveImmediate()).toBeNull();
  });

  test('the replay is cut half-way, in both directions: a third connection finishes it', async () => {
    const { proxy, factory, recorder } = await kit.rig({
      client: { consumerWindowSize: 200 * KB, producerWindowSize: -1 },
    });
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    const consumer = await session.createConsumer(QUEUE);
    // 100 KiB the broker has not confirmed, and deliveries the client has not confirmed.
    proxy.blackHole();
    await sendRange(producer, 0, 100, { body: Buffer.alloc(KB) });
    proxy.pass();
    proxy.cut();
    proxy.cutAfterBytes(40 * KB, 'both');
    proxy.once('reset', () => proxy.pass());
    await recorder.ended(1);
    session.start();
    const received = await receiveCount(consumer, 100);
    expect(received.map(seqOf)).toEqual(range(100));
    await received[99]?.acknowledge();
    expect(await consumer.receiveImmediate()).toBeNull();
    expect(proxy.linksReset).toBe(2);
    expect(recorder.events.filter((e) => e.type === 'FAILOVER_COMPLETED').every((e) => e.reattached)).toBe(
      true,
    );
    expect(factory.getStatistics().replayedCommands).toBeGreaterThanOrEqual(100);
  });
});

test('row 7: commits cut off at random points all complete (reattach), each transaction exactly once', async () => {
  const { proxy, factory, recorder } = await kit.rig();
  const session = await factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
  const producer = session.createProducer(QUEUE);
  for (let round = 0; round < 10; round++) {
    await sendRange(producer, round * 10, (round + 1) * 10, { durable: true });
    const commit = session.commit();
    // Alternate: cut at once (the commit may not have left), or after the broker answered.
    if (round % 2 === 0) proxy.cut();
    else {
      proxy.cutAfterBytes(0, 'toClient');
      proxy.once('reset', () => proxy.pass());
    }
    expect(await outcome(commit)).toMatchObject({ ok: true });
    await recorder.ended(round + 1);
  }
  const reader = await factory.createSession();
  const consumer = await reader.createConsumer(QUEUE);
  reader.start();
  expect((await receiveCount(consumer, 100)).map(seqOf)).toEqual(range(100));
  expect(await consumer.receiveImmediate()).toBeNull();
});

describe('row 8: a consumer keeps its credits across reattaches', () => {
  test.each([
    ['small window', 3 * KB],
    ['window 0 (one message at a time)', 0],
  ])('%s', async (_name, windowSize) => {
    const { proxy, factory, recorder } = await kit.rig({ client: { consumerWindowSize: windowSize } });
    const session = await factory.createSession();
    await sendRange(session.createProducer(QUEUE), 0, 200, { body: Buffer.alloc(500) });
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const received: number[] = [];
    while (received.length < 200) {
      const message = await consumer.receive(10_000);
      if (message === null) throw new Error(`stalled after ${received.length} messages`);
      received.push(seqOf(message));
      await message.acknowledge();
      // Cut right after consuming, while the credits it earned are on their way.
      if (received.length % 20 === 0) proxy.cut();
      if (windowSize > 0) expect(consumer.bufferedCount * 500).toBeLessThanOrEqual(windowSize + 500);
    }
    expect(received).toEqual(range(200));
    expect(await consumer.receiveImmediate()).toBeNull();
    await recorder.ended(10);
    expect(recorder.count('FAILOVER_COMPLETED')).toBe(10);
  });
});

test('row 9: 100 flaps leave listener counts, sockets and heap where they were, with no unhandled rejection', async () => {
  const gc = exposeGc();
  const unhandled: unknown[] = [];
  const warnings: Error[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  const onWarning = (warning: Error): void => void warnings.push(warning);
  process.on('unhandledRejection', onUnhandled);
  process.on('warning', onWarning);
  try {
    const broker = await kit.startBroker(REATTACH_BROKER);
    const proxy = await kit.proxyFor(broker);
    const factory = await kit.connect(proxy.port, { ...REATTACH_CLIENT, retryInterval: 10 });
    let completed = 0;
    let failures = 0;
    factory.addFailoverListener((e) => void (e.type === 'FAILOVER_COMPLETED' && completed++));
    factory.addFailureListener(() => void failures++);
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    let seq = 0;
    const flap = async (): Promise<void> => {
      const before = completed;
      await producer.send(sequenced(seq));
      proxy.cut();
      await waitFor(() => completed > before, 'the failover to complete');
      const message = await consumer.receive(10_000);
      if (message === null || seqOf(message) !== seq) throw new Error(`lost message ${seq}`);
      await message.acknowledge();
      seq++;
    };
    for (let i = 0; i < 10; i++) await flap();
    const listeners = countListeners(factory);
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100; i++) await flap();
    gc();
    const heapAfter = process.memoryUsage().heapUsed;
    expect(countListeners(factory)).toEqual(listeners);
    expect(completed).toBe(110);
    expect(failures).toBe(110);
    expect(factory.getStatistics()).toMatchObject({ reattaches: 110, reconnects: 0 });
    await waitFor(() => proxy.activeLinks === 1 && broker.getConnectionCount() === 1, 'one link left');
    expect(broker.getSessionCount()).toBe(1);
    // 100 flaps may cost a little, never a leak per flap of connections, channels or buffers.
    expect(heapAfter - heapBefore).toBeLessThan(8 * 1024 * 1024);
    expect(factory.getStatistics().resendBufferBytes).toBeLessThan(64 * KB);
  } finally {
    process.off('unhandledRejection', onUnhandled);
    process.off('warning', onWarning);
  }
  expect(unhandled).toEqual([]);
  expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
}, 60_000);

/** Listener counts that would grow if each failover registered something and never removed it. */
function countListeners(factory: object): Record<string, number> {
  const internals = factory as unknown as {
    failoverListeners: Set<unknown>;
    failureListeners: Set<unknown>;
    sessions: Set<unknown>;
    connection: { failureListeners: Set<unknown>; channelCount: number };
  };
  const counts: Record<string, number> = {
    factoryFailoverListeners: internals.failoverListeners.size,
    factoryFailureListeners: internals.failureListeners.size,
    sessions: internals.sessions.size,
    connectionFailureListeners: internals.connection.failureListeners.size,
    connectionChannels: internals.connection.channelCount,
  };
  for (const event of ['exit', 'uncaughtException', 'unhandledRejection', 'warning', 'beforeExit'] as const) {
    counts[`process:${event}`] = process.listenerCount(event);
  }
  return counts;
}

/** The V8 collector, made callable for this process even without --expose-gc. */
function exposeGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}
