import type { AbortOptions, ClientConsumer, ClientSession } from '../core/client';
import type { Queue } from './destination';
import { IllegalStateException } from './exceptions';
import { jmsCall } from './jms-error';
import { fromCoreMessage, type Message } from './message';
import { toHornetQFilter } from './selector/selector-translator';

/** The JMS interface name, for code written against javax.jms (the class is its only implementation). */
export type QueueBrowser = HornetQQueueBrowser;

/**
 * Looks at a queue without consuming. Each enumeration is a fresh pass from the head of the queue
 * (a browse-only consumer on the broker) and is lazy: it sees what the queue holds as it goes.
 */
export class HornetQQueueBrowser implements AsyncIterable<Message> {
  private readonly open = new Set<ClientConsumer>();
  private isClosed = false;

  constructor(
    private readonly session: ClientSession,
    private readonly queue: Queue,
    private readonly queueName: string,
    private readonly selector: string | null,
    private readonly onClose: (browser: HornetQQueueBrowser) => void,
  ) {}

  getQueue(): Queue {
    this.checkOpen();
    return this.queue;
  }

  getMessageSelector(): string | null {
    this.checkOpen();
    return this.selector;
  }

  async *getEnumeration(): AsyncIterableIterator<Message> {
    this.checkOpen();
    const consumer = await jmsCall(() =>
      this.session.createConsumer(this.queueName, {
        filter: this.selector === null ? null : toHornetQFilter(this.selector),
        browseOnly: true,
      }),
    );
    this.open.add(consumer);
    try {
      for (;;) {
        if (this.isClosed) return;
        const received = await jmsCall(() => consumer.receiveImmediate());
        if (received === null) return;
        yield fromCoreMessage(received.message, received.deliveryCount);
      }
    } finally {
      this.open.delete(consumer);
      await consumer.close().catch(() => undefined);
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<Message> {
    return this.getEnumeration();
  }

  /**
   * Ends every enumeration and closes their browse-only consumers on the broker. Aborting
   * `signal` stops waiting for the broker: they are closed here, and the close rejects with the
   * signal's reason once done.
   */
  async close({ signal }: AbortOptions = {}): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    await Promise.allSettled([...this.open].map((consumer) => consumer.close({ signal })));
    this.open.clear();
    this.onClose(this);
    signal?.throwIfAborted();
  }

  /** `await using`: close() without a signal. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** The session or connection closed. */
  closeLocally(): void {
    this.isClosed = true;
  }

  private checkOpen(): void {
    if (this.isClosed) throw new IllegalStateException('Browser is closed');
  }
}
