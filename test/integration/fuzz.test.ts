/**
 * Fuzz: many raw TCP connections throw valid, mutated and random frames at a real broker (see
 * test/support/frame-fuzzer.ts) while an honest client keeps using it; then the broker must have
 * survived without an uncaught error, closed the connections whose bytes the codec refuses, kept
 * serving the honest connection, and hold no more than its state accounts for. The seed is
 * printed at the start of each run, and every problem names it with the frames that caused it.
 *
 * In `npm test` it fuzzes for 10 s. Longer runs:
 *   npm run test:fuzz -- --seed N --minutes M
 * or set FUZZ_SEED and FUZZ_MS for jest directly.
 */
import { Broker, ClientSessionFactory, type ClientConsumer, type ClientProducer } from '../../src';
import type { FailoverEvent } from '../../src/core/client';
import { selectorFilterFactory } from '../../src/jms/selector/selector';
import { CapturingLogger, seqOf, sequenced, waitFor, type LogLine } from '../support/test-broker';
import { fuzzSettingsFromEnv, runFuzz, type FuzzReport } from '../support/frame-fuzzer';
import { exposeGc, measureHeap } from '../support/heap';

const settings = fuzzSettingsFromEnv();
/** Generous: a loaded 2-core machine may be several times slower than an idle one. */
const timeoutMs = settings.durationMs + 120_000;
const MiB = 1024 * 1024;

const HONEST_QUEUE = 'honest.queue';
const NAMES = { queue: 'fuzz.queue', address: 'fuzz.address', createdPrefix: 'fuzz.created.' } as const;
const MAX_FRAME_BYTES = 256 * 1024;
/**
 * Every connection's TTL, whatever its pings ask for: a fuzzed PING may ask for years (or -1,
 * never), and the sessions of a failed connection wait that long for a reattach. With it the
 * broker's state must come back to the honest clients' within seconds of the fuzz. Well above any
 * event-loop stall a loaded machine causes, so that the reaper never takes the honest connection.
 */
const CONNECTION_TTL_MS = 8_000;
/** Heap the broker may keep beyond the baseline once fuzz connections and queues are gone. */
const HEAP_MARGIN_BYTES = 24 * MiB;

/** Uncaught exceptions and unhandled rejections in this process while the fuzz ran. */
const uncaught: string[] = [];
const onUncaught = (error: unknown): void => void uncaught.push(`uncaught: ${String(error)}`);
const onUnhandled = (reason: unknown): void => void uncaught.push(`unhandled rejection: ${String(reason)}`);

describe('fuzz: valid, mutated and random frames over TCP', () => {
  const logger = new CapturingLogger();
  const closeReasons = new Map<string, string>();
  let linesRead = 0;

  /** The reason in the broker's 'closing connection' line for the connection from `port`. */
  function closeReason(port: number): string | null {
    for (; linesRead < logger.lines.length; linesRead++) {
      const line = logger.lines[linesRead] as LogLine;
      const remote = line.bindings['remote'];
      if (line.message.startsWith('closing connection') && typeof remote === 'string') {
        closeReasons.set(remote, line.message);
      }
    }
    return closeReasons.get(`tcp://127.0.0.1:${port}`) ?? null;
  }
  const failoverEvents: FailoverEvent[] = [];
  let broker: Broker;
  let honest: ClientSessionFactory;
  let producer: ClientProducer;
  let consumer: ClientConsumer;
  let report: FuzzReport;
  let baselineQueues: Set<string>;
  let baselineHeapBytes: number;
  /** Buffers live outside the heap: frames being assembled, message copies. */
  let baselineBufferBytes: number;
  let gc: (() => void) | null;
  let nextSeq = 0;
  const honestErrors: string[] = [];
  let honestRoundTrips = 0;

  /** One message from the honest producer to the honest consumer. */
  async function honestRoundTrip(): Promise<void> {
    const seq = nextSeq++;
    await producer.send(sequenced(seq));
    const received = await consumer.receive(10_000);
    if (received === null) throw new Error(`message ${seq} did not arrive within 10 s`);
    if (seqOf(received) !== seq) throw new Error(`received message ${seqOf(received)}, expected ${seq}`);
    await received.acknowledge();
    honestRoundTrips++;
  }

  /** Honest traffic on the connection opened before the fuzz, for as long as it runs. */
  async function honestTraffic(running: () => boolean): Promise<void> {
    while (running()) {
      try {
        await honestRoundTrip();
      } catch (error) {
        honestErrors.push(String(error));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUnhandled);
    broker = new Broker(
      {
        securityEnabled: false,
        acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port: 0 }],
        persistenceEnabled: false,
        logger,
        maxFrameBytes: MAX_FRAME_BYTES,
        maxLargeMessageBytes: 64 * 1024,
        connectionTtlOverride: CONNECTION_TTL_MS,
        connectionTtlCheckInterval: 250,
        messageExpiryScanPeriod: 100,
        queues: [
          { name: HONEST_QUEUE, address: HONEST_QUEUE, filter: null, durable: true },
          { name: NAMES.queue, address: NAMES.address, filter: null, durable: false },
        ],
      },
      selectorFilterFactory,
    );
    await broker.start();
    honest = await ClientSessionFactory.connect({
      connectors: [{ host: '127.0.0.1', port: broker.getPort() }],
      // Pings well inside the broker's TTL; no reconnects, so that a lost connection shows.
      clientFailureCheckPeriod: 250,
      connectionTTL: CONNECTION_TTL_MS,
      reconnectAttempts: 0,
      callTimeout: 10_000,
      // Each acknowledgement reaches the broker before the next message: its queue count says so.
      ackBatchSize: 0,
      blockOnAcknowledge: true,
    });
    honest.addFailoverListener((event) => failoverEvents.push(event));
    const session = await honest.createSession();
    producer = session.createProducer(HONEST_QUEUE);
    consumer = await session.createConsumer(HONEST_QUEUE);
    session.start();
    await honestRoundTrip();

    gc = exposeGc();
    baselineQueues = new Set(broker.listQueues().map((queue) => queue.name));
    baselineHeapBytes = measureHeap(gc);
    baselineBufferBytes = process.memoryUsage().arrayBuffers;

    let fuzzing = true;
    const traffic = honestTraffic(() => fuzzing);
    try {
      report = await runFuzz(
        { port: broker.getPort(), maxFrameBytes: MAX_FRAME_BYTES, names: NAMES, closeReason },
        settings,
      );
    } finally {
      fuzzing = false;
      await traffic;
    }
    settings.log(summary(report));
  }, timeoutMs);

  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUnhandled);
    await honest?.close();
    await broker?.stop();
  });

  // Each comparison carries the seed, so that a failure shows how to replay it, and the longest
  // event-loop stall, so that it shows whether the machine stalled for as long as the TTL.
  const seeded = <T>(value: T): { seed: number; longestStallMs: number; value: T } => ({
    seed: settings.seed,
    longestStallMs: Math.round(report?.maxEventLoopDelayMs ?? 0),
    value,
  });

  test('the broker had no uncaught exception, unhandled rejection or internal error', () => {
    expect(seeded(uncaught)).toEqual(seeded([]));
    const errors = logger.find(/./, ['error']).map((line) => `${line.message} ${String(line.object)}`);
    expect(seeded(errors)).toEqual(seeded([]));
  });

  test('every connection whose bytes the codec refuses was closed by the broker, and every answer decodes', () => {
    expect(seeded(report.problems)).toEqual(seeded([]));
    expect(report.connections).toBeGreaterThan(50);
    expect(report.refusedByCodec).toBeGreaterThan(10);
    expect(seeded(report.refusedAndClosed)).toEqual(seeded(report.refusedByCodec));
  });

  test('the connection opened before the fuzz stayed open and was served throughout', async () => {
    expect(seeded(honestErrors)).toEqual(seeded([]));
    expect(seeded(failoverEvents)).toEqual(seeded([]));
    expect(honestRoundTrips).toBeGreaterThan(1);
    await honestRoundTrip();
  });

  test('a new honest client can create a session, send, receive and query a queue', async () => {
    const factory = await ClientSessionFactory.connect({
      connectors: [{ host: '127.0.0.1', port: broker.getPort() }],
      reconnectAttempts: 0,
    });
    try {
      const session = await factory.createSession();
      const queue = 'honest.after-fuzz';
      await session.createQueue(queue, queue, { durable: false, temporary: true });
      const sent = session.createProducer(queue);
      const received = await session.createConsumer(queue);
      session.start();
      await sent.send(sequenced(7));
      const message = await received.receive(10_000);
      expect(message === null ? null : seqOf(message)).toBe(7);
      await message?.acknowledge();
      expect(await session.queueQuery(queue)).toMatchObject({ exists: true, consumerCount: 1 });
    } finally {
      await factory.close();
    }
  });

  test('the broker holds only what its clients account for: counts, queues and heap', async () => {
    // Sessions of failed fuzz connections wait for a reattach until the TTL reaps them.
    const onlyHonest = (): boolean => broker.getConnectionCount() === 1 && broker.getSessionCount() === 1;
    await waitFor(onlyHonest, 'the broker to keep only the honest connection', CONNECTION_TTL_MS * 5).catch(
      () => {
        throw new Error(
          `seed ${settings.seed}: the broker still holds ${broker.getConnectionCount()} connections and ${broker.getSessionCount()} sessions; only the honest one of each should be left`,
        );
      },
    );
    const queues = broker.listQueues();
    const created = queues.filter((queue) => !baselineQueues.has(queue.name));
    const temporary = created.filter((queue) => queue.temporary).length;
    const held = queues
      .filter((queue) => queue.name !== HONEST_QUEUE)
      .reduce((sum, q) => sum + q.messageCount, 0);
    // No consumer outlives its connection; the honest queue holds nothing the honest client did not take.
    const strays = queues
      .filter(
        (queue) =>
          queue.consumerCount !== (queue.name === HONEST_QUEUE ? 1 : 0) ||
          (queue.name === HONEST_QUEUE && queue.messageCount !== 0),
      )
      .map((queue) => `${queue.name}: ${queue.consumerCount} consumers, ${queue.messageCount} messages`);

    // What the fuzz left in queues is the broker's to keep; without it the heap is back near the start.
    for (const queue of [...created.map((q) => q.name), NAMES.queue]) broker.postOffice.deleteQueue(queue);
    const afterBytes = measureHeap(gc);
    const afterBufferBytes = process.memoryUsage().arrayBuffers;
    const margin = gc === null ? 4 * HEAP_MARGIN_BYTES : HEAP_MARGIN_BYTES;
    settings.log(
      `fuzz seed=${settings.seed}: heap ${mib(baselineHeapBytes)} -> ${mib(afterBytes)} MiB, buffers ${mib(baselineBufferBytes)} -> ${mib(afterBufferBytes)} MiB (gc: ${gc !== null}); ${created.length} queues created (${temporary} temporary), ${held} messages held`,
    );

    expect(seeded(strays)).toEqual(seeded([]));
    const exceeded = [
      // No more queues than the fuzz traffic asked for. A temporary queue goes with the connection
      // that made it (or, when another connection consumed from it, with that last consumer): none
      // is left once every fuzz connection has gone.
      over('lasting queues created', created.length - temporary, report.lastingQueues),
      over('temporary queues left', temporary, 0),
      over('messages held in fuzz queues', held, report.messages),
      over('heap growth in MiB', Number(mib(afterBytes - baselineHeapBytes)), margin / MiB),
      over('buffer growth in MiB', Number(mib(afterBufferBytes - baselineBufferBytes)), margin / MiB),
    ].filter((line) => line !== null);
    expect(seeded(exceeded)).toEqual(seeded([]));
  });
});

/** 'what: actual > bound' when the bound is exceeded, else null. */
function over(what: string, actual: number, bound: number): string | null {
  return actual > bound ? `${what}: ${actual} > ${bound}` : null;
}

function mib(bytes: number): string {
  return (bytes / MiB).toFixed(1);
}

function summary(report: FuzzReport): string {
  const rejections = report.rejections
    .slice(0, 6)
    .map(([reason, count]) => `${count}× ${reason}`)
    .join('; ');
  return [
    `fuzz seed=${report.seed}: ${report.connections} connections (${report.byKind.session} with a session, ${report.byKind.control} control, ${report.byKind.noise} noise) in ${(report.elapsedMs / 1000).toFixed(1)} s`,
    `${report.framesSent} frames (${report.mutatedFrames} mutated), ${mib(report.bytesSent)} MiB; ${report.refusedByCodec} refused by the codec, ${report.refusedAndClosed} of them closed; ${report.closedByBroker} closed by the broker in all`,
    `codec refusals: ${rejections}; longest event-loop stall ${report.maxEventLoopDelayMs.toFixed(0)} ms`,
    `${report.problemCount} problems${report.problemCount > 0 ? `:\n${report.problems.slice(0, 5).join('\n')}` : ''}`,
  ].join('\n');
}
