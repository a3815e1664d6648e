import { traceHandled, traceReceived } from './client-tracing';
import {
  HornetQException,
  ProtocolError,
  packetTypeName,
  type CoreMessage,
  type ReceiveContinuation,
  type ReceiveLargeMessage,
  type ReceiveMessage,
} from '../protocol';
import { LargeMessageAssembler } from '../protocol/large-message-assembler';
import { PacketType } from '../protocol/packet-type';
import { FORCED_DELIVERY_SEQUENCE_PROPERTY } from '../protocol/packets';
import { abortable, type AbortOptions } from './abortable';
import type { ClientSession, QueueInfo, QueueToRestore } from './client-session';
import { RateLimiter } from './rate-limiter';
import { ReceivedMessage } from './received-message';

export type MessageHandler = (message: ReceivedMessage) => void | Promise<void>;

export interface ConsumerSettings {
  id: number;
  queueName: string;
  filter: string | null;
  browseOnly: boolean;
  /** Bytes the client may buffer: -1 unbounded, 0 none (one message at a time, on demand). */
  windowSize: number;
  /** Acknowledged bytes gathered before one cumulative acknowledgement goes to the broker. */
  ackBatchSize: number;
  blockOnAcknowledge: boolean;
  /** The largest message body this consumer accepts (the body is assembled in memory). */
  maxLargeMessageBytes: number;
  /** The broker acknowledged each message as it delivered it: acknowledging here does nothing. */
  preAcknowledge: boolean;
  /** consumer-max-rate: messages a second handed to the application, -1 for no limit. */
  maxRate: number;
  /** The queue was made by createSharedQueue: a broker that lost it gets it back as one. */
  sharedQueue: boolean;
}

interface Waiter {
  resolve(message: ReceivedMessage | null): void;
  /** The message handed to it while it waits for consumer-max-rate; null until then. */
  taken: ReceivedMessage | null;
  timer: NodeJS.Timeout | null;
  /** Set for receiveImmediate: the forced-delivery sequence whose marker message ends the wait. */
  forcedSequence: number | null;
}

/**
 * A consumer on the client. The broker sends at most the consumer's window of messages ahead;
 * they wait here until the application takes them (receive or a handler), and each one taken
 * earns the broker new credits. Acknowledgements are cumulative and batched by ackBatchSize.
 */
export class ClientConsumer {
  private buffer: ReceivedMessage[] = [];
  private bufferHead = 0;
  private waiters: Waiter[] = [];
  private handler: MessageHandler | null = null;
  private dispatching = false;
  private creditsToSend = 0;
  private slowCreditOutstanding = false;
  private forceSequence = 0;
  private pendingAck: ReceivedMessage | null = null;
  private pendingAckBytes = 0;
  private isClosed = false;
  private readonly rateLimiter: RateLimiter | null;
  /** Its session is stopped: buffered messages wait for start (HornetQ's ClientConsumerImpl.stop). */
  private paused = false;
  /** close() has asked the broker to close it: a re-created session must not bring it back. */
  private closing = false;
  /** Puts large messages back together as their chunks arrive (bounded by maxLargeMessageBytes). */
  private readonly largeMessages: LargeMessageAssembler;
  /** The delivery count of the large message being assembled. */
  private largeDeliveryCount = 0;
  /** The frames of the large message being assembled so far: its size as a received message. */
  private largeFrameBytes = 0;
  /** What the broker said about the queue when the consumer was created; null until then. */
  private queue: QueueInfo | null = null;
  /**
   * Credits given to the broker less what its deliveries were charged (their frames). A broker
   * delivers only while its balance is above 0 (HornetQ's ServerConsumerImpl; the delivery may
   * take it below), and its balance is never above this one (credits on the way count here
   * first), so a delivery that finds this at 0 or below went beyond the credits it was given.
   */
  private creditBalance = 0;
  /** Credits of -1 were sent (a window of -1): the broker may send without limit, as asked. */
  private unlimitedCredits = false;

  /** @internal (ClientSession.createConsumer makes consumers) */
  constructor(
    readonly settings: ConsumerSettings,
    private readonly session: ClientSession,
  ) {
    this.rateLimiter = settings.maxRate > 0 ? new RateLimiter(settings.maxRate) : null;
    this.largeMessages = new LargeMessageAssembler(settings.maxLargeMessageBytes, "this client's");
  }

  get id(): number {
    return this.settings.id;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** Messages received from the broker and not yet taken by the application. */
  get bufferedCount(): number {
    return this.buffer.length - this.bufferHead;
  }

  /** The broker created the consumer: sends the first credits (the window; -1 for no limit). */
  start(queue: QueueInfo): void {
    this.queue = queue;
    this.sendInitialCredits();
  }

  /**
   * The broker lost the session: what is buffered will come back from the queue (with a higher
   * delivery count), batched acknowledgements and credits belong to the old broker session, and
   * a receiveImmediate waiting for the old session's answer gets null.
   */
  clearAtFailover(): void {
    this.largeMessages.abandon();
    this.largeFrameBytes = 0;
    this.buffer = [];
    this.bufferHead = 0;
    // The new broker session starts from nothing: the credits sent at re-creation are all it has.
    this.creditBalance = 0;
    this.unlimitedCredits = false;
    this.creditsToSend = 0;
    this.slowCreditOutstanding = false;
    this.pendingAck = null;
    this.pendingAckBytes = 0;
    for (const waiter of this.waiters.filter((w) => w.forcedSequence !== null))
      this.settleWaiter(waiter, null);
  }

  /**
   * The queue to re-create if the broker lost it: one that did not outlive its creator.
   * @internal (the session restorer)
   */
  queueToRestore(): QueueToRestore | null {
    const queue = this.queue;
    if (queue === null || queue.durable || queue.address === null || this.closing) return null;
    return {
      address: queue.address,
      name: this.settings.queueName,
      filter: queue.filter,
      temporary: queue.temporary,
      shared: this.settings.sharedQueue,
    };
  }

  /** Creates the consumer again, same id, on a re-created broker session. */
  recreate(): void {
    if (this.queue === null || this.isClosed) return; // its creation was cut off; the caller was told
    if (this.closing) return; // the broker lost it with the old session, which is what close() wanted
    this.session.sendOneWay({
      type: PacketType.SESS_CREATECONSUMER,
      consumerId: this.id,
      queueName: this.settings.queueName,
      filter: this.settings.filter,
      browseOnly: this.settings.browseOnly,
      requiresResponse: false,
    });
    this.sendInitialCredits();
  }

  private sendInitialCredits(): void {
    const window = this.settings.windowSize;
    if (window !== 0) this.sendCredits(window);
    else if (this.handler !== null || this.waiters.length > 0) this.askForOne();
  }

  /**
   * Waits for a message: forever when `timeoutMs` is 0 or absent, else at most that long (then
   * null). Aborting `signal` rejects with its reason and consumes nothing: an aborted signal
   * takes no message, and a message that arrives (or was being paced by consumer-max-rate) when
   * the abort comes stays here for the next receive.
   */
  receive(timeoutMs = 0, { signal }: AbortOptions = {}): Promise<ReceivedMessage | null> {
    this.checkNoHandler();
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const message = this.takeBuffered();
    if (message !== null)
      return this.traced(abortable(this.paced(message), signal, () => this.handBack(message)));
    if (this.isClosed) return Promise.resolve(null);
    this.askForOne();
    const waiter: Waiter = { resolve: ignore, taken: null, timer: null, forcedSequence: null };
    const received = new Promise<ReceivedMessage | null>((resolve) => (waiter.resolve = resolve));
    if (timeoutMs > 0) waiter.timer = setTimeout(() => this.settleWaiter(waiter, null), timeoutMs);
    this.waiters.push(waiter);
    return this.traced(
      abortable(received, signal, () => {
        this.removeWaiter(waiter);
        if (waiter.taken !== null) this.handBack(waiter.taken);
      }),
    );
  }

  /**
   * A receive's message as delivered to the application (see client-tracing.ts). A browser's
   * messages are not: browsing consumes nothing, so it is no step of a message's trace.
   */
  private traced(received: Promise<ReceivedMessage | null>): Promise<ReceivedMessage | null> {
    return this.settings.browseOnly ? received : traceReceived(received, this.settings.queueName);
  }

  /**
   * A receive aborted after it was given `message`: it goes back to the head of the buffer, its
   * credits already returned, for the next receive (or the handler).
   */
  private handBack(message: ReceivedMessage): void {
    if (this.isClosed) return; // the broker takes it back with the rest
    const copy = new ReceivedMessage(message.message, message.deliveryCount, message.size, this, 0);
    if (this.bufferHead > 0) this.buffer[--this.bufferHead] = copy;
    else this.buffer.unshift(copy);
    if (this.handler !== null) {
      void this.dispatch();
      return;
    }
    while (!this.paused && this.waiters.length > 0 && this.bufferedCount > 0) {
      this.settleWaiter(this.waiters[0] as Waiter, this.takeBuffered());
    }
  }

  /**
   * Returns a message if the broker has one for this consumer right now, else null: the broker is
   * asked to deliver what it has, then sends a marker message with the sequence asked for (see
   * handleDelivery); the marker arriving first means the queue had nothing.
   */
  receiveImmediate(): Promise<ReceivedMessage | null> {
    this.checkNoHandler();
    const message = this.takeBuffered();
    if (message !== null) return this.traced(this.paced(message));
    if (this.isClosed || this.paused) return Promise.resolve(null);
    this.askForOne();
    const sequence = ++this.forceSequence;
    return this.traced(
      new Promise((resolve) => {
        this.waiters.push({ resolve, taken: null, timer: null, forcedSequence: sequence });
        this.session.sendOneWay({
          type: PacketType.SESS_FORCE_CONSUMER_DELIVERY,
          consumerId: this.id,
          sequence,
        });
      }),
    );
  }

  /** The session stopped: hold buffered messages back from receive and the handler. */
  pause(): void {
    this.paused = true;
  }

  /** The session started again: buffered messages go to waiting receives or the handler. */
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    if (this.handler !== null) {
      void this.dispatch();
      return;
    }
    while (this.waiters.length > 0 && this.bufferedCount > 0) {
      this.settleWaiter(this.waiters[0] as Waiter, this.takeBuffered());
    }
  }

  /** Messages go to the handler, one at a time (an async handler finishes before the next). */
  setMessageHandler(handler: MessageHandler | null): void {
    if (handler !== null && this.waiters.length > 0) {
      throw new HornetQException('ILLEGAL_STATE', 'Cannot set a message handler while a receive is waiting');
    }
    this.handler = handler;
    if (handler !== null) {
      this.askForOne();
      this.dispatch();
    }
  }

  acknowledge(message: ReceivedMessage): Promise<void> {
    this.checkOpen();
    if (this.settings.preAcknowledge) return DONE;
    this.pendingAck = message;
    this.pendingAckBytes += message.size;
    if (this.pendingAckBytes >= this.settings.ackBatchSize) return this.flushAcknowledgements();
    return DONE;
  }

  individualAcknowledge(message: ReceivedMessage): Promise<void> {
    this.checkOpen();
    if (this.settings.preAcknowledge) return DONE;
    return this.session.sendAcknowledgement({
      type: PacketType.SESS_INDIVIDUAL_ACKNOWLEDGE,
      consumerId: this.id,
      messageId: message.message.messageId,
      requiresResponse: this.settings.blockOnAcknowledge,
    });
  }

  /** Sends the batched cumulative acknowledgement, if any (before commit, rollback and close). */
  flushAcknowledgements(): Promise<void> {
    const message = this.pendingAck;
    if (message === null) return DONE;
    this.pendingAck = null;
    this.pendingAckBytes = 0;
    return this.session.sendAcknowledgement({
      type: PacketType.SESS_ACKNOWLEDGE,
      consumerId: this.id,
      messageId: message.message.messageId,
      requiresResponse: this.settings.blockOnAcknowledge,
    });
  }

  /**
   * Called by the session for each delivery to this consumer; `frameBytes` is the whole
   * SESS_RECEIVE_MSG frame, what the broker charged against the window and what comes back as
   * credits. HornetQ's forced-delivery marker (FORCED_DELIVERY_SEQUENCE_PROPERTY, sent after what
   * the queue had) is no message: it ends the receiveImmediate that asked for its sequence, and one
   * for an earlier call (answered by a message meanwhile) is dropped; it charged no credits.
   * @internal (the session context routes deliveries here)
   */
  handleDelivery(packet: ReceiveMessage, frameBytes: number): void {
    if (this.isClosed) return;
    const marker = packet.message.properties.get(FORCED_DELIVERY_SEQUENCE_PROPERTY);
    if (marker !== undefined) {
      if (typeof marker.value === 'number' || typeof marker.value === 'bigint') {
        this.forcedDeliveryEnded(Number(marker.value));
      }
      return;
    }
    this.charge(packet.type, frameBytes);
    this.accept(new ReceivedMessage(packet.message, packet.deliveryCount, frameBytes, this));
  }

  /**
   * The head of a large message: its body arrives in chunks, assembled here before it is handed
   * out. Its credits are its frames: this one and every continuation's.
   * @internal (the session context routes deliveries here)
   */
  handleLargeMessage(packet: ReceiveLargeMessage, frameBytes: number): void {
    if (this.isClosed) return;
    this.charge(packet.type, frameBytes);
    this.largeMessages.begin(packet.message, packet.largeMessageSize);
    this.largeDeliveryCount = packet.deliveryCount;
    this.largeFrameBytes = frameBytes;
    this.returnArrivalCredits(frameBytes, false);
  }

  /** @internal (the session context routes deliveries here) */
  handleLargeChunk(packet: ReceiveContinuation, frameBytes: number): void {
    if (this.isClosed) return;
    this.charge(packet.type, frameBytes);
    this.returnArrivalCredits(frameBytes, !packet.continues);
    // The rest of a message refused on the way: dropped, its credits returned all the same.
    if (!this.largeMessages.inProgress) return;
    this.largeFrameBytes += frameBytes;
    const step = this.largeMessages.append(packet.chunk, packet.continues);
    if (step.kind === 'complete') {
      this.accept(new ReceivedMessage(step.message, this.largeDeliveryCount, this.largeFrameBytes, this, 0));
    } else if (step.kind === 'refused') {
      this.refuse(step.head, step.error);
    }
  }

  /**
   * A large message's frames earn their credits as they arrive, not when the message is taken: a
   * broker sends its chunks only as credits allow (HornetQ's LargeMessageDeliverer), and this
   * client hands a large message out only once it is whole, so waiting would stall a message
   * larger than the window for good. What is held here stays bounded: one message being
   * assembled (max-large-message-bytes) beside a window of others. With a window of 0 the last
   * frame keeps back the one credit that asked for the message, as `consumedBytes` does.
   */
  private returnArrivalCredits(frameBytes: number, lastOfMessage: boolean): void {
    const window = this.settings.windowSize;
    if (window < 0) return;
    if (window > 0) {
      this.consumedBytes(frameBytes);
      return;
    }
    const credits = lastOfMessage ? frameBytes - 1 : frameBytes;
    if (credits > 0) this.sendCredits(credits);
  }

  /**
   * A delivery this client cannot take (over max-large-message-bytes, or a body short of its
   * size). With our extension it goes back to the broker as a failed delivery (DELIVERY_REFUSED:
   * redelivered, and after max-delivery-attempts sent to the dead-letter address); its credits
   * came back with its frames. A HornetQ or Artemis broker has no such packet, so there the consumer is closed, as
   * HornetQ closes a consumer that cannot go on: the broker takes back every message it had
   * delivered to it, and the application hears why (its receive gets null). Throwing instead would
   * fail the whole connection, and every reattach would bring the same message back.
   */
  private refuse(head: CoreMessage, error: HornetQException): void {
    this.slowCreditOutstanding = false;
    this.session.reportRefusedDelivery(error);
    if (!this.session.extended) {
      this.close().catch((closeError: unknown) => this.session.reportHandlerError(this, closeError));
      return;
    }
    if (!this.settings.browseOnly && !this.settings.preAcknowledge) {
      this.session.sendOneWay({
        type: PacketType.SESS_DELIVERY_REFUSED,
        consumerId: this.id,
        messageId: head.messageId,
      });
    }
    if (this.handler !== null || this.waiters.length > 0) this.askForOne();
  }

  private accept(message: ReceivedMessage): void {
    this.slowCreditOutstanding = false;
    if (this.discardIfExpired(message)) {
      if (this.handler !== null || this.waiters.length > 0) this.askForOne();
      return;
    }
    const waiter = this.handler === null && !this.paused ? this.waiters.shift() : undefined;
    if (waiter !== undefined) {
      this.consumed(message);
      this.settleWaiter(waiter, message);
      return;
    }
    this.buffer.push(message);
    if (this.handler !== null) this.dispatch();
  }

  /** The forced delivery of `sequence` is over: the receiveImmediate still waiting on it gets null. */
  private forcedDeliveryEnded(sequence: number): void {
    const waiter = this.waiters.find((w) => w.forcedSequence === sequence);
    if (waiter !== undefined) this.settleWaiter(waiter, null);
  }

  /**
   * Drops buffered messages the application has not seen (the broker takes them back on rollback)
   * and returns their credits so that the broker can send again.
   */
  clearBuffer(): void {
    let bytes = 0;
    let owing = 0;
    for (let i = this.bufferHead; i < this.buffer.length; i++) {
      const owed = (this.buffer[i] as ReceivedMessage).creditsOwed;
      bytes += owed;
      if (owed > 0) owing++;
    }
    this.buffer = [];
    this.bufferHead = 0;
    if (this.settings.windowSize > 0 && bytes > 0) this.sendCredits(bytes);
    // With a window of 0 each buffered message cost its size out of one asking credit (see consumed).
    if (this.settings.windowSize === 0 && owing > 0) this.sendCredits(bytes - owing);
    this.slowCreditOutstanding = false;
    if (this.handler !== null || this.waiters.length > 0) this.askForOne();
  }

  /**
   * Closes on the broker (its unacknowledged messages return to the queue) and here. Aborting
   * `signal` stops waiting for the broker's answer: the consumer ends here at once (waiting
   * receives get null) and the close rejects with the signal's reason. The broker closes the
   * consumer on the request if it went (an aborted signal sends none), else with its session.
   */
  async close({ signal }: AbortOptions = {}): Promise<void> {
    if (this.isClosed) return;
    try {
      signal?.throwIfAborted();
      await abortable(this.flushAcknowledgements(), signal);
      this.closing = true;
      await this.session.closeConsumerOnBroker(this.id, signal);
    } catch (error) {
      // Released by a re-creation: the broker session that had the consumer is gone, so it is closed.
      if (!HornetQException.is(error, 'UNBLOCKED') && !(signal?.aborted === true)) throw error;
    } finally {
      this.closeLocally();
    }
    signal?.throwIfAborted();
  }

  /** `await using`: close() without a signal. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Ends the consumer on this side only: waiting receives get null. */
  closeLocally(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.rateLimiter?.close();
    this.handler = null;
    this.buffer = [];
    this.bufferHead = 0;
    this.largeMessages.abandon();
    for (const waiter of this.waiters.splice(0)) this.settleWaiter(waiter, null);
    this.session.consumerClosed(this);
  }

  /** The next buffered message the application may have; expired ones are handed back on the way. */
  private takeBuffered(): ReceivedMessage | null {
    while (!this.paused && this.bufferHead < this.buffer.length) {
      const message = this.buffer[this.bufferHead] as ReceivedMessage;
      this.buffer[this.bufferHead++] = undefined as unknown as ReceivedMessage;
      if (this.bufferHead > 1024 && this.bufferHead * 2 > this.buffer.length) {
        this.buffer = this.buffer.slice(this.bufferHead);
        this.bufferHead = 0;
      }
      if (!this.discardIfExpired(message)) {
        this.consumed(message);
        return message;
      }
    }
    return null;
  }

  /**
   * A message that expired while it waited here is never handed out: the broker is told (it moves
   * the message to the expiry address) and its credits go back.
   */
  private discardIfExpired(message: ReceivedMessage): boolean {
    const expiration = message.message.expiration;
    if (expiration === 0 || expiration > Date.now()) return false;
    if (!this.settings.browseOnly && !this.settings.preAcknowledge) {
      this.session.sendOneWay({
        type: PacketType.SESS_EXPIRED,
        consumerId: this.id,
        messageId: message.message.messageId,
      });
    }
    this.consumed(message);
    return true;
  }

  private async dispatch(): Promise<void> {
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      let message: ReceivedMessage | null;
      while (this.handler !== null && (message = this.takeBuffered()) !== null) {
        const pacing = this.rateLimiter?.take();
        if (pacing !== undefined) await pacing;
        try {
          // Awaited only when the handler is async: a synchronous one costs no promise per message.
          const handler = this.handler;
          const delivered = message;
          const handled = traceHandled(delivered, this.settings.queueName, () => handler(delivered));
          if (handled !== undefined) await handled;
        } catch (error) {
          this.session.reportHandlerError(this, error);
        }
      }
    } finally {
      this.dispatching = false;
    }
    if (this.handler !== null) this.askForOne();
  }

  /** The application took a message: its bytes go back to the broker as credits, half a window at a time. */
  private consumed(message: ReceivedMessage): void {
    this.consumedBytes(message.creditsOwed);
  }

  private consumedBytes(size: number): void {
    const window = this.settings.windowSize;
    if (window < 0) return;
    if (window === 0) {
      // The broker charged the message's size against the single credit that asked for it. Giving
      // back all but that credit brings its balance to 0, so the next askForOne lets exactly one
      // more message through; without this the balance stays negative and delivery stops for good.
      if (size > 1) this.sendCredits(size - 1);
      return;
    }
    this.creditsToSend += size;
    if (this.creditsToSend >= window / 2) {
      this.sendCredits(this.creditsToSend);
      this.creditsToSend = 0;
    }
  }

  /** With a window of 0 the broker sends one message per credit, and only when asked. */
  private askForOne(): void {
    if (this.settings.windowSize !== 0 || this.slowCreditOutstanding || this.bufferedCount > 0) return;
    this.slowCreditOutstanding = true;
    this.sendCredits(1);
  }

  /**
   * Charges a delivery frame to the credits the broker was given. One that arrives with none left
   * is a ProtocolError: it fails the connection (the client's buffer would otherwise grow with
   * whatever the peer sends), saying which packet, consumer and connection.
   */
  private charge(type: number, frameBytes: number): void {
    if (this.unlimitedCredits) return;
    if (this.creditBalance <= 0) {
      throw new ProtocolError(
        `${packetTypeName(type)} of ${frameBytes} bytes for consumer ${this.id} (queue ${this.settings.queueName}) on ${this.session.describeConnection()} came beyond the credits this consumer gave the broker (window ${this.settings.windowSize} bytes; credit balance ${this.creditBalance} bytes): the broker does not keep to flow control, so the connection is failed rather than buffer without bound`,
      );
    }
    this.creditBalance -= frameBytes;
  }

  private sendCredits(credits: number): void {
    if (credits === -1) this.unlimitedCredits = true;
    else this.creditBalance += credits;
    this.session.sendOneWay({ type: PacketType.SESS_FLOWTOKEN, consumerId: this.id, credits });
  }

  private settleWaiter(waiter: Waiter, message: ReceivedMessage | null): void {
    this.removeWaiter(waiter);
    waiter.taken = message;
    if (message === null) waiter.resolve(null);
    else void this.paced(message).then(waiter.resolve);
  }

  /** Hands a message out no faster than consumer-max-rate allows. */
  private paced(message: ReceivedMessage): Promise<ReceivedMessage> {
    const pacing = this.rateLimiter?.take();
    return pacing === undefined ? Promise.resolve(message) : pacing.then(() => message);
  }

  private removeWaiter(waiter: Waiter): void {
    const index = this.waiters.indexOf(waiter);
    if (index >= 0) this.waiters.splice(index, 1);
    if (waiter.timer !== null) clearTimeout(waiter.timer);
  }

  private checkNoHandler(): void {
    this.checkOpen();
    if (this.handler !== null) {
      throw new HornetQException('ILLEGAL_STATE', 'Cannot call receive while a message handler is set');
    }
  }

  private checkOpen(): void {
    if (this.isClosed) throw new HornetQException('OBJECT_CLOSED', `Consumer ${this.id} is closed`);
  }
}

function ignore(): void {}

/** What an acknowledgement that sends nothing yet resolves with: one settled promise for all. */
const DONE: Promise<void> = Promise.resolve();
