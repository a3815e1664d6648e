import type { AddressSettings } from './address-settings';

/**
 * Bytes of messages an address holds, against its max-size-bytes. Producers get credits only
 * while there is room (BLOCK waits for room; FAIL refuses); messages leaving the address make room.
 */
export class AddressSize {
  private bytes = 0;
  private waiting: Array<() => void> = [];

  constructor(
    readonly address: string,
    private readonly settings: Pick<AddressSettings, 'maxSizeBytes' | 'addressFullPolicy'>,
  ) {}

  get size(): number {
    return this.bytes;
  }

  get policy(): AddressSettings['addressFullPolicy'] {
    return this.settings.addressFullPolicy;
  }

  isFull(): boolean {
    return this.settings.maxSizeBytes >= 0 && this.bytes >= this.settings.maxSizeBytes;
  }

  add(bytes: number): void {
    this.bytes += bytes;
  }

  remove(bytes: number): void {
    this.bytes -= bytes;
    if (this.waiting.length > 0 && !this.mustWait()) this.releaseWaiting();
  }

  /** Nothing counted and nobody waiting: the address' table need not keep it (see AddressSizeTable). */
  get isIdle(): boolean {
    return this.bytes === 0 && this.waiting.length === 0;
  }

  /** Runs `action` now if there is room, else once there is (BLOCK). */
  whenRoom(action: () => void): void {
    if (this.mustWait()) this.waiting.push(action);
    else action();
  }

  /**
   * An address that holds nothing has room, whatever its limit (as in HornetQ, BLOCK waits only
   * for messages to leave): with max-size-bytes 0 a producer would otherwise wait for ever, with
   * nothing to free, and the broker would keep a waiter for any address a client names.
   */
  private mustWait(): boolean {
    return this.bytes > 0 && this.isFull();
  }

  /** Forgets waiting actions that belong to a closed session. */
  cancelWaiting(actions: ReadonlySet<() => void>): void {
    this.waiting = this.waiting.filter((action) => !actions.has(action));
  }

  private releaseWaiting(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const action of waiting) this.whenRoom(action);
  }
}
