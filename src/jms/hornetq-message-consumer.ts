import type { AbortOptions, ClientConsumer, ReceivedMessage } from '../core/client';
import type { Destination, Topic } from './destination';
import { IllegalStateException, MessageFormatException } from './exceptions';
import { jmsCall } from './jms-error';
import { runInListener } from './listener-context';
import { bodyTypeName } from './message/body-type';
import { fromCoreMessage, type BodyOf, type BodyType, type HornetQMessage, type Message } from './message';

export type MessageListener = (message: Message) => void | Promise<void>;

/** What a consumer needs from its session (acknowledgement rules live there). */
export interface ConsumerSession {
  readonly connectionHandle: object;
  /** Prepares a received message for the application: its acknowledger, and the mode's ack. */
  delivered(consumer: HornetQMessageConsumer, received: ReceivedMessage, message: HornetQMessage): void;
  /** receive() is handing the message to the application. */
  consumed(consumer: HornetQMessageConsumer, received: ReceivedMessage): Promise<void>;
  /** receiveBody() could not hand the body over: the message is not acknowledged as consumed. */
  refused(consumer: HornetQMessageConsumer, received: ReceivedMessage): Promise<void>;
  /** Runs the listener with the mode's acknowledgement rules around it (JMS 1.1 §4.5.2). */
  onMessage(
    consumer: HornetQMessageConsumer,
    received: ReceivedMessage,
    listener: () => void | Promise<void>,
  ): Promise<void>;
  /** The consumer closed; `signal` aborted, what remains to do on the broker is not waited for. */
  consumerClosed(consumer: HornetQMessageConsumer, signal?: AbortSignal): Promise<void>;
}

/** The JMS interface name, for code written against javax.jms (the class is its only implementation). */
export type MessageConsumer = HornetQMessageConsumer;
/** JMS 1.1's topic subscriber (createDurableSubscriber) is a MessageConsumer with getTopic and getNoLocal. */
export type TopicSubscriber = HornetQMessageConsumer;

/**
 * A JMS consumer (and topic subscriber) over a core consumer. receive() and listeners follow the
 * JMS rules; `for await` yields messages until the consumer, its session or its connection closes.
 */
export class HornetQMessageConsumer implements AsyncIterable<Message> {
  private listener: MessageListener | null = null;
  private receiving = 0;
  private isClosed = false;
  /** Listener calls in progress, so that stop() can wait for them. */
  private running: Promise<void> = Promise.resolve();

  /** @internal (HornetQSession.createConsumer makes consumers) */
  constructor(
    private readonly session: ConsumerSession,
    readonly core: ClientConsumer,
    private readonly destination: Destination,
    private readonly selector: string | null,
    private readonly noLocal: boolean,
  ) {}

  get closed(): boolean {
    return this.isClosed;
  }

  /**
   * No timeout (or 0): waits until a message arrives or the consumer closes (then null). Aborting
   * the signal rejects with its reason (the contract: not a JMSException) and consumes nothing: a
   * message that arrives as the abort comes is kept for the next receive.
   */
  async receive(timeoutMs = 0, { signal }: AbortOptions = {}): Promise<Message | null> {
    this.checkCanReceive();
    this.receiving++;
    try {
      const received = await jmsCall(() => this.core.receive(timeoutMs, { signal }), signal);
      return await this.handOver(received);
    } finally {
      this.receiving--;
    }
  }

  async receiveNoWait(): Promise<Message | null> {
    this.checkCanReceive();
    this.receiving++;
    try {
      return await this.handOver(await jmsCall(() => this.core.receiveImmediate()));
    } finally {
      this.receiving--;
    }
  }

  /**
   * JMS 2.0's receiveBody (on JMSConsumer; here too): the next message's body as `type`
   * (`receiveBody(String)`, `receiveBody(Buffer)`, `receiveBody(Map)`, `receiveBody(Object)`; see
   * BodyType), null on timeout or close. A body that is not assignable to `type` (or does not
   * decode) throws MessageFormatException and, unlike HornetQ 2.4 (which acknowledges first), the
   * message is not lost: in AUTO and DUPS_OK it is not acknowledged but delivered again at once,
   * marked redelivered; in CLIENT_ACKNOWLEDGE and a transacted session it counts as delivered, so
   * that the next acknowledge() or commit() covers it and recover() or rollback() returns it.
   * Timeout and `signal` as receive().
   */
  async receiveBody<T extends BodyType>(
    type: T,
    timeoutMs = 0,
    { signal }: AbortOptions = {},
  ): Promise<BodyOf<T> | null> {
    this.checkCanReceive();
    bodyTypeName(type);
    this.receiving++;
    try {
      const received = await jmsCall(() => this.core.receive(timeoutMs, { signal }), signal);
      return await this.handOverBody(received, type);
    } finally {
      this.receiving--;
    }
  }

  /** receiveBody without waiting: null when no message is there now. */
  async receiveBodyNoWait<T extends BodyType>(type: T): Promise<BodyOf<T> | null> {
    this.checkCanReceive();
    bodyTypeName(type);
    this.receiving++;
    try {
      return await this.handOverBody(await jmsCall(() => this.core.receiveImmediate()), type);
    } finally {
      this.receiving--;
    }
  }

  getMessageListener(): MessageListener | null {
    this.checkOpen();
    return this.listener;
  }

  /** Replaces the listener; messages then go to it one at a time, never to receive(). */
  setMessageListener(listener: MessageListener | null): void {
    this.checkOpen();
    if (listener !== null && this.receiving > 0) {
      throw new IllegalStateException(
        'Cannot set a message listener while a receive is waiting on this consumer',
      );
    }
    this.listener = listener;
    this.core.setMessageHandler(listener === null ? null : (received) => this.dispatch(received));
  }

  getMessageSelector(): string | null {
    this.checkOpen();
    return this.selector;
  }

  getTopic(): Topic {
    this.checkOpen();
    return this.destination as Topic;
  }

  getNoLocal(): boolean {
    this.checkOpen();
    return this.noLocal;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Message> {
    for (;;) {
      if (this.isClosed) return;
      let message: Message | null;
      try {
        message = await this.receive();
      } catch (error) {
        if (this.isClosed) return;
        throw error;
      }
      if (message === null) return;
      yield message;
    }
  }

  /** Resolves once no listener call is in progress (connection stop waits for this). */
  idle(): Promise<void> {
    return this.running;
  }

  /**
   * Closes on the broker too; a waiting receive gets null. Idempotent. Aborting `signal` stops
   * waiting for the broker's answer: the consumer is closed here all the same, and the close
   * rejects with the signal's reason (the broker closes it on the request if it went, else with
   * the session).
   */
  async close({ signal }: AbortOptions = {}): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.listener = null;
    try {
      await jmsCall(() => this.core.close({ signal }), signal);
    } finally {
      await this.session.consumerClosed(this, signal);
    }
  }

  /** `await using`: close() without a signal. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** The session or connection closed: ends here without talking to the broker. */
  closeLocally(): void {
    this.isClosed = true;
    this.listener = null;
    this.core.closeLocally();
  }

  private async handOver(received: ReceivedMessage | null): Promise<Message | null> {
    // A message that arrives while the consumer closes stays unseen: it returns to the queue.
    if (received === null || this.isClosed) return null;
    const message = fromCoreMessage(received.message, received.deliveryCount);
    this.session.delivered(this, received, message);
    await this.session.consumed(this, received);
    return message;
  }

  /** The body is read before anything is acknowledged: a body refused leaves the message unconsumed. */
  private async handOverBody<T extends BodyType>(
    received: ReceivedMessage | null,
    type: T,
  ): Promise<BodyOf<T> | null> {
    if (received === null || this.isClosed) return null;
    const message = fromCoreMessage(received.message, received.deliveryCount);
    this.session.delivered(this, received, message);
    let body: BodyOf<T> | null;
    try {
      body = message.getBody(type);
    } catch (error) {
      if (MessageFormatException.is(error)) await this.session.refused(this, received);
      throw error;
    }
    await this.session.consumed(this, received);
    return body;
  }

  private dispatch(received: ReceivedMessage): Promise<void> {
    const listener = this.listener;
    if (listener === null) return Promise.resolve();
    const message = fromCoreMessage(received.message, received.deliveryCount);
    this.session.delivered(this, received, message);
    const call = runInListener(this, this.session, this.session.connectionHandle, () =>
      this.session.onMessage(this, received, () => listener(message)),
    );
    this.running = call.catch(() => undefined);
    return call;
  }

  private checkCanReceive(): void {
    this.checkOpen();
    if (this.listener !== null) {
      throw new IllegalStateException('Cannot receive synchronously while a message listener is set');
    }
  }

  private checkOpen(): void {
    if (this.isClosed) throw new IllegalStateException('Consumer is closed');
  }
}
