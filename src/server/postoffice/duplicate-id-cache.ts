import type { StorageManager } from '../storage/storage-manager';

/**
 * The last `capacity` duplicate-detection ids one address has accepted, in a ring: the id
 * accepted `capacity` ids ago is forgotten when a new one comes. With a store, every change is
 * recorded so that the cache survives a restart (persist-id-cache).
 */
export class DuplicateIdCache {
  /** Grows to `capacity`, then wraps: an address that sees few ids costs little. */
  private readonly ring: string[] = [];
  private position = 0;
  private readonly present = new Set<string>();

  constructor(
    readonly address: string,
    readonly capacity: number,
    private readonly store: StorageManager | null,
  ) {}

  get size(): number {
    return this.present.size;
  }

  contains(id: string): boolean {
    return this.present.has(id);
  }

  add(id: string): void {
    if (this.present.has(id)) return;
    this.insert(id);
    this.store?.storeDuplicateId(this.address, id);
  }

  /** Forgets every id, in storage too (the address lost its last queue). */
  clear(): void {
    for (const id of this.ring) this.store?.deleteDuplicateId(this.address, id);
    this.ring.length = 0;
    this.present.clear();
    this.position = 0;
  }

  /** Refills from storage (oldest first); ids beyond the capacity, the oldest, leave storage too. */
  restore(ids: readonly string[]): void {
    const excess = Math.max(ids.length - this.capacity, 0);
    for (let i = 0; i < excess; i++) this.store?.deleteDuplicateId(this.address, ids[i] as string);
    for (let i = excess; i < ids.length; i++) {
      const id = ids[i] as string;
      if (!this.present.has(id)) this.insert(id);
    }
  }

  private insert(id: string): void {
    if (this.ring.length < this.capacity) {
      this.ring.push(id);
    } else {
      const evicted = this.ring[this.position] as string;
      this.present.delete(evicted);
      this.store?.deleteDuplicateId(this.address, evicted);
      this.ring[this.position] = id;
      this.position = (this.position + 1) % this.capacity;
    }
    this.present.add(id);
  }
}

/**
 * One duplicate-id cache per address (the same id may go to different addresses). The post office
 * keeps caches only for addresses with queues, so their number is bounded by the queues'.
 */
export class DuplicateIdCaches {
  private readonly caches = new Map<string, DuplicateIdCache>();

  constructor(
    private readonly capacity: number,
    private readonly storage: StorageManager,
    private readonly persist: boolean,
  ) {}

  get count(): number {
    return this.caches.size;
  }

  /**
   * Rebuilds the caches of the addresses `kept` keeps (by default all) from storage (broker
   * start); the ids stored for any other address leave storage. Nothing to load when ids are not
   * persisted.
   */
  load(kept: (address: string) => boolean = () => true): void {
    if (!this.persist) return;
    for (const { address, ids } of this.storage.loadDuplicateIds()) {
      if (kept(address)) this.cacheFor(address).restore(ids);
      else for (const id of ids) this.storage.deleteDuplicateId(address, id);
    }
  }

  /** Drops the address' cache and the ids it stored. */
  forget(address: string): void {
    this.caches.get(address)?.clear();
    this.caches.delete(address);
  }

  contains(address: string, id: string): boolean {
    return this.caches.get(address)?.contains(id) ?? false;
  }

  add(address: string, id: string): void {
    this.cacheFor(address).add(id);
  }

  private cacheFor(address: string): DuplicateIdCache {
    let cache = this.caches.get(address);
    if (cache === undefined) {
      cache = new DuplicateIdCache(address, this.capacity, this.persist ? this.storage : null);
      this.caches.set(address, cache);
    }
    return cache;
  }
}
