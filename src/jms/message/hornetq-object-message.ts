import { MessageType } from '../../core/protocol/core-message';
import { MessageFormatException, MessageNotWriteableException } from '../exceptions';
import { HornetQMessage } from './hornetq-message';
import type { ObjectMessage } from './message';

const EMPTY = Buffer.alloc(0);
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
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
 * returns a fresh copy each time. Body encoding: the JSON text in UTF-8; an empty body is no
 * object (null). Decoding is JSON.parse, which builds only plain objects and arrays: nothing
 * from the wire becomes a class instance or code. Invalid UTF-8 or JSON is a corrupt body.
 */
export class HornetQObjectMessage extends HornetQMessage implements ObjectMessage {
  /** The snapshot, as JSON text; null when there is no object. */
  private json: string | null = null;
  /** A received body not yet checked. */
  private pending: Buffer | null = null;

  constructor(object?: unknown) {
    super();
    if (object !== undefined) this.setObject(object);
  }

  protected override coreType(): number {
    return MessageType.OBJECT;
  }

  getObject(): unknown {
    if (this.pending !== null) {
      this.json = decodeJson(this.pending);
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

  override clearBody(): void {
    super.clearBody();
    this.json = null;
    this.pending = null;
  }

  override encodeBody(): Buffer {
    if (this.pending !== null) return this.pending;
    return this.json === null ? EMPTY : Buffer.from(this.json, 'utf8');
  }

  protected override loadBody(body: Buffer): void {
    this.json = null;
    this.pending = body;
  }
}

function decodeJson(body: Buffer): string | null {
  if (body.length === 0) return null;
  let text: string;
  try {
    text = UTF8.decode(body);
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
