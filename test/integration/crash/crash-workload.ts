import {
  ClientSessionFactory,
  CoreMessage,
  PropertyKind,
  type ClientConsumer,
  type ClientSession,
  type ReceivedMessage,
} from '../../../src';
import type { HistoryEvent, MessageKey } from './total-queue-checker';

/**
 * The load of one epoch of the kill test, from clients in the test process against a broker in a
 * child process: producers doing blocking durable sends to crash.a (each numbering its messages),
 * a transacted producer committing batches to crash.b, a transacted mover that takes a batch from
 * crash.a, sends it on to crash.b and commits (now and then rolls back), and a consumer of crash.b
 * acknowledging each message with a blocking acknowledgement; and on crash.c a transacted role
 * that takes a few messages and sends a few large ones (150 KiB, each in its own file beside the
 * journal) in each transaction, so that a kill finds commits waiting for large-message files.
 * Every outcome goes into the history the checker judges. Clients are new in every epoch (no reconnection): when the broker is killed,
 * each client's call in flight fails, is recorded as 'unknown', and that client stops.
 */

export const QUEUE_A = 'jms.queue.crash.a';
export const QUEUE_B = 'jms.queue.crash.b';
export const QUEUE_C = 'jms.queue.crash.c';
/** Every queue of the workload, as snapshots and the final drain go through them. */
export const QUEUES = [QUEUE_A, QUEUE_B, QUEUE_C] as const;
/** The producer whose messages are large: above the broker's 100 KiB large-message threshold. */
export const LARGE_PRODUCER = 'L';
const LARGE_BODY_BYTES = 150 * 1024;
const PRODUCER_PROPERTY = 'crash.producer';
const SEQ_PROPERTY = 'crash.seq';
/** How long a consumer waits for a message before it looks again whether the epoch is over. */
const RECEIVE_POLL_MS = 100;

/** What every epoch shares: the history, each producer's next number, and the seeded choices. */
export class CrashHistory {
  readonly events: HistoryEvent[] = [];
  /** Problems that are not the checker's: a call that failed before the kill, a corrupt body. */
  readonly harnessProblems: string[] = [];
  private readonly nextSeqs = new Map<string, number>();

  constructor(readonly random: () => number) {}

  nextSeq(producer: string): number {
    const seq = this.nextSeqs.get(producer) ?? 0;
    this.nextSeqs.set(producer, seq + 1);
    return seq;
  }

  record(event: HistoryEvent): void {
    this.events.push(event);
  }

  /** 1..max, from the seeded generator. */
  pick(max: number): number {
    return 1 + Math.floor(this.random() * max);
  }
}

/** The body is a function of the key, so that a corrupt or mixed-up message is caught. */
export function bodyOf(key: Pick<MessageKey, 'producer' | 'seq'>): Buffer {
  const size =
    key.producer === LARGE_PRODUCER
      ? LARGE_BODY_BYTES + (key.seq % 1024)
      : 64 + ((key.seq * 7919 + key.producer.length * 131) % 1984);
  const text = `${key.producer}:${key.seq};`;
  return Buffer.from(text.repeat(Math.ceil(size / text.length)).slice(0, size));
}

export function messageFor(key: Pick<MessageKey, 'producer' | 'seq'>, durable = true): CoreMessage {
  const message = new CoreMessage();
  message.durable = durable;
  message.properties.set(PRODUCER_PROPERTY, { kind: PropertyKind.STRING, value: key.producer });
  message.properties.set(SEQ_PROPERTY, { kind: PropertyKind.INT, value: key.seq });
  message.body = bodyOf(key);
  return message;
}

/** The key a received message carries; throws when it carries none (nothing of ours). */
export function keyOfMessage(message: CoreMessage, queue: string): MessageKey {
  const producer = message.properties.get(PRODUCER_PROPERTY);
  const seq = message.properties.get(SEQ_PROPERTY);
  if (producer?.kind !== PropertyKind.STRING || seq?.kind !== PropertyKind.INT) {
    throw new Error(`a message in ${queue} has no ${PRODUCER_PROPERTY}/${SEQ_PROPERTY} properties`);
  }
  return { queue, producer: producer.value, seq: seq.value };
}

export interface EpochLoad {
  readonly producers: number;
  /** A producer waits while this many messages are queued (known from the snapshot and since). */
  readonly maxBacklog: number;
}

/** One epoch's clients; `run` resolves once all of them stopped (after `end`). */
export class EpochClients {
  private over = false;
  private readonly factories: ClientSessionFactory[] = [];
  private backlog: number;

  constructor(
    private readonly history: CrashHistory,
    private readonly epoch: number,
    private readonly port: number,
    private readonly load: EpochLoad,
    queuedAtStart: number,
  ) {
    this.backlog = queuedAtStart;
  }

  /** Runs every client until end() is called or its broker fails it. */
  async run(): Promise<void> {
    const roles: Array<[string, () => Promise<void>]> = [
      ...Array.from({ length: this.load.producers }, (_, i): [string, () => Promise<void>] => [
        `producer p${i}`,
        () => this.produce(`p${i}`),
      ]),
      ['transacted producer', () => this.produceTransactions()],
      ['mover', () => this.move()],
      ['large-message transactions', () => this.largeTransactions()],
      ['consumer', () => this.consume()],
    ];
    await Promise.all(roles.map(([name, role]) => this.guard(name, role)));
  }

  /** Called just before the broker is killed: every error after this is the kill's. */
  end(): void {
    this.over = true;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.factories.splice(0).map((factory) => factory.close()));
  }

  private async guard(name: string, role: () => Promise<void>): Promise<void> {
    try {
      await role();
    } catch (error) {
      if (!this.over)
        this.history.harnessProblems.push(
          `epoch ${this.epoch}: ${name} failed before the kill: ${String(error)}`,
        );
    }
  }

  private async session(settings: { transacted: boolean }): Promise<ClientSession> {
    const factory = await ClientSessionFactory.connect({
      connectors: [{ host: '127.0.0.1', port: this.port }],
      callTimeout: 20_000,
      blockOnAcknowledge: true,
      reconnectAttempts: 0,
      consumerWindowSize: 64 * 1024,
    });
    this.factories.push(factory);
    if (this.over) throw new Error('the epoch ended while connecting');
    return settings.transacted
      ? factory.createSession({ autoCommitSends: false, autoCommitAcks: false })
      : factory.createSession();
  }

  /** Waits while the queues hold maxBacklog messages: the snapshots stay small. */
  private async room(): Promise<void> {
    while (!this.over && this.backlog >= this.load.maxBacklog) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  private async produce(producer: string): Promise<void> {
    const session = await this.session({ transacted: false });
    const sender = session.createProducer(QUEUE_A);
    while (!this.over) {
      await this.room();
      const key: MessageKey = { queue: QUEUE_A, producer, seq: this.history.nextSeq(producer) };
      this.backlog++;
      try {
        await sender.send(messageFor(key));
      } catch (error) {
        this.history.record({ type: 'send', epoch: this.epoch, key, outcome: 'unknown' });
        throw error;
      }
      this.history.record({ type: 'send', epoch: this.epoch, key, outcome: 'ok' });
    }
  }

  private async produceTransactions(): Promise<void> {
    const session = await this.session({ transacted: true });
    const sender = session.createProducer(QUEUE_B);
    for (let n = 0; !this.over; n++) {
      await this.room();
      const keys = Array.from({ length: this.history.pick(4) }, () => ({
        queue: QUEUE_B,
        producer: 't',
        seq: this.history.nextSeq('t'),
      }));
      this.backlog += keys.length;
      await this.finish(session, `e${this.epoch}-t${n}`, keys, [], async () => {
        for (const key of keys) await sender.send(messageFor(key));
      });
    }
  }

  private async move(): Promise<void> {
    const session = await this.session({ transacted: true });
    const consumer = await session.createConsumer(QUEUE_A);
    const sender = session.createProducer(QUEUE_B);
    session.start();
    for (let n = 0; !this.over; n++) {
      const taken = await this.take(consumer, QUEUE_A, this.history.pick(5));
      if (taken.length === 0) continue;
      const keys = taken.map(([key]) => key);
      await this.finish(
        session,
        `e${this.epoch}-m${n}`,
        keys.map((key) => ({ ...key, queue: QUEUE_B })),
        keys,
        async () => {
          for (const [key, message] of taken) {
            await sender.send(messageFor(key));
            await message.acknowledge();
          }
        },
      );
    }
  }

  /**
   * Takes up to one more message of crash.c than it sends, and sends 1 to 3 large ones to
   * crash.c, in one transaction: the acknowledgements and the large sends are all there after a
   * kill or none is. Taking at least as many as it sends keeps crash.c small (it is not counted in
   * the backlog the other producers wait on).
   */
  private async largeTransactions(): Promise<void> {
    const session = await this.session({ transacted: true });
    const consumer = await session.createConsumer(QUEUE_C);
    const sender = session.createProducer(QUEUE_C);
    session.start();
    for (let n = 0; !this.over; n++) {
      const sends = Array.from({ length: this.history.pick(3) }, () => ({
        queue: QUEUE_C,
        producer: LARGE_PRODUCER,
        seq: this.history.nextSeq(LARGE_PRODUCER),
      }));
      const taken = await this.take(consumer, QUEUE_C, sends.length + 1);
      await this.finish(
        session,
        `e${this.epoch}-l${n}`,
        sends,
        taken.map(([key]) => key),
        async () => {
          for (const [, message] of taken) await message.acknowledge();
          for (const key of sends) await sender.send(messageFor(key));
        },
      );
    }
  }

  /** Does a transaction's work, then commits it (one in ten: rolls it back) and records how it ended. */
  private async finish(
    session: ClientSession,
    name: string,
    sends: MessageKey[],
    acks: MessageKey[],
    work: () => Promise<void>,
  ): Promise<void> {
    const record = (outcome: 'ok' | 'unknown' | 'rolled-back'): void =>
      this.history.record({ type: 'transaction', epoch: this.epoch, name, sends, acks, outcome });
    try {
      await work();
      if (this.history.random() < 0.1) {
        await session.rollback();
        record('rolled-back');
        return;
      }
    } catch (error) {
      // No commit was sent: whatever the broker had of it is rolled back.
      record('rolled-back');
      throw error;
    }
    try {
      await session.commit();
    } catch (error) {
      record('unknown');
      throw error;
    }
    record('ok');
  }

  private async consume(): Promise<void> {
    const session = await this.session({ transacted: false });
    const consumer = await session.createConsumer(QUEUE_B);
    session.start();
    while (!this.over) {
      const [received] = await this.take(consumer, QUEUE_B, 1);
      if (received === undefined) continue;
      const [key, message] = received;
      try {
        await consumer.individualAcknowledge(message);
      } catch (error) {
        this.history.record({ type: 'ack', epoch: this.epoch, keys: [key], outcome: 'unknown' });
        throw error;
      }
      this.history.record({ type: 'ack', epoch: this.epoch, keys: [key], outcome: 'ok' });
      this.backlog--;
    }
  }

  /** Up to `count` messages, each recorded as received (and its body checked) when it arrives. */
  private async take(
    consumer: ClientConsumer,
    queue: string,
    count: number,
  ): Promise<Array<[MessageKey, ReceivedMessage]>> {
    const taken: Array<[MessageKey, ReceivedMessage]> = [];
    while (taken.length < count && !this.over) {
      const message = await consumer.receive(RECEIVE_POLL_MS);
      if (message === null) break;
      const key = keyOfMessage(message.message, queue);
      this.history.record({ type: 'receive', epoch: this.epoch, key });
      checkBody(this.history, this.epoch, key, message.message);
      taken.push([key, message]);
    }
    return taken;
  }
}

export function checkBody(history: CrashHistory, epoch: number, key: MessageKey, message: CoreMessage): void {
  if (!message.body.equals(bodyOf(key))) {
    history.harnessProblems.push(
      `epoch ${epoch}: ${key.queue}/${key.producer}:${key.seq} has a corrupt body`,
    );
  }
}
