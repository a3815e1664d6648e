/**
 * Bytes of unfinished frames held across many frame decoders (a broker's connections), up to a
 * limit. Each connection's own frames are bounded by the largest frame; this bounds them all
 * together, so that many connections each holding most of a big frame, and never finishing it,
 * cannot make the broker hold their sum.
 */
export class InputBudget {
  private held = 0;

  constructor(readonly limitBytes: number) {}

  /** Bytes held now, over every decoder sharing this budget. */
  get heldBytes(): number {
    return this.held;
  }

  /** Takes `bytes` if they fit under the limit; false (taking nothing) if they do not. */
  tryTake(bytes: number): boolean {
    if (this.held + bytes > this.limitBytes) return false;
    this.held += bytes;
    return true;
  }

  /** Gives back bytes taken before. */
  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}
