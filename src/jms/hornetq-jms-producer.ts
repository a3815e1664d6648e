import type { AbortOptions } from '../core/client';
import type { CompletionListener } from './completion-listener';
import type { Destination } from './destination';
import { JMSRuntimeException, MessageFormatRuntimeException } from './exceptions';
import {
  checkDeliveryDelay,
  checkDeliveryMode,
  checkPriority,
  checkTimeToLive,
  type HornetQMessageProducer,
} from './hornetq-message-producer';
import { runtimeCall, runtimeCallSync } from './jms-runtime-error';
import {
  HornetQBytesMessage,
  HornetQMapMessage,
  HornetQObjectMessage,
  HornetQTextMessage,
  Message,
  isMessage,
  type Message as JMSMessage,
} from './message';
import * as convert from './message/conversions';
import { checkPropertyName } from './message/property-names';

/** The JMS 2.0 interface name for a context's producer. */
export type JMSProducer = HornetQJMSProducer;

/**
 * What JMSProducer.send takes, and the message it sends for it (HornetQ's JMSProducer overloads):
 * a Message as it is; a string as a TextMessage; bytes (a Buffer or Uint8Array) as a
 * BytesMessage; a Map, or a plain object (JavaScript's usual map), as a MapMessage, each entry
 * typed by MapMessage.setObject; any other value (a number, a boolean, an array) as an
 * ObjectMessage. For an ObjectMessage whose object is a plain object, create it with
 * context.createObjectMessage(object).
 */
export type ProducerBody =
  | JMSMessage
  | string
  | Uint8Array
  | ReadonlyMap<string, unknown>
  | { readonly [name: string]: unknown }
  | number
  | boolean
  | readonly unknown[];

/** What a JMSProducer needs from its context. */
export interface ProducerContext {
  /** Throws IllegalStateRuntimeException once the context is closed. */
  checkOpen(): void;
  /** The context's anonymous producer with these producer-wide settings. */
  producer(disableMessageID: boolean, disableMessageTimestamp: boolean): Promise<HornetQMessageProducer>;
}

/**
 * JMS 2.0's JMSProducer, as HornetQ's HornetQJMSProducer: fluent setters (each returns the
 * producer) for the send settings, message headers and properties it puts on every message it
 * sends; `send(destination, body)` resolves when the send is done (as MessageProducer.send) and
 * rejects with JMSRuntimeException or a subclass. With `setAsync(listener)` a send resolves once
 * it is on the connection and the CompletionListener hears when the broker confirmed or refused
 * it (MessageProducer.send with a listener; needs a confirmationWindowSize other than -1). Nothing to close.
 */
export class HornetQJMSProducer {
  private deliveryMode: number = Message.DEFAULT_DELIVERY_MODE;
  private priority: number = Message.DEFAULT_PRIORITY;
  private timeToLive: number = Message.DEFAULT_TIME_TO_LIVE;
  private deliveryDelay = 0;
  private completionListener: CompletionListener | null = null;
  private disableMessageID = false;
  private disableMessageTimestamp = false;
  /** Values as given; checked when set, typed on each message as setObjectProperty types them. */
  private readonly properties = new Map<string, unknown>();
  private correlationID: string | null = null;
  private correlationIDBytes: Buffer | null = null;
  private type: string | null = null;
  private replyTo: Destination | null = null;

  /** @internal (HornetQJMSContext.createProducer makes producers) */
  constructor(private readonly context: ProducerContext) {}

  /**
   * Sends `body` (see ProducerBody) to `destination` with this producer's settings, headers and
   * properties. Aborting `options.signal` rejects with its reason, as MessageProducer.send.
   */
  async send(destination: Destination, body: ProducerBody, { signal }: AbortOptions = {}): Promise<this> {
    this.context.checkOpen();
    const message = runtimeCallSync(() => messageFor(body));
    runtimeCallSync(() => this.stamp(message));
    const settings = {
      deliveryMode: this.deliveryMode,
      priority: this.priority,
      timeToLive: this.timeToLive,
      deliveryDelay: this.deliveryDelay,
      signal,
    };
    const listener = this.completionListener;
    await runtimeCall(async () => {
      const producer = await this.context.producer(this.disableMessageID, this.disableMessageTimestamp);
      if (listener === null) await producer.send(destination, message, settings);
      else await producer.send(destination, message, listener, settings);
    }, signal);
    return this;
  }

  // ───────────── send settings ─────────────

  setDeliveryMode(deliveryMode: number): this {
    runtimeCallSync(() => checkDeliveryMode(deliveryMode));
    this.deliveryMode = deliveryMode;
    return this;
  }
  getDeliveryMode(): number {
    return this.deliveryMode;
  }
  setPriority(priority: number): this {
    runtimeCallSync(() => checkPriority(priority));
    this.priority = priority;
    return this;
  }
  getPriority(): number {
    return this.priority;
  }
  setTimeToLive(timeToLive: number): this {
    runtimeCallSync(() => checkTimeToLive(timeToLive));
    this.timeToLive = timeToLive;
    return this;
  }
  getTimeToLive(): number {
    return this.timeToLive;
  }
  /** Each message is delivered no sooner than this many ms after it was sent (this process's clock). */
  setDeliveryDelay(deliveryDelay: number): this {
    runtimeCallSync(() => checkDeliveryDelay(deliveryDelay));
    this.deliveryDelay = deliveryDelay;
    return this;
  }
  getDeliveryDelay(): number {
    return this.deliveryDelay;
  }
  /** A listener makes the following sends asynchronous (see the class); null makes them synchronous again. */
  setAsync(completionListener: CompletionListener | null): this {
    this.completionListener = completionListener;
    return this;
  }
  getAsync(): CompletionListener | null {
    return this.completionListener;
  }
  setDisableMessageID(disabled: boolean): this {
    this.disableMessageID = disabled;
    return this;
  }
  getDisableMessageID(): boolean {
    return this.disableMessageID;
  }
  setDisableMessageTimestamp(disabled: boolean): this {
    this.disableMessageTimestamp = disabled;
    return this;
  }
  getDisableMessageTimestamp(): boolean {
    return this.disableMessageTimestamp;
  }

  // ───────────── headers ─────────────

  setJMSCorrelationID(correlationID: string | null): this {
    this.correlationID = correlationID;
    return this;
  }
  getJMSCorrelationID(): string | null {
    return this.correlationID;
  }
  /** A copy is kept; empty is refused, as in HornetQ. */
  setJMSCorrelationIDAsBytes(correlationID: Uint8Array): this {
    if (!(correlationID instanceof Uint8Array) || correlationID.length === 0) {
      throw new JMSRuntimeException('JMSCorrelationID as bytes must be a non-empty byte array');
    }
    this.correlationIDBytes = Buffer.from(correlationID);
    return this;
  }
  getJMSCorrelationIDAsBytes(): Uint8Array | null {
    return this.correlationIDBytes === null ? null : Buffer.from(this.correlationIDBytes);
  }
  setJMSType(type: string | null): this {
    this.type = type;
    return this;
  }
  getJMSType(): string | null {
    return this.type;
  }
  setJMSReplyTo(replyTo: Destination | null): this {
    this.replyTo = replyTo;
    return this;
  }
  getJMSReplyTo(): Destination | null {
    return this.replyTo;
  }

  // ───────────── properties ─────────────

  /**
   * boolean, number, bigint (a long), string or null, typed as Message.setObjectProperty types
   * them; a bad name is a TypeError, a bad value a MessageFormatRuntimeException.
   */
  setProperty(name: string, value: boolean | number | bigint | string | null): this {
    checkPropertyName(name);
    runtimeCallSync(() => convert.objectValue(value, describe(name), false));
    this.properties.set(name, value);
    return this;
  }
  clearProperties(): this {
    this.properties.clear();
    return this;
  }
  propertyExists(name: string): boolean {
    return this.properties.has(name);
  }
  getPropertyNames(): string[] {
    return [...this.properties.keys()];
  }
  getBooleanProperty(name: string): boolean {
    return runtimeCallSync(() => convert.readBooleanValue(this.typed(name), describe(name)));
  }
  getByteProperty(name: string): number {
    return runtimeCallSync(() => convert.readByteValue(this.typed(name), describe(name)));
  }
  getShortProperty(name: string): number {
    return runtimeCallSync(() => convert.readShortValue(this.typed(name), describe(name)));
  }
  getIntProperty(name: string): number {
    return runtimeCallSync(() => convert.readIntValue(this.typed(name), describe(name)));
  }
  getLongProperty(name: string): number {
    return runtimeCallSync(() => convert.readLongValue(this.typed(name), describe(name)));
  }
  getFloatProperty(name: string): number {
    return runtimeCallSync(() => convert.readFloatValue(this.typed(name), describe(name)));
  }
  getDoubleProperty(name: string): number {
    return runtimeCallSync(() => convert.readDoubleValue(this.typed(name), describe(name)));
  }
  getStringProperty(name: string): string | null {
    return runtimeCallSync(() => convert.readStringValue(this.typed(name), describe(name)));
  }
  getObjectProperty(name: string): unknown {
    return convert.readObjectValue(this.typed(name));
  }

  private typed(name: string): ReturnType<typeof convert.objectValue> | undefined {
    if (!this.properties.has(name)) return undefined;
    return convert.objectValue(this.properties.get(name), describe(name), false);
  }

  /** The headers and properties this producer sets on the message it is about to send (HornetQ's order). */
  private stamp(message: JMSMessage): void {
    if (this.correlationID !== null) message.setJMSCorrelationID(this.correlationID);
    if (this.correlationIDBytes !== null) {
      if (!isMessage(message)) {
        throw new JMSRuntimeException(
          'JMSCorrelationID as bytes can only be set on a message of this package, not a foreign one',
        );
      }
      message.setJMSCorrelationIDAsBytes(this.correlationIDBytes);
    }
    if (this.replyTo !== null) message.setJMSReplyTo(this.replyTo);
    if (this.type !== null) message.setJMSType(this.type);
    for (const [name, value] of this.properties) message.setObjectProperty(name, value);
  }
}

/** The message ProducerBody describes for `body`. */
function messageFor(body: ProducerBody): JMSMessage {
  if (body === null || body === undefined)
    throw new MessageFormatRuntimeException('Cannot send a null message');
  if (typeof body === 'string') return new HornetQTextMessage(body);
  if (body instanceof Uint8Array) {
    const message = new HornetQBytesMessage();
    message.writeBytes(body);
    return message;
  }
  if (body instanceof Map) return mapMessage(body as ReadonlyMap<unknown, unknown>);
  if (isPlainObject(body)) {
    return isJMSMessage(body) ? body : mapMessage(new Map(Object.entries(body)));
  }
  if (isJMSMessage(body)) return body;
  return new HornetQObjectMessage(body);
}

function mapMessage(entries: ReadonlyMap<unknown, unknown>): HornetQMapMessage {
  const message = new HornetQMapMessage();
  for (const [name, value] of entries) {
    if (typeof name !== 'string') {
      throw new MessageFormatRuntimeException(`a map body's names must be strings, got ${typeof name}`);
    }
    message.setObject(name, value);
  }
  return message;
}

/** Any Message: ours, or another implementation's (which send copies, as MessageProducer.send). */
function isJMSMessage(value: unknown): value is JMSMessage {
  return (
    typeof value === 'object' && value !== null && typeof (value as JMSMessage).getJMSMessageID === 'function'
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function describe(name: string): string {
  return `property '${name}'`;
}
