import fc from 'fast-check';
import { DuplicateIdCache, DuplicateIdCaches } from '../../../src/server/postoffice/duplicate-id-cache';
import { InMemoryStorage } from '../../../src/server/storage/in-memory-storage';

function storedIds(storage: InMemoryStorage, address: string): string[] {
  return storage.loadDuplicateIds().find((entry) => entry.address === address)?.ids ?? [];
}

describe('DuplicateIdCache', () => {
  it('remembers the last N ids: the (N+1)th evicts the oldest', () => {
    const cache = new DuplicateIdCache('a', 3, null);
    for (const id of ['1', '2', '3']) cache.add(id);
    expect(['1', '2', '3'].map((id) => cache.contains(id))).toEqual([true, true, true]);
    cache.add('4');
    expect(['1', '2', '3', '4'].map((id) => cache.contains(id))).toEqual([false, true, true, true]);
    cache.add('5');
    cache.add('6');
    expect(['2', '3', '4', '5', '6'].map((id) => cache.contains(id))).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
    expect(cache.size).toBe(3);
  });

  it('adding an id it holds changes nothing (the ring is not advanced)', () => {
    const cache = new DuplicateIdCache('a', 2, null);
    cache.add('x');
    cache.add('x');
    cache.add('y');
    expect([cache.contains('x'), cache.contains('y')]).toEqual([true, true]);
  });

  it('agrees with a list model of the last N distinct ids', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer({ min: 0, max: 15 }).map(String), { maxLength: 200 }),
        (capacity, ids) => {
          const cache = new DuplicateIdCache('a', capacity, null);
          let model: string[] = [];
          for (const id of ids) {
            expect(cache.contains(id)).toBe(model.includes(id));
            cache.add(id);
            if (!model.includes(id)) model = [...model, id].slice(-capacity);
          }
          for (let i = 0; i < 16; i++) expect(cache.contains(String(i))).toBe(model.includes(String(i)));
        },
      ),
    );
  });

  it('with a store, every accepted id is recorded and every evicted one deleted', () => {
    const storage = new InMemoryStorage();
    const cache = new DuplicateIdCache('addr', 2, storage);
    cache.add('1');
    cache.add('2');
    expect(storedIds(storage, 'addr')).toEqual(['1', '2']);
    cache.add('3');
    expect(storedIds(storage, 'addr')).toEqual(['2', '3']);
  });

  it('restore keeps the newest N of the stored ids and deletes the rest from storage', () => {
    const storage = new InMemoryStorage();
    for (const id of ['1', '2', '3', '4']) storage.storeDuplicateId('addr', id);
    const cache = new DuplicateIdCache('addr', 2, storage);
    cache.restore(storedIds(storage, 'addr'));
    expect(['1', '2', '3', '4'].map((id) => cache.contains(id))).toEqual([false, false, true, true]);
    expect(storedIds(storage, 'addr')).toEqual(['3', '4']);
    // The ring goes on from the restored order: the oldest restored id is evicted first.
    cache.add('5');
    expect(['3', '4', '5'].map((id) => cache.contains(id))).toEqual([false, true, true]);
    expect(storedIds(storage, 'addr')).toEqual(['4', '5']);
  });
});

describe('DuplicateIdCaches', () => {
  it('keeps one cache per address', () => {
    const caches = new DuplicateIdCaches(5, new InMemoryStorage(), true);
    caches.add('a', 'id');
    expect(caches.contains('a', 'id')).toBe(true);
    expect(caches.contains('b', 'id')).toBe(false);
  });

  it('persist-id-cache true: a new instance over the same storage knows the ids', () => {
    const storage = new InMemoryStorage();
    const before = new DuplicateIdCaches(5, storage, true);
    before.add('a', 'x');
    before.add('b', 'y');
    const after = new DuplicateIdCaches(5, storage, true);
    after.load();
    expect([after.contains('a', 'x'), after.contains('b', 'y'), after.contains('a', 'y')]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('persist-id-cache false: nothing is stored, so a restart forgets', () => {
    const storage = new InMemoryStorage();
    const before = new DuplicateIdCaches(5, storage, false);
    before.add('a', 'x');
    expect(storage.loadDuplicateIds()).toEqual([]);
    const after = new DuplicateIdCaches(5, storage, false);
    after.load();
    expect(after.contains('a', 'x')).toBe(false);
  });

  it('a smaller id-cache-size after a restart keeps the newest ids', () => {
    const storage = new InMemoryStorage();
    const before = new DuplicateIdCaches(5, storage, true);
    for (const id of ['1', '2', '3', '4', '5']) before.add('a', id);
    const after = new DuplicateIdCaches(2, storage, true);
    after.load();
    expect(['1', '2', '3', '4', '5'].map((id) => after.contains('a', id))).toEqual([
      false,
      false,
      false,
      true,
      true,
    ]);
  });
});
