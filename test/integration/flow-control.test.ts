import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { HornetQException, type Broker, type ClientConsumer } from '../../src';
import { range, receiveCount, seqOf, sequenced, useTestBrokers, waitFor } from '../support/test-broker';

const QUEUE = 'jms.queue.flow';
const queues = [{ name: QUEUE, address: QUEUE, filter: null, durable: false }];

const KiB = 1024;
const MiB = 1024 * KiB;

function queueStats(broker: Broker, name = QUEUE): ReturnType<Broker['listQueues']>[number] {
  const stats = broker.listQueues().find((queue) => queue.name === name);
  if (stats === undefined) throw new Error(`no queue ${name}`);
  return stats;
}

/**
 * Waits until every message the broker handed to `consumer` has reached it: the broker's count of
 * messages out for delivery equals what the client buffers plus what the application took and has
 * not acknowledged yet.
 */
async function settled(broker: Broker, consumer: ClientConsumer, unacknowledged = 0): Promise<void> {
  await waitFor(
    () => queueStats(broker).deliveringCount === consumer.bufferedCount + unacknowledged,
    'the deliveries in flight to reach the client',
  );
}

describe('consumer flow control', () => {
  const env = useTestBrokers();

  test('window 0: one message at a time, nothing buffered ahead of receive', async () => {
    const broker = await env.startBroker({ queues });
    const session = await (await env.connect(broker)).createSession();
    const consumer = await session.createConsumer(QUEUE, { windowSize: 0 });
    session.start();

    expect(await consumer.receiveImmediate()).toBeNull();

    const producer = session.createProducer(QUEUE);
    for (let seq = 0; seq < 5; seq++) await producer.send(sequenced(seq, { durable: true }));
    // receiveImmediate asked for one message: at most that one may have been sent ahead.
    await settled(broker, consumer);
    expect(consumer.bufferedCount).toBeLessThanOrEqual(1);

    const seqs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const message = await consumer.receive(5_000);
      if (message === null) throw new Error(`receive ${i} timed out`);
      seqs.push(seqOf(message));
      await settled(broker, consumer, i + 1);
      // The broker holds the rest: only the message just received is out (and not yet acknowledged).
      expect(consumer.bufferedCount).toBe(0);
      expect(queueStats(broker)).toMatchObject({ messageCount: 5, deliveringCount: i + 1 });
    }
    expect(seqs).toEqual(range(5));
    expect(await consumer.receiveImmediate()).toBeNull();

    await producer.send(sequenced(5, { durable: true }));
    const immediate = await consumer.receiveImmediate();
    expect(immediate === null ? null : seqOf(immediate)).toBe(5);
    expect(await consumer.receiveImmediate()).toBeNull();
  });

  test('window 0: a consumer holding a message it has not finished does not starve the others', async () => {
    const broker = await env.startBroker({ queues });
    const factory = await env.connect(broker);
    const producerSession = await factory.createSession();
    const producer = producerSession.createProducer(QUEUE);
    for (let seq = 0; seq < 10; seq++) await producer.send(sequenced(seq, { durable: true }));

    const slowSession = await factory.createSession();
    const slow = await slowSession.createConsumer(QUEUE, { windowSize: 0 });
    slowSession.start();
    const first = await slow.receive(5_000);
    expect(first === null ? null : seqOf(first)).toBe(0);

    const fastSession = await factory.createSession();
    const fast = await fastSession.createConsumer(QUEUE, { windowSize: 0 });
    fastSession.start();
    const rest = await receiveCount(fast, 9);
    expect(rest.map(seqOf)).toEqual(range(10).slice(1));
  });

  test('window 0: a message buffered unseen goes back on rollback and delivery carries on', async () => {
    const broker = await env.startBroker({ queues });
    const factory = await env.connect(broker);
    const session = await factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
    const consumer = await session.createConsumer(QUEUE, { windowSize: 0 });
    session.start();
    // The empty answer leaves one credit at the broker: the next message is sent ahead, unasked.
    expect(await consumer.receiveImmediate()).toBeNull();
    const producer = (await factory.createSession()).createProducer(QUEUE);
    for (let seq = 0; seq < 3; seq++) await producer.send(sequenced(seq, { durable: true }));
    await waitFor(() => consumer.bufferedCount === 1, 'one message buffered ahead');

    await session.rollback();
    const received = await receiveCount(consumer, 3);
    expect(received.map(seqOf)).toEqual(range(3));
    expect(received.map((m) => m.deliveryCount)).toEqual([1, 1, 1]);
    await received[2]?.acknowledge();
    await session.commit();
    expect(queueStats(broker).messageCount).toBe(0);
  });

  test('the client never buffers more than its window, however many messages went before', async () => {
    const WINDOW = 4 * KiB;
    const broker = await env.startBroker({ queues });
    const factory = await env.connect(broker);
    const session = await factory.createSession();
    const consumer = await session.createConsumer(QUEUE, { windowSize: WINDOW });
    session.start();
    const producer = session.createProducer(QUEUE);

    // Many small messages consumed: any disagreement between what the broker charges and what
    // the client gives back accumulates and widens the window.
    const sending = (async () => {
      for (let seq = 0; seq < 5_000; seq++) await producer.send(sequenced(seq));
    })();
    const consumed = await receiveCount(consumer, 5_000);
    await sending;
    await consumed[consumed.length - 1]?.acknowledge();
    await consumer.flushAcknowledgements();
    await waitFor(() => queueStats(broker).messageCount === 0, 'the acknowledgements to reach the broker');
    // Every message of the second batch ('m5000' … 'm6999') has the same encoded size.
    const probe = sequenced(5_000);
    probe.address = QUEUE;
    const size = probe.encodedSize();

    // Now the application stops reading while more arrive.
    for (let seq = 5_000; seq < 7_000; seq++) await producer.send(sequenced(seq, { durable: true }));
    await settled(broker, consumer);
    expect(consumer.bufferedCount).toBeGreaterThan(0);
    expect(consumer.bufferedCount * size).toBeLessThanOrEqual(WINDOW + size);
    // And it does fill: at most half a window of credits can be still unreturned by the client.
    expect(consumer.bufferedCount * size).toBeGreaterThan(WINDOW / 2 - size);
  });
});

describe('producer flow control', () => {
  const env = useTestBrokers();

  test('FAIL: a send to a full address rejects with ADDRESS_FULL, and succeeds again once there is room', async () => {
    const broker = await env.startBroker({
      queues,
      addressSettings: { [QUEUE]: { maxSizeBytes: 64 * KiB, addressFullPolicy: 'FAIL' } },
    });
    const session = await (await env.connect(broker, { producerWindowSize: 8 * KiB })).createSession();
    const producer = session.createProducer(QUEUE);
    const body = Buffer.alloc(4 * KiB, 1);

    let sent = 0;
    let failure: unknown = null;
    for (; sent < 1_000; sent++) {
      try {
        await producer.send(sequenced(sent, { durable: true, body }));
      } catch (error) {
        failure = error;
        break;
      }
    }
    expect(HornetQException.is(failure, 'ADDRESS_FULL')).toBe(true);
    // The address held about its maximum when the send failed, not far more. It counts what the
    // messages cost in memory: their bodies and more.
    const held = broker.postOffice.addressSize(QUEUE).size;
    expect(held).toBeGreaterThanOrEqual(64 * KiB);
    expect(held).toBeLessThanOrEqual(64 * KiB + 16 * KiB);
    expect(held).toBeGreaterThan(sent * body.length);
    expect((await session.queueQuery(QUEUE)).messageCount).toBe(sent);

    // Draining the queue makes room; the producer can send again.
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const drained = await receiveCount(consumer, sent);
    expect(drained.map(seqOf)).toEqual(range(sent));
    await drained[sent - 1]?.acknowledge();
    await consumer.close();
    await expect(producer.send(sequenced(sent, { durable: true, body }))).resolves.toBeUndefined();
  });

  test('FAIL with non-blocking sends: the producer is refused soon, and every message the broker drops is reported', async () => {
    const broker = await env.startBroker({
      queues,
      addressSettings: { [QUEUE]: { maxSizeBytes: 64 * KiB, addressFullPolicy: 'FAIL' } },
    });
    const session = await (await env.connect(broker, { producerWindowSize: 8 * KiB })).createSession();
    const reported: HornetQException[] = [];
    session.setAsyncErrorHandler((error) => reported.push(error));
    const producer = session.createProducer(QUEUE);
    const body = Buffer.alloc(4 * KiB, 2);

    let accepted = 0;
    let failure: unknown = null;
    for (; accepted < 1_000; accepted++) {
      try {
        await producer.send(sequenced(accepted, { body }));
      } catch (error) {
        failure = error;
        break;
      }
    }
    expect(HornetQException.is(failure, 'ADDRESS_FULL')).toBe(true);
    // Refused within about a producer window of the limit.
    expect(accepted * body.length).toBeLessThanOrEqual(64 * KiB + 16 * KiB);
    // A blocking call after the sends: every answer to them has arrived before its answer.
    const { messageCount } = await session.queueQuery(QUEUE);
    expect(broker.postOffice.addressSize(QUEUE).size).toBeGreaterThanOrEqual(64 * KiB);
    expect(reported).toHaveLength(accepted - messageCount);
    expect(reported.every((error) => error.code === 'ADDRESS_FULL')).toBe(true);
  });
});

/** global.gc when node runs with --expose-gc; otherwise V8's flag is set at run time. */
function findGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed !== undefined) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('a consumer that stops reading bounds memory', () => {
  const env = useTestBrokers();

  test('200 MiB sent at a 1 MiB window consumer that stops reading grows client and broker memory by at most 64 MiB', async () => {
    const TOTAL = 200 * MiB;
    const LIMIT = 64 * MiB;
    const gc = findGc();
    // Broker and client share this process, so one measurement covers both. Message bodies are
    // Buffers, outside the JS heap, so array buffers are counted with it.
    const memory = (): number => {
      gc();
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.arrayBuffers;
    };

    const broker = await env.startBroker({
      queues,
      addressSettings: { [QUEUE]: { maxSizeBytes: 10 * MiB, addressFullPolicy: 'BLOCK' } },
    });
    const consumerSession = await (await env.connect(broker)).createSession();
    const consumer = await consumerSession.createConsumer(QUEUE, { windowSize: MiB });
    consumerSession.start();
    const producerSession = await (await env.connect(broker)).createSession();
    const producer = producerSession.createProducer(QUEUE);

    // Sizes from a fixed pseudo-random sequence, 1 KiB to 64 KiB, adding up to 200 MiB.
    const sizes: number[] = [];
    let state = 42;
    for (let total = 0; total < TOTAL;) {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      const size = KiB + (state % (63 * KiB + 1));
      sizes.push(size);
      total += size;
    }
    const baseline = memory();

    let sentCount = 0;
    let sentBytes = 0;
    let lastProgress = Date.now();
    const sending = (async () => {
      for (const [seq, size] of sizes.entries()) {
        await producer.send(sequenced(seq, { body: Buffer.alloc(size, seq % 251) }));
        sentCount++;
        sentBytes += size;
        lastProgress = Date.now();
      }
    })();

    // The address fills up and the producer blocks: nothing moves for a while.
    await waitFor(
      () => broker.postOffice.addressSize(QUEUE).size >= 10 * MiB && Date.now() - lastProgress > 1_000,
      'the producer to block',
      60_000,
    );
    // Blocked at the address limit, give or take a producer window and a message.
    expect(sentBytes).toBeLessThan(11 * MiB);
    await settled(broker, consumer);
    // The client holds its window (plus the one message that may overdraw it) and no more; nothing
    // has been read, so what it holds is the first messages sent.
    const buffered = consumer.bufferedCount;
    expect(buffered).toBeGreaterThan(0);
    const bufferedBytes = sizes.slice(0, buffered).reduce((sum, size) => sum + size, 0);
    expect(bufferedBytes).toBeLessThanOrEqual(MiB + 64 * KiB);
    expect(bufferedBytes).toBeGreaterThan(MiB - 64 * KiB - buffered * 128);
    const whileBlocked = memory() - baseline;
    expect(whileBlocked).toBeLessThanOrEqual(LIMIT);

    // The consumer reads everything; memory stays bounded on the way and the count is right.
    let peak = whileBlocked;
    let received = 0;
    let bodiesOk = true;
    for (; received < sizes.length; received++) {
      const message = await consumer.receive(30_000);
      if (message === null) break;
      const seq = seqOf(message);
      if (seq !== received || message.message.body.length !== sizes[seq]) bodiesOk = false;
      await message.acknowledge();
      if (received % 1_000 === 999) peak = Math.max(peak, memory() - baseline);
    }
    await sending;
    expect(received).toBe(sizes.length);
    expect(sentCount).toBe(sizes.length);
    expect(bodiesOk).toBe(true);
    expect(peak).toBeLessThanOrEqual(LIMIT);
    await consumer.close();
    expect(queueStats(broker).messageCount).toBe(0);
  }, 120_000);
});
