import {
  AddressSettingsRepository,
  DEFAULT_ADDRESS_SETTINGS,
  type AddressSettings,
} from '../../../src/server/postoffice/address-settings';

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

  it('ranks two matches with as many literal words the same whatever their order in the configuration', () => {
    // Both cover jms.queue.orders with one literal word; 'jms.#' is the more specific, since its
    // first word is literal and that of '#.orders' is '#'.
    for (const order of [
      ['jms.#', '#.orders'],
      ['#.orders', 'jms.#'],
    ]) {
      const repository = new AddressSettingsRepository();
      for (const [index, pattern] of order.entries()) repository.add(pattern, { maxSizeBytes: index + 10 });
      expect(repository.getMatch('jms.queue.orders').maxSizeBytes).toBe(10 + order.indexOf('jms.#'));
    }
  });

  it('refuses a match with an empty word, naming it', () => {
    const repository = new AddressSettingsRepository();
    expect(() => repository.add('jms..orders', { maxSizeBytes: 1 })).toThrow(
      /'jms\.\.orders'.*word 2 is empty/,
    );
    expect(repository.getMatch('jms..orders')).toEqual(DEFAULT_ADDRESS_SETTINGS);
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
