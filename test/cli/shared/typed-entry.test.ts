import { InvalidArgumentError } from 'commander';
import { PropertyKind } from '../../../src/core/protocol';
import { collectTypedEntries, parseTypedEntry } from '../../../src/cli/shared/typed-entry';

describe('parseTypedEntry (--property and --map-entry values)', () => {
  test.each([
    ['a=x', 'a', { kind: PropertyKind.STRING, value: 'x' }],
    ['a=x=y', 'a', { kind: PropertyKind.STRING, value: 'x=y' }],
    ['a=', 'a', { kind: PropertyKind.STRING, value: '' }],
    ['a:string=7', 'a', { kind: PropertyKind.STRING, value: '7' }],
    ['n:int=-7', 'n', { kind: PropertyKind.INT, value: -7 }],
    ['n:byte=127', 'n', { kind: PropertyKind.BYTE, value: 127 }],
    ['n:short=-32768', 'n', { kind: PropertyKind.SHORT, value: -32768 }],
    ['n:long=42', 'n', { kind: PropertyKind.LONG, value: 42 }],
    ['n:long=9223372036854775807', 'n', { kind: PropertyKind.LONG, value: 9223372036854775807n }],
    ['d:double=2.5', 'd', { kind: PropertyKind.DOUBLE, value: 2.5 }],
    ['f:float=1.5', 'f', { kind: PropertyKind.FLOAT, value: 1.5 }],
    ['b:boolean=false', 'b', { kind: PropertyKind.BOOLEAN, value: false }],
  ])('%s', (spec, name, typed) => {
    expect(parseTypedEntry(spec)).toEqual({ name, typed });
  });

  test('a float is rounded to a float', () => {
    expect(parseTypedEntry('f:float=1.1').typed.value).toBe(Math.fround(1.1));
  });

  test.each([
    ['novalue', 'It must be name=value or name:TYPE=value.'],
    ['=x', 'It must be name=value or name:TYPE=value.'],
    ['n:int=x', 'It must be an integer from -2147483648 to 2147483647 (an int).'],
    ['n:int=1.5', 'It must be an integer from -2147483648 to 2147483647 (an int).'],
    ['n:byte=128', 'It must be an integer from -128 to 127 (a byte).'],
    ['n:long=9223372036854775808', expect.stringContaining('(a long)')],
    ['d:double=abc', 'It must be a number (a double).'],
    ['b:boolean=yes', 'It must be true or false (a boolean).'],
    ['n:integer=1', expect.stringMatching(/^Unknown type 'integer': use one of string, boolean/)],
  ])('%s is refused', (spec, message) => {
    expect(() => parseTypedEntry(spec)).toThrow(InvalidArgumentError);
    expect(() => parseTypedEntry(spec)).toThrow(expect.objectContaining({ message }));
  });

  test('collectTypedEntries keeps each repetition, in order', () => {
    expect(collectTypedEntries('b=2', collectTypedEntries('a=1')).map((entry) => entry.name)).toEqual([
      'a',
      'b',
    ]);
  });
});
