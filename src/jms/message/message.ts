import type { Destination } from '../destination/destination';
import type { BodyOf, BodyType } from './body-type';

/** JMS delivery modes; a message's mode maps onto the core message's `durable` flag. */
export const DeliveryMode = { NON_PERSISTENT: 1, PERSISTENT: 2 } as const;

/** The JMS Message constants of the public contract. */
export const Message = {
  DEFAULT_DELIVERY_MODE: DeliveryMode.PERSISTENT,
  DEFAULT_PRIORITY: 4,
  DEFAULT_TIME_TO_LIVE: 0,
} as const;

/**
 * A JMS message (the public contract's interface). Properties keep their JMS type and convert on
 * read by the JMS 1.1 table (§3.5.4); see conversions.ts for the exact rules.
 */
export interface Message {
  getJMSMessageID(): string | null;
  setJMSMessageID(id: string | null): void;
  getJMSTimestamp(): number;
  setJMSTimestamp(timestamp: number): void;
  getJMSCorrelationID(): string | null;
  setJMSCorrelationID(id: string | null): void;
  getJMSReplyTo(): Destination | null;
  setJMSReplyTo(destination: Destination | null): void;
  getJMSDestination(): Destination | null;
  setJMSDestination(destination: Destination | null): void;
  getJMSDeliveryMode(): number;
  setJMSDeliveryMode(mode: number): void;
  getJMSRedelivered(): boolean;
  setJMSRedelivered(redelivered: boolean): void;
  getJMSType(): string | null;
  setJMSType(type: string | null): void;
  getJMSExpiration(): number;
  setJMSExpiration(expiration: number): void;
  getJMSPriority(): number;
  setJMSPriority(priority: number): void;

  propertyExists(name: string): boolean;
  getPropertyNames(): string[];
  clearProperties(): void;
  getBooleanProperty(name: string): boolean;
  setBooleanProperty(name: string, value: boolean): void;
  getByteProperty(name: string): number;
  setByteProperty(name: string, value: number): void;
  getShortProperty(name: string): number;
  setShortProperty(name: string, value: number): void;
  getIntProperty(name: string): number;
  setIntProperty(name: string, value: number): void;
  getLongProperty(name: string): number;
  setLongProperty(name: string, value: number | bigint): void;
  getFloatProperty(name: string): number;
  setFloatProperty(name: string, value: number): void;
  getDoubleProperty(name: string): number;
  setDoubleProperty(name: string, value: number): void;
  getStringProperty(name: string): string | null;
  setStringProperty(name: string, value: string | null): void;
  getObjectProperty(name: string): unknown;
  setObjectProperty(name: string, value: unknown): void;

  /** CLIENT_ACKNOWLEDGE: acknowledges every message the session has consumed so far. */
  acknowledge(): Promise<void>;
  clearBody(): void;
  /**
   * JMS 2.0: the body as `type` (String, Buffer, Map, Object...; see body-type.ts), null for none.
   * Every message of this package has both methods. They are declared optional only so that a
   * message typed against the JMS 1.1 contract (an application's own Message, or a listener
   * typed with it) still fits this interface; `isMessage(m)` narrows to HornetQMessage, where
   * they are required.
   */
  getBody?<T extends BodyType>(type: T): BodyOf<T> | null;
  isBodyAssignableTo?(type: BodyType): boolean;
}

export interface TextMessage extends Message {
  getText(): string | null;
  setText(text: string | null): void;
}

export interface BytesMessage extends Message {
  getBodyLength(): number;
  reset(): void;
  readBoolean(): boolean;
  readByte(): number;
  readUnsignedByte(): number;
  readShort(): number;
  readUnsignedShort(): number;
  readChar(): string;
  readInt(): number;
  readLong(): number;
  readFloat(): number;
  readDouble(): number;
  readUTF(): string;
  /** Fills `target` (up to `length` bytes); returns the count read, or -1 at the end. */
  readBytes(target: Uint8Array, length?: number): number;
  writeBoolean(value: boolean): void;
  writeByte(value: number): void;
  writeShort(value: number): void;
  writeChar(value: string): void;
  writeInt(value: number): void;
  writeLong(value: number | bigint): void;
  writeFloat(value: number): void;
  writeDouble(value: number): void;
  writeUTF(value: string): void;
  writeBytes(value: Uint8Array, offset?: number, length?: number): void;
  writeObject(value: unknown): void;
}

export interface StreamMessage extends Message {
  reset(): void;
  readBoolean(): boolean;
  readByte(): number;
  readShort(): number;
  readChar(): string;
  readInt(): number;
  readLong(): number;
  readFloat(): number;
  readDouble(): number;
  readString(): string | null;
  readBytes(target: Uint8Array): number;
  readObject(): unknown;
  writeBoolean(value: boolean): void;
  writeByte(value: number): void;
  writeShort(value: number): void;
  writeChar(value: string): void;
  writeInt(value: number): void;
  writeLong(value: number | bigint): void;
  writeFloat(value: number): void;
  writeDouble(value: number): void;
  writeString(value: string | null): void;
  writeBytes(value: Uint8Array, offset?: number, length?: number): void;
  writeObject(value: unknown): void;
}

export interface MapMessage extends Message {
  getMapNames(): string[];
  itemExists(name: string): boolean;
  getBoolean(name: string): boolean;
  setBoolean(name: string, value: boolean): void;
  getByte(name: string): number;
  setByte(name: string, value: number): void;
  getShort(name: string): number;
  setShort(name: string, value: number): void;
  getChar(name: string): string;
  setChar(name: string, value: string): void;
  getInt(name: string): number;
  setInt(name: string, value: number): void;
  getLong(name: string): number;
  setLong(name: string, value: number | bigint): void;
  getFloat(name: string): number;
  setFloat(name: string, value: number): void;
  getDouble(name: string): number;
  setDouble(name: string, value: number): void;
  getString(name: string): string | null;
  setString(name: string, value: string | null): void;
  getBytes(name: string): Uint8Array | null;
  setBytes(name: string, value: Uint8Array | null): void;
  getObject(name: string): unknown;
  setObject(name: string, value: unknown): void;
}

export interface ObjectMessage extends Message {
  getObject(): unknown;
  setObject(value: unknown): void;
}
