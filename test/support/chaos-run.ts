import {
  Broker,
  ClientSessionFactory,
  CoreMessage,
  PropertyKind,
  type ClientConsumer,
  type ClientSession,
  type ReceivedMessage,
} from '../../src';
import { FailoverEventType, type FailoverEvent } from '../../src/core/client';
import { FaultProxy, seededRandom } from './fault-proxy';
import { exposeGc, measureHeap } from './heap';
import { readEnvNumber } from './env-number';
import { waitFor } from './wait';

/**
 * The chaos run behind test/integration/chaos/chaos.test.ts and `npm run test:chaos`: one broker,
 * a fault proxy that resets the link every 20–200 ms on a seeded schedule, and one client factory
 * with four sessions (auto-ack, client-ack, transacted, and a topic with a durable and a
 * non-durable subscription) that produce and consume numbered messages. It returns what it saw;
 * the test decides. Everything it opens is closed before it returns, whatever happened.
 */

export interface ChaosSettings {
  /** Seeds the cut schedule and the message sizes; printed first so that a run can be replayed. */
  readonly seed: number;
  /** Messages sent, all producers together; with `durationMs` a cap (Infinity: none). */
  readonly messages: number;
  /** When set, producers keep sending until this long has passed (or `messages` were sent). */
  readonly durationMs: number | null;
  /** N: the client-ack consumers acknowledge every N messages; the transacted session commits every N. */
  readonly batch: number;
  readonly minCutIntervalMs: number;
  readonly maxCutIntervalMs: number;
  /** A producer waits while this many of its messages are sent and not yet consumed. */
  readonly maxInFlight: number;
  /** The run gives up when nothing was received for this long (a stall), instead of hanging. */
  readonly stallMs: number;
  readonly log: (line: string) => void;
}

export const CHAOS_DEFAULTS = {
  // The size: 100 000 messages over the four sessions, in well under two minutes here.
  messages: 100_000,
  batch: 50,
  minCutIntervalMs: 20,
  maxCutIntervalMs: 200,
  maxInFlight: 1_000,
  stallMs: 60_000,
  confirmationWindowSize: 1024 * 1024,
  retryInterval: 20,
} as const;

/** What one consumer got from one producer. */
export interface Tally {
  readonly consumer: string;
  readonly producer: string;
  /** Messages the producer sent (and, on a transacted session, committed). */
  readonly sent: number;
  /** Messages received: equals `sent` when every message arrived exactly once. */
  readonly received: number;
}

export interface ChaosReport {
  readonly seed: number;
  readonly elapsedMs: number;
  readonly sent: number;
  readonly received: number;
  /** One row per consumer and producer feeding it. */
  readonly tallies: readonly Tally[];
  /** Gaps, repeats, reorders, redeliveries and errors, in the order seen (the first 50). */
  readonly problems: readonly string[];
  readonly problemCount: number;
  /** Failover events in order: FAILURE_DETECTED, FAILOVER_COMPLETED:true|false, FAILOVER_FAILED. */
  readonly events: readonly string[];
  /** From FAILURE_DETECTED to the failover's end. */
  readonly longestFailoverMs: number;
  readonly meanFailoverMs: number;
  /** Cut events of the schedule; mid-frame cuts armed after one; links reset by either. */
  readonly cuts: number;
  readonly midFrameCuts: number;
  readonly linksCut: number;
  readonly reattaches: number;
  readonly reconnects: number;
  readonly replayedCommands: number;
  readonly resendBufferPeakBytes: number;
  readonly confirmationWindowSize: number;
  /** Messages still in a chaos queue once everything was acknowledged and committed (should be none). */
  readonly leftInQueues: Readonly<Record<string, number>>;
  /** Broker connections and sessions left after the factory closed. */
  readonly brokerConnectionsAfterClose: number;
  readonly brokerSessionsAfterClose: number;
  readonly heap: HeapReport;
}

export interface HeapReport {
  /** True when a real garbage collection ran before each measurement. */
  readonly gc: boolean;
  readonly baselineBytes: number;
  readonly peakBytes: number;
  readonly afterBytes: number;
  /** Whether the broker and the factory were garbage collected after close (null without gc). */
  readonly brokerCollected: boolean | null;
  readonly factoryCollected: boolean | null;
}

/** Reads CHAOS_SEED, CHAOS_MESSAGES and CHAOS_MINUTES; anything invalid throws naming the variable. */
export function chaosSettingsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = (line) => console.log(line),
): ChaosSettings {
  const seed = readEnvNumber(
    env,
    'CHAOS_SEED',
    (v) => Number.isInteger(v) && v >= 0 && v < 2 ** 32,
    'an integer in 0..4294967295',
  );
  const messages = readEnvNumber(
    env,
    'CHAOS_MESSAGES',
    (v) => Number.isInteger(v) && v >= 8,
    'an integer >= 8',
  );
  const minutes = readEnvNumber(
    env,
    'CHAOS_MINUTES',
    (v) => v > 0 && v <= 24 * 60,
    'a number of minutes in (0, 1440]',
  );
  return {
    seed: seed ?? Math.floor(Math.random() * 2 ** 32),
    messages: messages ?? (minutes === null ? CHAOS_DEFAULTS.messages : Infinity),
    durationMs: minutes === null ? null : Math.round(minutes * 60_000),
    batch: CHAOS_DEFAULTS.batch,
    minCutIntervalMs: CHAOS_DEFAULTS.minCutIntervalMs,
    maxCutIntervalMs: CHAOS_DEFAULTS.maxCutIntervalMs,
    maxInFlight: CHAOS_DEFAULTS.maxInFlight,
    stallMs: CHAOS_DEFAULTS.stallMs,
    log,
  };
}

// ---- the run ----

const QUEUE = {
  auto: 'chaos.auto',
  client: 'chaos.client',
  tx: 'chaos.tx',
} as const;
const TOPIC = 'chaos.topic';
const DURABLE_SUBSCRIPTION = 'chaos.topic.durable';
const NON_DURABLE_SUBSCRIPTION = 'chaos.topic.non-durable';
const MAX_PROBLEMS = 50;

/** Runs the chaos workload; resolves with what happened (it rejects only if it could not start). */
export async function runChaos(settings: ChaosSettings): Promise<ChaosReport> {
  const gc = exposeGc();
  const baselineBytes = measureHeap(gc);
  const outcome = await runWorkload(settings);
  // Let closed sockets and settled promises go before measuring: a few turns, and on a loaded
  // machine (socket close events come later) up to 50, until the broker and factory are collected.
  // Something that still holds them never lets them go, and the check below fails.
  const released = (): boolean =>
    outcome.broker.deref() === undefined && outcome.factory.deref() === undefined;
  for (let i = 0; i < 50 && (i < 5 || (gc !== null && !released())); i++) {
    await new Promise((resolve) => setImmediate(resolve));
    if (i >= 5 && gc !== null) measureHeap(gc);
  }
  const afterBytes = measureHeap(gc);
  const collected = (ref: WeakRef<object>): boolean | null =>
    gc === null ? null : ref.deref() === undefined;
  return {
    ...outcome.report,
    heap: {
      gc: gc !== null,
      baselineBytes,
      peakBytes: outcome.peakHeapBytes,
      afterBytes,
      brokerCollected: collected(outcome.broker),
      factoryCollected: collected(outcome.factory),
    },
  };
}

interface WorkloadOutcome {
  report: Omit<ChaosReport, 'heap'>;
  peakHeapBytes: number;
  /** Weak, so that the heap check can tell whether anything still holds them after close. */
  broker: WeakRef<object>;
  factory: WeakRef<object>;
}

/** Problems seen during the run, capped so that a badly broken run cannot flood the report. */
class Problems {
  readonly list: string[] = [];
  count = 0;

  add(problem: string): void {
    this.count++;
    if (this.list.length < MAX_PROBLEMS) this.list.push(problem);
  }
}

/**
 * Wakes waiters whenever a consumer makes progress; a waiter that sees none for `stallMs` rejects,
 * so a stuck run fails saying what it waited for instead of hitting the test timeout.
 */
class Progress {
  private waiters: Array<() => void> = [];
  lastProgressAt = Date.now();

  constructor(private readonly stallMs: number) {}

  notify(): void {
    this.lastProgressAt = Date.now();
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves when `condition` holds; rejects after `stallMs` without progress. */
  async until(condition: () => boolean, what: () => string): Promise<void> {
    while (!condition()) {
      if (Date.now() - this.lastProgressAt > this.stallMs) {
        throw new Error(`no progress for ${this.stallMs} ms while waiting for ${what()}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 100);
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.push(done);
      });
    }
  }
}

/** One consumer's view: the next sequence number expected from each producer. */
class ConsumerTally {
  readonly next = new Map<string, number>();
  received = 0;

  constructor(
    readonly name: string,
    private readonly problems: Problems,
    private readonly progress: Progress,
  ) {}

  /** Checks one message: from its producer, exactly the next number, delivered once. */
  record(received: ReceivedMessage): void {
    const producer = stringProperty(received, 'producer');
    const seq = intProperty(received, 'seq');
    const next = this.next.get(producer) ?? 0;
    if (received.deliveryCount !== 1) {
      this.problems.add(`${this.name}: ${producer}#${seq} has delivery count ${received.deliveryCount}`);
    }
    if (seq === next) {
      this.next.set(producer, next + 1);
    } else if (seq < next) {
      this.problems.add(
        `${this.name}: ${producer}#${seq} arrived again or out of order (after #${next - 1})`,
      );
    } else {
      this.problems.add(`${this.name}: ${producer}#${next}..#${seq - 1} missing before #${seq}`);
      this.next.set(producer, seq + 1);
    }
    this.received++;
    this.progress.notify();
  }

  count(producer: string): number {
    return this.next.get(producer) ?? 0;
  }
}

interface ProducerPlan {
  readonly id: string;
  readonly address: string;
  readonly session: ClientSession;
  readonly quota: number;
  /** The consumers that must see every message of this producer. */
  readonly consumers: readonly ConsumerTally[];
  sent: number;
}

/**
 * A seeded schedule that resets every link at uniformly random intervals in [min, max] ms. One cut
 * in four also arms a mid-frame cut of the next link, after 0–511 more bytes towards the client:
 * that link is usually the reconnection, so the second cut lands inside the failover (between one
 * session's reattach and the next, or in the middle of a replay).
 */
class CutSchedule {
  cuts = 0;
  /** Mid-frame cuts armed for the next link. */
  followUps = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly random: () => number;
  private readonly disarm = (): void => this.proxy.pass();

  constructor(
    private readonly proxy: FaultProxy,
    seed: number,
    private readonly minMs: number,
    private readonly maxMs: number,
  ) {
    this.random = seededRandom(seed);
  }

  start(): void {
    this.scheduleNext();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.proxy.off('reset', this.disarm);
    this.proxy.pass();
  }

  private scheduleNext(): void {
    if (this.stopped) return;
    const wait = this.minMs + this.random() * (this.maxMs - this.minMs);
    const followUp = this.random() < 0.25;
    const followUpBytes = Math.floor(this.random() * 512);
    this.timer = setTimeout(() => {
      this.cuts++;
      this.proxy.cut();
      if (followUp) {
        this.followUps++;
        this.proxy.off('reset', this.disarm);
        this.proxy.once('reset', this.disarm);
        this.proxy.cutAfterBytes(followUpBytes, 'toClient');
      }
      this.scheduleNext();
    }, wait);
  }
}

async function runWorkload(settings: ChaosSettings): Promise<WorkloadOutcome> {
  const { seed, batch } = settings;
  settings.log(
    `chaos seed=${seed} messages=${settings.messages} minutes=${settings.durationMs === null ? '-' : settings.durationMs / 60_000} ` +
      `cuts every ${settings.minCutIntervalMs}-${settings.maxCutIntervalMs} ms ` +
      `(replay: CHAOS_SEED=${seed}, or npm run test:chaos -- --seed ${seed})`,
  );
  const started = Date.now();
  const problems = new Problems();
  const progress = new Progress(settings.stallMs);
  const events: string[] = [];
  const failoverMs: number[] = [];
  let peakHeapBytes = process.memoryUsage().heapUsed;
  const heapSampler = setInterval(() => {
    peakHeapBytes = Math.max(peakHeapBytes, process.memoryUsage().heapUsed);
  }, 250);

  const broker = new Broker({
    acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port: 0 }],
    persistenceEnabled: false,
    // Security is tested where it is the subject (test/server/security, test/integration/security*).
    securityEnabled: false,
    queues: [
      ...Object.values(QUEUE).map((name) => ({ name, address: name, filter: null, durable: true })),
      { name: DURABLE_SUBSCRIPTION, address: TOPIC, filter: null, durable: true },
    ],
  });
  let proxy: FaultProxy | null = null;
  let factory: ClientSessionFactory | null = null;
  let schedule: CutSchedule | null = null;
  const brokerRef = new WeakRef<object>(broker);
  let factoryRef = new WeakRef<object>({});
  const leftInQueues: Record<string, number> = {};
  let brokerConnectionsAfterClose = -1;
  let brokerSessionsAfterClose = -1;
  let statistics = { reattaches: 0, reconnects: 0, replayedCommands: 0, resendBufferPeakBytes: 0 };
  const tallies: Tally[] = [];
  let sent = 0;
  let received = 0;
  try {
    await broker.start();
    proxy = await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: broker.getPort() });
    factory = await ClientSessionFactory.connect({
      connectors: [{ host: '127.0.0.1', port: proxy.port }],
      confirmationWindowSize: CHAOS_DEFAULTS.confirmationWindowSize,
      reconnectAttempts: -1,
      retryInterval: CHAOS_DEFAULTS.retryInterval,
    });
    factoryRef = new WeakRef<object>(factory);
    let failureAt = 0;
    const onFailoverEvent = (event: FailoverEvent): void => {
      if (event.type === FailoverEventType.FAILURE_DETECTED) failureAt = performance.now();
      else failoverMs.push(performance.now() - failureAt);
      events.push(
        event.type === FailoverEventType.FAILOVER_COMPLETED
          ? `${event.type}:${String(event.reattached)}`
          : event.type,
      );
    };
    factory.addFailoverListener(onFailoverEvent);

    // ---- sessions, subscriptions and consumers, set up before the first cut ----
    const autoSession = await factory.createSession({ ackBatchSize: 0 });
    const clientSession = await factory.createSession({ ackBatchSize: 0 });
    const txSession = await factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
    const topicSession = await factory.createSession({ ackBatchSize: 0 });
    // A JMS non-durable subscription: a temporary queue that lives as long as the connection.
    await topicSession.createQueue(TOPIC, NON_DURABLE_SUBSCRIPTION, { durable: false, temporary: true });

    const tally = (name: string): ConsumerTally => new ConsumerTally(name, problems, progress);
    const auto = tally('auto-ack');
    const client = tally('client-ack');
    const tx = tally('transacted');
    const durableSub = tally('topic durable');
    const nonDurableSub = tally('topic non-durable');
    const consumers = [auto, client, tx, durableSub, nonDurableSub];
    const lastUnacknowledged = new Map<ConsumerTally, ReceivedMessage>();

    const handle = (
      consumer: ClientConsumer,
      name: ConsumerTally,
      onMessage: (m: ReceivedMessage) => Promise<void>,
    ): void => {
      consumer.setMessageHandler(async (message) => {
        try {
          name.record(message);
          await onMessage(message);
        } catch (error) {
          problems.add(`${name.name} handler: ${describe(error)}`);
        }
      });
    };
    /** Acknowledges every `every`-th message; the last ones are acknowledged when the run ends. */
    const acknowledgeEvery =
      (name: ConsumerTally, every: number) =>
      async (message: ReceivedMessage): Promise<void> => {
        if (name.received % every === 0) {
          lastUnacknowledged.delete(name);
          await message.acknowledge();
        } else {
          lastUnacknowledged.set(name, message);
        }
      };
    handle(await autoSession.createConsumer(QUEUE.auto), auto, acknowledgeEvery(auto, 1));
    handle(await clientSession.createConsumer(QUEUE.client), client, acknowledgeEvery(client, batch));
    handle(await txSession.createConsumer(QUEUE.tx), tx, async (message) => {
      await message.acknowledge();
      if (tx.received % batch === 0) await txSession.commit();
    });
    handle(
      await topicSession.createConsumer(DURABLE_SUBSCRIPTION),
      durableSub,
      acknowledgeEvery(durableSub, 1),
    );
    handle(
      await topicSession.createConsumer(NON_DURABLE_SUBSCRIPTION),
      nonDurableSub,
      acknowledgeEvery(nonDurableSub, batch),
    );
    const sessions = [autoSession, clientSession, txSession, topicSession];
    const sessionNames = ['auto-ack', 'client-ack', 'transacted', 'topic'];
    for (const [i, session] of sessions.entries()) {
      // The broker refusing a one-way packet (an acknowledgement of an unknown message, …) means
      // the two sides disagree about what was sent.
      session.setAsyncErrorHandler((error) =>
        problems.add(`${sessionNames[i]} session: the broker reported ${error.code}: ${error.message}`),
      );
      session.start();
    }

    // ---- producers: two per destination, one on its own session and one on the next session ----
    const destinations: Array<{ name: string; address: string; consumers: ConsumerTally[] }> = [
      { name: 'auto', address: QUEUE.auto, consumers: [auto] },
      { name: 'client', address: QUEUE.client, consumers: [client] },
      { name: 'tx', address: QUEUE.tx, consumers: [tx] },
      { name: 'topic', address: TOPIC, consumers: [durableSub, nonDurableSub] },
    ];
    const producerCount = destinations.length * 2;
    const producers: ProducerPlan[] = destinations.flatMap((destination, i) =>
      [i, (i + 1) % sessions.length].map((sessionIndex, k) => {
        const index = i * 2 + k;
        const quota =
          settings.messages === Infinity
            ? Infinity
            : Math.floor(settings.messages / producerCount) +
              (index < settings.messages % producerCount ? 1 : 0);
        return {
          id: `${destination.name}-${k === 0 ? 'own' : 'neighbour'}`,
          address: destination.address,
          session: sessions[sessionIndex] as ClientSession,
          quota,
          consumers: destination.consumers,
          sent: 0,
        };
      }),
    );

    schedule = new CutSchedule(proxy, seed, settings.minCutIntervalMs, settings.maxCutIntervalMs);
    schedule.start();
    const sendUntil = settings.durationMs === null ? Infinity : Date.now() + settings.durationMs;
    const bodySizes = seededRandom(seed ^ 0x5eed);
    const produce = async (plan: ProducerPlan): Promise<void> => {
      const producer = plan.session.createProducer(plan.address);
      const inFlight = (): number => plan.sent - Math.min(...plan.consumers.map((c) => c.count(plan.id)));
      for (let seq = 0; seq < plan.quota && Date.now() < sendUntil; seq++) {
        if (inFlight() >= settings.maxInFlight) {
          await progress.until(
            () => inFlight() < settings.maxInFlight,
            () => `${plan.id} to drain below ${settings.maxInFlight} messages in flight`,
          );
        }
        await producer.send(numbered(plan.id, seq, Math.floor(bodySizes() * 1024)));
        plan.sent = seq + 1;
        if (plan.session.transacted && plan.sent % batch === 0) await plan.session.commit();
      }
      if (plan.session.transacted) await plan.session.commit();
    };
    const results = await Promise.allSettled(producers.map(produce));
    for (const [i, result] of results.entries()) {
      if (result.status === 'rejected')
        problems.add(`producer ${producers[i]?.id}: ${describe(result.reason)}`);
    }

    // ---- wait for every message, then acknowledge and commit what is left, still under cuts ----
    const missing = (): string[] =>
      producers.flatMap((plan) =>
        plan.consumers
          .filter((c) => c.count(plan.id) < plan.sent)
          .map((c) => `${c.name} has ${c.count(plan.id)} of ${plan.sent} from ${plan.id}`),
      );
    try {
      await progress.until(
        () => missing().length === 0,
        () => missing().join('; '),
      );
    } catch (error) {
      problems.add(describe(error));
    }
    try {
      for (const message of lastUnacknowledged.values()) await message.acknowledge();
      await txSession.commit();
    } catch (error) {
      problems.add(`final acknowledgements: ${describe(error)}`);
    }
    schedule.stop();

    // ---- the broker applied every acknowledgement: nothing is left in any queue ----
    await waitFor(() => !factory?.failingOver, 'the failover to end', 30_000).catch(() =>
      problems.add('failover still running 30 s after the last cut'),
    );
    const chaosQueues = () => broker.listQueues().filter((queue) => queue.name.startsWith('chaos.'));
    await waitFor(
      () => chaosQueues().every((queue) => queue.messageCount === 0),
      'the queues to empty',
      30_000,
    ).catch(() => undefined);
    for (const queue of chaosQueues()) leftInQueues[queue.name] = queue.messageCount;

    for (const plan of producers) {
      sent += plan.sent;
      for (const consumer of plan.consumers) {
        tallies.push({
          consumer: consumer.name,
          producer: plan.id,
          sent: plan.sent,
          received: consumer.count(plan.id),
        });
      }
    }
    received = consumers.reduce((sum, consumer) => sum + consumer.received, 0);
    const stats = factory.getStatistics();
    statistics = {
      reattaches: stats.reattaches,
      reconnects: stats.reconnects,
      replayedCommands: stats.replayedCommands,
      resendBufferPeakBytes: stats.resendBufferPeakBytes,
    };
    factory.removeFailoverListener(onFailoverEvent);
    await factory.close();
    await waitFor(
      () => broker.getConnectionCount() === 0 && broker.getSessionCount() === 0,
      'the broker to drop the connections',
      10_000,
    ).catch(() => undefined);
    brokerConnectionsAfterClose = broker.getConnectionCount();
    brokerSessionsAfterClose = broker.getSessionCount();
  } finally {
    schedule?.stop();
    clearInterval(heapSampler);
    await factory?.close();
    await proxy?.close();
    await broker.stop();
  }
  return {
    report: {
      seed,
      elapsedMs: Date.now() - started,
      sent,
      received,
      tallies,
      problems: problems.list,
      problemCount: problems.count,
      events,
      longestFailoverMs: Math.max(0, ...failoverMs),
      meanFailoverMs: failoverMs.length === 0 ? 0 : failoverMs.reduce((a, b) => a + b, 0) / failoverMs.length,
      cuts: schedule?.cuts ?? 0,
      midFrameCuts: schedule?.followUps ?? 0,
      linksCut: proxy?.linksReset ?? 0,
      ...statistics,
      confirmationWindowSize: CHAOS_DEFAULTS.confirmationWindowSize,
      leftInQueues,
      brokerConnectionsAfterClose,
      brokerSessionsAfterClose,
    },
    peakHeapBytes,
    broker: brokerRef,
    factory: factoryRef,
  };
}

/** Problems in the failover events: every failure must end in a completed reattach. */
export function failoverEventProblems(events: readonly string[]): string[] {
  const problems: string[] = [];
  let open = false;
  for (const [i, event] of events.entries()) {
    if (event === FailoverEventType.FAILURE_DETECTED) {
      if (open) problems.push(`#${i}: FAILURE_DETECTED while a failover was already running`);
      open = true;
    } else if (event === `${FailoverEventType.FAILOVER_COMPLETED}:true`) {
      if (!open) problems.push(`#${i}: FAILOVER_COMPLETED without FAILURE_DETECTED`);
      open = false;
    } else {
      problems.push(`#${i}: ${event} (the broker never restarts: every failure must be a reattach)`);
      open = false;
    }
  }
  if (open) problems.push('the last failure never completed');
  return problems;
}

function numbered(producer: string, seq: number, bodyBytes: number): CoreMessage {
  const message = new CoreMessage();
  message.durable = seq % 3 === 0;
  message.properties.set('producer', { kind: PropertyKind.STRING, value: producer });
  message.properties.set('seq', { kind: PropertyKind.INT, value: seq });
  message.body = Buffer.alloc(bodyBytes, seq & 0xff);
  return message;
}

function stringProperty(received: ReceivedMessage, name: string): string {
  const value = received.message.properties.get(name);
  if (value?.kind !== PropertyKind.STRING)
    throw new Error(`message ${received.message.messageId} has no STRING ${name}`);
  return value.value;
}

function intProperty(received: ReceivedMessage, name: string): number {
  const value = received.message.properties.get(name);
  if (value?.kind !== PropertyKind.INT)
    throw new Error(`message ${received.message.messageId} has no INT ${name}`);
  return value.value;
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
