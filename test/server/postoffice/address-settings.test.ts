import fc from 'fast-check';
import {
  AddressSettingsRepository,
  DEFAULT_ADDRESS_SETTINGS,
  matches,
  type AddressSettings,
} from '../../../src/server/postoffice/address-settings';

function match(pattern: string, address: string): boolean {
  return matches(pattern.split('.'), address.split('.'));
}

describe('wildcard matching', () => {
  it.each([
    // '#': zero or more words
    ['news.europe.#', 'news.europe', true],
    ['news.europe.#', 'news.europe.sport', true],
    ['news.europe.#', 'news.europe.politics.regional', true],
    ['news.europe.#', 'news.usa', false],
    ['news.europe.#', 'news.europeX', false],
    ['news.europe.#', 'news', false],
    ['#', 'a', true],
    ['#', 'a.b.c', true],
    ['#.c', 'c', true],
    ['#.c', 'a.b.c', true],
    ['#.c', 'a.c.d', false],
    ['a.#.z', 'a.z', true],
    ['a.#.z', 'a.b.z', true],
    ['a.#.z', 'a.b.c.z', true],
    ['a.#.z', 'a.b.c', false],
    ['a.#.z', 'b.a.z', false],
    ['#.#', 'a.b', true],
    // '*': exactly one word
    ['news.*', 'news.europe', true],
    ['news.*', 'news.europe.sport', false],
    ['news.*', 'news', false],
    ['news.*.sport', 'news.usa.sport', true],
    ['news.*.sport', 'news.europe.politics', false],
    ['*.*', 'a.b', true],
    ['*.*', 'a', false],
    ['*.*', 'a.b.c', false],
    ['a.*.#', 'a', false],
    ['a.*.#', 'a.b', true],
    ['a.*.#', 'a.b.c.d', true],
    // literal words are compared whole, and other characters are literal
    ['jms.queue.orders', 'jms.queue.orders', true],
    ['jms.queue.orders', 'jms.queue.orders2', false],
    ['jms.queue', 'jms.queue.orders', false],
    ['jms.queue.a+b', 'jms.queue.aab', false],
    ['jms.queue.(x)', 'jms.queue.(x)', true],
    ['jms.queue.a?', 'jms.queue.ab', false],
  ])('%s against %s: %s', (pattern, address, expected) => {
    expect(match(pattern, address)).toBe(expected);
  });

  it('agrees with a reference matcher on random patterns and addresses', () => {
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
          expect(matches(pattern, words)).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('stays fast with many # against a long address that does not match', () => {
    // Plain backtracking would try on the order of C(50, 10) splits here and never finish.
    const pattern = [...Array<string>(10).fill('#'), 'x'];
    const words = Array<string>(40).fill('a');
    expect(matches(pattern, words)).toBe(false);
    expect(matches(pattern, [...words, 'x'])).toBe(true);
    expect(matches(['#', 'a', '#', 'a', '#', 'b', '#', 'a', '#', 'x'], words)).toBe(false);
  });
});

describe('AddressSettingsRepository', () => {
  it("gives HornetQ's defaults when nothing matches", () => {
    const repository = new AddressSettingsRepository();
    expect(DEFAULT_ADDRESS_SETTINGS).toEqual({
      maxSizeBytes: -1,
      addressFullPolicy: 'PAGE',
      maxSizeBytesRejectThreshold: -1,
      deadLetterAddress: null,
      expiryAddress: null,
      expiryDelay: -1,
      redeliveryDelay: 0,
      redeliveryDelayMultiplier: 1.0,
      maxRedeliveryDelay: null,
      maxDeliveryAttempts: 10,
      sendToDlaOnNoRoute: false,
      lastValueQueue: false,
      pageSizeBytes: 10485760,
      pageMaxCacheSize: 5,
    });
    expect(repository.getMatch('jms.queue.orders')).toEqual(DEFAULT_ADDRESS_SETTINGS);
    repository.add('jms.topic.#', { maxSizeBytes: 10 });
    expect(repository.getMatch('jms.queue.orders')).toEqual(DEFAULT_ADDRESS_SETTINGS);
  });

  it('merges every match, the more specific overriding the less, whatever the order they were added in', () => {
    const entries: Array<[string, Partial<AddressSettings>]> = [
      ['#', { maxSizeBytes: 1000, addressFullPolicy: 'BLOCK' }],
      ['jms.queue.#', { maxSizeBytes: 500 }],
      ['jms.queue.orders', { addressFullPolicy: 'FAIL' }],
    ];
    for (const order of [entries, [...entries].reverse(), [entries[1], entries[2], entries[0]]]) {
      const repository = new AddressSettingsRepository();
      for (const [pattern, settings] of order as typeof entries) repository.add(pattern, settings);
      expect(repository.getMatch('jms.queue.orders')).toEqual({
        ...DEFAULT_ADDRESS_SETTINGS,
        maxSizeBytes: 500,
        addressFullPolicy: 'FAIL',
      });
      expect(repository.getMatch('jms.queue.other')).toEqual({
        ...DEFAULT_ADDRESS_SETTINGS,
        maxSizeBytes: 500,
        addressFullPolicy: 'BLOCK',
      });
      expect(repository.getMatch('jms.topic.news')).toEqual({
        ...DEFAULT_ADDRESS_SETTINGS,
        maxSizeBytes: 1000,
        addressFullPolicy: 'BLOCK',
      });
    }
  });

  it('ranks a literal word above *, and * above #', () => {
    const repository = new AddressSettingsRepository();
    repository.add('jms.queue.orders', { maxSizeBytes: 1 });
    repository.add('jms.*.orders', { maxSizeBytes: 2 });
    repository.add('jms.queue.#', { maxSizeBytes: 3 });
    repository.add('jms.#', { maxSizeBytes: 4 });
    expect(repository.getMatch('jms.queue.orders').maxSizeBytes).toBe(1);
    expect(repository.getMatch('jms.topic.orders').maxSizeBytes).toBe(2);
    expect(repository.getMatch('jms.queue.payments').maxSizeBytes).toBe(3);
    expect(repository.getMatch('jms.topic.payments').maxSizeBytes).toBe(4);
    expect(repository.getMatch('other').maxSizeBytes).toBe(-1);
  });

  it('sees settings added after an address was looked up', () => {
    const repository = new AddressSettingsRepository();
    expect(repository.getMatch('jms.queue.a').maxSizeBytes).toBe(-1);
    repository.add('jms.queue.a', { maxSizeBytes: 42 });
    expect(repository.getMatch('jms.queue.a').maxSizeBytes).toBe(42);
  });

  it('refuses max-size-bytes below -1, naming the match', () => {
    const repository = new AddressSettingsRepository();
    expect(() => repository.add('jms.queue.#', { maxSizeBytes: -2 })).toThrow(/jms\.queue\.#/);
    expect(() => repository.add('jms.queue.#', { maxSizeBytes: -1 })).not.toThrow();
    expect(() => repository.add('jms.queue.#', { maxSizeBytes: 0 })).not.toThrow();
  });
});
