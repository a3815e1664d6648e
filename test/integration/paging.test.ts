import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Broker, type ClientConsumer } from '../../src';
import { InMemoryStorage } from '../../src/server/storage/in-memory-storage';
import { exposeGc } from '../support/heap';
import { range, seqOf, sequenced, useTestBrokers, waitFor } from '../support/test-broker';

const KiB = 1024;
const MAX_SIZE = 200 * KiB;
const PAGE_SIZE = 64 * KiB;
const PAGE_CACHE = 2;
const BODY = Buffer.alloc(KiB, 'p');
const QUEUE = 'jms.queue.paged';
const TOPIC = 'jms.topic.paged';

/** What one message of these tests counts for in its address: its estimate and a reference. */
const ONE_MESSAGE = sequenced(0, { body: BODY }).memoryEstimate() + 250;
/** Messages whose memory estimate adds up to ten times max-size-bytes: the backlog. */
const BACKLOG = Math.ceil((10 * MAX_SIZE) / ONE_MESSAGE);

/**
 * Heap and Buffer memory in use, after three collections when `gc` is given: message copies and
 * pages are Buffers, outside the JavaScript heap.
 */
function memoryInUse(gc: (() => void) | null): number {
  if (gc !== null) for (let i = 0; i < 3; i++) gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

describe('address-full-policy PAGE over TCP', () => {
  const env = useTestBrokers();
  let pagingDirectory: string;

  beforeEach(async () => {
    pagingDirectory = await mkdtemp(join(tmpdir(), 'paging-it-'));
  });

  afterEach(async () => {
    await env.closeAll();
    await rm(pagingDirectory, { recursive: true, force: true });
  });

  function startBroker(queues: Array<{ name: string; address: string }>): Promise<Broker> {
    return env.startBroker({
      // Paging is on with persistence; the messages themselves stay in an in-memory store here.
      persistenceEnabled: true,
      storage: new InMemoryStorage(),
      pagingDirectory,
      queues: queues.map((queue) => ({ ...queue, filter: null, durable: true })),
      addressSettings: {
        'jms.#': {
          maxSizeBytes: MAX_SIZE,
          addressFullPolicy: 'PAGE',
          pageSizeBytes: PAGE_SIZE,
          pageMaxCacheSize: PAGE_CACHE,
        },
      },
    });
  }

  /**
   * Samples what the address holds in memory undelivered (queues read back from the pages by what
   * they have not delivered: delivered messages waiting for an acknowledgement, bounded by the
   * consumers' windows, come on top) and what its page store keeps in memory.
   */
  function watcher(broker: Broker, address: string) {
    const seen = { maxAddressBytes: 0, maxPagesInMemory: 0, paged: false };
    return {
      seen,
      sample(): void {
        let delivering = 0;
        for (const queue of broker.postOffice.queuesBoundTo(address))
          delivering += queue.deliveringCount * ONE_MESSAGE;
        const undelivered = broker.postOffice.addressSize(address).size - delivering;
        seen.maxAddressBytes = Math.max(seen.maxAddressBytes, undelivered);
        const stats = broker.postOffice.pagingStats(address);
        if (stats !== null) {
          seen.paged = true;
          seen.maxPagesInMemory = Math.max(seen.maxPagesInMemory, stats.pagesInMemory);
        }
      },
    };
  }

  async function consumeInOrder(
    consumer: ClientConsumer,
    count: number,
    sample: () => void,
  ): Promise<number[]> {
    const seqs: number[] = [];
    while (seqs.length < count) {
      const message = await consumer.receive(10_000);
      if (message === null)
        throw new Error(`received ${seqs.length} of ${count} messages, then nothing for 10 s`);
      seqs.push(seqOf(message));
      await message.individualAcknowledge();
      sample();
    }
    return seqs;
  }

  // Non-durable: the test broker's in-memory storage keeps every durable message in memory
  // (persistence is off), which would hide what paging saves; durable ones page in the next tests.
  test('a backlog of 10 × max-size-bytes pages out and drains in order, with the heap bounded', async () => {
    const gc = exposeGc();
    const broker = await startBroker([{ name: QUEUE, address: QUEUE }]);
    // Producer credits smaller than a page: what a producer sends while its credits last, once a
    // page waits to be written, stays below another page.
    const factory = await env.connect(broker, {
      consumerWindowSize: 32 * KiB,
      ackBatchSize: 0,
      producerWindowSize: 16 * KiB,
    });
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    const { seen, sample } = watcher(broker, QUEUE);
    // Warm up the code paths (the first page store included) before the baseline.
    for (let seq = 0; seq < 200; seq++) await producer.send(sequenced(seq, { body: BODY }));
    const warmup = await session.createConsumer(QUEUE);
    session.start();
    await consumeInOrder(warmup, 200, sample);
    await warmup.close();
    await waitFor(() => broker.postOffice.pagingStats(QUEUE) === null, 'the warm-up to drain');
    const baseline = memoryInUse(gc);

    for (let seq = 0; seq < BACKLOG; seq++) {
      await producer.send(sequenced(seq, { body: BODY }));
      sample();
    }
    const stats = broker.postOffice.pagingStats(QUEUE);
    expect(stats?.messages).toBeGreaterThan(BACKLOG * 0.8);
    expect((await session.queueQuery(QUEUE)).messageCount).toBe(BACKLOG);
    await waitFor(
      () => broker.postOffice.pagingStats(QUEUE)?.unwrittenPages === 0,
      'the pages to be written',
    );
    const grown = memoryInUse(gc) - baseline;
    const files = await readdir(pagingDirectory);
    expect(files).toHaveLength(1);
    expect((await readdir(join(pagingDirectory, files[0] as string))).length).toBeGreaterThan(
      (BACKLOG * ONE_MESSAGE) / 4 / PAGE_SIZE,
    );

    const consumer = await session.createConsumer(QUEUE);
    const seqs = await consumeInOrder(consumer, BACKLOG, sample);
    expect(seqs).toEqual(range(BACKLOG));
    expect((await session.queueQuery(QUEUE)).messageCount).toBe(0);
    expect(seen.maxAddressBytes).toBeLessThanOrEqual(MAX_SIZE + ONE_MESSAGE);
    // The cache window, the page filling and at most one being written.
    expect(seen.maxPagesInMemory).toBeLessThanOrEqual(PAGE_CACHE + 2);
    // Held in memory, the backlog would take 10 × max-size-bytes; paged, the address' limit, the
    // cache window and the pages being filled and written.
    if (gc !== null) expect(grown).toBeLessThan(5 * MAX_SIZE);
    await waitFor(() => broker.postOffice.pagingStats(QUEUE) === null, 'the address to stop paging');
  });

  test('a backlog of durable messages pages out and drains in order', async () => {
    const broker = await startBroker([{ name: QUEUE, address: QUEUE }]);
    const factory = await env.connect(broker, { consumerWindowSize: 32 * KiB, ackBatchSize: 0 });
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    const { seen, sample } = watcher(broker, QUEUE);
    for (let seq = 0; seq < BACKLOG; seq++) {
      await producer.send(sequenced(seq, { durable: true, body: BODY }));
      sample();
    }
    expect(broker.postOffice.pagingStats(QUEUE)?.messages).toBeGreaterThan(BACKLOG * 0.8);
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const received: boolean[] = [];
    const seqs: number[] = [];
    while (seqs.length < BACKLOG) {
      const message = await consumer.receive(10_000);
      if (message === null) throw new Error(`received ${seqs.length} of ${BACKLOG} messages, then nothing`);
      seqs.push(seqOf(message));
      received.push(message.message.durable);
      await message.individualAcknowledge();
      sample();
    }
    expect(seqs).toEqual(range(BACKLOG));
    expect(received.every((durable) => durable)).toBe(true);
    expect(seen.maxAddressBytes).toBeLessThanOrEqual(MAX_SIZE + ONE_MESSAGE);
    expect((await session.queueQuery(QUEUE)).messageCount).toBe(0);
  });

  test('a topic with two subscriptions pages once and both drain every message in order', async () => {
    const subscriptions = [`${TOPIC}.a`, `${TOPIC}.b`];
    const broker = await startBroker(subscriptions.map((name) => ({ name, address: TOPIC })));
    const admin = await (await env.connect(broker)).createSession();
    const producer = admin.createProducer(TOPIC);
    const { seen, sample } = watcher(broker, TOPIC);
    for (let seq = 0; seq < BACKLOG; seq++) {
      await producer.send(sequenced(seq, { durable: seq % 3 === 0, body: BODY }));
      sample();
    }
    expect(seen.paged).toBe(true);
    for (const queue of subscriptions) expect((await admin.queueQuery(queue)).messageCount).toBe(BACKLOG);

    const results = await Promise.all(
      subscriptions.map(async (queue) => {
        const factory = await env.connect(broker, { consumerWindowSize: 32 * KiB, ackBatchSize: 0 });
        const session = await factory.createSession();
        const consumer = await session.createConsumer(queue);
        session.start();
        return consumeInOrder(consumer, BACKLOG, sample);
      }),
    );
    for (const seqs of results) expect(seqs).toEqual(range(BACKLOG));
    // Each subscription holds half the limit, and reads its own copy of a message back: at most
    // one message past its half.
    expect(seen.maxAddressBytes).toBeLessThanOrEqual(MAX_SIZE + 2 * ONE_MESSAGE);
    await waitFor(() => broker.postOffice.pagingStats(TOPIC) === null, 'the topic to stop paging');
    for (const queue of subscriptions) expect((await admin.queueQuery(queue)).messageCount).toBe(0);
  });

  test('with a consumer keeping up, a PAGE address never pages', async () => {
    const broker = await startBroker([{ name: QUEUE, address: QUEUE }]);
    const factory = await env.connect(broker, { ackBatchSize: 0, blockOnAcknowledge: true });
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const { seen, sample } = watcher(broker, QUEUE);
    for (let seq = 0; seq < BACKLOG; seq++) {
      await producer.send(sequenced(seq, { durable: seq % 2 === 0, body: BODY }));
      sample();
      const message = await consumer.receive(10_000);
      if (message === null) throw new Error(`message ${seq} did not arrive`);
      expect(seqOf(message)).toBe(seq);
      await message.individualAcknowledge();
    }
    expect(seen.paged).toBe(false);
    expect(seen.maxAddressBytes).toBeLessThanOrEqual(2 * ONE_MESSAGE);
    expect(await readdir(pagingDirectory)).toEqual([]);
  });
});
