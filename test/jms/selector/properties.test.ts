import fc from 'fast-check';
import type { CoreMessage } from '../../../src/core/protocol/core-message';
import { PropertyKind, type TypedValue } from '../../../src/core/protocol/typed-properties';
import { InvalidSelectorException } from '../../../src/jms/exceptions';
import { parseSelector } from '../../../src/jms/selector';
import { coreMessage, typedValue } from '../../core/protocol/arbitraries';

/**
 * Property-based tests: random valid selectors over random messages. Whatever a message holds
 * (any property kind, NaN, infinities, -0, longs beyond 2^53, a fractional "int" built in
 * process), match() returns a boolean and never throws, and the three-valued logic holds.
 */

const PROPERTY_NAMES = ['a', 'b', 'c', 's', 't', 'flag', 'JMSType', 'JMSCorrelationID', '_HQ_GROUP_ID'];
const IDENTIFIERS = [
  ...PROPERTY_NAMES.filter((n) => n !== '_HQ_GROUP_ID'),
  'missing',
  'JMSPriority',
  'JMSMessageID',
  'JMSDeliveryMode',
  'JMSTimestamp',
  'JMSExpiration',
  'JMSXGroupID',
  'JMSXDeliveryCount',
];

const oddValue = fc.constantFrom<TypedValue>(
  { kind: PropertyKind.DOUBLE, value: Number.NaN },
  { kind: PropertyKind.DOUBLE, value: -Infinity },
  { kind: PropertyKind.DOUBLE, value: -0 },
  { kind: PropertyKind.FLOAT, value: Infinity },
  { kind: PropertyKind.LONG, value: 2 ** 62 },
  { kind: PropertyKind.LONG, value: -(2 ** 63) },
  { kind: PropertyKind.LONG, value: Number.MAX_SAFE_INTEGER },
  { kind: PropertyKind.INT, value: 1.5 },
  { kind: PropertyKind.INT, value: Number.NaN },
  { kind: PropertyKind.INT, value: 0 },
  { kind: PropertyKind.STRING, value: '' },
  { kind: PropertyKind.STRING, value: 'a%b_c' },
  { kind: PropertyKind.BOOLEAN, value: true },
);

const message: fc.Arbitrary<CoreMessage> = fc
  .tuple(
    coreMessage,
    fc.array(fc.tuple(fc.constantFrom(...PROPERTY_NAMES), fc.oneof(typedValue, oddValue)), { maxLength: 10 }),
  )
  .map(([m, entries]) => {
    for (const [name, value] of entries) m.properties.set(name, value);
    return m;
  });

const identifier = fc.constantFrom(...IDENTIFIERS);
const stringLiteral = fc
  .oneof(fc.string({ maxLength: 8 }), fc.constantFrom('', "'", 'a%', '_', '😀'))
  .map((s) => `'${s.replace(/'/g, "''")}'`);
const numberLiteral = fc.oneof(
  fc.integer().map(String),
  // toExponential keeps large integral doubles approximate: 9.2e18 as an integer would overflow a long.
  fc.double({ noNaN: true, noDefaultInfinity: true, min: 0 }).map((d) => d.toExponential()),
  fc.constantFrom(
    '0x1F',
    '017',
    '57L',
    '1.5f',
    '9223372036854775807',
    '-9223372036854775808',
    '.5',
    '7.',
    '1E10',
    '0',
    '0.0',
  ),
);
const likePattern = fc
  .array(fc.constantFrom('a', 'b', '%', '_', '!', '😀'), { maxLength: 8 })
  .map((chars) => `'${chars.join('')}'`);

const grammar = fc.letrec<{ num: string; str: string; bool: string }>((tie) => ({
  num: fc.oneof(
    { depthSize: 'small' },
    numberLiteral,
    identifier,
    fc
      .tuple(tie('num'), fc.constantFrom('+', '-', '*', '/'), tie('num'))
      .map(([left, operator, right]) => `(${left} ${operator} ${right})`),
    tie('num').map((operand) => `-(${operand})`),
    tie('num').map((operand) => `+${operand}`),
  ),
  str: fc.oneof(stringLiteral, identifier),
  bool: fc.oneof(
    { depthSize: 'small' },
    identifier,
    fc.constantFrom('TRUE', 'FALSE', 'true'),
    fc
      .tuple(tie('num'), fc.constantFrom('=', '<>', '<', '<=', '>', '>='), tie('num'))
      .map(([l, op, r]) => `${l} ${op} ${r}`),
    fc.tuple(tie('str'), fc.constantFrom('=', '<>'), tie('str')).map(([l, op, r]) => `${l} ${op} ${r}`),
    fc.tuple(tie('bool'), fc.constantFrom('=', '<>'), tie('bool')).map(([l, op, r]) => `(${l}) ${op} (${r})`),
    fc
      .tuple(tie('num'), fc.boolean(), tie('num'), tie('num'))
      .map(([v, not, lo, hi]) => `${v} ${not ? 'NOT ' : ''}BETWEEN ${lo} AND ${hi}`),
    fc
      .tuple(identifier, fc.boolean(), fc.array(stringLiteral, { minLength: 1, maxLength: 4 }))
      .map(([id, not, values]) => `${id} ${not ? 'NOT ' : ''}IN (${values.join(', ')})`),
    fc
      .tuple(identifier, fc.boolean(), likePattern, fc.constantFrom('', " ESCAPE '!'", " ESCAPE '%'"))
      .map(([id, not, pattern, escape]) => `${id} ${not ? 'NOT ' : ''}LIKE ${pattern}${escape}`),
    fc.tuple(identifier, fc.boolean()).map(([id, not]) => `${id} IS ${not ? 'NOT ' : ''}NULL`),
    tie('bool').map((operand) => `NOT (${operand})`),
    fc.tuple(tie('bool'), tie('bool')).map(([l, r]) => `(${l}) AND (${r})`),
    fc.tuple(tie('bool'), tie('bool')).map(([l, r]) => `(${l}) OR (${r})`),
  ),
}));

describe('selector properties', () => {
  it('random valid selectors parse, and match() never throws on random messages', () => {
    fc.assert(
      fc.property(grammar.bool, fc.array(message, { minLength: 1, maxLength: 3 }), (selector, messages) => {
        const parsed = parseSelector(selector);
        for (const m of messages) expect(typeof parsed.match(m)).toBe('boolean');
      }),
      { numRuns: 600 },
    );
  });

  it('a selector and its negation never both select a message; (S) and NOT NOT S agree with S', () => {
    fc.assert(
      fc.property(grammar.bool, message, (selector, m) => {
        const selected = parseSelector(selector).match(m);
        const negation = parseSelector(`NOT (${selector})`).match(m);
        expect(selected && negation).toBe(false);
        expect(parseSelector(`(${selector})`).match(m)).toBe(selected);
        expect(parseSelector(`NOT NOT (${selector})`).match(m)).toBe(selected);
        // S OR NOT S is TRUE exactly when S is not UNKNOWN.
        expect(parseSelector(`(${selector}) OR NOT (${selector})`).match(m)).toBe(selected || negation);
      }),
      { numRuns: 400 },
    );
  });

  it('arbitrary text either parses or throws InvalidSelectorException, nothing else', () => {
    const vocabulary = fc.constantFrom(
      ...['NOT', 'AND', 'OR', 'BETWEEN', 'LIKE', 'IN', 'IS', 'ESCAPE', 'NULL', 'TRUE', 'FALSE'],
      ...['=', '<>', '<', '<=', '>', '>=', '+', '-', '*', '/', '(', ')', ','],
      ...['a', 'flag', 'JMSPriority', "'x'", "'%'", '1', '2.5', '0x10', '1E3', "'", '.', '"', '!', ''],
    );
    const soup = fc.array(vocabulary, { maxLength: 14 }).map((tokens) => tokens.join(' '));
    fc.assert(
      fc.property(fc.oneof(soup, fc.string({ unit: 'binary', maxLength: 40 })), message, (text, m) => {
        let parsed;
        try {
          parsed = parseSelector(text);
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidSelectorException);
          return;
        }
        expect(typeof parsed.match(m)).toBe('boolean');
      }),
      { numRuns: 3000 },
    );
  });
});
