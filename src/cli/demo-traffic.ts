import type { FailoverEvent } from '../core/client';
import {
  DeliveryMode,
  HornetQTextMessage,
  Session,
  type HornetQConnection,
  type HornetQSession,
  type Message,
  type Queue,
} from '../jms';

/** The two producers of the demo: each numbers its own messages from 0 (JMS orders per producer). */
export const STREAMS = ['auto', 'tx'] as const;
export type Stream = (typeof STREAMS)[number];

export interface TrafficPlan {
  /** Messages of the auto-acknowledge producer; every `persistentEvery`-th one is persistent. */
  readonly auto: number;
  readonly persistentEvery: number;
  /** Persistent messages of the transacted producer, committed `txBatch` at a time. */
  readonly tx: number;
  readonly txBatch: number;
  /** A producer waits while this many messages are sent and not yet received. */
  readonly maxInFlight: number;
}

/** What the consumer saw of one producer's messages. */
export class StreamTally {
  sent = 0;
  received = 0;
  next = 0;
  duplicates = 0;
  missing = 0;
  outOfOrder = 0;
  corrupt = 0;
  redelivered = 0;
  readonly firstProblems: string[] = [];

  constructor(
    readonly stream: Stream,
    readonly expected: number,
  ) {}

  get complete(): boolean {
    return this.next >= this.expected;
  }

  get clean(): boolean {
    return (
      this.received === this.expected &&
      this.duplicates + this.missing + this.outOfOrder + this.corrupt + this.redelivered === 0
    );
  }

  record(seq: number, body: string | null, redelivered: boolean): void {
    this.received++;
    if (redelivered) this.redelivered++;
    if (body !== bodyOf(this.stream, seq))
      this.problem(`message ${seq} arrived with a different body`, 'corrupt');
    if (seq === this.next) {
      this.next++;
    } else if (seq < this.next) {
      this.problem(`message ${seq} arrived again (expected ${this.next})`, 'duplicates');
    } else {
      this.problem(`messages ${this.next}..${seq - 1} skipped (got ${seq})`, 'outOfOrder');
      this.missing += seq - this.next;
      this.next = seq + 1;
    }
  }

  private problem(text: string, counter: 'duplicates' | 'outOfOrder' | 'corrupt'): void {
    this[counter]++;
    if (this.firstProblems.length < 5) this.firstProblems.push(`${this.stream}: ${text}`);
  }
}

/** A payload of about 200 bytes that names its producer and number, so the consumer can check it. */
export function bodyOf(stream: Stream, seq: number): string {
  return `${stream} message ${seq} `.padEnd(200, '.');
}

/**
 * One JMS connection's failover history, from its failover listener and its ExceptionListener.
 * `completed` counts failovers that ended, however they ended.
 */
export class WatchedConnection {
  readonly events: FailoverEvent[] = [];
  readonly exceptionCodes: Array<string | null> = [];
  /** Milliseconds from FAILURE_DETECTED to the end of each failover. */
  readonly failoverMs: number[] = [];
  private detectedAt: number | null = null;

  constructor(
    readonly name: string,
    readonly connection: HornetQConnection,
  ) {
    connection.setFailoverListener((event) => {
      this.events.push(event);
      if (event.type === 'FAILURE_DETECTED') this.detectedAt = performance.now();
      else if (this.detectedAt !== null) {
        this.failoverMs.push(performance.now() - this.detectedAt);
        this.detectedAt = null;
      }
    });
    connection.setExceptionListener((exception) => this.exceptionCodes.push(exception.getErrorCode()));
  }

  count(type: FailoverEvent['type'], reattached?: boolean): number {
    return this.events.filter(
      (event) => event.type === type && (reattached === undefined || event.reattached === reattached),
    ).length;
  }

  get completed(): number {
    return this.count('FAILOVER_COMPLETED') + this.count('FAILOVER_FAILED');
  }
}

export interface Traffic {
  readonly tallies: Record<Stream, StreamTally>;
  /** Messages handed to producer.send (a transacted one counts before its commit). */
  readonly sent: () => number;
  readonly received: () => number;
  /** Messages on the queue that no demo producer sent (there should be none). */
  readonly strangers: () => number;
  /** Resolves when both producers are done (the last transaction committed). */
  readonly produced: Promise<void>;
  /** Resolves when the consumer has seen the last message of both producers. */
  readonly consumed: Promise<void>;
}

/**
 * Starts the traffic: on `producing`, an auto-acknowledge session sending a mix of persistent and
 * non-persistent messages and a transacted session sending persistent batches, both at once; on
 * `consuming`, one auto-acknowledge consumer with a listener that checks every message as it comes.
 */
export async function startTraffic(
  producing: HornetQConnection,
  consuming: HornetQConnection,
  queue: Queue,
  plan: TrafficPlan,
): Promise<Traffic> {
  const tallies: Record<Stream, StreamTally> = {
    auto: new StreamTally('auto', plan.auto),
    tx: new StreamTally('tx', plan.tx),
  };
  const sent = (): number => tallies.auto.sent + tallies.tx.sent;
  const received = (): number => tallies.auto.received + tallies.tx.received;

  const consumerSession = await consuming.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const consumer = await consumerSession.createConsumer(queue);
  let strangers = 0;
  let finished: () => void = () => undefined;
  const consumed = new Promise<void>((resolve) => (finished = resolve));
  consumer.setMessageListener((message) => {
    const stream = message.getStringProperty('stream');
    if (stream !== 'auto' && stream !== 'tx') {
      strangers++;
      return;
    }
    const tally = tallies[stream];
    tally.record(message.getIntProperty('seq'), textOf(message), message.getJMSRedelivered());
    if (tallies.auto.complete && tallies.tx.complete) finished();
  });
  await consuming.start();

  const autoSession = await producing.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const txSession = await producing.createSession(true, Session.SESSION_TRANSACTED);
  const room = async (): Promise<void> => {
    while (sent() - received() >= plan.maxInFlight) await sleep(2);
  };

  const produceAuto = async (): Promise<void> => {
    const producer = await autoSession.createProducer(queue);
    for (let seq = 0; seq < plan.auto; seq++) {
      await room();
      const persistent = seq % plan.persistentEvery === 0;
      await producer.send(numbered(autoSession, 'auto', seq), {
        deliveryMode: persistent ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT,
      });
      tallies.auto.sent++;
    }
  };
  const produceTx = async (): Promise<void> => {
    const producer = await txSession.createProducer(queue);
    producer.setDeliveryMode(DeliveryMode.PERSISTENT);
    for (let seq = 0; seq < plan.tx; seq++) {
      await room();
      await producer.send(numbered(txSession, 'tx', seq));
      tallies.tx.sent++;
      if ((seq + 1) % plan.txBatch === 0 || seq + 1 === plan.tx) await txSession.commit();
    }
  };
  const produced = Promise.all([produceAuto(), produceTx()]).then(() => undefined);
  return { tallies, sent, received, strangers: () => strangers, produced, consumed };
}

function numbered(session: HornetQSession, stream: Stream, seq: number): Message {
  const message = session.createTextMessage(bodyOf(stream, seq));
  message.setStringProperty('stream', stream);
  message.setIntProperty('seq', seq);
  return message;
}

function textOf(message: Message): string | null {
  return message instanceof HornetQTextMessage ? message.getText() : null;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
