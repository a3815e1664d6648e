import { CoreMessage } from '../../../src/core/protocol/core-message';
import { PropertyKind, type TypedValue } from '../../../src/core/protocol/typed-properties';
import { InvalidSelectorException } from '../../../src/jms/exceptions';
import { parseSelector } from '../../../src/jms/selector';

/** Shared by the selector corpora: messages from plain objects and the three-valued reading. */

export const int = (value: number): TypedValue => ({ kind: PropertyKind.INT, value });
export const long = (value: number): TypedValue => ({ kind: PropertyKind.LONG, value });
export const short = (value: number): TypedValue => ({ kind: PropertyKind.SHORT, value });
export const byte = (value: number): TypedValue => ({ kind: PropertyKind.BYTE, value });
export const float = (value: number): TypedValue => ({ kind: PropertyKind.FLOAT, value: Math.fround(value) });
export const double = (value: number): TypedValue => ({ kind: PropertyKind.DOUBLE, value });
export const char = (value: string): TypedValue => ({ kind: PropertyKind.CHAR, value });
export const bytes = (...value: number[]): TypedValue => ({
  kind: PropertyKind.BYTES,
  value: Buffer.from(value),
});
export const NULL: TypedValue = { kind: PropertyKind.NULL, value: null };

/** A property value: strings and booleans as themselves, numbers as ints (or doubles if fractional). */
export type Value = TypedValue | string | boolean | number;

export type Headers = Partial<
  Pick<CoreMessage, 'durable' | 'priority' | 'timestamp' | 'expiration' | 'userId'>
>;

export function message(
  properties: Readonly<Record<string, Value>> = {},
  headers: Headers = {},
): CoreMessage {
  const m = Object.assign(new CoreMessage(), headers);
  for (const [name, value] of Object.entries(properties)) m.properties.set(name, typed(value));
  return m;
}

function typed(value: Value): TypedValue {
  if (typeof value === 'string') return { kind: PropertyKind.STRING, value };
  if (typeof value === 'boolean') return { kind: PropertyKind.BOOLEAN, value };
  if (typeof value === 'number') return Number.isInteger(value) ? int(value) : double(value);
  return value;
}

export function matches(selector: string, m: CoreMessage): boolean {
  return parseSelector(selector).match(m);
}

export type Truth = 'TRUE' | 'FALSE' | 'UNKNOWN';

/**
 * The three-valued result of a boolean selector, read through selection alone: TRUE selects S,
 * FALSE selects NOT (S), UNKNOWN selects neither.
 */
export function truthOf(selector: string, m: CoreMessage): Truth {
  const selected = matches(selector, m);
  const negationSelected = matches(`NOT (${selector})`, m);
  if (selected && negationSelected) throw new Error(`both ${selector} and its negation select the message`);
  return selected ? 'TRUE' : negationSelected ? 'FALSE' : 'UNKNOWN';
}

/** The InvalidSelectorException parseSelector throws, or a failure if it does not throw one. */
export function rejection(selector: string): InvalidSelectorException {
  try {
    parseSelector(selector);
  } catch (error) {
    if (error instanceof InvalidSelectorException) return error;
    throw new Error(
      `expected InvalidSelectorException for ${JSON.stringify(selector)}, got ${String(error)}`,
    );
  }
  throw new Error(`expected InvalidSelectorException for ${JSON.stringify(selector)}, but it parsed`);
}
