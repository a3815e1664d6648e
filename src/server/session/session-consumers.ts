import { HornetQException } from '../../core/protocol';
import type { MessageReference } from '../postoffice/message-reference';

/** Deliveries a session takes back from its consumers: `seen` count as failed, `unseen` do not. */
export interface TakenBack {
  seen: MessageReference[];
  unseen: MessageReference[];
}

/** What the collection does with a consumer (a ServerConsumer): the session reaches the rest. */
export interface SessionConsumer {
  readonly id: number;
  readonly deliveringCount: number;
  setStarted(started: boolean): void;
  promptDelivery(): void;
  close(): void;
  takeBackDelivering(seenCount: number): TakenBack;
}

/**
 * A session's consumers by id, and whether the session is started: kept together, so that a
 * consumer added while the session is started starts at once, and one added while stopped waits.
 */
export class SessionConsumers<C extends SessionConsumer> {
  private readonly consumers = new Map<number, C>();
  private started = false;

  /** Names the session in "does not exist" errors. */
  constructor(private readonly sessionName: string) {}

  get size(): number {
    return this.consumers.size;
  }

  /** Messages delivered to the consumers and not yet acknowledged. */
  get deliveringCount(): number {
    let count = 0;
    for (const consumer of this.consumers.values()) count += consumer.deliveringCount;
    return count;
  }

  /** The consumers, in the order they were created (management lists them). */
  values(): IterableIterator<C> {
    return this.consumers.values();
  }

  has(consumerId: number): boolean {
    return this.consumers.has(consumerId);
  }

  /** Adds a consumer (its id not yet taken: see has) and starts it if the session is started. */
  add(consumer: C): void {
    this.consumers.set(consumer.id, consumer);
    consumer.setStarted(this.started);
  }

  require(consumerId: number): C {
    const consumer = this.consumers.get(consumerId);
    if (consumer === undefined) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        `Consumer ${consumerId} does not exist in session ${this.sessionName}`,
      );
    }
    return consumer;
  }

  /** Closes one consumer; returns what it held, none of it seen by the application. */
  close(consumerId: number): MessageReference[] {
    const consumer = this.require(consumerId);
    this.consumers.delete(consumerId);
    consumer.close();
    return consumer.takeBackDelivering(0).unseen;
  }

  setStarted(started: boolean): void {
    this.started = started;
    for (const consumer of this.consumers.values()) consumer.setStarted(started);
  }

  /** The connection drained (or the session moved to another): consumers may take messages again. */
  promptDelivery(): void {
    for (const consumer of this.consumers.values()) consumer.promptDelivery();
  }

  /**
   * Takes back every consumer's unacknowledged deliveries (rollback, recover); the oldest
   * `seenCount(consumer)` of each count as seen by the application.
   */
  takeBack(seenCount: (consumer: C) => number): TakenBack {
    return this.takeBackEach(false, seenCount);
  }

  /**
   * Closes every consumer and takes back what they held. `failed` (the client vanished) counts
   * all of it as seen, since the client may have shown it to the application.
   */
  closeAll(failed: boolean): TakenBack {
    const taken = this.takeBackEach(true, () => (failed ? Infinity : 0));
    this.consumers.clear();
    return taken;
  }

  /** Each consumer is closed (when `close`) just before its deliveries are taken back. */
  private takeBackEach(close: boolean, seenCount: (consumer: C) => number): TakenBack {
    const taken: TakenBack = { seen: [], unseen: [] };
    for (const consumer of this.consumers.values()) {
      if (close) consumer.close();
      const fromConsumer = consumer.takeBackDelivering(seenCount(consumer));
      taken.seen.push(...fromConsumer.seen);
      taken.unseen.push(...fromConsumer.unseen);
    }
    return taken;
  }
}
