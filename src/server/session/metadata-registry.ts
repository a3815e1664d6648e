import { HornetQException } from '../../core/protocol';

/**
 * Key/value pairs that at most one session may hold at a time (a JMS client id): the broker is
 * the one place that sees every connection, so uniqueness is decided here.
 */
export class MetadataRegistry<Owner> {
  private readonly holders = new Map<string, Owner>();

  /** Records the pair for `owner`; DUPLICATE_METADATA while another owner holds it. */
  add(owner: Owner, key: string, data: string): void {
    const id = `${key}\u0000${data}`;
    const holder = this.holders.get(id);
    if (holder !== undefined && holder !== owner) {
      throw new HornetQException('DUPLICATE_METADATA', `Metadata ${key}=${data} had been set already`);
    }
    this.holders.set(id, owner);
  }

  /** Releases every pair `owner` holds (its session closed). */
  release(owner: Owner): void {
    for (const [id, holder] of this.holders) if (holder === owner) this.holders.delete(id);
  }
}
