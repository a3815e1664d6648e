import fc from 'fast-check';
import { LikePattern } from '../../../src/jms/selector/like-pattern';
import { matches, message } from './support';

/**
 * A reference LIKE by dynamic programming over code points, independent of the matcher's
 * segment placement: the escape character makes a following %, _ or itself literal (§6.3).
 */
function referenceLike(pattern: string, escape: string | null, text: string): boolean {
  type Element = { any: boolean; star: boolean; cp: number };
  const chars = Array.from(pattern);
  const elements: Element[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    const next = chars[i + 1];
    if (c === escape && next !== undefined && (next === '%' || next === '_' || next === escape)) {
      elements.push({ any: false, star: false, cp: next.codePointAt(0) as number });
      i++;
    } else {
      elements.push({ any: c === '_', star: c === '%', cp: c.codePointAt(0) as number });
    }
  }
  const input = Array.from(text, (c) => c.codePointAt(0) as number);
  let row = new Array<boolean>(input.length + 1).fill(false);
  row[0] = true;
  for (const e of elements) {
    const next = new Array<boolean>(input.length + 1).fill(false);
    for (let j = 0; j <= input.length; j++) {
      if (e.star) next[j] = (row[j] as boolean) || (j > 0 && (next[j - 1] as boolean));
      else if (j > 0) next[j] = (row[j - 1] as boolean) && (e.any || e.cp === input[j - 1]);
    }
    row = next;
  }
  return row[input.length] as boolean;
}

describe('LIKE matcher', () => {
  it.each([
    ['a%', 'a', true],
    ['a%', '', false],
    ['%', '', true],
    ['%%', '', true],
    ['%%%a%%', 'xa', true],
    ['_', '', false],
    ['__', 'ab', true],
    ['__', 'abc', false],
    ['%_%', '', false],
    ['%_%', 'x', true],
    ['a%a', 'a', false],
    ['a%a', 'aa', true],
    ['ab%ba', 'aba', false],
    ['ab%ba', 'abba', true],
    ['%abc%abd%', 'abcabd', true],
    ['%abc%abd%', 'abdabc', false],
    ['%a_c%', 'xxabbcxaXc', true],
    ['%a_c', 'abcab', false],
    ['_%_', 'ab', true],
    ['_%_', 'a', false],
    // _ and % cross newlines and stand for whole code points.
    ['a_b', 'a\nb', true],
    ['a%b', 'a\r\n\nb', true],
    ['_', '😀', true],
    ['__', '😀', false],
    ['%😀_', 'x😀y', true],
    ['😀%', '😀😀', true],
    ['%_😀', 'a😀', true],
    ['%_😀', '😀', false],
  ])('%j against %j → %s', (pattern, text, expected) => {
    expect(new LikePattern(pattern, null).matches(text)).toBe(expected);
    expect(referenceLike(pattern, null, text)).toBe(expected);
  });

  it.each([
    ['\\%', '\\', '%', true],
    ['\\%', '\\', 'x', false],
    ['\\_', '\\', '_', true],
    ['\\_', '\\', 'x', false],
    ['\\\\', '\\', '\\', true],
    ['a\\b', '\\', 'a\\b', true],
    ['a\\', '\\', 'a\\', true],
    ['%\\%%', '\\', '50% off', true],
    ['%\\%%', '\\', '50 off', false],
    ['!%!_!!', '!', '%_!', true],
    ['😀%', '😀', '%', true],
    ['😀%', '😀', '😀x', false],
    ['%😀_', '😀', 'abc_', true],
  ])('%j ESCAPE %j against %j → %s', (pattern, escape, text, expected) => {
    expect(new LikePattern(pattern, escape).matches(text)).toBe(expected);
    expect(referenceLike(pattern, escape, text)).toBe(expected);
  });

  it('agrees with the reference matcher on random patterns and texts', () => {
    const alphabet = fc.constantFrom('a', 'b', '%', '_', '!', '😀', '\n');
    const pattern = fc.array(alphabet, { maxLength: 12 }).map((a) => a.join(''));
    const text = fc
      .array(fc.constantFrom('a', 'b', '%', '_', '!', '😀', '\n'), { maxLength: 16 })
      .map((a) => a.join(''));
    fc.assert(
      fc.property(pattern, fc.constantFrom(null, '!', '%', '_', 'a'), text, (p, escape, t) => {
        expect(new LikePattern(p, escape).matches(t)).toBe(referenceLike(p, escape, t));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with the reference on long segments with _, which span several 32-bit words', () => {
    const unit = fc.constantFrom('a', 'b', '_');
    fc.assert(
      fc.property(
        fc.array(unit, { minLength: 30, maxLength: 80 }).map((a) => a.join('')),
        fc.array(fc.constantFrom('a', 'b'), { minLength: 0, maxLength: 200 }).map((a) => a.join('')),
        (segment, text) => {
          const pattern = `%${segment}%`;
          expect(new LikePattern(pattern, null).matches(text)).toBe(referenceLike(pattern, null, text));
        },
      ),
      { numRuns: 300 },
    );
    const long = 'ab_'.repeat(25);
    const hit = 'x'.repeat(40) + 'abz'.repeat(25) + 'y';
    expect(new LikePattern(`%${long}%`, null).matches(hit)).toBe(true);
    const broken = 'x'.repeat(40) + 'abz'.repeat(12) + 'bbz' + 'abz'.repeat(12) + 'y';
    expect(new LikePattern(`%${long}%`, null).matches(broken)).toBe(false);
  });

  /*
   * Patterns that make a backtracking matcher (or a regular expression) take exponential or
   * polynomial time. The matcher places each segment once, so these return at once; the test
   * asserts the result, and jest's timeout would catch a hang.
   */
  describe('pathological patterns', () => {
    const as = 'a'.repeat(200_000);
    it.each([
      ['%a%a%a%a%a%a%a%b', as, false],
      ['%a%a%a%a%a%a%a%a', as, true],
      ['a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%b', as, false],
      ['%' + '_'.repeat(40) + 'b%', as, false],
      ['%' + 'a_'.repeat(20) + 'b%', as, false],
      ['%' + 'a'.repeat(1000) + 'b%', as, false],
      ['%' + 'a'.repeat(1000) + '%', as, true],
      ['%' + 'a_'.repeat(300) + '%', as, true],
      ['_%'.repeat(500) + 'b', as, false],
      ['%'.repeat(4000) + 'b', as, false],
    ])('%#: LIKE against 200 000 characters → %s', (pattern, text, expected) => {
      expect(new LikePattern(pattern, null).matches(text)).toBe(expected);
    });

    it('through a selector too', () => {
      const m = message({ s: as });
      expect(matches("s LIKE '%a%a%a%a%a%a%a%b'", m)).toBe(false);
      expect(matches("s NOT LIKE '%a%a%a%a%a%a%a%b'", m)).toBe(true);
    });
  });
});
