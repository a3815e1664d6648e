import { BufferWriter } from '../../core/protocol/buffer-writer';
import { MessageType } from '../../core/protocol/core-message';
import { TypedProperties, type TypedValue } from '../../core/protocol/typed-properties';
import { MessageNotWriteableException } from '../exceptions';
import { decodeBody } from './body-codec';
import type { BodyType } from './body-type';
import * as convert from './conversions';
import { HornetQMessage } from './hornetq-message';
import type { MapMessage } from './message';
import { checkMapName } from './property-names';

/**
 * A MapMessage: named values that keep their Java type (boolean, byte, short, char, int, long,
 * float, double, string, bytes) and convert on read by the JMS table (conversions.ts). Body
 * encoding, HornetQ's (HornetQMapMessage): the entries as one TypedProperties block, exactly as a
 * message's properties travel (SimpleString names and strings, HornetQ's type bytes, a char as its
 * UTF-16 unit); an empty map is the single byte 0. A count that cannot fit or an unknown type
 * makes the body corrupt (MessageFormatException on the first read); bytes after the block are
 * ignored, as HornetQ's reader ignores them (see TrailingBytes); an empty body
 * (a core client's map message without one) is an empty map. A long beyond ±2^53 reads as a
 * bigint from getObject and getString, and getLong refuses it with a MessageFormatException.
 */
export class HornetQMapMessage extends HornetQMessage implements MapMessage {
  static override readonly brand: string = 'HornetQMapMessage';
  private entries: Map<string, TypedValue> = new Map();
  /** A received body not yet decoded. */
  private pending: Buffer | null = null;

  protected override coreType(): number {
    return MessageType.MAP;
  }

  getMapNames(): string[] {
    return [...this.map().keys()];
  }

  itemExists(name: string): boolean {
    return this.map().has(name);
  }

  getBoolean(name: string): boolean {
    return convert.readBooleanValue(this.map().get(name), describe(name));
  }

  getByte(name: string): number {
    return convert.readByteValue(this.map().get(name), describe(name));
  }

  getShort(name: string): number {
    return convert.readShortValue(this.map().get(name), describe(name));
  }

  getChar(name: string): string {
    return convert.readCharValue(this.map().get(name), describe(name));
  }

  getInt(name: string): number {
    return convert.readIntValue(this.map().get(name), describe(name));
  }

  getLong(name: string): number {
    return convert.readLongValue(this.map().get(name), describe(name));
  }

  getFloat(name: string): number {
    return convert.readFloatValue(this.map().get(name), describe(name));
  }

  getDouble(name: string): number {
    return convert.readDoubleValue(this.map().get(name), describe(name));
  }

  getString(name: string): string | null {
    return convert.readStringValue(this.map().get(name), describe(name));
  }

  /** A copy: changing it does not change the message. */
  getBytes(name: string): Uint8Array | null {
    return convert.readBytesValue(this.map().get(name), describe(name));
  }

  /** boolean, number (a long beyond ±2^53 as a bigint), string (a char too), a copy of bytes, or null. */
  getObject(name: string): unknown {
    return convert.readObjectValue(this.map().get(name));
  }

  setBoolean(name: string, value: boolean): void {
    this.set(name, value, convert.booleanValue);
  }

  setByte(name: string, value: number): void {
    this.set(name, value, convert.byteValue);
  }

  setShort(name: string, value: number): void {
    this.set(name, value, convert.shortValue);
  }

  setChar(name: string, value: string): void {
    this.set(name, value, convert.charValue);
  }

  setInt(name: string, value: number): void {
    this.set(name, value, convert.intValue);
  }

  setLong(name: string, value: number | bigint): void {
    this.set(name, value, convert.longValue);
  }

  setFloat(name: string, value: number): void {
    this.set(name, value, convert.floatValue);
  }

  setDouble(name: string, value: number): void {
    this.set(name, value, convert.doubleValue);
  }

  setString(name: string, value: string | null): void {
    this.set(name, value, convert.stringValue);
  }

  /** Stores a copy of `value[offset, offset + length)`; null stores a null entry. */
  setBytes(name: string, value: Uint8Array | null, offset?: number, length?: number): void {
    this.set(name, value, (v, what) => convert.bytesValue(v, what, offset, length));
  }

  /**
   * boolean, number, bigint (a long), string, Uint8Array (copied) or null; anything else is a
   * MessageFormatException. A number is an int if it is a 32-bit integer, a long if another safe
   * integer, else a double.
   */
  setObject(name: string, value: unknown): void {
    this.set(name, value, (v, what) => convert.objectValue(v, what, true));
  }

  /** An empty map is no body, assignable to anything. */
  protected override bodyAssignableTo(type: BodyType): boolean {
    return this.map().size === 0 || type === Map || type === Object;
  }

  /** A Map of name → value as getObject reads each entry; null for an empty map. */
  protected override bodyValue(): unknown {
    const entries = this.map();
    if (entries.size === 0) return null;
    return new Map([...entries].map(([name, typed]) => [name, convert.readObjectValue(typed)]));
  }

  protected override kindName(): string {
    return 'MapMessage';
  }

  override clearBody(): void {
    super.clearBody();
    this.entries = new Map();
    this.pending = null;
  }

  override encodeBody(): Buffer {
    if (this.pending !== null) return this.pending;
    const block = new TypedProperties();
    for (const [name, typed] of this.entries) block.set(name, typed);
    const writer = new BufferWriter(block.encodedSize());
    block.encode(writer);
    return writer.toBuffer();
  }

  protected override loadBody(body: Buffer): void {
    this.entries = new Map();
    this.pending = body;
  }

  private map(): Map<string, TypedValue> {
    if (this.pending !== null) {
      this.entries = decodeMap(this.pending);
      this.pending = null;
    }
    return this.entries;
  }

  /** Checks in order: read-only, then the name, then the value. */
  private set<T>(name: string, value: T, toTyped: (value: T, what: string) => TypedValue): void {
    if (this.bodyReadOnly) {
      throw new MessageNotWriteableException(
        `the body of a received message is read-only (setting '${name}')`,
      );
    }
    checkMapName(name);
    const typed = toTyped(value, describe(name));
    this.map().set(name, typed);
  }
}

function describe(name: string): string {
  return `map entry '${name}'`;
}

function decodeMap(body: Buffer): Map<string, TypedValue> {
  if (body.length === 0) return new Map();
  return decodeBody(
    'map body',
    body,
    (reader) => new Map(TypedProperties.decode(reader).entries()),
    'ignore',
  );
}
