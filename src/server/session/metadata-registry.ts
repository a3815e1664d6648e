import { HornetQException } from '../../core/protocol';

/**
 * Key/value pairs that at most one session may hold at a time (a JMS client id): the broker is
 * the one place that sees every connection, so uniqueness is decided here. A session holds one
 * value per key, as in HornetQ's session metadata: setting a key again replaces its value. What
 * one owner holds is bounded by its session's metadata (SessionMetadata.checkRoomFor, checked
 * before a pair is added here).
 */
export class MetadataRegistry<Owner> {
  private readonly holders = new Map<string, Owner>();
  /** What each owner holds, key to pair: a release touches only its own pairs. */
  private readonly held = new Map<Owner, Map<string, string>>();

  /** Pairs held over all owners. */
  get size(): number {
    return this.holders.size;
  }

  /** Records the pair for `owner`; DUPLICATE_METADATA while another owner holds it. */
  add(owner: Owner, key: string, data: string): void {
    const pair = `${key}\u0000${data}`;
    const holder = this.holders.get(pair);
    if (holder !== undefined && holder !== owner) {
      throw new HornetQException('DUPLICATE_METADATA', `Metadata ${key}=${data} had been set already`);
    }
    const pairs = this.held.get(owner) ?? new Map<string, string>();
    const previous = pairs.get(key);
    if (previous !== undefined && previous !== pair) this.holders.delete(previous);
    pairs.set(key, pair);
    this.held.set(owner, pairs);
    this.holders.set(pair, owner);
  }

  /** Releases every pair `owner` holds (its session closed). */
  release(owner: Owner): void {
    for (const pair of this.held.get(owner)?.values() ?? []) this.holders.delete(pair);
    this.held.delete(owner);
  }
}
