/**
 * Model-based run (fast-check): random sequences of sends (durable or not), receive-and-acknowledge,
 * transacted sends that commit or roll back, and link faults (cut, cut again during the reattach,
 * cut mid-frame, black hole until detected, stall) against a real broker behind the fault proxy.
 * After each sequence the consumer must have received exactly what was sent outside a transaction
 * or committed, per producer in order, with no gap and no repeat, and the broker's queue must have
 * taken exactly those messages. A failure prints fast-check's seed and path; replay with
 * MODEL_SEED=<seed> (and MODEL_PATH=<path>), and set MODEL_SHRINK=1 to shrink the counterexample
 * (slow: every shrink step is a real run).
 */
import fc from 'fast-check';
import {
  Broker,
  ClientSessionFactory,
  CoreMessage,
  PropertyKind,
  type ClientConsumer,
  type ClientProducer,
  type ClientSession,
  type ReceivedMessage,
} from '../../../src';
import { FailoverEventType } from '../../../src/core/client';
import { FaultProxy, type CutDirection } from '../../support/fault-proxy';
import { waitFor } from '../../support/test-broker';

const QUEUE = 'model.q';
/** Producers: `plain` on an auto-commit session, `tx` on a transacted one. */
type Source = 'plain' | 'tx';
const RECEIVE_TIMEOUT_MS = 15_000;
const FAILOVER_TIMEOUT_MS = 20_000;
/** The client declares a link dead after this long without data: black holes are found quickly. */
const CLIENT_TTL_MS = 600;

/** What the client intended: every message that must reach the consumer, per producer, in order. */
class Model {
  readonly expected: Record<Source, number[]> = { plain: [], tx: [] };
  readonly consumed: Record<Source, number> = { plain: 0, tx: 0 };
  /** Next sequence number per producer; rolled-back messages use numbers too, and never arrive. */
  readonly nextSeq: Record<Source, number> = { plain: 0, tx: 0 };

  get available(): number {
    return this.expected.plain.length - this.consumed.plain + (this.expected.tx.length - this.consumed.tx);
  }

  get total(): number {
    return this.expected.plain.length + this.expected.tx.length;
  }

  take(source: Source, count: number): number[] {
    const seqs = Array.from({ length: count }, (_, i) => this.nextSeq[source] + i);
    this.nextSeq[source] += count;
    return seqs;
  }

  /** Checks a received message against the model: the next one expected from its producer. */
  consume(source: Source, seq: number): void {
    const index = this.consumed[source];
    const want = this.expected[source][index];
    if (want !== seq) {
      throw new Error(
        `consumer got ${source}#${seq}, expected ${want === undefined ? 'nothing more' : `${source}#${want}`} from ${source}`,
      );
    }
    this.consumed[source] = index + 1;
  }
}

/** The system under test: broker, proxy, and one factory with three sessions. */
class Real {
  readonly failoverEvents: string[] = [];
  private armed: (() => void) | null = null;

  private constructor(
    readonly broker: Broker,
    readonly proxy: FaultProxy,
    readonly factory: ClientSessionFactory,
    readonly producers: Record<Source, ClientProducer>,
    readonly txSession: ClientSession,
    readonly consumer: ClientConsumer,
    readonly asyncErrors: string[],
  ) {}

  static async start(confirmationWindowSize: number, consumerWindowSize: number): Promise<Real> {
    // The broker keeps detached sessions for a minute whatever the client's TTL: every failure
    // in this test must end in a reattach.
    const broker = new Broker({
      securityEnabled: false,
      acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port: 0 }],
      persistenceEnabled: false,
      queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: true }],
      connectionTtlOverride: 60_000,
      connectionTtlCheckInterval: 100,
    });
    await broker.start();
    let proxy: FaultProxy | null = null;
    let factory: ClientSessionFactory | null = null;
    try {
      proxy = await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: broker.getPort() });
      factory = await ClientSessionFactory.connect({
        connectors: [{ host: '127.0.0.1', port: proxy.port }],
        confirmationWindowSize,
        reconnectAttempts: -1,
        retryInterval: 10,
        connectionTTL: CLIENT_TTL_MS,
        clientFailureCheckPeriod: 100,
      });
      const asyncErrors: string[] = [];
      // Sessions reattach in the order they were created. The consumer's goes first so that, when
      // a failure interrupts a failover, it is the one already reattached and acknowledging.
      const consumerSession = await factory.createSession({ ackBatchSize: 0 });
      const consumer = await consumerSession.createConsumer(QUEUE, { windowSize: consumerWindowSize });
      const txSession = await factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
      const plainSession = await factory.createSession();
      for (const session of [consumerSession, txSession, plainSession]) {
        session.setAsyncErrorHandler((error) => asyncErrors.push(`${error.code}: ${error.message}`));
      }
      consumerSession.start();
      const real = new Real(
        broker,
        proxy,
        factory,
        { plain: plainSession.createProducer(QUEUE), tx: txSession.createProducer(QUEUE) },
        txSession,
        consumer,
        asyncErrors,
      );
      factory.addFailoverListener((event) =>
        real.failoverEvents.push(
          event.type === FailoverEventType.FAILOVER_COMPLETED
            ? `${event.type}:${String(event.reattached)}`
            : event.type,
        ),
      );
      return real;
    } catch (error) {
      await factory?.close();
      await proxy?.close();
      await broker.stop();
      throw error;
    }
  }

  get failuresDetected(): number {
    return this.failoverEvents.filter((event) => event === FailoverEventType.FAILURE_DETECTED).length;
  }

  /** Sends numbered messages from one producer, one after the other, as an application would. */
  async send(source: Source, seqs: readonly number[], durable: boolean): Promise<void> {
    for (const seq of seqs) await this.producers[source].send(numbered(source, seq, durable));
  }

  /** Arms a reset of the next link(s) after `bytes` more bytes; disarmed by the reset or disarm(). */
  armCutAfterBytes(bytes: number, direction: CutDirection): void {
    this.disarm();
    const onReset = (): void => this.disarm();
    this.armed = () => this.proxy.off('reset', onReset);
    this.proxy.once('reset', onReset);
    this.proxy.cutAfterBytes(bytes, direction);
  }

  /** Back to a plain relay, with no cut pending. */
  disarm(): void {
    this.armed?.();
    this.armed = null;
    this.proxy.pass();
  }

  async failoverDone(): Promise<void> {
    await waitFor(() => !this.factory.failingOver, 'the failover to end', FAILOVER_TIMEOUT_MS);
  }

  /**
   * Waits until every fault injected so far has been dealt with: a round trip to the broker cannot
   * finish on a link that was reset, so once it did the client has seen every reset before it,
   * and then every failure it detected must have ended.
   */
  async settled(): Promise<void> {
    await this.txSession.queueQuery(QUEUE);
    await waitFor(
      () => !this.factory.failingOver && this.failoverEvents.length === 2 * this.failuresDetected,
      'every failover to end',
      FAILOVER_TIMEOUT_MS,
    );
  }

  async close(): Promise<void> {
    this.disarm();
    await this.factory.close();
    await this.proxy.close();
    await this.broker.stop();
  }
}

type ModelCommand = fc.AsyncCommand<Model, Real>;

class Send implements ModelCommand {
  constructor(
    readonly count: number,
    readonly durable: boolean,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const seqs = model.take('plain', this.count);
    await real.send('plain', seqs, this.durable);
    model.expected.plain.push(...seqs);
  }
  toString(): string {
    return `send(${this.count}${this.durable ? ', durable' : ''})`;
  }
}

/**
 * Receives and acknowledges; with `cutAfterFirst`, the link is cut after the first message and
 * again that many bytes into the reattach, so that the rest is received during the failover.
 */
class ReceiveAndAcknowledge implements ModelCommand {
  constructor(
    readonly count: number,
    readonly cutAfterFirst: number | null,
  ) {}
  check(model: Readonly<Model>): boolean {
    return model.available > 0;
  }
  async run(model: Model, real: Real): Promise<void> {
    const count = Math.min(this.count, model.available);
    for (let i = 0; i < count; i++) {
      const message = await real.consumer.receive(RECEIVE_TIMEOUT_MS);
      if (message === null) {
        throw new Error(
          `nothing received within ${RECEIVE_TIMEOUT_MS} ms; ${model.available} messages expected`,
        );
      }
      model.consume(...identify(message));
      await message.acknowledge();
      if (i === 0 && this.cutAfterFirst !== null) {
        real.disarm();
        real.proxy.cut();
        real.armCutAfterBytes(this.cutAfterFirst, 'toClient');
      }
    }
  }
  toString(): string {
    const cut =
      this.cutAfterFirst === null
        ? ''
        : `, cut after the first and again ${this.cutAfterFirst} bytes into the reattach`;
    return `receiveAndAck(${this.count}${cut})`;
  }
}

class TransactedSend implements ModelCommand {
  constructor(
    readonly count: number,
    readonly durable: boolean,
    readonly commit: boolean,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const seqs = model.take('tx', this.count);
    await real.send('tx', seqs, this.durable);
    if (this.commit) {
      await real.txSession.commit();
      model.expected.tx.push(...seqs);
    } else {
      await real.txSession.rollback();
    }
  }
  toString(): string {
    return `txSend(${this.count}${this.durable ? ', durable' : ''}) + ${this.commit ? 'commit' : 'rollback'}`;
  }
}

/** Resets the link; with `againAfterBytes`, the next link too, that many bytes into the reattach. */
class Cut implements ModelCommand {
  constructor(readonly againAfterBytes: number | null) {}
  check(): boolean {
    return true;
  }
  async run(_model: Model, real: Real): Promise<void> {
    real.disarm();
    real.proxy.cut();
    if (this.againAfterBytes !== null) real.armCutAfterBytes(this.againAfterBytes, 'toClient');
  }
  toString(): string {
    return this.againAfterBytes === null
      ? 'cut'
      : `cut, then again ${this.againAfterBytes} bytes into the reattach`;
  }
}

/** Sends while the link is reset `bytes` into the traffic: usually in the middle of a frame. */
class CutMidFrame implements ModelCommand {
  constructor(
    readonly bytes: number,
    readonly direction: CutDirection,
    readonly count: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    real.armCutAfterBytes(this.bytes, this.direction);
    const seqs = model.take('plain', this.count);
    await real.send('plain', seqs, false);
    model.expected.plain.push(...seqs);
  }
  toString(): string {
    return `cutAfterBytes(${this.bytes}, ${this.direction}) while sending ${this.count}`;
  }
}

/**
 * A dead network: bytes vanish without RST or FIN while the producer keeps sending, until the
 * client's pings find the link dead; then the dead links are reset and the network comes back.
 * (Passing again without the reset would leave a TCP stream with a hole in it, which no real
 * network produces: TCP retransmits or the connection dies.)
 */
class BlackHole implements ModelCommand {
  constructor(
    readonly count: number,
    readonly durable: boolean,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    real.disarm();
    // On a working link: a failover already under way would absorb the failure without a new event.
    await real.failoverDone();
    const detected = real.failuresDetected;
    real.proxy.blackHole();
    const seqs = model.take('plain', this.count);
    const sending = real.send('plain', seqs, this.durable).then(
      () => null,
      (error: unknown) => error,
    );
    try {
      await waitFor(
        () => real.failuresDetected > detected,
        'the black hole to be detected',
        10 * CLIENT_TTL_MS,
      );
    } finally {
      real.proxy.cut();
      real.proxy.pass();
    }
    const failed = await sending;
    if (failed !== null) throw failed;
    model.expected.plain.push(...seqs);
  }
  toString(): string {
    return `blackHole until detected, sending ${this.count}${this.durable ? ' durable' : ''}`;
  }
}

/** A brief outage without loss: nobody reads for a while (TCP backpressure), then traffic resumes. */
class Stall implements ModelCommand {
  constructor(readonly ms: number) {}
  check(): boolean {
    return true;
  }
  async run(_model: Model, real: Real): Promise<void> {
    real.disarm();
    real.proxy.stall();
    // The outage's length is the fault being injected, not a wait for a condition.
    await new Promise((resolve) => setTimeout(resolve, this.ms));
    real.proxy.pass();
  }
  toString(): string {
    return `stall(${this.ms} ms)`;
  }
}

const commands = [
  fc
    .record({ count: fc.integer({ min: 1, max: 20 }), durable: fc.boolean() })
    .map(({ count, durable }) => new Send(count, durable)),
  fc.integer({ min: 1, max: 30 }).map((count) => new ReceiveAndAcknowledge(count, null)),
  fc
    .record({ count: fc.integer({ min: 1, max: 30 }), bytes: fc.integer({ min: 0, max: 400 }) })
    .map(({ count, bytes }) => new ReceiveAndAcknowledge(count, bytes)),
  fc
    .record({ count: fc.integer({ min: 1, max: 10 }), durable: fc.boolean(), commit: fc.boolean() })
    .map(({ count, durable, commit }) => new TransactedSend(count, durable, commit)),
  fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }).map((bytes) => new Cut(bytes)),
  fc
    .record({
      bytes: fc.integer({ min: 0, max: 2000 }),
      direction: fc.constantFrom<CutDirection>('toServer', 'toClient', 'both'),
      count: fc.integer({ min: 1, max: 40 }),
    })
    .map(({ bytes, direction, count }) => new CutMidFrame(bytes, direction, count)),
  fc
    .record({ count: fc.integer({ min: 0, max: 10 }), durable: fc.boolean() })
    .map(({ count, durable }) => new BlackHole(count, durable)),
  fc.integer({ min: 10, max: 300 }).map((ms) => new Stall(ms)),
];

/** Drains what is left and checks the whole run against the model. */
async function checkAgainstModel(model: Model, real: Real): Promise<void> {
  real.disarm();
  await real.settled();
  while (model.available > 0) {
    const message = await real.consumer.receive(RECEIVE_TIMEOUT_MS);
    if (message === null) throw new Error(`${model.available} messages never arrived`);
    model.consume(...identify(message));
    await message.acknowledge();
  }
  const extra = await real.consumer.receiveImmediate();
  if (extra !== null) {
    const [source, seq] = identify(extra);
    throw new Error(`received ${source}#${seq}, which was never sent or was rolled back, or arrived twice`);
  }
  // What the broker applied: exactly the intended messages went into the queue, and all are acknowledged.
  const queue = () => real.broker.listQueues().find((q) => q.name === QUEUE);
  await waitFor(() => queue()?.messageCount === 0, 'every acknowledgement to be applied', 10_000).catch(
    () => undefined,
  );
  expect({
    added: queue()?.messagesAdded,
    left: queue()?.messageCount,
    acknowledged: queue()?.messagesAcknowledged,
  }).toEqual({
    added: model.total,
    left: 0,
    acknowledged: model.total,
  });
  expect(real.asyncErrors).toEqual([]);
  const completed = real.failoverEvents.filter((event) => event !== FailoverEventType.FAILURE_DETECTED);
  expect(completed.filter((event) => event !== `${FailoverEventType.FAILOVER_COMPLETED}:true`)).toEqual([]);
  expect(completed).toHaveLength(real.failuresDetected);
}

function numbered(source: Source, seq: number, durable: boolean): CoreMessage {
  const message = new CoreMessage();
  message.durable = durable;
  message.properties.set('source', { kind: PropertyKind.STRING, value: source });
  message.properties.set('seq', { kind: PropertyKind.INT, value: seq });
  message.body = Buffer.from(`${source}#${seq}`);
  return message;
}

function identify(received: ReceivedMessage): [Source, number] {
  const source = received.message.properties.get('source');
  const seq = received.message.properties.get('seq');
  if (
    source?.kind !== PropertyKind.STRING ||
    (source.value !== 'plain' && source.value !== 'tx') ||
    seq?.kind !== PropertyKind.INT
  ) {
    throw new Error(`message ${received.message.messageId} is not one of this test's`);
  }
  if (received.deliveryCount !== 1) {
    throw new Error(`${source.value}#${seq.value} was delivered ${received.deliveryCount} times`);
  }
  return [source.value, seq.value];
}

function envInteger(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new RangeError(`${name} must be an integer (actual value: ${raw})`);
  return value;
}

test('what the broker applied equals what the client intended, whatever the link does', async () => {
  const seed = envInteger('MODEL_SEED');
  const path = process.env.MODEL_PATH;
  await fc.assert(
    fc.asyncProperty(
      // Confirmation window 1 byte: a confirmation for every packet (0 is refused, as HornetQ's
      // file refuses it); 1 MiB: mostly from the timers.
      fc.constantFrom(1, 300, 4096, 1024 * 1024),
      // Consumer window 0: one message per request, so receiving is a round trip each time.
      fc.constantFrom(0, 1024, 1024 * 1024),
      fc.commands(commands, { maxCommands: 25 }),
      async (window, consumerWindow, sequence) => {
        const real = await Real.start(window, consumerWindow);
        try {
          const model = new Model();
          await fc.asyncModelRun(() => ({ model, real }), sequence);
          await checkAgainstModel(model, real);
        } finally {
          await real.close();
        }
      },
    ),
    {
      numRuns: envInteger('MODEL_RUNS') ?? 20,
      endOnFailure: process.env.MODEL_SHRINK !== '1',
      ...(seed === undefined ? {} : { seed }),
      ...(path === undefined || path === '' ? {} : { path }),
    },
  );
}, 300_000);
