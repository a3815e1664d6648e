import { invalidArgType, outOfRange } from '../../lang/argument-errors';
import { PropertyKind, type TypedValue } from '../../core/protocol/typed-properties';
import { MessageFormatException, NumberFormatException } from '../exceptions';

/**
 * The JMS 1.1 §3.5.4 conversion table, shared by properties, MapMessage entries and StreamMessage
 * fields. Values keep their Java type as a core PropertyKind; `what` names the value in errors
 * ("property 'x'", "map entry 'x'", "stream field 3").
 *
 * | stored \ read | boolean | byte | short | int | long | float | double | string | char | bytes |
 * | boolean       | ✓       |      |       |     |      |       |        | ✓      |      |       |
 * | byte          |         | ✓    | ✓     | ✓   | ✓    |       |        | ✓      |      |       |
 * | short         |         |      | ✓     | ✓   | ✓    |       |        | ✓      |      |       |
 * | int           |         |      |       | ✓   | ✓    |       |        | ✓      |      |       |
 * | long          |         |      |       |     | ✓    |       |        | ✓      |      |       |
 * | float         |         |      |       |     |      | ✓     | ✓      | ✓      |      |       |
 * | double        |         |      |       |     |      |       | ✓      | ✓      |      |       |
 * | string        | ✓ (1)   | ✓ (2)| ✓ (2) | ✓(2)| ✓ (2)| ✓ (2) | ✓ (2)  | ✓      |      |       |
 * | char          |         |      |       |     |      |       |        | ✓      | ✓    |       |
 * | bytes         |         |      |       |     |      |       |        |        |      | ✓     |
 *
 * Blank cells throw MessageFormatException. (1) Java's Boolean.valueOf: 'true' in any case is
 * true, anything else false. (2) Java's parse rules; a string that does not parse throws
 * NumberFormatException. A missing or null value reads as false (boolean), null (string, bytes,
 * object), NumberFormatException (the six number types: the contract makes float and double
 * agree with the integers) and TypeError (char: Java's NullPointerException).
 *
 * Numbers read as strings use JavaScript's formatting (String(127) is '127'); a float prints the
 * shortest decimal that reads back as the same float (3.14159f is '3.14159').
 *
 * A long is a number within the safe-integer range and a bigint beyond it (a Java peer's
 * Long.MAX_VALUE): reading such a long as a number is a MessageFormatException naming the value,
 * reading it as an object or string gives it exactly, and setters take a bigint within Java's long
 * range, so that a received message can be copied and sent on unchanged.
 */

const KIND_NAMES = new Map<number, string>([
  [PropertyKind.NULL, 'null'],
  [PropertyKind.BOOLEAN, 'boolean'],
  [PropertyKind.BYTE, 'byte'],
  [PropertyKind.BYTES, 'bytes'],
  [PropertyKind.SHORT, 'short'],
  [PropertyKind.INT, 'int'],
  [PropertyKind.LONG, 'long'],
  [PropertyKind.FLOAT, 'float'],
  [PropertyKind.DOUBLE, 'double'],
  [PropertyKind.STRING, 'string'],
  [PropertyKind.CHAR, 'char'],
]);

export function kindName(kind: number): string {
  return KIND_NAMES.get(kind) ?? `type ${kind}`;
}

const BYTE = { name: 'byte', min: -0x80, max: 0x7f } as const;
const SHORT = { name: 'short', min: -0x8000, max: 0x7fff } as const;
const INT = { name: 'int', min: -0x8000_0000, max: 0x7fff_ffff } as const;
type IntegerRange = typeof BYTE | typeof SHORT | typeof INT;

// ───────────── reading ─────────────

export function readBooleanValue(typed: TypedValue | undefined, what: string): boolean {
  if (typed === undefined) return false;
  switch (typed.kind) {
    case PropertyKind.BOOLEAN:
      return typed.value;
    case PropertyKind.STRING:
      return typed.value.toLowerCase() === 'true';
    case PropertyKind.NULL:
      return false;
    default:
      throw illegal(typed, 'boolean', what);
  }
}

export function readByteValue(typed: TypedValue | undefined, what: string): number {
  if (typed?.kind === PropertyKind.BYTE) return typed.value;
  return readFromString(typed, BYTE.name, what, (s) => parseInteger(s, BYTE));
}

export function readShortValue(typed: TypedValue | undefined, what: string): number {
  if (typed?.kind === PropertyKind.BYTE || typed?.kind === PropertyKind.SHORT) return typed.value;
  return readFromString(typed, SHORT.name, what, (s) => parseInteger(s, SHORT));
}

export function readIntValue(typed: TypedValue | undefined, what: string): number {
  switch (typed?.kind) {
    case PropertyKind.BYTE:
    case PropertyKind.SHORT:
    case PropertyKind.INT:
      return typed.value;
    default:
      return readFromString(typed, INT.name, what, (s) => parseInteger(s, INT));
  }
}

export function readLongValue(typed: TypedValue | undefined, what: string): number {
  switch (typed?.kind) {
    case PropertyKind.BYTE:
    case PropertyKind.SHORT:
    case PropertyKind.INT:
      return typed.value;
    case PropertyKind.LONG:
      return safeLong(typed.value, what);
    default:
      return readFromString(typed, 'long', what, (s) => parseLong(s, what));
  }
}

export function readFloatValue(typed: TypedValue | undefined, what: string): number {
  if (typed?.kind === PropertyKind.FLOAT) return typed.value;
  return readFromString(typed, 'float', what, (s) => Math.fround(parseDecimal(s)));
}

export function readDoubleValue(typed: TypedValue | undefined, what: string): number {
  if (typed?.kind === PropertyKind.FLOAT || typed?.kind === PropertyKind.DOUBLE) return typed.value;
  return readFromString(typed, 'double', what, parseDecimal);
}

export function readStringValue(typed: TypedValue | undefined, what: string): string | null {
  if (typed === undefined) return null;
  switch (typed.kind) {
    case PropertyKind.NULL:
      return null;
    case PropertyKind.BOOLEAN:
      return String(typed.value);
    case PropertyKind.FLOAT:
      return formatFloat(typed.value);
    case PropertyKind.BYTES:
      throw illegal(typed, 'string', what);
    default:
      return String(typed.value);
  }
}

export function readCharValue(typed: TypedValue | undefined, what: string): string {
  if (typed === undefined || typed.kind === PropertyKind.NULL) {
    throw invalidArgType(`${what} is null and cannot be read as char`);
  }
  if (typed.kind === PropertyKind.CHAR) return typed.value;
  throw illegal(typed, 'char', what);
}

/** A copy: the caller may change it without touching the message. */
export function readBytesValue(typed: TypedValue | undefined, what: string): Buffer | null {
  if (typed === undefined || typed.kind === PropertyKind.NULL) return null;
  if (typed.kind === PropertyKind.BYTES) return Buffer.from(typed.value);
  throw illegal(typed, 'bytes', what);
}

/** A long as a number, or a MessageFormatException naming a value beyond the safe-integer range. */
function safeLong(value: number | bigint, what: string): number {
  if (typeof value === 'number') return value;
  throw new MessageFormatException(
    `${what} = ${value} is a long outside JavaScript's safe-integer range; read it as an object to get it as a bigint`,
  );
}

/** The value as JavaScript holds it: boolean, number (a long beyond ±2^53 as a bigint), string, a copy of bytes, or null. */
export function readObjectValue(typed: TypedValue | undefined): unknown {
  if (typed === undefined) return null;
  return typed.kind === PropertyKind.BYTES ? Buffer.from(typed.value) : typed.value;
}

function readFromString<T>(
  typed: TypedValue | undefined,
  target: string,
  what: string,
  parse: (text: string) => T,
): T {
  if (typed === undefined)
    throw new NumberFormatException(`${what} does not exist and cannot be read as ${target}`);
  if (typed.kind === PropertyKind.NULL)
    throw new NumberFormatException(`${what} is null and cannot be read as ${target}`);
  if (typed.kind === PropertyKind.STRING) return parse(typed.value);
  throw illegal(typed, target, what);
}

function illegal(typed: TypedValue, target: string, what: string): MessageFormatException {
  return new MessageFormatException(`${what} of type ${kindName(typed.kind)} cannot be read as ${target}`);
}

// ───────────── Java's number parsing and formatting ─────────────

const INTEGER_SYNTAX = /^[+-]?[0-9]+$/;
/** Java's Float.valueOf / Double.valueOf decimal syntax, after trimming, with its optional suffix. */
const DECIMAL_SYNTAX = /^[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?)$/;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

function parseInteger(text: string, range: IntegerRange): number {
  if (!INTEGER_SYNTAX.test(text)) throw new NumberFormatException(`For input string: "${text}"`);
  const value = Number(text);
  if (value < range.min || value > range.max) {
    throw new NumberFormatException(`Value out of range for ${range.name}. Value:"${text}"`);
  }
  return value === 0 ? 0 : value;
}

function parseLong(text: string, what: string): number {
  if (!INTEGER_SYNTAX.test(text)) throw new NumberFormatException(`For input string: "${text}"`);
  const big = BigInt(text);
  if (big < LONG_MIN || big > LONG_MAX) throw new NumberFormatException(`For input string: "${text}"`);
  return safeLong(normalizeLong(big), what);
}

function parseDecimal(text: string): number {
  const trimmed = javaTrim(text);
  if (!DECIMAL_SYNTAX.test(trimmed)) throw new NumberFormatException(`For input string: "${text}"`);
  const negative = trimmed.startsWith('-');
  const unsigned = trimmed.replace(/^[+-]/, '');
  if (unsigned === 'NaN') return NaN;
  if (unsigned === 'Infinity') return negative ? -Infinity : Infinity;
  return Number(trimmed.replace(/[fFdD]$/, ''));
}

/** Java's String.trim: strips characters up to U+0020 at both ends. */
function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}

/** The shortest decimal that reads back as the same 32-bit float, in JavaScript's notation. */
export function formatFloat(value: number): string {
  if (!Number.isFinite(value) || value === 0) return String(value);
  for (let digits = 1; digits < 9; digits++) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === value) return String(candidate);
  }
  return String(Number(value.toPrecision(9)));
}

// ───────────── writing: checks that a JavaScript value fits the declared Java type ─────────────

export function toBoolean(value: unknown, what: string): boolean {
  if (typeof value !== 'boolean') throw notA(value, 'boolean', what);
  return value;
}

export function toByte(value: unknown, what: string): number {
  return checkInteger(value, BYTE, what);
}

export function toShort(value: unknown, what: string): number {
  return checkInteger(value, SHORT, what);
}

export function toInt(value: unknown, what: string): number {
  return checkInteger(value, INT, what);
}

/** A safe-integer number, or a bigint within Java's long range (a number if it is a safe integer). */
export function toLong(value: unknown, what: string): number | bigint {
  if (typeof value === 'bigint') {
    if (value < LONG_MIN || value > LONG_MAX) {
      throw new MessageFormatException(`${what}: ${describe(value)} is outside the range of a long`);
    }
    return normalizeLong(value);
  }
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new MessageFormatException(
      `${what}: ${describe(value)} is not a long (a safe integer, or a bigint within the range of a long)`,
    );
  }
  return value === 0 ? 0 : value;
}

/** How a long is held: a number when that is exact, else the bigint. */
function normalizeLong(value: bigint): number | bigint {
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : value;
}

/** Rounded to 32-bit precision, as Java's float keeps it. */
export function toFloat(value: unknown, what: string): number {
  if (typeof value !== 'number') throw notA(value, 'float', what);
  return Math.fround(value);
}

export function toDouble(value: unknown, what: string): number {
  if (typeof value !== 'number') throw notA(value, 'double', what);
  return value;
}

/** One UTF-16 code unit, as a Java char. */
export function toChar(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length !== 1) throw notA(value, 'char (a string of length 1)', what);
  return value;
}

export function booleanValue(value: unknown, what: string): TypedValue {
  return { kind: PropertyKind.BOOLEAN, value: toBoolean(value, what) };
}

export function byteValue(value: unknown, what: string): TypedValue {
  return { kind: PropertyKind.BYTE, value: toByte(value, what) };
}

export function shortValue(value: unknown, what: string): TypedValue {
  return { kind: PropertyKind.SHORT, value: toShort(value, what) };
}

export function intValue(value: unknown, what: string): TypedValue {
  return { kind: PropertyKind.INT, value: toInt(value, what) };
}

export function longValue(value: unknown, what: string): TypedValue {
  return { kind: PropertyKind.LONG, value: toLong(value, what) };
}

export function floatValue(value: unknown, what: string): TypedValue {
  return { kind: PropertyKind.FLOAT, value: toFloat(value, what) };
}

export function doubleValue(value: unknown, what: string): TypedValue {
  return { kind: PropertyKind.DOUBLE, value: toDouble(value, what) };
}

export function stringValue(value: unknown, what: string): TypedValue {
  if (value === null) return { kind: PropertyKind.NULL, value: null };
  if (typeof value !== 'string') throw notA(value, 'string', what);
  return { kind: PropertyKind.STRING, value };
}

export function charValue(value: unknown, what: string): TypedValue {
  return { kind: PropertyKind.CHAR, value: toChar(value, what) };
}

/** A copy: the caller may change its array afterwards. */
export function bytesValue(value: unknown, what: string, offset?: number, length?: number): TypedValue {
  if (value === null) return { kind: PropertyKind.NULL, value: null };
  if (!(value instanceof Uint8Array)) throw notA(value, 'byte array', what);
  const [start, end] = sliceBounds(value, offset, length);
  return { kind: PropertyKind.BYTES, value: Buffer.from(value.subarray(start, end)) };
}

/**
 * The typed value setObject-style calls store. JavaScript has one number type, so a number is
 * an int when it is a 32-bit integer, a long when it is another safe integer, and a double
 * otherwise (as a Java literal would be typed). Bytes only where the message kind allows them.
 */
export function objectValue(value: unknown, what: string, allowBytes: boolean): TypedValue {
  if (value === null) return { kind: PropertyKind.NULL, value: null };
  switch (typeof value) {
    case 'boolean':
      return { kind: PropertyKind.BOOLEAN, value };
    case 'string':
      return { kind: PropertyKind.STRING, value };
    case 'number':
      return numberValue(value);
    case 'bigint':
      return { kind: PropertyKind.LONG, value: toLong(value, what) };
    default:
      if (allowBytes && value instanceof Uint8Array) return bytesValue(value, what);
      throw new MessageFormatException(
        `${what}: ${describe(value)} is not a valid value (boolean, number, bigint, string${allowBytes ? ', Uint8Array' : ''} or null)`,
      );
  }
}

export function numberValue(value: number): TypedValue {
  if (Number.isInteger(value) && value >= INT.min && value <= INT.max) {
    return { kind: PropertyKind.INT, value: value === 0 ? 0 : value };
  }
  if (Number.isSafeInteger(value)) return { kind: PropertyKind.LONG, value };
  return { kind: PropertyKind.DOUBLE, value };
}

/** Start and end of `value[offset, offset + length)`; out of bounds is a RangeError, as in Java. */
export function sliceBounds(value: Uint8Array, offset = 0, length = value.length - offset): [number, number] {
  if (
    !Number.isInteger(offset) ||
    !Number.isInteger(length) ||
    offset < 0 ||
    length < 0 ||
    offset + length > value.length
  ) {
    throw outOfRange(`offset ${offset} and length ${length} are outside an array of ${value.length} bytes`);
  }
  return [offset, offset + length];
}

function checkInteger(value: unknown, range: IntegerRange, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max) {
    throw new MessageFormatException(
      `${what}: ${describe(value)} is not a ${range.name} (an integer in ${range.min}..${range.max})`,
    );
  }
  return value === 0 ? 0 : value;
}

function notA(value: unknown, type: string, what: string): MessageFormatException {
  return new MessageFormatException(`${what}: ${describe(value)} is not a ${type}`);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'object' && value !== null)
    return `a ${value.constructor?.name ?? 'null-prototype object'}`;
  return String(value);
}
