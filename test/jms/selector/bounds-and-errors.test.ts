import { HornetQException } from '../../../src/core/protocol/hornetq-exception';
import { InvalidSelectorException, JMSException } from '../../../src/jms/exceptions';
import {
  MAX_SELECTOR_DEPTH,
  MAX_SELECTOR_LENGTH,
  parseSelector,
  selectorFilterFactory,
  type Selector,
} from '../../../src/jms/selector';
import type { Filter } from '../../../src/server/postoffice/filter';
import { matches, message, rejection } from './support';

/** jms-conformance.md §4 K and security.md: bounded input, and errors that say where. */
describe('bounds', () => {
  it('chose 8192 characters and 100 levels', () => {
    expect(MAX_SELECTOR_LENGTH).toBe(8192);
    expect(MAX_SELECTOR_DEPTH).toBe(100);
  });

  it('accepts a selector of exactly the maximum length and rejects one character more', () => {
    const prefix = "s = '";
    const atLimit = prefix + 'x'.repeat(MAX_SELECTOR_LENGTH - prefix.length - 1) + "'";
    expect(atLimit).toHaveLength(MAX_SELECTOR_LENGTH);
    expect(parseSelector(atLimit).match(message({ s: 'x'.repeat(atLimit.length - 6) }))).toBe(true);
    const error = rejection(atLimit + ' ');
    expect(error.message).toContain(`${MAX_SELECTOR_LENGTH + 1} characters long`);
    expect(error.message).toContain(`at most ${MAX_SELECTOR_LENGTH}`);
  });

  it('rejects a megabyte of parentheses by length, without parsing it', () => {
    const huge = '('.repeat(1_000_000) + 'a' + ')'.repeat(1_000_000);
    expect(rejection(huge).message).toContain('characters long');
  });

  const nest = {
    parentheses: (n: number) => '('.repeat(n) + 'a = 1' + ')'.repeat(n),
    NOT: (n: number) => 'NOT '.repeat(n) + 'flag',
    'unary minus': (n: number) => '-'.repeat(n) + 'a = 1',
    mixed: (n: number) => '(NOT '.repeat(n / 2) + 'flag' + ')'.repeat(n / 2),
  };
  describe.each(Object.entries(nest))('nesting by %s', (_kind, build) => {
    it(`accepts ${MAX_SELECTOR_DEPTH} levels`, () => {
      expect(() => parseSelector(build(MAX_SELECTOR_DEPTH))).not.toThrow();
    });
    it(`rejects ${MAX_SELECTOR_DEPTH + 2} levels with InvalidSelectorException`, () => {
      expect(rejection(build(MAX_SELECTOR_DEPTH + 2)).message).toContain(
        `nesting deeper than ${MAX_SELECTOR_DEPTH} levels`,
      );
    });
    it('rejects deep nesting within the length limit without overflowing the stack', () => {
      const selector = build(2000);
      expect(selector.length).toBeLessThanOrEqual(MAX_SELECTOR_LENGTH);
      expect(rejection(selector).message).toContain('nesting deeper');
    });
  });

  it('evaluates the deepest accepted nesting', () => {
    const m = message({ a: 1, flag: true });
    expect(parseSelector(nest.parentheses(MAX_SELECTOR_DEPTH)).match(m)).toBe(true);
    expect(parseSelector(nest.NOT(MAX_SELECTOR_DEPTH)).match(m)).toBe(true);
    expect(parseSelector(nest.NOT(MAX_SELECTOR_DEPTH - 1)).match(m)).toBe(false);
    // 100 minus signs cancel out.
    expect(parseSelector(nest['unary minus'](MAX_SELECTOR_DEPTH)).match(m)).toBe(true);
  });

  it('long flat chains are not nesting: 700 ORs and 4000 additions parse and evaluate', () => {
    const ors = Array.from({ length: 700 }, (_, i) => `a = ${i}`).join(' OR ');
    expect(ors.length).toBeLessThanOrEqual(MAX_SELECTOR_LENGTH);
    expect(matches(ors, message({ a: 699 }))).toBe(true);
    expect(matches(ors, message({ a: 700 }))).toBe(false);
    const sum = Array.from({ length: 4000 }, () => '1').join('+') + ' = 4000';
    expect(sum.length).toBeLessThanOrEqual(MAX_SELECTOR_LENGTH);
    expect(matches(sum, message())).toBe(true);
  });

  it('an IN list of 500 values', () => {
    const values = Array.from({ length: 500 }, (_, i) => `'v${i}'`).join(',');
    expect(matches(`s IN (${values})`, message({ s: 'v499' }))).toBe(true);
    expect(matches(`s IN (${values})`, message({ s: 'v500' }))).toBe(false);
  });
});

describe('errors say where and what was expected', () => {
  it.each([
    [
      'a = 1 AMD b = 2',
      "expected AND, OR or the end of the selector but found identifier 'AMD' at character 7",
    ],
    ["color = 'red", 'unterminated string literal starting at character 9'],
    ['%uncorrect IS NULL', "unexpected character '%' at character 1"],
    ['1uncorrect IS NULL', "malformed number '1uncorrect' at character 1"],
    ['NULL = ZERO', 'NULL is a reserved word'],
    ['NULL = ZERO', 'found keyword NULL at character 1'],
    ['age > ', "expected an identifier, a literal or '(' but found the end of the selector at character 7"],
    ['(age > 1', "expected ')' but found the end of the selector at character 9"],
    ["age IN ('a' 'b')", "expected ',' or ')' in the IN list but found string 'b' at character 13"],
    ['age IN (1)', 'expected a string literal in the IN list but found number 1 at character 9'],
    ['age NOT 5', 'expected BETWEEN, IN or LIKE after NOT but found number 5 at character 9'],
    ['age BETWEEN 1 OR 2', 'expected AND between the bounds of BETWEEN but found keyword OR at character 15'],
    ['age IS 5', 'expected NULL or NOT NULL after IS but found number 5 at character 8'],
    ["s LIKE 'a' ESCAPE 'ab'", 'the ESCAPE string at character 19 must be exactly one character'],
    ['3 + 5', 'the selector needs a boolean expression but at character 1 there is a number'],
    ['flag AND 3', 'AND needs a boolean expression but at character 10 there is a number'],
    ["a + 'x' = 1", "'+' needs a number but at character 5 there is a string"],
    ["'x' LIKE 'x'", 'LIKE must follow an identifier, but at character 1 there is a string'],
    [
      'x = 99999999999999999999',
      'number 99999999999999999999 at character 5 is outside the range of a Java long',
    ],
    ['x = 1e999', 'number 1e999 at character 5 is too large'],
    ['a = 1 == 2', "found '=' at character 7"],
  ])('%j: %s', (selector, expected) => {
    const error = rejection(selector);
    expect(error.message).toContain(expected);
    expect(error.message.startsWith('Invalid selector: ')).toBe(true);
  });

  it('long tokens are shortened in messages', () => {
    const error = rejection(`a = 1 '${'x'.repeat(500)}'`);
    expect(error.message.length).toBeLessThan(200);
    expect(error.message).toContain('...');
  });

  it('throws InvalidSelectorException, a JMSException with code INVALID_FILTER_EXPRESSION', () => {
    const error = rejection('a =');
    expect(error).toBeInstanceOf(InvalidSelectorException);
    expect(InvalidSelectorException.is(error)).toBe(true);
    expect(JMSException.is(error)).toBe(true);
    expect(error.getErrorCode()).toBe('INVALID_FILTER_EXPRESSION');
    expect(error.name).toBe('InvalidSelectorException');
  });
});

describe('selectorFilterFactory (the broker side)', () => {
  it('returns a Filter that matches like parseSelector', () => {
    const filter: Filter = selectorFilterFactory("color = 'red'");
    expect(filter.expression).toBe("color = 'red'");
    expect(filter.match(message({ color: 'red' }))).toBe(true);
    expect(filter.match(message({ color: 'blue' }))).toBe(false);
  });

  it("throws HornetQException('INVALID_FILTER_EXPRESSION') with the same message", () => {
    let thrown: unknown;
    try {
      selectorFilterFactory('a = 1 AMD b = 2');
    } catch (error) {
      thrown = error;
    }
    expect(HornetQException.is(thrown, 'INVALID_FILTER_EXPRESSION')).toBe(true);
    const error = thrown as HornetQException;
    expect(error.message).toBe(rejection('a = 1 AMD b = 2').message);
    expect(error.cause).toBeInstanceOf(InvalidSelectorException);
    expect(InvalidSelectorException.is(error)).toBe(false);
  });

  it('a Selector is structurally a Filter', () => {
    const selector: Selector = parseSelector('a = 1');
    const filter: Filter = selector;
    expect(filter.match(message({ a: 1 }))).toBe(true);
  });
});
