import {
  FailoverEventType,
  HornetQConnectionFactory,
  HornetQQueue,
  Session,
  type FailoverEvent,
  type HornetQConnection,
  type Message,
} from '../../../src';

/**
 * A produce/consume run across a failover (issue 25, item 7): one session of an `ha` connection
 * sends numbered durable messages one after the other while another session of the same connection
 * consumes them; the test kills the live in the middle, lets the run go on on the backup, stops
 * it and reads what is left from the queue. The report says which resolved sends were lost,
 * which messages came twice, and when the failover and the first message through the backup came.
 */

/** The window: a kill loses up to this much of unconfirmed sends. */
export const FAILOVER_WINDOW = 1024 * 1024;

export interface FailoverFactorySettings {
  readonly port: number;
  readonly ha: boolean;
  readonly duplicateIds: boolean;
  /** -1: forever (ha true); a few for ha false, which gives up. */
  readonly reconnectAttempts: number;
  /**
   * false: durable sends resolve once written and wait in the confirmation window (many are
   * unconfirmed when the live dies); true: each waits for the server's answer. Default true.
   */
  readonly blockingSends?: boolean;
  /** Connect by HTTP upgrade to this endpoint (an acceptor's name) on `port`. */
  readonly httpUpgradeEndpoint?: string;
}

/**
 * A JMS factory as the scenarios use it: a 1 MiB window, blocking acknowledgements (an
 * acknowledgement lost with the killed live would rightly bring its message again and blur what
 * the run checks), retries every 250 ms growing to 2 s while the backup activates.
 */
export function failoverFactory(settings: FailoverFactorySettings): HornetQConnectionFactory {
  const upgrade =
    settings.httpUpgradeEndpoint === undefined
      ? {}
      : { 'http-upgrade-enabled': true, 'http-upgrade-endpoint': settings.httpUpgradeEndpoint };
  const factory = new HornetQConnectionFactory(settings.ha, {
    host: '127.0.0.1',
    port: settings.port,
    ...upgrade,
  });
  factory.setConfirmationWindowSize(FAILOVER_WINDOW);
  factory.setReconnectAttempts(settings.reconnectAttempts);
  factory.setRetryInterval(250);
  factory.setRetryIntervalMultiplier(1.5);
  factory.setMaxRetryInterval(2_000);
  factory.setBlockOnAcknowledge(true);
  factory.setCallTimeout(30_000);
  factory.setDuplicateIdOnDurableSend(settings.duplicateIds);
  factory.setBlockOnDurableSend(settings.blockingSends ?? true);
  return factory;
}

/** A connection's failover events, each with when it came. */
export class FailoverLog {
  readonly events: Array<FailoverEvent & { at: number }> = [];

  constructor(connection: HornetQConnection) {
    connection.setFailoverListener((event) => this.events.push({ ...event, at: Date.now() }));
  }

  completed(): Array<FailoverEvent & { at: number }> {
    return this.events.filter((event) => event.type === FailoverEventType.FAILOVER_COMPLETED);
  }

  failed(): Array<FailoverEvent & { at: number }> {
    return this.events.filter((event) => event.type === FailoverEventType.FAILOVER_FAILED);
  }
}

export interface ProduceConsumeReport {
  readonly resolved: number;
  /** Sends that rejected: their outcome was not known to the client. */
  readonly failed: ReadonlyArray<{ seq: number; error: string }>;
  /**
   * Resolved sends never consumed, during the run or after it, except the one each failed
   * receive() was acknowledging (see unknownAck).
   */
  readonly lost: readonly number[];
  /**
   * Messages whose receive() threw because the failover cut off their acknowledgement and that
   * never came again: the dead live had applied the acknowledgement. HornetQ's JMS client throws
   * there too; the application did not get them, and no client can know whether it will.
   */
  readonly unknownAck: readonly number[];
  /** Sequence numbers consumed more than once. */
  readonly duplicated: readonly number[];
  /** Sends that rejected but whose message was consumed: the server had it. */
  readonly failedButStored: number;
  readonly consumed: number;
  /** receive() calls that threw (an acknowledgement the failover cut off), and the first error. */
  readonly receiveErrors: number;
  readonly firstReceiveError: string | null;
  /** Messages whose getJMSDestination() threw or named another queue, with the first error. */
  readonly badDestinations: number;
  readonly firstBadDestination: string | null;
  /** When each message was consumed (ms since the epoch), in order. */
  readonly consumedAt: readonly number[];
}

/** A producer whose sends resolve once written waits while it is this far ahead of the consumer. */
const MAX_AHEAD = 500;
const AHEAD_PAUSE_MS = 10;
/** The consumer waits this long for one more message before it takes the queue as read. */
const DRAINED_AFTER_MS = 3_000;
const RECEIVE_POLL_MS = 500;

export class ProduceConsumeRun {
  private stopping = false;
  private stopped: Promise<void> | null = null;
  private seq = 0;
  private readonly resolvedSeqs: number[] = [];
  private readonly failedSends: Array<{ seq: number; error: string }> = [];
  private readonly consumedSeqs: number[] = [];
  private readonly consumedTimes: number[] = [];
  private receiveErrors = 0;
  private firstReceiveError: string | null = null;
  /** For each receive() that threw, the seq it was for: the one after the last consumed (FIFO). */
  private readonly failedReceiveSeqs: number[] = [];
  private badDestinations = 0;
  private firstBadDestination: string | null = null;
  private producing: Promise<void> = Promise.resolve();
  private consuming: Promise<void> = Promise.resolve();

  private constructor(
    private readonly connection: HornetQConnection,
    private readonly queueName: string,
  ) {}

  /** Opens a producing and a consuming session on `connection` and starts both loops. */
  static async start(connection: HornetQConnection, queueName: string): Promise<ProduceConsumeRun> {
    const run = new ProduceConsumeRun(connection, queueName);
    const queue = new HornetQQueue(queueName);
    const producerSession = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const consumerSession = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const producer = await producerSession.createProducer(queue);
    const consumer = await consumerSession.createConsumer(queue);
    await connection.start();
    run.producing = run.produce((seq) => {
      const message = producerSession.createTextMessage(`m${seq}`);
      message.setIntProperty('seq', seq);
      return producer.send(message);
    });
    run.consuming = run.consume(() => consumer.receive(RECEIVE_POLL_MS));
    return run;
  }

  /** Resolved sends so far. */
  get resolved(): number {
    return this.resolvedSeqs.length;
  }

  /** Messages consumed so far. */
  get consumed(): number {
    return this.consumedSeqs.length;
  }

  /** The first time a message was consumed at or after `since`, or null. */
  firstConsumedAfter(since: number): number | null {
    return this.consumedTimes.find((at) => at >= since) ?? null;
  }

  /** Stops both loops (the last send and receive end) and closes the run's connection. */
  stop(): Promise<void> {
    this.stopped ??= this.stopLoops();
    return this.stopped;
  }

  private async stopLoops(): Promise<void> {
    this.stopping = true;
    await this.producing;
    await this.consuming;
    await this.connection.close();
  }

  /** Stops, reads what is left in the queue on `drainConnection`, reports. */
  async finish(drainConnection: HornetQConnection): Promise<ProduceConsumeReport> {
    await this.stop();
    const rest = await this.drain(drainConnection);
    return this.report(rest);
  }

  private async produce(send: (seq: number) => Promise<void>): Promise<void> {
    while (!this.stopping) {
      if (this.seq - this.consumedSeqs.length > MAX_AHEAD) {
        await new Promise((resolve) => setTimeout(resolve, AHEAD_PAUSE_MS));
        continue;
      }
      const seq = this.seq++;
      try {
        await send(seq);
        this.resolvedSeqs.push(seq);
      } catch (error) {
        const code = (error as { errorCode?: unknown }).errorCode ?? (error as Error).name;
        this.failedSends.push({ seq, error: `${String(code)}: ${(error as Error).message}` });
      }
    }
  }

  private async consume(receive: () => Promise<Message | null>): Promise<void> {
    while (!this.stopping) {
      let message: Message | null;
      try {
        message = await receive();
      } catch (error) {
        this.receiveErrors++;
        this.firstReceiveError ??= `${(error as Error).name}: ${(error as Error).message}`;
        this.failedReceiveSeqs.push((this.consumedSeqs.at(-1) ?? -1) + 1);
        continue;
      }
      if (message !== null) this.record(message);
    }
  }

  private record(message: Message): void {
    this.consumedSeqs.push(message.getIntProperty('seq'));
    this.consumedTimes.push(Date.now());
    this.checkDestination(message);
  }

  /** Each delivery names its queue as a JMS destination (a re-created Artemis consumer's too). */
  private checkDestination(message: Message): void {
    let problem: string | null = null;
    try {
      const destination = message.getJMSDestination();
      const name = (destination as HornetQQueue | null)?.getQueueName?.() ?? null;
      if (name !== this.queueName) problem = `destination ${String(destination)}`;
    } catch (error) {
      problem = (error as Error).message;
    }
    if (problem === null) return;
    this.badDestinations++;
    this.firstBadDestination ??= problem;
  }

  private async drain(connection: HornetQConnection): Promise<number[]> {
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const consumer = await session.createConsumer(new HornetQQueue(this.queueName));
    await connection.start();
    const seqs: number[] = [];
    for (;;) {
      const message = await consumer.receive(DRAINED_AFTER_MS);
      if (message === null) break;
      seqs.push(message.getIntProperty('seq'));
    }
    await session.close();
    return seqs;
  }

  private report(drained: number[]): ProduceConsumeReport {
    const times = new Map<number, number>();
    for (const seq of [...this.consumedSeqs, ...drained]) times.set(seq, (times.get(seq) ?? 0) + 1);
    const missing = this.resolvedSeqs.filter((seq) => !times.has(seq));
    const cutOff = new Set(this.failedReceiveSeqs);
    return {
      resolved: this.resolvedSeqs.length,
      failed: this.failedSends,
      lost: missing.filter((seq) => !cutOff.has(seq)),
      unknownAck: missing.filter((seq) => cutOff.has(seq)),
      duplicated: [...times].filter(([, n]) => n > 1).map(([seq]) => seq),
      failedButStored: this.failedSends.filter(({ seq }) => times.has(seq)).length,
      consumed: this.consumedSeqs.length + drained.length,
      receiveErrors: this.receiveErrors,
      firstReceiveError: this.firstReceiveError,
      badDestinations: this.badDestinations,
      firstBadDestination: this.firstBadDestination,
      consumedAt: this.consumedTimes,
    };
  }
}
