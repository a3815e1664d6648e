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
   * Drops every frame up to and including `lastConfirmedId`; returns how many were dropped. A
   * confirmation beyond what is held clears everything and moves the first id on (HornetQ does the
   * same, with a warning, when a peer has counted packets that never went through this buffer).
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
    this.firstCommandId = lastConfirmedId + 1;
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
