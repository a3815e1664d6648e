import { AddressMatch } from '../../../src/server/security/address-match';
import { PERMISSIONS, type Permission } from '../../../src/server/security/permission';
import {
  DEFAULT_SECURITY_CACHE_SIZE,
  MAX_CACHED_ADDRESS_CHARS,
  SecurityStore,
  type SecuritySetting,
} from '../../../src/server/security/security-store';

function setting(match: string, grants: Partial<Record<Permission, string[]>>): SecuritySetting {
  return { match, permissions: new Map(Object.entries(grants) as Array<[Permission, string[]]>) };
}

const roles = (...names: string[]): ReadonlySet<string> => new Set(names);

describe('SecurityStore', () => {
  it('gives the most specific setting only: no permission is inherited from a less specific one', () => {
    const store = new SecurityStore([
      setting('a.#', { send: ['user'], consume: ['user'], createNonDurableQueue: ['user'] }),
      setting('a.b.#', { send: ['user'] }),
    ]);
    expect(store.isAllowed(roles('user'), 'send', 'a.b.c')).toBe(true);
    expect(store.isAllowed(roles('user'), 'createNonDurableQueue', 'a.b.c')).toBe(false);
    expect(store.isAllowed(roles('user'), 'consume', 'a.b.c')).toBe(false);
    expect(store.isAllowed(roles('user'), 'createNonDurableQueue', 'a.c')).toBe(true);
    expect(store.isAllowed(roles('user'), 'consume', 'a')).toBe(true);
  });

  it("follows HornetQ's documented example: orders get send and consume only", () => {
    const store = new SecurityStore([
      setting('globalqueues.europe.#', {
        createDurableQueue: ['admin'],
        deleteDurableQueue: ['admin'],
        createNonDurableQueue: ['admin', 'guest', 'europe-users'],
        deleteNonDurableQueue: ['admin', 'guest', 'europe-users'],
        send: ['admin', 'europe-users'],
        consume: ['admin', 'europe-users'],
      }),
      setting('globalqueues.europe.orders.#', { send: ['europe-users'], consume: ['europe-users'] }),
    ]);
    const europe = roles('europe-users');
    expect(store.isAllowed(europe, 'createNonDurableQueue', 'globalqueues.europe.news')).toBe(true);
    expect(store.isAllowed(europe, 'createNonDurableQueue', 'globalqueues.europe.orders.x')).toBe(false);
    expect(store.isAllowed(europe, 'send', 'globalqueues.europe.orders.x')).toBe(true);
    expect(store.isAllowed(roles('admin'), 'send', 'globalqueues.europe.orders')).toBe(false);
  });

  it('grants a permission when any of the roles has it', () => {
    const store = new SecurityStore([setting('#', { send: ['producer'], consume: ['consumer'] })]);
    expect(store.isAllowed(roles('producer', 'consumer'), 'send', 'q')).toBe(true);
    expect(store.isAllowed(roles('producer', 'consumer'), 'consume', 'q')).toBe(true);
    expect(store.isAllowed(roles('producer'), 'consume', 'q')).toBe(false);
    expect(store.isAllowed(roles('other', 'producer'), 'send', 'q')).toBe(true);
    expect(store.isAllowed(roles(), 'send', 'q')).toBe(false);
  });

  it('denies everything on an address no setting covers, and when there are no settings', () => {
    const store = new SecurityStore([setting('jms.queue.#', { send: ['user'] })]);
    expect(store.isAllowed(roles('user'), 'send', 'jms.topic.news')).toBe(false);
    expect(store.isAllowed(roles('user'), 'send', 'jms.queue.orders')).toBe(true);
    const empty = new SecurityStore([]);
    for (const permission of PERMISSIONS) expect(empty.isAllowed(roles('user'), permission, 'q')).toBe(false);
  });

  it('checks each of the seven permissions on its own', () => {
    for (const granted of PERMISSIONS) {
      const store = new SecurityStore([setting('#', { [granted]: ['r'] })]);
      for (const permission of PERMISSIONS)
        expect([permission, store.isAllowed(roles('r'), permission, 'q')]).toEqual([
          permission,
          permission === granted,
        ]);
    }
  });

  it('ranks an exact match first, then matches by their words from the left', () => {
    const store = new SecurityStore([
      setting('#', { send: ['any'] }),
      setting('jms.queue.#', { send: ['queues'] }),
      setting('jms.queue.orders', { send: ['orders'] }),
      setting('jms.*.orders', { send: ['star'] }),
    ]);
    const all = roles('any', 'queues', 'orders', 'star');
    const who = (address: string): string[] =>
      [...all].filter((role) => store.isAllowed(roles(role), 'send', address));
    expect(who('jms.queue.orders')).toEqual(['orders']);
    expect(who('jms.queue.other')).toEqual(['queues']);
    expect(who('jms.topic.orders')).toEqual(['star']);
    expect(who('other')).toEqual(['any']);
  });

  it('uses replaced settings for the very next check, cached or not', () => {
    const store = new SecurityStore([setting('#', { send: ['user'] })]);
    expect(store.isAllowed(roles('user'), 'send', 'q')).toBe(true);
    expect(store.cachedAddresses).toBe(1);
    store.replace([setting('#', { consume: ['user'] })]);
    expect(store.cachedAddresses).toBe(0);
    expect(store.isAllowed(roles('user'), 'send', 'q')).toBe(false);
    expect(store.isAllowed(roles('user'), 'consume', 'q')).toBe(true);
    store.replace([]);
    expect(store.isAllowed(roles('user'), 'consume', 'q')).toBe(false);
  });

  it('keeps its settings when a replacement is refused', () => {
    const store = new SecurityStore([setting('#', { send: ['user'] })]);
    expect(() => store.replace([setting('a', {}), setting('a.', {})])).toThrow(/invalid match 'a\.'/);
    expect(() => store.replace([setting('a', {}), setting('a', {})])).toThrow(
      /security settings: match 'a' is given twice/,
    );
    expect(() =>
      store.replace([setting('a', { browse: ['user'] } as Partial<Record<Permission, string[]>>)]),
    ).toThrow(/match 'a': unknown permission 'browse' \(expected one of: createDurableQueue, .*, manage\)/);
    expect(store.isAllowed(roles('user'), 'send', 'q')).toBe(true);
  });

  it('does not see later changes to the settings it was given', () => {
    const roleList = ['user'];
    const permissions = new Map<Permission, string[]>([['send', roleList]]);
    const store = new SecurityStore([{ match: '#', permissions }]);
    roleList.push('intruder');
    permissions.set('manage', ['intruder']);
    expect(store.isAllowed(roles('intruder'), 'send', 'q')).toBe(false);
    expect(store.isAllowed(roles('intruder'), 'manage', 'q')).toBe(false);
  });

  it('caches lookups for a bounded number of addresses, dropping ones not used lately', () => {
    const store = new SecurityStore([setting('a.#', { send: ['user'] })], { cacheSize: 3 });
    for (const address of ['a.1', 'a.2', 'a.3'])
      expect(store.isAllowed(roles('user'), 'send', address)).toBe(true);
    expect(store.isAllowed(roles('user'), 'send', 'a.1')).toBe(true); // a.2 is now the oldest
    expect(store.isAllowed(roles('user'), 'send', 'b')).toBe(false); // misses are cached too
    expect(store.cachedAddresses).toBe(3);
    for (let i = 0; i < 10 * DEFAULT_SECURITY_CACHE_SIZE; i++)
      store.isAllowed(roles('user'), 'send', `a.${i}`);
    expect(store.cachedAddresses).toBe(3);

    const byDefault = new SecurityStore([setting('#', { send: ['user'] })]);
    for (let i = 0; i < 2 * DEFAULT_SECURITY_CACHE_SIZE; i++)
      byDefault.isAllowed(roles('user'), 'send', `q.${i}`);
    expect(byDefault.cachedAddresses).toBe(DEFAULT_SECURITY_CACHE_SIZE);

    const none = new SecurityStore([setting('#', { send: ['user'] })], { cacheSize: 0 });
    expect(none.isAllowed(roles('user'), 'send', 'q')).toBe(true);
    expect(none.cachedAddresses).toBe(0);
  });

  it('answers a cached address without matching it again, and keeps addresses in steady use', () => {
    const store = new SecurityStore([setting('a.#', { send: ['user'] })], { cacheSize: 3 });
    const matching = jest.spyOn(AddressMatch.prototype, 'matchesWords');
    try {
      const lookups = (address: string): number => {
        const before = matching.mock.calls.length;
        expect(store.isAllowed(roles('user'), 'send', address)).toBe(true);
        return matching.mock.calls.length - before;
      };
      expect(lookups('a.hot')).toBe(1);
      expect(lookups('a.hot')).toBe(0);
      // One-off addresses (temporary reply queues) come and go; the one used between them stays.
      for (let i = 0; i < 50; i++) {
        expect(lookups(`a.once.${i}`)).toBe(1);
        expect(lookups('a.hot')).toBe(0);
      }
      expect(store.cachedAddresses).toBe(3);
      // Once it is no longer used, it goes like any other.
      for (let i = 0; i < 3; i++) lookups(`a.later.${i}`);
      expect(lookups('a.hot')).toBe(1);
    } finally {
      matching.mockRestore();
    }
  });

  it('bounds the characters of cached addresses as well as their number', () => {
    const store = new SecurityStore([setting('#', { send: ['user'] })]);
    const long = (i: number): string => `${i}.${'x'.repeat(MAX_CACHED_ADDRESS_CHARS / 4)}`;
    for (let i = 0; i < 8; i++) expect(store.isAllowed(roles('user'), 'send', long(i))).toBe(true);
    expect(store.cachedAddresses).toBe(3);
    expect(store.isAllowed(roles('user'), 'send', `${'x'.repeat(MAX_CACHED_ADDRESS_CHARS + 1)}`)).toBe(true);
    expect(store.cachedAddresses).toBe(3);
  });

  it.each([-1, 1.5, Number.NaN, 1_000_001])('refuses cacheSize %p, naming it and the range', (cacheSize) => {
    expect(() => new SecurityStore([], { cacheSize })).toThrow(
      new RangeError(`cacheSize must be an integer from 0 to 1000000 (actual value: ${String(cacheSize)})`),
    );
  });
});
