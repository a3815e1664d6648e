import { brandPrototypes } from '../../lang/brand';
import { CoreMessage, MessageType } from '../../core/protocol/core-message';
import { PropertyKind, type TypedValue } from '../../core/protocol/typed-properties';
import type { Destination } from '../destination/destination';
import { addressOfDestination, destinationFromAddress } from '../destination/destination-codec';
import { JMSException, MessageFormatException, MessageNotWriteableException } from '../exceptions';
import { bodyTypeName, type BodyOf, type BodyType } from './body-type';
import * as convert from './conversions';
import { DeliveryMode, Message } from './message';
import { checkPropertyName, isHeaderProperty, isInternalProperty, MessageProperty } from './property-names';

/** Acknowledges on the consumer's behalf; the consumer side sets it on each message it hands out. */
export type Acknowledger = () => Promise<void>;

const EMPTY = Buffer.alloc(0);

/**
 * A JMS message over a core message. Headers map onto core fields and properties:
 *
 * | JMS                 | core                                                              |
 * | JMSMessageID        | 'ID:' + userId, a UUID the producer draws per send (see below)    |
 * | JMSTimestamp        | timestamp                                                         |
 * | JMSCorrelationID    | property 'JMSCorrelationID' (STRING; BYTES via …AsBytes)          |
 * | JMSReplyTo          | property 'JMSReplyTo' (STRING: the core address, 'jms.queue.X')   |
 * | JMSDestination      | address: 'jms.queue.X', 'jms.topic.X', 'jms.tempqueue.X' or       |
 * |                     | 'jms.temptopic.X' ('' is none; any other address throws)           |
 * | JMSDeliveryMode     | durable (PERSISTENT 2 ↔ true, NON_PERSISTENT 1 ↔ false)           |
 * | JMSRedelivered      | deliveryCount > 1 on a received message; settable locally         |
 * | JMSType             | property 'JMSType' (STRING)                                       |
 * | JMSExpiration       | expiration                                                        |
 * | JMSPriority         | priority                                                          |
 * | JMSXDeliveryCount   | the delivery count (read-only; exists on received messages)       |
 * | JMSXGroupID         | property '_HQ_GROUP_ID' (STRING)                                  |
 *
 * '_HQ_SCHED_DELIVERY' (LONG, epoch ms) and '_HQ_DUPL_ID' (STRING) are set like any property and
 * never listed by getPropertyNames. These are HornetQ's names and representations, so a HornetQ
 * Java client reads the same headers from the same message.
 *
 * JMSMessageID: as in HornetQ, only the provider's id travels. A producer gives each message it
 * sends a fresh UUID as its core userId (the 16 bytes on the wire); setJMSMessageID, which JMS
 * reserves for providers, changes what getJMSMessageID returns here and clears the userId, so an
 * id set by the application never reaches the wire (the next send replaces it). Header setters always work; property setters throw
 * MessageNotWriteableException on a received message until clearProperties.
 *
 * Subclasses own a body: `encodeBody()` gives the bytes to send, `loadBody()` takes a received
 * body (decoded lazily, so a corrupt body fails the read with MessageFormatException rather
 * than the delivery).
 */
export class HornetQMessage implements Message {
  /** Recognised across copies of this package by the guards in message-guards.ts. */
  static readonly brand: string = 'HornetQMessage';
  protected core: CoreMessage;
  /** Text, Map and Object bodies of a received message; Bytes and Stream use their read/write mode. */
  protected bodyReadOnly = false;
  private propertiesReadOnly = false;
  private received = false;
  private deliveryCount = 0;
  private redelivered = false;
  private acknowledger: Acknowledger | null = null;
  /** The object last set or decoded, returned as long as the address it stands for is unchanged. */
  private destination: Destination | null = null;
  /** What setJMSMessageID set, which stands in for the userId until the next send; undefined if nothing. */
  private localMessageID: string | null | undefined = undefined;
  private replyTo: Destination | null = null;

  constructor() {
    brandPrototypes(new.target);
    this.core = new CoreMessage();
    this.core.type = this.coreType();
    this.core.durable = Message.DEFAULT_DELIVERY_MODE === DeliveryMode.PERSISTENT;
    this.core.priority = Message.DEFAULT_PRIORITY;
  }

  /** The core MessageType this class sends and is chosen for on receipt. */
  protected coreType(): number {
    return MessageType.DEFAULT;
  }

  // ───────────── receiving and sending ─────────────

  /**
   * Adopts a received core message (fromCoreMessage calls this on a fresh instance): properties
   * and body become read-only, and JMSRedelivered / JMSXDeliveryCount follow the delivery count.
   */
  initReceived(core: CoreMessage, deliveryCount: number): void {
    if (!Number.isSafeInteger(deliveryCount) || deliveryCount < 0) {
      throw new RangeError(`delivery count ${deliveryCount} is not a non-negative integer`);
    }
    this.core = core;
    this.received = true;
    this.deliveryCount = deliveryCount;
    this.redelivered = deliveryCount > 1;
    this.propertiesReadOnly = true;
    this.bodyReadOnly = true;
    this.destination = null;
    this.replyTo = null;
    this.localMessageID = undefined;
    this.loadBody(core.body);
  }

  /**
   * The core message to send: a snapshot of headers, properties and the encoded body, so that
   * changing this message afterwards (or sending it again) never touches what was sent. As
   * HornetQ does before a send, a Bytes or Stream body is put in read mode at its start.
   */
  toCoreMessage(): CoreMessage {
    const body = this.encodeBody();
    const core = this.core.copy();
    core.type = this.coreType();
    core.body = body;
    this.beforeSend();
    return core;
  }

  /** The body as it travels (each subclass documents its encoding); a plain Message has none. */
  encodeBody(): Buffer {
    return EMPTY;
  }

  /** Takes a received body; subclasses keep it to decode on first read. */
  protected loadBody(_body: Buffer): void {}

  protected beforeSend(): void {}

  /** The wrapped core message (live, not a copy): for the client internals. */
  getCoreMessage(): CoreMessage {
    return this.core;
  }

  /** The delivery count of a received message (1 on first delivery); 0 for a message made here. */
  getDeliveryCount(): number {
    return this.deliveryCount;
  }

  /** @internal (the session that received the message acknowledges through it) */
  setAcknowledger(acknowledger: Acknowledger | null): void {
    this.acknowledger = acknowledger;
  }

  acknowledge(): Promise<void> {
    return this.acknowledger === null ? Promise.resolve() : this.acknowledger();
  }

  clearBody(): void {
    this.bodyReadOnly = false;
  }

  // ───────────── JMS 2.0 body access (see body-type.ts) ─────────────

  /**
   * The body as `type` (`getBody(String)`, `getBody(Buffer)`, `getBody(Map)`, `getBody(Object)`),
   * null when the message has none; a body not assignable to it is a MessageFormatException.
   * A Bytes body is read whole without moving the read position.
   */
  getBody<T extends BodyType>(type: T): BodyOf<T> | null {
    if (!this.isBodyAssignableTo(type)) {
      throw new MessageFormatException(
        `the body of this ${this.kindName()} is not assignable to ${bodyTypeName(type)}`,
      );
    }
    return this.bodyValue() as BodyOf<T> | null;
  }

  /** Whether getBody(type) would return the body; a Message without a body type is assignable to anything. */
  isBodyAssignableTo(type: BodyType): boolean {
    bodyTypeName(type);
    return this.bodyAssignableTo(type);
  }

  /** The subclass's rule for isBodyAssignableTo (type already checked). */
  protected bodyAssignableTo(_type: BodyType): boolean {
    return true;
  }

  /** The body getBody returns, once assignable; null for none. */
  protected bodyValue(): unknown {
    return null;
  }

  /** How messages of this class are named in errors. */
  protected kindName(): string {
    return 'Message';
  }

  // ───────────── headers ─────────────

  getJMSMessageID(): string | null {
    if (this.localMessageID !== undefined) return this.localMessageID;
    return this.core.userId === null ? null : `ID:${this.core.userId}`;
  }

  /** JMS reserves this for providers: the id is kept here only and never sent (see the class comment). */
  setJMSMessageID(id: string | null): void {
    if (id !== null && (typeof id !== 'string' || !id.startsWith('ID:'))) {
      throw new JMSException(`JMSMessageID must start with 'ID:', got ${String(id)}`);
    }
    this.core.userId = null;
    this.localMessageID = id;
  }

  /**
   * The producer's id for a send: a canonical lowercase UUID (JMSMessageID 'ID:' + it), or null
   * when message ids are disabled. Replaces whatever setJMSMessageID set.
   */
  assignMessageID(userId: string | null): void {
    this.core.userId = userId;
    this.localMessageID = undefined;
  }

  getJMSTimestamp(): number {
    return this.core.timestamp;
  }

  setJMSTimestamp(timestamp: number): void {
    this.core.timestamp = checkLongHeader('JMSTimestamp', timestamp);
  }

  getJMSCorrelationID(): string | null {
    const typed = this.core.properties.get(MessageProperty.CORRELATION_ID);
    if (typed?.kind === PropertyKind.BYTES) return null;
    return convert.readStringValue(typed, 'JMSCorrelationID');
  }

  setJMSCorrelationID(id: string | null): void {
    this.setHeaderString(MessageProperty.CORRELATION_ID, id);
  }

  /** The correlation id set as bytes (a copy), or null when it was set as a string or not at all. */
  getJMSCorrelationIDAsBytes(): Uint8Array | null {
    const typed = this.core.properties.get(MessageProperty.CORRELATION_ID);
    return typed?.kind === PropertyKind.BYTES ? Buffer.from(typed.value) : null;
  }

  setJMSCorrelationIDAsBytes(id: Uint8Array | null): void {
    if (!(id instanceof Uint8Array) || id.length === 0) {
      throw new JMSException('JMSCorrelationID as bytes must be a non-empty byte array');
    }
    this.core.properties.set(MessageProperty.CORRELATION_ID, {
      kind: PropertyKind.BYTES,
      value: Buffer.from(id),
    });
  }

  /** An address that is not a JMS destination's is an InvalidDestinationException, as in HornetQ. */
  getJMSReplyTo(): Destination | null {
    const typed = this.core.properties.get(MessageProperty.REPLY_TO);
    const address = typed?.kind === PropertyKind.STRING ? typed.value : null;
    if (address === null) return null;
    if (this.replyTo === null || addressOfDestination(this.replyTo) !== address) {
      this.replyTo = destinationFromAddress(address);
    }
    return this.replyTo;
  }

  setJMSReplyTo(destination: Destination | null): void {
    if (destination === null) {
      this.core.properties.delete(MessageProperty.REPLY_TO);
    } else {
      const value = addressOfDestination(destination);
      this.core.properties.set(MessageProperty.REPLY_TO, { kind: PropertyKind.STRING, value });
    }
    this.replyTo = destination;
  }

  /**
   * The destination the core address names; an address that is not a JMS destination's (a core
   * client's, or an Artemis acceptor's without the JMS prefixes) is an InvalidDestinationException
   * naming it, as HornetQ's "Invalid address".
   */
  getJMSDestination(): Destination | null {
    const address = this.core.address;
    if (address === '') return null;
    if (this.destination === null || addressOfDestination(this.destination) !== address) {
      this.destination = destinationFromAddress(address);
    }
    return this.destination;
  }

  setJMSDestination(destination: Destination | null): void {
    this.core.address = destination === null ? '' : addressOfDestination(destination);
    this.destination = destination;
  }

  getJMSDeliveryMode(): number {
    return this.core.durable ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT;
  }

  setJMSDeliveryMode(mode: number): void {
    if (mode !== DeliveryMode.PERSISTENT && mode !== DeliveryMode.NON_PERSISTENT) {
      throw new JMSException(
        `JMSDeliveryMode must be PERSISTENT (${DeliveryMode.PERSISTENT}) or NON_PERSISTENT (${DeliveryMode.NON_PERSISTENT}), got ${mode}`,
      );
    }
    this.core.durable = mode === DeliveryMode.PERSISTENT;
  }

  getJMSRedelivered(): boolean {
    return this.redelivered;
  }

  setJMSRedelivered(redelivered: boolean): void {
    if (typeof redelivered !== 'boolean')
      throw new JMSException(`JMSRedelivered must be a boolean, got ${redelivered}`);
    this.redelivered = redelivered;
  }

  getJMSType(): string | null {
    const typed = this.core.properties.get(MessageProperty.TYPE);
    return typed?.kind === PropertyKind.BYTES ? null : convert.readStringValue(typed, 'JMSType');
  }

  setJMSType(type: string | null): void {
    this.setHeaderString(MessageProperty.TYPE, type);
  }

  getJMSExpiration(): number {
    return this.core.expiration;
  }

  setJMSExpiration(expiration: number): void {
    this.core.expiration = checkLongHeader('JMSExpiration', expiration);
  }

  getJMSPriority(): number {
    return this.core.priority;
  }

  setJMSPriority(priority: number): void {
    if (!Number.isInteger(priority) || priority < 0 || priority > 9) {
      throw new JMSException(`JMSPriority must be an integer in 0..9, got ${priority}`);
    }
    this.core.priority = priority;
  }

  /**
   * JMS 2.0: the earliest time (epoch ms) the broker delivers the message, as HornetQ keeps it: the
   * '_HQ_SCHED_DELIVERY' property, which a producer with a delivery delay sets. 0 when the message
   * has none (HornetQ sets it only for a delay), or when the property holds no long.
   */
  getJMSDeliveryTime(): number {
    const typed = this.core.properties.get(MessageProperty.SCHEDULED_DELIVERY_TIME);
    if (typed === undefined || typed.kind === PropertyKind.NULL) return 0;
    try {
      return convert.readLongValue(typed, MessageProperty.SCHEDULED_DELIVERY_TIME);
    } catch {
      // HornetQ's getJMSDeliveryTime answers 0 for a value that is no long, rather than failing.
      return 0;
    }
  }

  /**
   * Sets '_HQ_SCHED_DELIVERY', as HornetQ's setJMSDeliveryTime does: a header setter, so a received
   * message takes it too. A producer overwrites it when it sends with a delay; without one, the
   * value set here travels and the broker holds the message until then (HornetQ's behaviour).
   */
  setJMSDeliveryTime(deliveryTime: number): void {
    this.core.properties.set(MessageProperty.SCHEDULED_DELIVERY_TIME, {
      kind: PropertyKind.LONG,
      value: checkLongHeader('JMSDeliveryTime', deliveryTime),
    });
  }

  // ───────────── properties ─────────────

  propertyExists(name: string): boolean {
    return this.property(name) !== undefined;
  }

  /**
   * Application and JMSX properties: JMSXDeliveryCount on a received message, JMSXGroupID when
   * set; never header names (JMSCorrelationID, …) nor the provider's '_HQ_' properties.
   */
  getPropertyNames(): string[] {
    const names = new Set<string>();
    for (const name of this.core.properties.names()) {
      if (name === MessageProperty.GROUP_ID) names.add(MessageProperty.JMSX_GROUP_ID);
      else if (!isInternalProperty(name) && !isHeaderProperty(name)) names.add(name);
    }
    if (this.received) names.add(MessageProperty.JMSX_DELIVERY_COUNT);
    return [...names];
  }

  /** Removes every property (the provider's too, as HornetQ does) but not the headers stored as properties. */
  clearProperties(): void {
    for (const name of this.core.properties.names()) {
      if (!isHeaderProperty(name)) this.core.properties.delete(name);
    }
    this.propertiesReadOnly = false;
  }

  getBooleanProperty(name: string): boolean {
    return convert.readBooleanValue(this.property(name), describeProperty(name));
  }

  getByteProperty(name: string): number {
    return convert.readByteValue(this.property(name), describeProperty(name));
  }

  getShortProperty(name: string): number {
    return convert.readShortValue(this.property(name), describeProperty(name));
  }

  getIntProperty(name: string): number {
    return convert.readIntValue(this.property(name), describeProperty(name));
  }

  getLongProperty(name: string): number {
    return convert.readLongValue(this.property(name), describeProperty(name));
  }

  getFloatProperty(name: string): number {
    return convert.readFloatValue(this.property(name), describeProperty(name));
  }

  getDoubleProperty(name: string): number {
    return convert.readDoubleValue(this.property(name), describeProperty(name));
  }

  getStringProperty(name: string): string | null {
    return convert.readStringValue(this.property(name), describeProperty(name));
  }

  /**
   * boolean, number, string or null; a long beyond ±2^53 (a Java peer's) as a bigint; a BYTES
   * property from a core client as a copy.
   */
  getObjectProperty(name: string): unknown {
    return convert.readObjectValue(this.property(name));
  }

  setBooleanProperty(name: string, value: boolean): void {
    this.setProperty(name, value, convert.booleanValue);
  }

  setByteProperty(name: string, value: number): void {
    this.setProperty(name, value, convert.byteValue);
  }

  setShortProperty(name: string, value: number): void {
    this.setProperty(name, value, convert.shortValue);
  }

  setIntProperty(name: string, value: number): void {
    this.setProperty(name, value, convert.intValue);
  }

  setLongProperty(name: string, value: number | bigint): void {
    this.setProperty(name, value, convert.longValue);
  }

  setFloatProperty(name: string, value: number): void {
    this.setProperty(name, value, convert.floatValue);
  }

  setDoubleProperty(name: string, value: number): void {
    this.setProperty(name, value, convert.doubleValue);
  }

  setStringProperty(name: string, value: string | null): void {
    this.setProperty(name, value, convert.stringValue);
  }

  /**
   * boolean, number, bigint (a long), string or null (anything else is a MessageFormatException).
   * A number is stored as an int if it is a 32-bit integer, a long if another safe integer, else a
   * double.
   */
  setObjectProperty(name: string, value: unknown): void {
    this.setProperty(name, value, (v, what) => convert.objectValue(v, what, false));
  }

  private property(name: string): TypedValue | undefined {
    if (name === MessageProperty.JMSX_DELIVERY_COUNT) {
      return this.received ? { kind: PropertyKind.INT, value: this.deliveryCount } : undefined;
    }
    if (name === MessageProperty.JMSX_GROUP_ID) return this.core.properties.get(MessageProperty.GROUP_ID);
    return this.core.properties.get(name);
  }

  /** Checks in HornetQ's order: read-only, then the name, then the value. */
  private setProperty<T>(name: string, value: T, toTyped: (value: T, what: string) => TypedValue): void {
    if (this.propertiesReadOnly) {
      throw new MessageNotWriteableException(
        `the properties of a received message are read-only (setting '${name}')`,
      );
    }
    checkPropertyName(name);
    if (name === MessageProperty.JMSX_DELIVERY_COUNT) {
      throw new MessageNotWriteableException('JMSXDeliveryCount is set by the provider');
    }
    const what = describeProperty(name);
    const typed = toTyped(value, what);
    switch (name) {
      case MessageProperty.JMSX_GROUP_ID:
      case MessageProperty.GROUP_ID:
      case MessageProperty.DUPLICATE_ID:
        return this.setFeatureProperty(
          name === MessageProperty.JMSX_GROUP_ID ? MessageProperty.GROUP_ID : name,
          typed,
          what,
        );
      case MessageProperty.SCHEDULED_DELIVERY_TIME:
        return this.setScheduledDeliveryTime(typed, what);
      default:
        this.core.properties.set(name, typed);
    }
  }

  /** The group and duplicate ids are strings the broker compares; null removes them. */
  private setFeatureProperty(name: string, typed: TypedValue, what: string): void {
    if (typed.kind === PropertyKind.NULL) {
      this.core.properties.delete(name);
      return;
    }
    if (typed.kind !== PropertyKind.STRING) {
      throw new MessageFormatException(`${what} must be a string, got a ${convert.kindName(typed.kind)}`);
    }
    this.core.properties.set(name, typed);
  }

  /** Any integer type is accepted and stored as the LONG the broker reads; null removes it. */
  private setScheduledDeliveryTime(typed: TypedValue, what: string): void {
    switch (typed.kind) {
      case PropertyKind.NULL:
        this.core.properties.delete(MessageProperty.SCHEDULED_DELIVERY_TIME);
        return;
      case PropertyKind.BYTE:
      case PropertyKind.SHORT:
      case PropertyKind.INT:
      case PropertyKind.LONG:
        this.core.properties.set(MessageProperty.SCHEDULED_DELIVERY_TIME, {
          kind: PropertyKind.LONG,
          value: typed.value,
        });
        return;
      default:
        throw new MessageFormatException(
          `${what} must be a long (epoch ms), got a ${convert.kindName(typed.kind)}`,
        );
    }
  }

  private setHeaderString(name: string, value: string | null): void {
    if (value === null) {
      this.core.properties.delete(name);
      return;
    }
    if (typeof value !== 'string')
      throw new JMSException(`${name} must be a string or null, got ${String(value)}`);
    this.core.properties.set(name, { kind: PropertyKind.STRING, value });
  }
}

function describeProperty(name: string): string {
  return `property '${name}'`;
}

function checkLongHeader(header: string, value: number): number {
  if (!Number.isSafeInteger(value))
    throw new JMSException(`${header} must be a safe integer (ms), got ${value}`);
  return value;
}
