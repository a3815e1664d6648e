import { invalidValue } from '../../lang/argument-errors';
import { AddressMatch, splitAddress } from './address-match';
import { PERMISSIONS, type Permission } from './permission';

/** A `<security-setting>`: the roles granted each permission on the addresses its match covers. */
export interface SecuritySetting {
  readonly match: string;
  readonly permissions: ReadonlyMap<Permission, readonly string[]>;
}

export interface SecurityStoreOptions {
  /** Addresses whose lookup is remembered (ones not used lately go first); 0 remembers none. */
  readonly cacheSize?: number;
}

export const DEFAULT_SECURITY_CACHE_SIZE = 1_000;
export const MAX_SECURITY_CACHE_SIZE = 1_000_000;

/**
 * Characters of cached addresses in all: addresses may be up to maxNameLength (1 MiB at most)
 * long, so a count of entries alone would not bound the cache's memory.
 */
export const MAX_CACHED_ADDRESS_CHARS = 4 * 1024 * 1024;

type Grants = ReadonlyMap<Permission, ReadonlySet<string>>;

interface CompiledSetting {
  readonly match: AddressMatch;
  readonly grants: Grants;
}

/** What a lookup found: the grants of the most specific matching setting, or none. */
type Lookup = Grants | null;

interface CachedLookup {
  readonly lookup: Lookup;
  /** Used since the eviction scan last passed it (its second chance). */
  used: boolean;
}

/**
 * Decides HornetQ's permission checks: the most specific setting whose match covers the address
 * holds the only permissions there (settings do not inherit from less specific ones, which is how
 * a setting takes permissions away), and an address no setting covers allows nothing. Which
 * setting covers an address is cached per address, since every send asks.
 */
export class SecurityStore {
  private readonly cacheSize: number;
  /** Most specific first (AddressMatch.compareSpecificity). */
  private settings: readonly CompiledSetting[];
  /**
   * Second chance (CLOCK) eviction, in the Map's insertion order: a hit only marks its entry used,
   * since hits come with every send, and an LRU's delete and set per hit would reorder the map
   * for an order only eviction needs. Eviction passes over used entries once (unmarked, moved to
   * the end) and drops the first unused one, so addresses in steady use stay. A map cleared when
   * full would be simpler, but would drop those too each time enough one-off addresses
   * (temporary reply queues) have come by.
   */
  private readonly cache = new Map<string, CachedLookup>();
  private cachedChars = 0;

  /** Throws RangeError for a bad option, a bad match, a duplicate match or an unknown permission. */
  constructor(settings: readonly SecuritySetting[], options: SecurityStoreOptions = {}) {
    const cacheSize = options.cacheSize ?? DEFAULT_SECURITY_CACHE_SIZE;
    if (!Number.isSafeInteger(cacheSize) || cacheSize < 0 || cacheSize > MAX_SECURITY_CACHE_SIZE)
      throw invalidValue(
        `cacheSize must be an integer from 0 to ${MAX_SECURITY_CACHE_SIZE} (actual value: ${String(cacheSize)})`,
      );
    this.cacheSize = cacheSize;
    this.settings = compile(settings);
  }

  /**
   * Whether a user holding `roles` has `permission` on `address`: whether the most specific
   * setting covering the address grants it to one of the roles.
   */
  isAllowed(roles: ReadonlySet<string>, permission: Permission, address: string): boolean {
    const granted = this.lookup(address)?.get(permission);
    if (granted === undefined) return false;
    for (const role of roles) if (granted.has(role)) return true;
    return false;
  }

  /**
   * Puts new settings in place of the old (a redeploy): the next check uses them. Nothing changes
   * when the new settings are refused (RangeError, as in the constructor).
   */
  replace(settings: readonly SecuritySetting[]): void {
    this.settings = compile(settings);
    this.cache.clear();
    this.cachedChars = 0;
  }

  /** Addresses whose lookup is cached now. */
  get cachedAddresses(): number {
    return this.cache.size;
  }

  private lookup(address: string): Lookup {
    const cached = this.cache.get(address);
    if (cached !== undefined) {
      cached.used = true;
      return cached.lookup;
    }
    const words = splitAddress(address);
    const found = this.settings.find((setting) => setting.match.matchesWords(words))?.grants ?? null;
    this.remember(address, found);
    return found;
  }

  private remember(address: string, found: Lookup): void {
    if (this.cacheSize === 0 || address.length > MAX_CACHED_ADDRESS_CHARS) return;
    while (
      this.cache.size >= this.cacheSize ||
      this.cachedChars + address.length > MAX_CACHED_ADDRESS_CHARS
    ) {
      this.evictOne();
    }
    this.cache.set(address, { lookup: found, used: false });
    this.cachedChars += address.length;
  }

  /**
   * Drops the oldest entry not used since the scan last passed it. It ends: a pass unmarks what it
   * skips, so the next pass finds one.
   */
  private evictOne(): void {
    for (const [address, entry] of this.cache) {
      this.cache.delete(address);
      if (!entry.used) {
        this.cachedChars -= address.length;
        return;
      }
      entry.used = false;
      this.cache.set(address, entry);
    }
  }
}

function compile(settings: readonly SecuritySetting[]): CompiledSetting[] {
  const seen = new Set<string>();
  const compiled = settings.map(({ match, permissions }) => {
    if (seen.has(match)) throw invalidValue(`security settings: match '${match}' is given twice`);
    seen.add(match);
    const grants = new Map<Permission, ReadonlySet<string>>();
    for (const [permission, roles] of permissions) {
      if (!PERMISSIONS.includes(permission))
        throw invalidValue(
          `security settings for match '${match}': unknown permission '${String(permission)}' (expected one of: ${PERMISSIONS.join(', ')})`,
        );
      grants.set(permission, new Set(roles));
    }
    return { match: new AddressMatch(match), grants };
  });
  return compiled.sort((a, b) => AddressMatch.compareSpecificity(a.match, b.match));
}
