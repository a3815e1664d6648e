import { type CoreMessage, MessageType } from '../../core/protocol/core-message';
import { PropertyKind } from '../../core/protocol/typed-properties';
import { MessageFormatException, MessageNotWriteableException } from '../exceptions';
import { isBodyValueOf, type BodyType } from './body-type';
import { HornetQMessage } from './hornetq-message';
import type { ObjectMessage } from './message';
import { MessageProperty } from './property-names';

const EMPTY = Buffer.alloc(0);
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** What OBJECT_ENCODING names for this implementation's bodies. */
export const JSON_OBJECT_ENCODING = 'json';
/** The first two bytes of every Java serialization stream (ObjectStreamConstants.STREAM_MAGIC). */
const JAVA_SERIALIZATION_MAGIC = 0xaced;
const LENGTH_BYTES = 4;
/** Deeper values are refused: the snapshot walk is recursive and must not exhaust the stack. */
export const MAX_OBJECT_DEPTH = 1000;

/**
 * An ObjectMessage carrying a JSON-compatible value: null, booleans, finite numbers, strings,
 * arrays and plain objects (prototype Object.prototype or null) of these. Anything else (a
 * function, symbol, bigint, undefined in an array, a non-finite number, an instance of a class
 * such as Date or Map, an accessor property, a symbol key, a sparse array, a cycle, nesting deeper
 * than MAX_OBJECT_DEPTH) is a MessageFormatException. Properties whose value is undefined are left
 * out, as JSON.stringify does.
 *
 * setObject takes a snapshot (later changes to the value do not reach the message) and getObject
 * returns a fresh copy each time. Decoding is JSON.parse, which builds only plain objects and
 * arrays: nothing from the wire becomes a class instance or code.
 *
 * HornetQ's ObjectMessage body is an int length and a Java serialization stream, which cannot
 * cross to JavaScript (and nothing from the wire may name classes to instantiate). So between two
 * Node peers the body is laid out as HornetQ's (an int length, then the data, here the JSON text
 * in UTF-8) and the message carries the property OBJECT_ENCODING = 'json' saying so; a Java
 * consumer's getObject then fails clearly (ObjectInputStream: "invalid stream header") and its
 * application can see the property. An empty body is no object (null), as in HornetQ. getObject
 * on a Java client's body (stream magic 0xACED) is a MessageFormatException saying it is Java
 * serialization; a body without the property, a length that disagrees with the body, or invalid
 * UTF-8 or JSON is a corrupt body.
 */
export class HornetQObjectMessage extends HornetQMessage implements ObjectMessage {
  static override readonly brand: string = 'HornetQObjectMessage';
  /** The snapshot, as JSON text; null when there is no object. */
  private json: string | null = null;
  /** A received body not yet checked. */
  private pending: Buffer | null = null;
  /** Whether the pending body arrived marked as ours (taken on receipt: clearProperties may drop the marker). */
  private pendingIsJson = false;

  constructor(object?: unknown) {
    super();
    if (object !== undefined) this.setObject(object);
  }

  protected override coreType(): number {
    return MessageType.OBJECT;
  }

  getObject(): unknown {
    if (this.pending !== null) {
      this.json = decodeJson(this.pending, this.pendingIsJson);
      this.pending = null;
    }
    return this.json === null ? null : JSON.parse(this.json);
  }

  /** null or undefined clears the object. */
  setObject(value: unknown): void {
    if (this.bodyReadOnly)
      throw new MessageNotWriteableException('the body of a received message is read-only');
    if (value === null || value === undefined) {
      this.json = null;
    } else {
      checkJsonValue(value, 0, new Set());
      this.json = JSON.stringify(value);
    }
    this.pending = null;
  }

  /**
   * Object always; else as Java's Class.isInstance on the value (String, Number, Boolean, Array).
   * No object is no body, assignable to anything; a body that does not decode is assignable to
   * nothing but Object, as in HornetQ (getBody(Object) then throws the decoding error).
   */
  protected override bodyAssignableTo(type: BodyType): boolean {
    if (type === Object) return true;
    let value: unknown;
    try {
      value = this.getObject();
    } catch (error) {
      if (MessageFormatException.is(error)) return false;
      throw error;
    }
    return value === null || isBodyValueOf(value, type);
  }

  protected override bodyValue(): unknown {
    return this.getObject();
  }

  protected override kindName(): string {
    return 'ObjectMessage';
  }

  override clearBody(): void {
    super.clearBody();
    this.json = null;
    this.pending = null;
  }

  override encodeBody(): Buffer {
    if (this.pending !== null) return this.pending;
    if (this.json === null) return EMPTY;
    const body = Buffer.allocUnsafe(LENGTH_BYTES + Buffer.byteLength(this.json, 'utf8'));
    body.writeInt32BE(body.length - LENGTH_BYTES, 0);
    body.write(this.json, LENGTH_BYTES, 'utf8');
    return body;
  }

  /** The snapshot to send, marked when its body is JSON (a received body sent on keeps what it was). */
  override toCoreMessage(): CoreMessage {
    const isJson = this.pending === null ? this.json !== null : this.pendingIsJson;
    const core = super.toCoreMessage();
    if (isJson) {
      core.properties.set(MessageProperty.OBJECT_ENCODING, {
        kind: PropertyKind.STRING,
        value: JSON_OBJECT_ENCODING,
      });
    } else {
      core.properties.delete(MessageProperty.OBJECT_ENCODING);
    }
    return core;
  }

  protected override loadBody(body: Buffer): void {
    const marker = this.core.properties.get(MessageProperty.OBJECT_ENCODING);
    this.json = null;
    this.pending = body;
    this.pendingIsJson = marker?.kind === PropertyKind.STRING && marker.value === JSON_OBJECT_ENCODING;
  }
}

function decodeJson(body: Buffer, markedJson: boolean): string | null {
  if (body.length === 0) return null;
  if (body.length < LENGTH_BYTES || body.readInt32BE(0) !== body.length - LENGTH_BYTES) {
    throw new MessageFormatException(
      `corrupt object body: its length field does not match the ${body.length - LENGTH_BYTES} bytes after it`,
    );
  }
  const data = body.subarray(LENGTH_BYTES);
  if (data.length >= 2 && data.readUInt16BE(0) === JAVA_SERIALIZATION_MAGIC) {
    throw new MessageFormatException(
      'the object is in Java serialization (stream magic 0xACED), sent by a Java client: it cannot be ' +
        'read in JavaScript; exchange such values as a TextMessage, MapMessage or BytesMessage instead',
    );
  }
  if (!markedJson) {
    throw new MessageFormatException(
      `corrupt object body: it is neither Java serialization nor marked ${MessageProperty.OBJECT_ENCODING}='${JSON_OBJECT_ENCODING}'`,
    );
  }
  let text: string;
  try {
    text = UTF8.decode(data);
    JSON.parse(text);
  } catch (error) {
    throw new MessageFormatException(`corrupt object body: ${(error as Error).message}`, null, {
      cause: error,
    });
  }
  return text;
}

/** Throws MessageFormatException unless `value` survives JSON unchanged (see the class comment). */
function checkJsonValue(value: unknown, depth: number, ancestors: Set<object>): void {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(value)) throw refuse(`the number ${value} has no JSON form`);
      return;
    case 'object':
      break;
    default:
      throw refuse(`a ${typeof value} is not a JSON value`);
  }
  if (value === null) return;
  if (depth >= MAX_OBJECT_DEPTH) throw refuse(`nested deeper than ${MAX_OBJECT_DEPTH} levels`);
  if (ancestors.has(value)) throw refuse('the value contains a cycle');
  ancestors.add(value);
  const prototype: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value) && prototype === Array.prototype) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) throw refuse(`the array has a hole at index ${i}`);
      const item: unknown = value[i];
      if (item === undefined) throw refuse(`undefined at array index ${i}`);
      checkJsonValue(item, depth + 1, ancestors);
    }
  } else if (prototype === Object.prototype || prototype === null) {
    if (Object.getOwnPropertySymbols(value).length > 0) throw refuse('a symbol-keyed property is not JSON');
    for (const key of Object.keys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor === undefined) continue;
      if (!('value' in descriptor)) throw refuse(`property '${key}' is an accessor`);
      if (descriptor.value !== undefined) checkJsonValue(descriptor.value, depth + 1, ancestors);
    }
  } else {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    throw refuse(`an instance of ${typeof name === 'string' ? name : 'a class'} is not a plain object`);
  }
  ancestors.delete(value);
}

function refuse(reason: string): MessageFormatException {
  return new MessageFormatException(`ObjectMessage takes JSON-compatible values only: ${reason}`);
}
