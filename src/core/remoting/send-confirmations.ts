/** A caller waiting for the peer to confirm one command it sent. */
export interface ConfirmationWaiter {
  resolve(): void;
  reject(error: Error): void;
}

interface Entry {
  commandId: number;
  waiter: ConfirmationWaiter;
}

/**
 * The sends whose callers wait for the peer's confirmation of their very command (a send with
 * `confirm: true`), by command id, oldest first. A confirmation of command n settles every waiter
 * up to n; a refusal naming one command settles that one alone. It holds at most one entry per
 * command in the channel's resend buffer, whose bound makes senders wait: so it is bounded too.
 */
export class SendConfirmations {
  /** In command-id order (ids grow as commands are sent), from `head` on; refused ones are holes. */
  private entries: (Entry | undefined)[] = [];
  private head = 0;
  private waiting = 0;

  /** Callers still waiting. */
  get size(): number {
    return this.waiting;
  }

  /** `waiter` settles when `commandId` is confirmed, refused or given up; ids must grow. */
  expect(commandId: number, waiter: ConfirmationWaiter): void {
    const last = this.entries[this.entries.length - 1];
    if (last !== undefined && last.commandId >= commandId) {
      throw new RangeError(
        `confirmation expected for command ${commandId} after one for command ${last.commandId}: ids must grow`,
      );
    }
    this.entries.push({ commandId, waiter });
    this.waiting++;
  }

  /** The peer confirmed every command up to `lastCommandId`: their callers resolve. */
  confirmUpTo(lastCommandId: number): void {
    while (this.head < this.entries.length) {
      const entry = this.entries[this.head];
      if (entry !== undefined && entry.commandId > lastCommandId) break;
      this.advance();
      if (entry !== undefined) {
        this.waiting--;
        entry.waiter.resolve();
      }
    }
  }

  /** The peer refused `commandId`: its caller rejects with `error`; false when nobody waits for it. */
  refuse(commandId: number, error: Error): boolean {
    const waiter = this.take(commandId);
    if (waiter === undefined) return false;
    waiter.reject(error);
    return true;
  }

  /** Takes the waiter of `commandId` out (to wait for another command instead); undefined if none. */
  take(commandId: number): ConfirmationWaiter | undefined {
    const index = this.indexOf(commandId);
    if (index < 0) return undefined;
    const entry = this.entries[index] as Entry;
    this.entries[index] = undefined;
    this.waiting--;
    if (index === this.head) this.skipHoles();
    return entry.waiter;
  }

  /** Every caller still waiting rejects with `error` (the commands' fate cannot be known any more). */
  rejectAll(error: Error): void {
    const entries = this.entries.slice(this.head);
    this.entries = [];
    this.head = 0;
    this.waiting = 0;
    for (const entry of entries) entry?.waiter.reject(error);
  }

  /** Binary search: the entries are in command-id order. */
  private indexOf(commandId: number): number {
    let low = this.head;
    let high = this.entries.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      let probe = middle;
      // A hole carries no id: the nearest entry after it (or before) decides the direction.
      while (probe <= high && this.entries[probe] === undefined) probe++;
      if (probe > high) {
        high = middle - 1;
        continue;
      }
      const id = (this.entries[probe] as Entry).commandId;
      if (id === commandId) return probe;
      if (id < commandId) low = probe + 1;
      else high = middle - 1;
    }
    return -1;
  }

  private skipHoles(): void {
    while (this.head < this.entries.length && this.entries[this.head] === undefined) this.advance();
  }

  /** Drops the head; compacts once the dead prefix is large, so the array does not grow for ever. */
  private advance(): void {
    this.entries[this.head++] = undefined;
    if (this.head === this.entries.length) {
      this.entries = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}
