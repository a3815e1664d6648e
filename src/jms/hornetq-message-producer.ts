import { randomUUID } from 'node:crypto';
import { abortable, type AbortOptions, type ClientProducer } from '../core/client';
import { MessageHeader, PropertyKind } from '../core/protocol';
import { addressOfDestination, type Destination } from './destination';
import { IllegalStateException, InvalidDestinationException, JMSException } from './exceptions';
import { isCompletionListener, type CompletionListener } from './completion-listener';
import { jmsCall, toJMSException } from './jms-error';
import { insideCompletionListenerOf, runInCompletionListener } from './listener-context';
import { newUserId } from '../core/protocol/user-id';
import {
  DeliveryMode,
  HornetQMessage,
  Message,
  toHornetQMessage,
  type Message as JMSMessage,
} from './message';

export interface SendOptions extends AbortOptions {
  deliveryMode?: number;
  priority?: number;
  timeToLive?: number;
  /** Overrides the producer's delivery delay (ms) for this send. */
  deliveryDelay?: number;
  /**
   * Resolve once the broker has confirmed this very send (it has the message, stored when
   * persistent), reject when it refused it (JMSSecurityException, ResourceAllocationException,
   * ...). The send goes without waiting for an answer, so many can be in flight at once; needs
   * a confirmationWindowSize on the connection factory, not -1 (IllegalStateException otherwise).
   */
  confirm?: boolean;
}

/** What a producer needs from its session and connection. */
export interface ProducerSession {
  /**
   * Stamped on every message (as HornetQ's `__HQ_CID`: the client id, else the connection's UID)
   * so that noLocal consumers of the same connection skip it.
   */
  readonly connectionStamp: string;
  /** JMSXGroupID for every message (the factory's group-id), or null. */
  readonly groupID: string | null;
  readonly autoGroup: boolean;
  /** The connection the session belongs to: its completion listeners may not close it. */
  readonly jmsConnection: object;
  /** Rejects with InvalidDestinationException if a queue does not exist. */
  checkDestination(address: string): Promise<void>;
  producerClosed(producer: HornetQMessageProducer): void;
}

/** Property that marks the connection a message was sent from (HornetQ's name). */
export const CONNECTION_STAMP_PROPERTY = MessageHeader.CONNECTION_ID;

/** The JMS interface name, for code written against javax.jms (the class is its only implementation). */
export type MessageProducer = HornetQMessageProducer;

/**
 * A JMS producer over a core producer: sets the headers JMS says a send sets (destination,
 * delivery mode, priority, expiration, message id, timestamp) on the message the caller passed,
 * then sends a snapshot of it. The message id is a fresh UUID per send (newUserId), carried
 * as the core userId; JMSMessageID is 'ID:' + it.
 */
export class HornetQMessageProducer {
  private deliveryMode: number = Message.DEFAULT_DELIVERY_MODE;
  private priority: number = Message.DEFAULT_PRIORITY;
  private timeToLive: number = Message.DEFAULT_TIME_TO_LIVE;
  private deliveryDelay = DEFAULT_DELIVERY_DELAY;
  private disableMessageID = false;
  private disableMessageTimestamp = false;
  private isClosed = false;
  private readonly autoGroupID: string | null;
  /** Sends with a CompletionListener whose listener has not returned yet. */
  private readonly completions = new Set<Promise<void>>();

  /** @internal (HornetQSession.createProducer makes producers) */
  constructor(
    private readonly session: ProducerSession,
    private readonly core: ClientProducer,
    private readonly destination: Destination | null,
  ) {
    this.autoGroupID = session.autoGroup ? randomUUID() : null;
  }

  /**
   * Sends; aborting `options.signal` rejects with its reason, and what became of the message
   * depends on where the send was (ClientProducer.send): an aborted signal sends nothing and sets
   * no header; a send still waiting to go (the destination check, producer-max-rate, a failover,
   * producer credits) is withdrawn unsent; a send written already (block-on-durable-send waiting
   * for the broker) is not withdrawn: it is in the resend buffer and may arrive.
   *
   * With a CompletionListener (JMS 2.0's asynchronous send) the promise resolves once the send is
   * on the connection, and the listener hears once the broker confirmed or refused it (see
   * CompletionListener); it needs a confirmationWindowSize other than -1, as `confirm: true` does. The send
   * settings may be given with a listener too (JMS 2.0's send(destination, message, deliveryMode,
   * priority, timeToLive, completionListener)); `confirm` is what the listener already is.
   */
  send(message: JMSMessage, options?: SendOptions): Promise<void>;
  send(
    message: JMSMessage,
    listener: CompletionListener,
    options?: Omit<SendOptions, 'confirm'>,
  ): Promise<void>;
  send(destination: Destination, message: JMSMessage, options?: SendOptions): Promise<void>;
  send(
    destination: Destination,
    message: JMSMessage,
    listener: CompletionListener,
    options?: Omit<SendOptions, 'confirm'>,
  ): Promise<void>;
  async send(
    first: JMSMessage | Destination,
    ...rest: Array<JMSMessage | SendOptions | CompletionListener | undefined>
  ): Promise<void> {
    this.checkOpen();
    const messageFirst = isMessage(first);
    const explicit = messageFirst ? undefined : (first as Destination | null);
    const message = (messageFirst ? first : rest.shift()) as JMSMessage | undefined;
    const listener = isCompletionListener(rest[0]) ? (rest.shift() as CompletionListener) : null;
    const options = rest[0] as SendOptions | undefined;
    if (message === undefined || message === null) throw new JMSException('Cannot send a null message');
    const signal = options?.signal;
    signal?.throwIfAborted();
    const destination = this.target(explicit, messageFirst);
    const address = addressOfDestination(destination);
    await abortable(this.session.checkDestination(address), signal);
    const mode = options?.deliveryMode ?? this.deliveryMode;
    const priority = options?.priority ?? this.priority;
    const timeToLive = options?.timeToLive ?? this.timeToLive;
    const deliveryDelay = options?.deliveryDelay ?? this.deliveryDelay;
    checkDeliveryMode(mode);
    checkPriority(priority);
    checkTimeToLive(timeToLive);
    checkDeliveryDelay(deliveryDelay);
    const headers = this.headersFor(destination, { mode, priority, timeToLive, deliveryDelay });
    stamp(message, headers);
    const ours = toHornetQMessage(message);
    // A foreign message is copied: the copy that travels carries the very values the caller sees.
    if (ours !== message) stamp(ours, headers);
    const core = ours.toCoreMessage();
    core.properties.set(CONNECTION_STAMP_PROPERTY, {
      kind: PropertyKind.STRING,
      value: this.session.connectionStamp,
    });
    const group = this.session.groupID ?? this.autoGroupID;
    if (group !== null && !core.properties.has(MessageHeader.GROUP_ID)) {
      core.properties.set(MessageHeader.GROUP_ID, { kind: PropertyKind.STRING, value: group });
    }
    if (listener === null) {
      await jmsCall(
        () => this.core.send(core, address, { signal, confirm: options?.confirm === true }),
        signal,
      );
      return;
    }
    const { written, confirmed } = this.core.sendConfirmed(core, address, { signal });
    await jmsCall(() => written, signal);
    this.completeLater(confirmed, message, listener);
  }

  /** Calls `listener` once the broker confirmed or refused the send; close() waits for it. */
  private completeLater(confirmed: Promise<void>, message: JMSMessage, listener: CompletionListener): void {
    const completion = confirmed.then(
      () => this.inCompletionListener(() => listener.onCompletion(message)),
      (error: unknown) =>
        this.inCompletionListener(() => listener.onException(message, toJMSException(error))),
    );
    this.completions.add(completion);
    void completion.then(() => this.completions.delete(completion));
  }

  private inCompletionListener(callback: () => void): void {
    try {
      runInCompletionListener(this, this.session, this.session.jmsConnection, callback);
    } catch {
      // The listener's own failure: the send is complete all the same, and nobody else waits on it.
    }
  }

  /**
   * Resolves once every send made with a CompletionListener so far has had its listener called
   * and returned (JMS 2.0: closing the session or connection waits for them too).
   */
  async completionsDone(): Promise<void> {
    while (this.completions.size > 0) await Promise.all([...this.completions]);
  }

  getDestination(): Destination | null {
    this.checkOpen();
    return this.destination;
  }

  getDeliveryMode(): number {
    this.checkOpen();
    return this.deliveryMode;
  }
  setDeliveryMode(mode: number): void {
    this.checkOpen();
    checkDeliveryMode(mode);
    this.deliveryMode = mode;
  }
  getPriority(): number {
    this.checkOpen();
    return this.priority;
  }
  setPriority(priority: number): void {
    this.checkOpen();
    checkPriority(priority);
    this.priority = priority;
  }
  getTimeToLive(): number {
    this.checkOpen();
    return this.timeToLive;
  }
  setTimeToLive(ms: number): void {
    this.checkOpen();
    checkTimeToLive(ms);
    this.timeToLive = ms;
  }
  /**
   * JMS 2.0: the least time (ms) between a send and the message's delivery; 0 (the default) for
   * none. As in HornetQ, the send stamps JMSDeliveryTime ('_HQ_SCHED_DELIVERY') with this
   * process's clock plus the delay, and the broker holds the message until then by its own clock:
   * a skew between the two clocks shifts the delivery.
   */
  getDeliveryDelay(): number {
    this.checkOpen();
    return this.deliveryDelay;
  }
  setDeliveryDelay(ms: number): void {
    this.checkOpen();
    checkDeliveryDelay(ms);
    this.deliveryDelay = ms;
  }
  getDisableMessageID(): boolean {
    this.checkOpen();
    return this.disableMessageID;
  }
  setDisableMessageID(disabled: boolean): void {
    this.checkOpen();
    this.disableMessageID = disabled;
  }
  getDisableMessageTimestamp(): boolean {
    this.checkOpen();
    return this.disableMessageTimestamp;
  }
  setDisableMessageTimestamp(disabled: boolean): void {
    this.checkOpen();
    this.disableMessageTimestamp = disabled;
  }

  /**
   * Closes; idempotent. It first waits for the sends made with a CompletionListener to complete
   * and their listeners to return (JMS 2.0); an abort of `signal` stops that wait (the producer
   * closes all the same, and the listeners are still called). From inside one of its own
   * completion listeners it throws IllegalStateException. Otherwise nothing waits for the broker:
   * as every close, it rejects with the signal's reason if the signal has aborted.
   */
  async close({ signal }: AbortOptions = {}): Promise<void> {
    if (this.isClosed) return;
    if (insideCompletionListenerOf(this))
      throw new IllegalStateException('A CompletionListener may not close its own producer');
    this.isClosed = true;
    try {
      await abortable(this.completionsDone(), signal);
    } finally {
      this.core.close();
      this.session.producerClosed(this);
    }
    signal?.throwIfAborted();
  }

  /** `await using`: close(). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** The session or connection closed. */
  closeLocally(): void {
    this.isClosed = true;
  }

  /** A producer with a destination sends there; an anonymous one needs it per send. */
  private target(explicit: Destination | null | undefined, messageFirst: boolean): Destination {
    if (this.destination !== null) {
      if (!messageFirst) {
        throw new JMSException('Cannot specify a destination when the producer was created with one');
      }
      return this.destination;
    }
    if (messageFirst) {
      throw new JMSException('Destination must be specified on send with an anonymous producer');
    }
    if (explicit === null || explicit === undefined)
      throw new InvalidDestinationException('Destination must not be null');
    return explicit;
  }

  /** The headers JMS says a send sets, computed once per send. */
  private headersFor(destination: Destination, settings: SendSettings): SendHeaders {
    const { mode, priority, timeToLive, deliveryDelay } = settings;
    const now = Date.now();
    return {
      destination,
      mode,
      priority,
      expiration: timeToLive > 0 ? now + timeToLive : 0,
      // HornetQ stamps it only for a delay: an undelayed message carries no JMSDeliveryTime (0).
      deliveryTime: deliveryDelay > 0 ? now + deliveryDelay : null,
      timestamp: this.disableMessageTimestamp ? 0 : now,
      userId: this.disableMessageID ? null : newUserId(),
    };
  }

  private checkOpen(): void {
    if (this.isClosed) throw new IllegalStateException('Producer is closed');
  }
}

/** JMS 2.0's Message.DEFAULT_DELIVERY_DELAY. */
const DEFAULT_DELIVERY_DELAY = 0;

interface SendSettings {
  mode: number;
  priority: number;
  timeToLive: number;
  deliveryDelay: number;
}

interface SendHeaders {
  destination: Destination;
  mode: number;
  priority: number;
  expiration: number;
  /** Epoch ms before which the broker does not deliver the message; null for no delay. */
  deliveryTime: number | null;
  timestamp: number;
  /** The core userId: a canonical lowercase UUID, or null when message ids are disabled. */
  userId: string | null;
}

function stamp(message: JMSMessage, headers: SendHeaders): void {
  message.setJMSDestination(headers.destination);
  message.setJMSDeliveryMode(headers.mode);
  message.setJMSPriority(headers.priority);
  message.setJMSExpiration(headers.expiration);
  message.setJMSTimestamp(headers.timestamp);
  if (headers.deliveryTime !== null) setDeliveryTime(message, headers.deliveryTime);
  if (message instanceof HornetQMessage) message.assignMessageID(headers.userId);
  else message.setJMSMessageID(headers.userId === null ? null : `ID:${headers.userId}`);
}

/** A message of another provider may lack JMS 2.0's setter: its copy that travels has it. */
function setDeliveryTime(message: JMSMessage, deliveryTime: number): void {
  const setter = (message as Partial<HornetQMessage>).setJMSDeliveryTime;
  if (typeof setter === 'function') setter.call(message, deliveryTime);
}

function isMessage(value: unknown): value is JMSMessage {
  return (
    typeof value === 'object' && value !== null && typeof (value as JMSMessage).getJMSMessageID === 'function'
  );
}

export function checkDeliveryMode(mode: number): void {
  if (mode !== DeliveryMode.PERSISTENT && mode !== DeliveryMode.NON_PERSISTENT) {
    throw new JMSException(`Illegal delivery mode ${mode}: must be PERSISTENT (2) or NON_PERSISTENT (1)`);
  }
}

export function checkPriority(priority: number): void {
  if (!Number.isInteger(priority) || priority < 0 || priority > 9) {
    throw new JMSException(`Illegal priority ${priority}: must be an integer 0..9`);
  }
}

export function checkTimeToLive(ms: number): void {
  if (!Number.isSafeInteger(ms) || ms < 0)
    throw new JMSException(`Illegal time to live ${ms}: must be an integer >= 0`);
}

export function checkDeliveryDelay(ms: number): void {
  if (!Number.isSafeInteger(ms) || ms < 0)
    throw new JMSException(`Illegal delivery delay ${ms}: must be an integer >= 0 (ms)`);
}
