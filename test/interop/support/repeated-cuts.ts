import { HornetQConnectionFactory, HornetQQueue, Session, type FailoverEvent } from '../../../src';
import { readEnvNumber } from '../../support/env-number';
import { FaultProxy, seededRandom } from '../../support/fault-proxy';

/**
 * The repeated-cut run of issue 25: our producer sends numbered durable messages through a fault
 * proxy that resets the link on a seeded schedule (every 100-500 ms), with a 1 MiB confirmation
 * window; then a consumer on a link of its own reads the queue to the end. It reports what it
 * saw; the test decides.
 */

export interface RepeatedCutsSettings {
  readonly serverPort: number;
  readonly queue: string;
  readonly count: number;
  readonly seed: number;
  /** Our option: every durable send carries a duplicate id. */
  readonly duplicateIds: boolean;
  /** The run gives up (reporting a wedge) when this long has passed. */
  readonly deadlineMs: number;
}

export interface RepeatedCutsReport {
  readonly seed: number;
  readonly elapsedMs: number;
  /** From the first send to the last one's end: when the cuts can hit a send. */
  readonly sendingMs: number;
  /** Cuts while the producer was sending. */
  readonly cuts: number;
  /** Sends whose promise resolved. */
  readonly resolved: number;
  /** Sends that rejected, with the error's code and message. */
  readonly failed: ReadonlyArray<{ seq: number; error: string; message: string }>;
  /** True when the deadline ended the run before every send settled. */
  readonly wedged: boolean;
  /** Resolved sends the consumer never got. */
  readonly lost: readonly number[];
  /** Sequence numbers the consumer got more than once (resolved or not). */
  readonly duplicated: readonly number[];
  /** Messages received out of order (first arrivals only). */
  readonly reordered: number;
  readonly received: number;
  readonly reattaches: number;
  readonly recreations: number;
  /** The longest a single send took, in ms. */
  readonly longestSendMs: number;
}

/** The default run (npm run test:interop) and the long one (REPEATED_CUTS_MESSAGES=5000). */
export const REPEATED_CUTS_DEFAULT_MESSAGES = 800;
export const CUT_INTERVAL_MS = { min: 100, max: 500 } as const;
const CONFIRMATION_WINDOW = 1024 * 1024;
/** How long the consumer waits for one more message before it takes the queue as read. */
const DRAINED_AFTER_MS = 3_000;

/** REPEATED_CUTS_SEED and REPEATED_CUTS_MESSAGES; anything invalid throws naming the variable. */
export function repeatedCutsFromEnv(env: NodeJS.ProcessEnv = process.env): {
  seeds: number[];
  count: number;
} {
  const seed = readEnvNumber(
    env,
    'REPEATED_CUTS_SEED',
    (v) => Number.isInteger(v) && v >= 0 && v < 2 ** 32,
    'an integer in 0..4294967295',
  );
  const count = readEnvNumber(
    env,
    'REPEATED_CUTS_MESSAGES',
    (v) => Number.isInteger(v) && v >= 10,
    'an integer >= 10',
  );
  const random = (): number => Math.floor(Math.random() * 2 ** 32);
  return {
    seeds: seed === null ? [random(), random()] : [seed],
    count: count ?? REPEATED_CUTS_DEFAULT_MESSAGES,
  };
}

export async function runRepeatedCuts(settings: RepeatedCutsSettings): Promise<RepeatedCutsReport> {
  const started = Date.now();
  const proxy = await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: settings.serverPort });
  const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: proxy.port });
  factory.setConfirmationWindowSize(CONFIRMATION_WINDOW);
  factory.setReconnectAttempts(-1);
  factory.setRetryInterval(20);
  factory.setRetryIntervalMultiplier(1);
  factory.setCallTimeout(5_000);
  factory.setDuplicateIdOnDurableSend(settings.duplicateIds);
  const connection = await factory.createConnection();
  const events: FailoverEvent[] = [];
  connection.setFailoverListener((event) => events.push(event));
  const random = seededRandom(settings.seed);
  let cuts = 0;
  let cutTimer: NodeJS.Timeout | null = null;
  const scheduleCut = (): void => {
    const wait = CUT_INTERVAL_MS.min + random() * (CUT_INTERVAL_MS.max - CUT_INTERVAL_MS.min);
    cutTimer = setTimeout(() => {
      cuts++;
      proxy.cut();
      scheduleCut();
    }, wait);
  };
  const failed: Array<{ seq: number; error: string; message: string }> = [];
  const resolvedSeqs: number[] = [];
  let wedged = false;
  let longestSendMs = 0;
  let sendingStarted = 0;
  let sendingMs = 0;
  let cutsWhileSending = 0;
  try {
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const producer = await session.createProducer(new HornetQQueue(settings.queue));
    scheduleCut();
    sendingStarted = Date.now();
    for (let seq = 0; seq < settings.count; seq++) {
      if (Date.now() - started > settings.deadlineMs) {
        wedged = true;
        break;
      }
      const message = session.createTextMessage(`m${seq}`);
      message.setIntProperty('seq', seq);
      const sendStarted = Date.now();
      try {
        await producer.send(message);
        resolvedSeqs.push(seq);
      } catch (error) {
        const code = (error as { errorCode?: unknown }).errorCode ?? 'none';
        failed.push({ seq, error: String(code), message: (error as Error).message });
      }
      longestSendMs = Math.max(longestSendMs, Date.now() - sendStarted);
    }
    sendingMs = Date.now() - sendingStarted;
    cutsWhileSending = cuts;
  } finally {
    if (cutTimer !== null) clearTimeout(cutTimer);
    proxy.pass();
    await connection.close().catch(() => undefined);
    await proxy.close();
  }
  const received = await drain(settings.serverPort, settings.queue);
  return report(settings, {
    started,
    sendingMs,
    cuts: cutsWhileSending,
    resolvedSeqs,
    failed,
    wedged,
    received,
    events,
    longestSendMs,
  });
}

/** Every seq in the queue, in the order received, read on a link of its own. */
async function drain(port: number, queue: string): Promise<number[]> {
  const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port });
  const connection = await factory.createConnection();
  try {
    await connection.start();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const consumer = await session.createConsumer(new HornetQQueue(queue));
    const seqs: number[] = [];
    for (;;) {
      const message = await consumer.receive(DRAINED_AFTER_MS);
      if (message === null) return seqs;
      seqs.push(message.getIntProperty('seq'));
    }
  } finally {
    await connection.close();
  }
}

function report(
  settings: RepeatedCutsSettings,
  run: {
    started: number;
    sendingMs: number;
    cuts: number;
    resolvedSeqs: number[];
    failed: Array<{ seq: number; error: string; message: string }>;
    wedged: boolean;
    received: number[];
    events: FailoverEvent[];
    longestSendMs: number;
  },
): RepeatedCutsReport {
  const times = new Map<number, number>();
  let reordered = 0;
  let last = -1;
  for (const seq of run.received) {
    const seen = times.get(seq) ?? 0;
    times.set(seq, seen + 1);
    if (seen === 0) {
      if (seq < last) reordered++;
      last = Math.max(last, seq);
    }
  }
  const completed = run.events.filter((event) => event.type === 'FAILOVER_COMPLETED');
  return {
    seed: settings.seed,
    elapsedMs: Date.now() - run.started,
    sendingMs: run.sendingMs,
    cuts: run.cuts,
    resolved: run.resolvedSeqs.length,
    failed: run.failed,
    wedged: run.wedged,
    lost: run.resolvedSeqs.filter((seq) => !times.has(seq)),
    duplicated: [...times].filter(([, n]) => n > 1).map(([seq]) => seq),
    reordered,
    received: run.received.length,
    reattaches: completed.filter((event) => event.reattached === true).length,
    recreations: completed.filter((event) => event.reattached === false).length,
    longestSendMs: run.longestSendMs,
  };
}
