import fc from 'fast-check';
import {
  AddressMatch,
  matchProblem,
  MAX_MATCH_LENGTH,
  MAX_WORDS_WITH_ANY,
} from '../../../src/server/security/address-match';

function match(pattern: string, address: string): boolean {
  return new AddressMatch(pattern).matches(address);
}

/** The matches that cover `address`, most specific first. */
function ranked(patterns: string[], address: string): string[] {
  return patterns
    .map((pattern) => new AddressMatch(pattern))
    .filter((m) => m.matches(address))
    .sort(AddressMatch.compareSpecificity)
    .map((m) => m.text);
}

describe('AddressMatch', () => {
  it.each([
    // security.md §1.3, from HornetQ's documentation
    ['news.europe.#', 'news.europe', true],
    ['news.europe.#', 'news.europe.sport', true],
    ['news.europe.#', 'news.europe.politics.regional', true],
    ['news.europe.#', 'news.usa', false],
    ['news.europe.#', 'news.europeX', false],
    ['news.europe.#', 'entertainment', false],
    ['news.*', 'news.europe', true],
    ['news.*', 'news.europe.sport', false],
    ['news.*.sport', 'news.europe.sport', true],
    ['news.*.sport', 'news.usa.sport', true],
    ['news.*.sport', 'news.europe.politics', false],
    ['#', 'a', true],
    ['#', 'a.b.c', true],
    ['a.#.z', 'a.z', true],
    ['a.#.z', 'a.b.z', true],
    ['a.#.z', 'a.b.c.z', true],
    ['a.#.z', 'a.b.c', false],
    ['jms.queue.a+b', 'jms.queue.aab', false],
    ['jms.queue.a+b', 'jms.queue.a+b', true],
    ['jms.queue.(x)', 'jms.queue.(x)', true],
    ['jms.queue.(x)', 'jms.queue.x', false],
    // '#' anywhere, any number of times
    ['news.europe.#', 'news', false],
    ['#', '', true],
    ['#', 'a..b', true],
    ['#.#', 'a', true],
    ['#.#', 'a.b.c', true],
    ['#.c', 'c', true],
    ['#.c', 'a.b.c', true],
    ['#.c', 'a.c.d', false],
    ['a.#.z', 'b.a.z', false],
    ['a.#.z', 'a.z.z', true],
    ['a.#.#.z', 'a.z', true],
    ['#.a.#', 'b.a.c', true],
    ['#.a.#', 'b.c', false],
    // '*': exactly one word
    ['news.*', 'news', false],
    ['*.*', 'a.b', true],
    ['*.*', 'a', false],
    ['*.*', 'a.b.c', false],
    ['a.*.#', 'a', false],
    ['a.*.#', 'a.b', true],
    ['a.*.#', 'a.b.c.d', true],
    ['#.*', 'a', true],
    // words are compared whole, and only the words '#' and '*' are wildcards
    ['jms.queue.orders', 'jms.queue.orders', true],
    ['jms.queue.orders', 'jms.queue.orders2', false],
    ['jms.queue', 'jms.queue.orders', false],
    ['jms.queue.a?', 'jms.queue.ab', false],
    ['jms.queue.[ab]', 'jms.queue.a', false],
    ['jms.queue.$', 'jms.queue.', false],
    ['jms.queue.^.*', 'jms.queue.^.x', true],
    ['jms.queue.eu#', 'jms.queue.europe', false],
    ['jms.queue.eu*', 'jms.queue.europe', false],
    ['jms.queue.eu*', 'jms.queue.eu*', true],
    ['jms.queue.\\w', 'jms.queue.w', false],
  ])('%s against %s: %s', (pattern, address, expected) => {
    expect(match(pattern, address)).toBe(expected);
  });

  it.each([
    ['', /invalid match '': a match needs at least one word/],
    ['.a', /invalid match '\.a': word 1 is empty/],
    ['a.', /invalid match 'a\.': word 2 is empty/],
    ['a..b', /invalid match 'a\.\.b': word 2 is empty/],
    ['#..#', /word 2 is empty/],
    [
      'a'.repeat(MAX_MATCH_LENGTH + 1),
      new RegExp(
        `invalid match 'a{40}\\.\\.\\.': it has ${MAX_MATCH_LENGTH + 1} characters; at most ${MAX_MATCH_LENGTH}`,
      ),
    ],
    [
      `${'a.'.repeat(MAX_WORDS_WITH_ANY)}#`,
      new RegExp(
        `${MAX_WORDS_WITH_ANY + 1} words and a '#'; a match with '#' may have at most ${MAX_WORDS_WITH_ANY} words`,
      ),
    ],
  ])('refuses match %# at construction', (pattern, error) => {
    expect(() => new AddressMatch(pattern)).toThrow(RangeError);
    expect(() => new AddressMatch(pattern)).toThrow(error);
    expect(matchProblem(pattern)).toMatch(/\S/);
  });

  it.each(['#', '#.#', 'a.#.z', '*', 'a+b', ' a '])('finds nothing wrong with %j', (pattern) => {
    expect(matchProblem(pattern)).toBeNull();
  });

  it('takes the longest matches', () => {
    const longest = `${'a.'.repeat(MAX_MATCH_LENGTH / 2 - 1)}*`;
    expect(longest).toHaveLength(MAX_MATCH_LENGTH - 1);
    expect(new AddressMatch(longest).matches(`${'a.'.repeat(MAX_MATCH_LENGTH / 2 - 1)}b`)).toBe(true);
    const most = `${'a.'.repeat(MAX_WORDS_WITH_ANY - 1)}#`;
    expect(new AddressMatch(most).matches(`${'a.'.repeat(MAX_WORDS_WITH_ANY)}b`)).toBe(true);
  });

  it('agrees with a reference matcher on random matches and addresses', () => {
    const word = fc.constantFrom('a', 'b', 'c');
    const patternWord = fc.oneof(word, fc.constant('*'), fc.constant('#'));
    fc.assert(
      fc.property(
        fc.array(patternWord, { minLength: 1, maxLength: 7 }),
        fc.array(word, { minLength: 1, maxLength: 8 }),
        (pattern, words) => {
          // Reference: each word becomes 'w/', '#' any number of such words, '*' exactly one.
          const source = pattern
            .map((p) => (p === '#' ? '(?:[^/]+/)*' : p === '*' ? '[^/]+/' : `${p}/`))
            .join('');
          const expected = new RegExp(`^${source}$`).test(words.map((w) => `${w}/`).join(''));
          expect(new AddressMatch(pattern.join('.')).matchesWords(words)).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('stays fast with many # against long addresses that do not match', () => {
    // Plain backtracking would try on the order of C(50, 10) splits here and never finish.
    const words = Array<string>(40).fill('a');
    const many = new AddressMatch([...Array<string>(10).fill('#'), 'x'].join('.'));
    expect(many.matchesWords(words)).toBe(false);
    expect(many.matchesWords([...words, 'x'])).toBe(true);
    expect(new AddressMatch('#.a.#.a.#.b.#.a.#.x').matchesWords(words)).toBe(false);

    // A 1 MiB address (the broker's largest maxNameLength) against the longest match with '#'
    // that keeps nearly matching: (match words) x (address words) steps.
    const address = Array<string>(512 * 1024)
      .fill('a')
      .join('.');
    const hard = new AddressMatch(`#.${'a.'.repeat(MAX_WORDS_WITH_ANY - 2)}b`);
    const started = process.hrtime.bigint();
    expect(hard.matches(address)).toBe(false);
    expect(new AddressMatch('#').matches(address)).toBe(true);
    expect(new AddressMatch('a.#.a').matches(address)).toBe(true);
    expect(new AddressMatch(`${'a.'.repeat(2000)}*`).matches(address)).toBe(false);
    // Generous for a shared machine: some 3e7 word comparisons (under a second when idle).
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(10);
  });
});

describe('AddressMatch.compareSpecificity', () => {
  it.each([
    // security.md §1.3
    [['#', 'jms.queue.#', 'jms.queue.orders'], 'jms.queue.orders', ['jms.queue.orders', 'jms.queue.#', '#']],
    [['#', 'jms.queue.#', 'jms.queue.orders'], 'jms.queue.other', ['jms.queue.#', '#']],
    // HornetQ's order: literal, then without '#' before with '#'; then word by word from the left
    [
      ['jms.#', 'jms.queue.#', 'jms.*.orders', 'jms.queue.orders', '#'],
      'jms.queue.orders',
      ['jms.queue.orders', 'jms.*.orders', 'jms.queue.#', 'jms.#', '#'],
    ],
    [['*.queue.orders', 'jms.#'], 'jms.queue.orders', ['*.queue.orders', 'jms.#']],
    // HornetQ ranks two matches with '#' by length ('#.orders' first); here word by word
    [['#.orders', 'jms.#'], 'jms.queue.orders', ['jms.#', '#.orders']],
    // the exact address before a longer match that only adds '#'
    [['a.b.#', 'a.b'], 'a.b', ['a.b', 'a.b.#']],
    // a match that goes on with a literal or '*' is more specific; one that goes on with '#' is not
    [['a.#', 'a.#.c'], 'a.b.c', ['a.#.c', 'a.#']],
    [['a.#', 'a.#.*'], 'a.b.c', ['a.#.*', 'a.#']],
    [['a.*', 'a.*.#'], 'a.b', ['a.*', 'a.*.#']],
    [['#', '#.#'], 'a', ['#', '#.#']],
    // HornetQ 2.4 ranks these two each before the other; here the one with '*' further left is last
    [['a.*.c', 'a.b.*'], 'a.b.c', ['a.b.*', 'a.*.c']],
    // same ranks word by word: by text
    [['#.b.#', '#.c.#'], 'b.c', ['#.b.#', '#.c.#']],
  ])('%j for %s: %j', (patterns, address, expected) => {
    expect(ranked(patterns, address)).toEqual(expected);
    expect(ranked([...patterns].reverse(), address)).toEqual(expected);
  });

  it('is a consistent total order', () => {
    const patternWord = fc.constantFrom('a', 'b', '*', '#');
    const pattern = fc
      .array(patternWord, { minLength: 1, maxLength: 5 })
      .map((w) => new AddressMatch(w.join('.')));
    fc.assert(
      fc.property(pattern, pattern, pattern, (a, b, c) => {
        const compare = AddressMatch.compareSpecificity;
        expect(Math.sign(compare(a, b)) + Math.sign(compare(b, a))).toBe(0);
        expect(compare(a, b) === 0).toBe(a.text === b.text);
        if (compare(a, b) < 0 && compare(b, c) < 0) expect(compare(a, c)).toBeLessThan(0);
      }),
      { numRuns: 3000 },
    );
  });
});
