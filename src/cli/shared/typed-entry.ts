import { InvalidArgumentError } from 'commander';
import { PropertyKind, type TypedValue } from '../../core/protocol';

/** A name and a typed value from the command line: a property, or a map message's entry. */
export interface TypedEntry {
  readonly name: string;
  readonly typed: TypedValue;
}

export const TYPED_ENTRY_TYPES = ['string', 'boolean', 'byte', 'short', 'int', 'long', 'float', 'double'];

export const TYPED_ENTRY_HELP = `name=value (a string) or name:TYPE=value, TYPE one of ${TYPED_ENTRY_TYPES.join(', ')}; repeatable`;

const INTEGER_RANGES: Record<string, readonly [bigint, bigint]> = {
  byte: [-(2n ** 7n), 2n ** 7n - 1n],
  short: [-(2n ** 15n), 2n ** 15n - 1n],
  int: [-(2n ** 31n), 2n ** 31n - 1n],
  long: [-(2n ** 63n), 2n ** 63n - 1n],
};

/**
 * `name=value` or `name:type=value`. Throws InvalidArgumentError, which commander prints as one
 * line naming the option and the value.
 */
export function parseTypedEntry(spec: string): TypedEntry {
  const match = /^([^=:]+)(?::([^=]*))?=(.*)$/s.exec(spec);
  if (match === null) throw new InvalidArgumentError('It must be name=value or name:TYPE=value.');
  const [, name = '', type = 'string', text = ''] = match;
  return { name, typed: typedValue(type, text) };
}

/** A commander parser for a repeatable option: each value parsed and appended to the previous ones. */
export function collectTypedEntries(spec: string, previous: readonly TypedEntry[] = []): TypedEntry[] {
  return [...previous, parseTypedEntry(spec)];
}

function typedValue(type: string, text: string): TypedValue {
  switch (type) {
    case 'string':
      return { kind: PropertyKind.STRING, value: text };
    case 'boolean':
      if (text !== 'true' && text !== 'false')
        throw new InvalidArgumentError('It must be true or false (a boolean).');
      return { kind: PropertyKind.BOOLEAN, value: text === 'true' };
    case 'byte':
      return { kind: PropertyKind.BYTE, value: Number(integer(type, text)) };
    case 'short':
      return { kind: PropertyKind.SHORT, value: Number(integer(type, text)) };
    case 'int':
      return { kind: PropertyKind.INT, value: Number(integer(type, text)) };
    case 'long': {
      const value = integer(type, text);
      // A number where it is exact, as the typed values received carry them.
      const exact = value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER);
      return { kind: PropertyKind.LONG, value: exact ? Number(value) : value };
    }
    case 'float':
      return { kind: PropertyKind.FLOAT, value: Math.fround(decimal(type, text)) };
    case 'double':
      return { kind: PropertyKind.DOUBLE, value: decimal(type, text) };
    default:
      throw new InvalidArgumentError(`Unknown type '${type}': use one of ${TYPED_ENTRY_TYPES.join(', ')}.`);
  }
}

function integer(type: string, text: string): bigint {
  const [min, max] = INTEGER_RANGES[type] ?? [0n, 0n];
  const value = /^[+-]?\d+$/.test(text.trim()) ? BigInt(text.trim()) : null;
  if (value === null || value < min || value > max) {
    throw new InvalidArgumentError(
      `It must be an integer from ${min} to ${max} (${type === 'int' ? 'an' : 'a'} ${type}).`,
    );
  }
  return value;
}

function decimal(type: string, text: string): number {
  const value = Number(text.trim());
  if (text.trim() === '' || Number.isNaN(value))
    throw new InvalidArgumentError(`It must be a number (a ${type}).`);
  return value;
}
