import { HornetQException } from '../../core/protocol';
import type { Filter } from '../postoffice/filter';
import { isExpired } from '../postoffice/message-headers';
import type { MessageReference } from '../postoffice/message-reference';
import { HandleStatus, type Queue, type QueueConsumer } from '../postoffice/queue';

/** A message's priority when it says none (JMS and HornetQ's default). */
const DEFAULT_PRIORITY = 4;
/** The longest a browser's forced-delivery marker waits for credits on their way (see browserHeldBack). */
export const MARKER_CREDIT_WAIT_MS = 1000;

/** A large delivery's body still to write, a chunk at a time. */
export interface PendingBody {
  readonly done: boolean;
  /** Writes the next chunk; returns the bytes of its frame. */
  writeNext(): number;
}

/** What a delivery wrote at once (its first frame's bytes), and the body it has still to write. */
export interface DeliveryStart {
  frameBytes: number;
  remainingBody: PendingBody | null;
}

/** What a consumer needs from its session. */
export interface ConsumerOwner {
  /**
   * Hands a message to the client: the session writes the delivery's first frame. Frame bytes,
   * length fields included, are what the consumer's credits are charged (HornetQ's client returns
   * exactly that much as it consumes).
   */
  deliver(consumerId: number, reference: MessageReference, deliveryCount: number): DeliveryStart;
  /**
   * Writes the forced-delivery marker (nothing more is waiting) with `priority`; it costs no
   * credits. See ServerConsumer.markerPriority.
   */
  deliverMarker(consumerId: number, sequence: number, priority: number): void;
  /**
   * Delivering (or matching) a message threw. The consumer takes nothing more from then on; what
   * it holds (the failed delivery included) goes back when the owner closes it.
   */
  failed(consumer: ServerConsumer, error: unknown): void;
}

/**
 * A consumer on the broker. It takes messages from its queue only while its session is started
 * and it has credits: the client grants consumer-window-size bytes and re-grants as it consumes,
 * so the client never buffers more than its window (credits may go negative by one message, which
 * is how a window of 0 with a single credit delivers exactly one message). A browser walks a
 * snapshot of the queue instead and takes nothing from it.
 */
export class ServerConsumer implements QueueConsumer {
  private credits = 0;
  private unlimitedCredits = false;
  private started = false;
  private closed = false;
  /** A delivery threw: nothing more is taken, whatever the owner does next. */
  private broken = false;
  /** Epoch ms; management shows it. */
  readonly createdAt = Date.now();
  /** Delivered, not yet acknowledged, in delivery order. */
  private readonly delivering = new Map<number, MessageReference>();
  private browseSnapshot: MessageReference[] | null = null;
  private browsePosition = 0;
  /** The body of the large message being delivered, written as credits come. */
  private remainingBody: PendingBody | null = null;
  /**
   * A forced-delivery marker asked for meanwhile: it follows the body's last chunk (and, for a
   * browser, the rest of its snapshot held back by a congested connection or credits on their
   * way: see browserHeldBack).
   */
  private deferredMarker: number | null = null;
  /** The lowest priority of a message delivered to this consumer (see markerPriority). */
  private lowestPriorityDelivered = DEFAULT_PRIORITY;
  /** A browser's marker waiting for credits (browserHeldBack): until this fires. */
  private creditWait: NodeJS.Timeout | null = null;
  /** The wait for credits is over: the marker goes, whatever is left. */
  private creditWaitOver = false;
  /** A message was delivered since the last forced delivery was asked for. */
  private deliveredSinceMarkerAsked = false;

  constructor(
    readonly id: number,
    readonly queue: Queue,
    readonly filter: Filter | null,
    readonly browseOnly: boolean,
    private readonly owner: ConsumerOwner,
    /** Acknowledge at delivery (pre-acknowledge): faster, but a message lost in flight is gone. */
    private readonly preAcknowledge = false,
    /** True while the client's connection is above its output high-water mark (see promptDelivery). */
    private readonly outputBlocked: () => boolean = () => false,
  ) {
    if (browseOnly) this.browseSnapshot = queue.snapshot();
    else queue.addConsumer(this);
  }

  get deliveringCount(): number {
    return this.delivering.size;
  }

  /** What it holds delivered and not yet acknowledged, in delivery order (management browses it). */
  deliveringReferences(): IterableIterator<MessageReference> {
    return this.delivering.values();
  }

  /**
   * Takes a message if it can. Nothing this consumer does throws into the queue's delivery pass,
   * which serves other consumers too: a filter that throws leaves the message in the queue, a
   * delivery that throws keeps it as delivering (HANDLED), so that it returns to the queue with
   * the rest when the owner, told of the failure, closes this consumer.
   */
  handle(reference: MessageReference): HandleStatus {
    if (!this.hasCapacity()) return HandleStatus.BUSY;
    if (!this.matches(reference)) return this.broken ? HandleStatus.BUSY : HandleStatus.NO_MATCH;
    reference.deliveryCount++;
    // Pre-acknowledged, it leaves storage at once: no count to keep.
    if (!this.preAcknowledge) this.queue.countDelivery(reference);
    const messageId = reference.message.messageId;
    this.delivering.set(messageId, reference);
    if (!this.send(reference)) return HandleStatus.HANDLED;
    if (this.preAcknowledge) {
      this.delivering.delete(messageId);
      // The queue counts the message as delivering when this returns HANDLED; acknowledging it
      // first (delivering goes -1, then back to 0) keeps the counts right without a later pass.
      reference.queue.acknowledge(reference);
    }
    return HandleStatus.HANDLED;
  }

  setStarted(started: boolean): void {
    this.started = started;
    if (started) this.promptDelivery();
  }

  /**
   * Credits from the client; -1 means no flow control at all, and 0 resets the balance to nothing:
   * HornetQ's slow consumer (window 0) sends it when a receive ends empty, so that the one credit
   * that receive asked with does not let a message through later, into a buffer nobody reads.
   */
  receiveCredits(credits: number): void {
    if (credits === -1) this.unlimitedCredits = true;
    else if (credits === 0) this.credits = 0;
    else this.credits += credits;
    this.promptDelivery();
  }

  /**
   * Delivers what it can right now, then the marker that tells the client nothing more was
   * waiting (HornetQ's forceDelivery): how a receive with a timeout or receiveNoWait ends.
   */
  forceDelivery(sequence: number): void {
    this.deliveredSinceMarkerAsked = false;
    if (this.browseOnly) this.browseMore();
    else this.queue.deliverNow();
    if (this.closed) return;
    this.deferredMarker = sequence;
    this.releaseMarker();
  }

  /**
   * Sends the marker asked for, unless what it must follow is still held back: a body still on
   * its way, or (a browser) the rest of its snapshot (see browserHeldBack). It says nothing more
   * is coming, so it must not overtake either.
   */
  private releaseMarker(): void {
    const sequence = this.deferredMarker;
    if (sequence === null || this.closed || this.remainingBody !== null || this.browserHeldBack()) return;
    this.deferredMarker = null;
    this.stopCreditWait();
    this.owner.deliverMarker(this.id, sequence, this.markerPriority());
  }

  /**
   * Whether a browser's marker waits for the rest of its snapshot, when nothing was delivered
   * since it was asked for: while the client's connection is congested (until it drains), or
   * while the consumer has no credits, for at most MARKER_CREDIT_WAIT_MS. HornetQ's Java client
   * asks for the marker only with its buffer empty, all it was sent consumed, so the credits that
   * pays back are on their way; but it sends credits from a thread of their own and the request
   * from the caller's, so the request can come first. Answered at once, the browser would end
   * with messages it has not seen (HornetQ's own broker has the same race, narrowed by a thread
   * hop).
   */
  private browserHeldBack(): boolean {
    const snapshot = this.browseSnapshot;
    if (snapshot === null || this.browsePosition >= snapshot.length) return false;
    // Something went since the marker was asked for: the client's receive has a message, and the
    // marker (at the lowest priority delivered) comes out of its buffer after it.
    if (this.deliveredSinceMarkerAsked) return false;
    if (this.outputBlocked()) return true;
    if (this.unlimitedCredits || this.credits > 0 || this.creditWaitOver) return false;
    if (this.creditWait === null) {
      this.creditWait = setTimeout(() => {
        this.creditWait = null;
        this.creditWaitOver = true;
        this.releaseMarker();
      }, MARKER_CREDIT_WAIT_MS);
    }
    return true;
  }

  private stopCreditWait(): void {
    if (this.creditWait !== null) clearTimeout(this.creditWait);
    this.creditWait = null;
    this.creditWaitOver = false;
  }

  /**
   * The marker's priority. HornetQ's Java client buffers deliveries in a list ordered by priority
   * (highest first, in arrival order within one), so a marker of the default priority 4 that
   * arrives with messages of priority 0-3 is taken before them, and its receiveNoWait answers
   * null with messages still waiting: a QueueBrowser ends short. At the lowest priority delivered
   * to this consumer (4 at most) it comes after every message that arrived before it. Not lower
   * when no message was below 4: the Java client acknowledges one by one for good once it sees a
   * priority other than 4.
   */
  private markerPriority(): number {
    return Math.min(DEFAULT_PRIORITY, this.lowestPriorityDelivered);
  }

  /** Acknowledges every delivered message up to and including `messageId` (cumulative ack). */
  acknowledgeUpTo(messageId: number): MessageReference[] {
    if (!this.delivering.has(messageId)) throw this.unknownReference(messageId);
    const acknowledged: MessageReference[] = [];
    for (const [id, reference] of this.delivering) {
      this.delivering.delete(id);
      acknowledged.push(reference);
      if (id === messageId) break;
    }
    return acknowledged;
  }

  acknowledgeOne(messageId: number): MessageReference {
    const reference = this.delivering.get(messageId);
    if (reference === undefined) throw this.unknownReference(messageId);
    this.delivering.delete(messageId);
    return reference;
  }

  /**
   * Takes back every delivered, unacknowledged message, oldest first. The first `seenCount` were
   * handed to the application and keep their delivery count; the rest it never saw (they sat in
   * the client's buffer), so their delivery is undone. A client that vanished may have seen them
   * all: Infinity.
   */
  takeBackDelivering(seenCount: number): { seen: MessageReference[]; unseen: MessageReference[] } {
    const references = [...this.delivering.values()];
    this.delivering.clear();
    const seen = references.slice(0, seenCount);
    const unseen = references.slice(seen.length);
    for (const reference of unseen) reference.deliveryCount--;
    return { seen, unseen };
  }

  /** Stops taking messages; the caller returns the delivering ones to their queue. */
  close(): void {
    this.closed = true;
    this.remainingBody = null;
    this.deferredMarker = null;
    this.stopCreditWait();
    if (!this.browseOnly) this.queue.removeConsumer(this);
  }

  /**
   * Browsing is not delivery: a browser works whether or not its session is started. Credits or not,
   * nothing goes to a connection whose client has stopped taking what was written.
   */
  private hasCapacity(): boolean {
    return this.remainingBody === null && (this.started || this.browseOnly) && this.mayWrite();
  }

  /** Whether a frame may go: credits left, and a client that takes what was written. */
  private mayWrite(): boolean {
    return (
      !this.closed && !this.broken && (this.unlimitedCredits || this.credits > 0) && !this.outputBlocked()
    );
  }

  /** Whether the filter accepts the message; false (and the consumer broken) when it throws. */
  private matches(reference: MessageReference): boolean {
    if (this.filter === null) return true;
    try {
      return this.filter.match(reference.message);
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  /** Delivers and pays for its frames; false (and the consumer broken) when the delivery throws. */
  private send(reference: MessageReference): boolean {
    try {
      const priority = reference.message.priority;
      if (priority < this.lowestPriorityDelivered) this.lowestPriorityDelivered = priority;
      this.deliveredSinceMarkerAsked = true;
      const { frameBytes, remainingBody } = this.owner.deliver(this.id, reference, reference.deliveryCount);
      this.spend(frameBytes);
      this.remainingBody = remainingBody;
    } catch (error) {
      this.fail(error);
      return false;
    }
    this.writeBody();
    return !this.broken;
  }

  /**
   * Writes the large body's chunks while credits and the connection allow; true when no body is
   * left to write (then a marker asked for meanwhile follows it).
   */
  private writeBody(): boolean {
    const body = this.remainingBody;
    if (body === null) return true;
    try {
      while (!body.done && this.mayWrite()) this.spend(body.writeNext());
    } catch (error) {
      this.fail(error);
      return false;
    }
    if (!body.done) return false;
    this.remainingBody = null;
    // A browser's marker waits for the rest of the snapshot too (promptDelivery).
    if (!this.browseOnly) this.releaseMarker();
    return true;
  }

  private fail(error: unknown): void {
    this.broken = true;
    this.owner.failed(this, error);
  }

  private spend(bytes: number): void {
    if (!this.unlimitedCredits) this.credits -= bytes;
  }

  /** Asks for a delivery pass (a large body's chunks first): credits came, or the connection drained. */
  promptDelivery(): void {
    if (!this.writeBody()) return;
    if (this.browseOnly) {
      this.browseMore();
      this.releaseMarker();
    } else this.queue.deliverAsync();
  }

  private browseMore(): void {
    const snapshot = this.browseSnapshot as MessageReference[];
    const now = Date.now();
    while (this.browsePosition < snapshot.length && this.hasCapacity()) {
      const reference = snapshot[this.browsePosition++] as MessageReference;
      if (isExpired(reference.message, now)) continue;
      if (!this.matches(reference)) continue;
      this.send(reference);
    }
  }

  private unknownReference(messageId: number): HornetQException {
    return new HornetQException(
      'ILLEGAL_STATE',
      `Could not find reference for message ${messageId} on consumer ${this.id} of queue ${this.queue.name}`,
    );
  }
}
