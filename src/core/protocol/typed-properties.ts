import { outOfRange } from '../../lang/argument-errors';
import type { BufferReader } from './buffer-reader';
import type { BufferWriter } from './buffer-writer';
import { ProtocolError } from './protocol-error';
import { nullableHqStringBytes } from './hq-string';
import { simpleStringBytes } from './short-strings';

/**
 * The property types of a core message, as JMS needs them to keep a property's declared type:
 * HornetQ's type bytes (DataConstants), which are also what a TypedProperties block writes.
 */
export const PropertyKind = {
  NULL: 0,
  BOOLEAN: 2,
  BYTE: 3,
  BYTES: 4,
  SHORT: 5,
  INT: 6,
  LONG: 7,
  FLOAT: 8,
  DOUBLE: 9,
  STRING: 10,
  CHAR: 11,
} as const;
export type PropertyKind = (typeof PropertyKind)[keyof typeof PropertyKind];

export type TypedValue =
  | { readonly kind: typeof PropertyKind.NULL; readonly value: null }
  | { readonly kind: typeof PropertyKind.BOOLEAN; readonly value: boolean }
  | {
      readonly kind:
        | typeof PropertyKind.BYTE
        | typeof PropertyKind.SHORT
        | typeof PropertyKind.INT
        | typeof PropertyKind.FLOAT
        | typeof PropertyKind.DOUBLE;
      readonly value: number;
    }
  /**
   * A number within the safe-integer range; a bigint only for a value outside it (a Java peer's
   * Long.MAX_VALUE), which a number would silently round.
   */
  | { readonly kind: typeof PropertyKind.LONG; readonly value: number | bigint }
  /** CHAR: one UTF-16 unit (a lone surrogate survives), as Java's char. */
  | { readonly kind: typeof PropertyKind.STRING | typeof PropertyKind.CHAR; readonly value: string }
  | { readonly kind: typeof PropertyKind.BYTES; readonly value: Buffer };

/** What an instance without properties iterates: shared, never written to. */
const NO_VALUES: ReadonlyMap<string, TypedValue> = new Map();

/** Smallest encoding of one property: name length (4) + type byte (1). */
const MIN_PROPERTY_BYTES = 5;

/** The first byte of a block: no properties at all, or a count and the entries (DataConstants). */
const NO_PROPERTIES = 0;
const SOME_PROPERTIES = 1;

/**
 * Heap bytes one property costs besides the characters of its name and value, measured with
 * bench/message-memory.mjs (Node 20, 64-bit): its Map entry (with the room a table that has just
 * doubled leaves spare), its TypedValue object, the headers of its name and value strings, or a
 * heap number for a value that is not a small integer.
 */
export const PROPERTY_MEMORY_OVERHEAD = 140;
/** What a BYTES value costs on top of that and of its bytes: its Buffer object. */
const BYTES_VALUE_MEMORY_OVERHEAD = 128;

/** Source of content stamps; shared by every instance so that a stamp names one content. */
let lastStamp = 0;

/**
 * Message properties keyed by name. A Map, never a plain object, because names come from peers
 * (a name like `__proto__` must stay an ordinary key).
 */
export class TypedProperties {
  /** Created on the first set: most messages carry no properties, and decoding makes many. */
  private values: Map<string, TypedValue> | null = null;
  private stamp = ++lastStamp;

  /**
   * Changes whenever the content changes, and differs between instances unless one is a copy of
   * the other: equal stamps mean equal content, which lets a message reuse its received encoding.
   */
  get contentStamp(): number {
    return this.stamp;
  }

  get size(): number {
    return this.values?.size ?? 0;
  }

  get(name: string): TypedValue | undefined {
    return this.values?.get(name);
  }

  set(name: string, value: TypedValue): void {
    (this.values ??= new Map()).set(name, value);
    this.stamp = ++lastStamp;
  }

  has(name: string): boolean {
    return this.values?.has(name) ?? false;
  }

  delete(name: string): boolean {
    const deleted = this.values?.delete(name) ?? false;
    if (deleted) this.stamp = ++lastStamp;
    return deleted;
  }

  clear(): void {
    this.values = null;
    this.stamp = ++lastStamp;
  }

  names(): string[] {
    return this.values === null ? [] : [...this.values.keys()];
  }

  entries(): IterableIterator<[string, TypedValue]> {
    return (this.values ?? NO_VALUES).entries();
  }

  copy(): TypedProperties {
    const copy = new TypedProperties();
    if (this.values !== null) copy.values = new Map(this.values);
    copy.stamp = this.stamp;
    return copy;
  }

  /** Exactly the bytes `encode` writes (HornetQ's TypedProperties.getEncodeSize). */
  encodedSize(): number {
    if (this.size === 0) return 1;
    let size = 1 + 4;
    for (const [name, typed] of this.entries()) {
      size += 4 + simpleStringBytes(name) + typedValueBytes(typed, 'property');
    }
    return size;
  }

  /**
   * At least what these properties cost in V8's heap: PROPERTY_MEMORY_OVERHEAD each, the
   * characters of their names and values (see stringHeapBytes), and BYTES values' Buffers. It
   * walks them, as decoding did: the broker takes it once per message it routes.
   */
  memoryEstimate(): number {
    if (this.values === null) return 0;
    let bytes = this.values.size * PROPERTY_MEMORY_OVERHEAD;
    for (const [name, typed] of this.values) bytes += stringHeapBytes(name) + valueHeapBytes(typed);
    return bytes;
  }

  /**
   * HornetQ's block: byte 0 when there are none, else byte 1, an int count and each entry as its
   * SimpleString name, a type byte and the value. No properties is always byte 0 (what HornetQ
   * writes for a message that never had any), whether or not some were set and removed.
   * @internal (the packet codec)
   */
  encode(writer: BufferWriter): void {
    if (this.values === null || this.values.size === 0) return writer.writeByte(NO_PROPERTIES);
    writer.writeByte(SOME_PROPERTIES);
    writer.writeInt(this.values.size);
    for (const [name, typed] of this.values) {
      writer.writeRecurringSimpleString(name);
      writeTypedValue(writer, typed, 'property');
    }
  }

  /** @internal (the packet codec) */
  static decode(reader: BufferReader): TypedProperties {
    const properties = new TypedProperties();
    properties.decodeFrom(reader);
    return properties;
  }

  /**
   * Adds the properties `encode` wrote (into an empty instance: a message being decoded). Any
   * non-zero first byte announces a count, as HornetQ reads it; a repeated name keeps its last value.
   * @internal (the packet codec)
   */
  decodeFrom(reader: BufferReader): void {
    if (reader.readByte() === NO_PROPERTIES) return;
    const count = reader.readCount('property', MIN_PROPERTY_BYTES);
    for (let i = 0; i < count; i++) {
      const name = reader.readRecurringSimpleString();
      this.set(name, readTypedValue(reader, 'property'));
    }
  }
}

/**
 * Where a typed value travels. 'property': a TypedProperties entry (and so a Map body's), its
 * STRING a SimpleString. 'stream': a StreamMessage body's field (HornetQStreamMessage), its STRING
 * a nullable three-way String, and null written as a STRING that is null (Java has no NULL field
 * there). Every other type is the same in both: CHAR one UTF-16 unit as a short, BOOLEAN 0/0xFF,
 * FLOAT and DOUBLE as their IEEE bits, BYTES an int length and the bytes.
 */
export type ValueForm = 'property' | 'stream';

/** The type byte (DataConstants), then the value, in `form`. */
export function writeTypedValue(writer: BufferWriter, typed: TypedValue, form: ValueForm): void {
  if (form === 'stream' && typed.kind === PropertyKind.NULL) {
    writer.writeByte(PropertyKind.STRING);
    return writer.writeNullableHqString(null);
  }
  writer.writeByte(typed.kind);
  switch (typed.kind) {
    case PropertyKind.NULL:
      return;
    case PropertyKind.BOOLEAN:
      return writer.writeBoolean(typed.value);
    case PropertyKind.BYTE:
      return writer.writeByte(typed.value);
    case PropertyKind.SHORT:
      return writer.writeShort(typed.value);
    case PropertyKind.INT:
      return writer.writeInt(typed.value);
    case PropertyKind.LONG:
      return writer.writeInt64(typed.value);
    case PropertyKind.FLOAT:
      return writer.writeFloat(typed.value);
    case PropertyKind.DOUBLE:
      return writer.writeDouble(typed.value);
    case PropertyKind.STRING:
      if (form === 'stream') return writer.writeNullableHqString(typed.value);
      return writer.writeSimpleString(typed.value);
    case PropertyKind.CHAR:
      if (typed.value.length !== 1) {
        throw outOfRange(`a CHAR is one UTF-16 unit, not ${typed.value.length}`);
      }
      return writer.writeShort((typed.value.charCodeAt(0) << 16) >> 16);
    case PropertyKind.BYTES:
      return writer.writeBytes(typed.value);
  }
}

/** Exactly the bytes writeTypedValue writes, its type byte included. */
export function typedValueBytes(typed: TypedValue, form: ValueForm): number {
  switch (typed.kind) {
    case PropertyKind.NULL:
      return form === 'stream' ? 1 + 1 : 1;
    case PropertyKind.BOOLEAN:
    case PropertyKind.BYTE:
      return 1 + 1;
    case PropertyKind.SHORT:
    case PropertyKind.CHAR:
      return 1 + 2;
    case PropertyKind.INT:
    case PropertyKind.FLOAT:
      return 1 + 4;
    case PropertyKind.LONG:
    case PropertyKind.DOUBLE:
      return 1 + 8;
    case PropertyKind.STRING:
      if (form === 'stream') return 1 + nullableHqStringBytes(typed.value);
      return 1 + 4 + simpleStringBytes(typed.value);
    case PropertyKind.BYTES:
      return 1 + 4 + typed.value.length;
  }
}

/** Strings up to this long are counted at two bytes a character unseen: cheaper than looking. */
const UNSEEN_STRING_LENGTH = 64;

/**
 * At least the bytes of `value`'s characters in V8's heap: one per character when it is ASCII
 * (then its UTF-8 length is its length), else at most two per UTF-16 unit (a string with any
 * character above U+00FF is two-byte throughout).
 */
function stringHeapBytes(value: string): number {
  const length = value.length;
  if (length > UNSEEN_STRING_LENGTH && Buffer.byteLength(value) === length) return length;
  return 2 * length;
}

/** The heap bytes of a value besides PROPERTY_MEMORY_OVERHEAD. */
function valueHeapBytes(typed: TypedValue): number {
  switch (typed.kind) {
    case PropertyKind.STRING:
    case PropertyKind.CHAR:
      return stringHeapBytes(typed.value);
    case PropertyKind.BYTES:
      return BYTES_VALUE_MEMORY_OVERHEAD + typed.value.length;
    default:
      return 0;
  }
}

/** Reads what writeTypedValue wrote in `form`; an unknown type byte is a ProtocolError. */
export function readTypedValue(reader: BufferReader, form: ValueForm): TypedValue {
  const kind = reader.readByte();
  switch (kind) {
    case PropertyKind.NULL:
      return { kind, value: null };
    case PropertyKind.BOOLEAN:
      return { kind, value: reader.readBoolean() };
    case PropertyKind.BYTE:
      return { kind, value: (reader.readByte() << 24) >> 24 };
    case PropertyKind.SHORT:
      return { kind, value: reader.readShort() };
    case PropertyKind.INT:
      return { kind, value: reader.readInt() };
    case PropertyKind.LONG:
      return { kind, value: reader.readInt64() };
    case PropertyKind.FLOAT:
      return { kind, value: reader.readFloat() };
    case PropertyKind.DOUBLE:
      return { kind, value: reader.readDouble() };
    case PropertyKind.STRING:
      return form === 'stream'
        ? streamString(reader.readNullableHqString())
        : { kind, value: reader.readSimpleString() };
    case PropertyKind.CHAR:
      return { kind, value: String.fromCharCode(reader.readShort() & 0xffff) };
    case PropertyKind.BYTES:
      return { kind, value: reader.readBytes() };
    default:
      throw new ProtocolError(`unknown property type byte ${kind}`);
  }
}

/** A stream's STRING field that is null is Java's null field. */
function streamString(value: string | null): TypedValue {
  return value === null ? { kind: PropertyKind.NULL, value: null } : { kind: PropertyKind.STRING, value };
}
