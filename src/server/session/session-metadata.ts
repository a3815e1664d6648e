import { HornetQException } from '../../core/protocol';

/**
 * Keys one session may hold metadata under. A JMS client sets two (`jms-session`, its client id);
 * the bound keeps a client that invents keys from making the broker hold a pair for each.
 */
export const MAX_METADATA_KEYS_PER_SESSION = 16;

/**
 * The key/value pairs a client attached to its session (SESS_ADD_METADATA, ADD_METADATA2 and
 * UNIQUE_ADD_METADATA: the JMS layer's `jms-session`, its client id, ...), one value per key as in
 * HornetQ. Bounded in keys, so that a client that invents keys cannot make the broker hold a pair
 * for each; the values are bounded by the frame they came in.
 */
export class SessionMetadata {
  private readonly pairs = new Map<string, string>();

  get(key: string): string | undefined {
    return this.pairs.get(key);
  }

  get size(): number {
    return this.pairs.size;
  }

  /** Sets a key (again: its value is replaced); ILLEGAL_STATE past MAX_METADATA_KEYS_PER_SESSION keys. */
  set(key: string, data: string): void {
    this.checkRoomFor(key);
    this.pairs.set(key, data);
  }

  /** ILLEGAL_STATE when `key` would be one key more than a session may hold. */
  checkRoomFor(key: string): void {
    if (!this.pairs.has(key) && this.pairs.size >= MAX_METADATA_KEYS_PER_SESSION) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        `a session may hold metadata under at most ${MAX_METADATA_KEYS_PER_SESSION} keys; '${key.slice(0, 40)}' would be one more`,
      );
    }
  }
}
