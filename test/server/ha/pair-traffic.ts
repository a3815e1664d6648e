import { ClientSessionFactory, type ClientSession } from '../../../src';
import { bodyOf, keyOfMessage, LARGE_PRODUCER, messageFor } from '../../integration/crash/crash-workload';

/**
 * Traffic for the live/backup tests: producers that send durable messages to one queue until told
 * to stop (each send waits for the broker's confirmation), keeping which sends were confirmed and
 * which were in flight when their broker died; and a drain that takes everything a broker holds.
 */

export const HA_QUEUE = 'jms.queue.ha.q';
/** A queue whose address pages past 64 KiB (the fixture's address setting). */
export const PAGED_QUEUE = 'jms.queue.ha.paged';
/** The producer whose messages are large (crash-workload's: 150 KiB bodies, past minLargeMessageSize). */
export const LARGE = LARGE_PRODUCER;

export interface SendRecord {
  /** Keys (producer:seq) the broker confirmed: each must be on the backup exactly once. */
  confirmed: Set<string>;
  /** Keys whose send failed (the broker died with it in flight): on the backup at most once. */
  unknown: Set<string>;
}

async function connect(port: number): Promise<ClientSessionFactory> {
  return ClientSessionFactory.connect({
    connectors: [{ host: '127.0.0.1', port }],
    callTimeout: 20_000,
    blockOnAcknowledge: true,
    reconnectAttempts: 0,
  });
}

/**
 * `producers` producers sending to `port` until stop() (or their broker dies); `record` collects
 * what happened to each send.
 */
export class Producers {
  readonly record: SendRecord = { confirmed: new Set(), unknown: new Set() };
  private over = false;
  private readonly done: Promise<void>;
  private readonly factories: ClientSessionFactory[] = [];

  /**
   * Producers named `${prefix}0`, `${prefix}1`... (or `names`, e.g. [LARGE] for large messages),
   * each sending to `queue`.
   */
  constructor(port: number, producers: number | readonly string[], prefix = '', queue = HA_QUEUE) {
    const names =
      typeof producers === 'number'
        ? Array.from({ length: producers }, (_, index) => `${prefix}${index}`)
        : producers;
    this.done = Promise.all(names.map((name) => this.produce(port, name, queue))).then(() => undefined);
  }

  get confirmedCount(): number {
    return this.record.confirmed.size;
  }

  /** Resolves once at least `count` sends were confirmed. */
  async confirmedAtLeast(count: number, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.record.confirmed.size < count) {
      if (Date.now() > deadline)
        throw new Error(`only ${this.record.confirmed.size} of ${count} sends were confirmed in time`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Stops sending and closes every connection; resolves once every producer has ended. */
  async stop(): Promise<SendRecord> {
    this.over = true;
    await this.done;
    await Promise.allSettled(this.factories.map((factory) => factory.close()));
    return this.record;
  }

  private async produce(port: number, producer: string, queue: string): Promise<void> {
    let session: ClientSession;
    try {
      const factory = await connect(port);
      this.factories.push(factory);
      session = await factory.createSession();
    } catch {
      return;
    }
    const sender = session.createProducer(queue);
    for (let seq = 0; !this.over; seq++) {
      const key = `${producer}:${seq}`;
      try {
        await sender.send(messageFor({ producer, seq }));
      } catch {
        this.record.unknown.add(key);
        return;
      }
      this.record.confirmed.add(key);
    }
  }
}

/**
 * Takes (and acknowledges) every message the broker on `port` holds in `queue`: key → times
 * received. A body that is not the one its key was sent with is counted under `corrupt <key>`.
 */
export async function drain(port: number, queue = HA_QUEUE, quietMs = 1_500): Promise<Map<string, number>> {
  const factory = await connect(port);
  try {
    const session = await factory.createSession();
    const consumer = await session.createConsumer(queue);
    session.start();
    const received = new Map<string, number>();
    for (;;) {
      const message = await consumer.receive(quietMs);
      if (message === null) break;
      const { producer, seq } = keyOfMessage(message.message, queue);
      const intact = Buffer.from(message.message.body).equals(bodyOf({ producer, seq }));
      const key = `${intact ? '' : 'corrupt '}${producer}:${seq}`;
      received.set(key, (received.get(key) ?? 0) + 1);
      await consumer.acknowledge(message);
    }
    return received;
  } finally {
    await factory.close();
  }
}

/**
 * What is wrong with what a broker held against what was sent: a confirmed send missing or twice,
 * an unconfirmed one twice, a message nobody sent.
 */
export function deliveryProblems(sent: readonly SendRecord[], received: Map<string, number>): string[] {
  const problems: string[] = [];
  const confirmed = new Set(sent.flatMap((record) => [...record.confirmed]));
  const unknown = new Set(sent.flatMap((record) => [...record.unknown]));
  for (const key of confirmed) {
    const times = received.get(key) ?? 0;
    if (times !== 1) problems.push(`confirmed ${key} received ${times} times`);
  }
  for (const [key, times] of received) {
    if (confirmed.has(key)) continue;
    if (!unknown.has(key)) problems.push(`${key} received but never sent`);
    else if (times > 1) problems.push(`unconfirmed ${key} received ${times} times`);
  }
  return problems;
}
