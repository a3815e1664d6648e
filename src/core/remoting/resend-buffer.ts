/**
 * The frames a channel sent and its peer has not yet confirmed, oldest first. The k-th frame held
 * has command id `firstCommandId + k`. A ring of slots, so that pushing and clearing from the head
 * allocate nothing per frame once the ring has grown to the working size.
 */
export class ResendBuffer {
  private slots: (Buffer | undefined)[] = new Array<Buffer | undefined>(64);
  private head = 0;
  private count = 0;
  private heldBytes = 0;
  private peak = 0;
  /** Command id of the oldest frame held (or of the next one pushed, when empty). */
  private firstCommandId = 0;

  get bytes(): number {
    return this.heldBytes;
  }

  get peakBytes(): number {
    return this.peak;
  }

  get size(): number {
    return this.count;
  }

  /** The command id the next pushed frame gets. */
  get nextCommandId(): number {
    return this.firstCommandId + this.count;
  }

  push(frame: Buffer): void {
    if (this.count === this.slots.length) this.grow();
    this.slots[(this.head + this.count) % this.slots.length] = frame;
    this.count++;
    this.heldBytes += frame.length;
    if (this.heldBytes > this.peak) this.peak = this.heldBytes;
  }

  /**
   * Whether `lastConfirmedId` is a count this buffer can agree with: at least the last id it has
   * already dropped (what the peer confirmed before), at most the last id it sent. A peer that
   * names more has counted commands this side never sent (HornetQ and Artemis do, when a reattach
   * answer named a command older than one they had executed and the replay made them execute it
   * again); one that names less has forgotten commands whose frames are gone. Either way the two
   * numberings no longer match, and nothing the peer confirms can be mapped onto frames here.
   */
  accounts(lastConfirmedId: number): boolean {
    return lastConfirmedId >= this.firstCommandId - 1 && lastConfirmedId < this.nextCommandId;
  }

  /**
   * Drops every frame up to and including `lastConfirmedId`; returns how many were dropped. Only
   * what is held is dropped: a confirmation beyond what was sent never moves the numbering on
   * (HornetQ's buffer adopts the peer's count there, which makes every later frame's number wrong
   * by as much; the caller checks `accounts` first and treats such a peer as a broken numbering).
   */
  clearUpTo(lastConfirmedId: number): number {
    const wanted = lastConfirmedId + 1 - this.firstCommandId;
    if (wanted <= 0) return 0;
    const toClear = Math.min(wanted, this.count);
    for (let i = 0; i < toClear; i++) {
      const index = (this.head + i) % this.slots.length;
      this.heldBytes -= (this.slots[index] as Buffer).length;
      this.slots[index] = undefined;
    }
    this.head = (this.head + toClear) % this.slots.length;
    this.count -= toClear;
    this.firstCommandId += toClear;
    return toClear;
  }

  /** The frames still held, oldest first: what a reattach replays. */
  *frames(): IterableIterator<Buffer> {
    for (let i = 0; i < this.count; i++) yield this.slots[(this.head + i) % this.slots.length] as Buffer;
  }

  /** Forgets everything and restarts the count at 0: a re-created session starts afresh. */
  reset(): void {
    this.slots = new Array<Buffer | undefined>(64);
    this.head = 0;
    this.count = 0;
    this.heldBytes = 0;
    this.firstCommandId = 0;
  }

  private grow(): void {
    const grown = new Array<Buffer | undefined>(this.slots.length * 2);
    for (let i = 0; i < this.count; i++) grown[i] = this.slots[(this.head + i) % this.slots.length];
    this.slots = grown;
    this.head = 0;
  }
}
