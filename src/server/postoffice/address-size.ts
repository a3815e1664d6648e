import { REJECT_HEADROOM_BYTES, type AddressSettings } from './address-settings';

/** The settings an address' size is checked against. */
export type AddressSizeSettings = Pick<
  AddressSettings,
  'maxSizeBytes' | 'addressFullPolicy' | 'maxSizeBytesRejectThreshold'
>;

/** What becomes of a message sent to an address now (see AddressSize.admit). */
export type SendAdmission = 'accept' | 'drop' | 'refuse';

/** Bytes of pages an address' page store has sealed and not yet written out (see PagingManager). */
export type PageWriteBacklog = (address: string) => number;

const NO_PAGE_WRITES: PageWriteBacklog = () => 0;

/**
 * Bytes of messages an address holds, against its max-size-bytes. Producers get credits only
 * while there is room (BLOCK waits for room; FAIL refuses); messages leaving the address make room.
 * Under PAGE a full address pages instead, and producers wait only while its page store is behind
 * with its writes (slow, or failing: a full disk), so that what waits to be written stays about
 * one page.
 */
export class AddressSize {
  private bytes = 0;
  private waiting: Array<() => void> = [];

  constructor(
    readonly address: string,
    private readonly settings: AddressSizeSettings,
    private readonly pageWriteBacklog: PageWriteBacklog = NO_PAGE_WRITES,
    /** An action began to wait here: whoever keeps sizes must keep this one until it is released. */
    private readonly onWaiting: (size: AddressSize) => void = () => undefined,
  ) {}

  get size(): number {
    return this.bytes;
  }

  get policy(): AddressSettings['addressFullPolicy'] {
    return this.settings.addressFullPolicy;
  }

  /**
   * Room in memory for one more message: below max-size-bytes, or holding nothing at all (as
   * BLOCK's wait: see mustWait). A PAGE address without room pages what is routed to it.
   */
  hasRoom(): boolean {
    return this.bytes === 0 || !this.isFull();
  }

  isFull(): boolean {
    return this.settings.maxSizeBytes >= 0 && this.bytes >= this.settings.maxSizeBytes;
  }

  /**
   * Whether a send may add to the address now. A full address refuses it under FAIL and drops it
   * under DROP. Under BLOCK honest clients are held back by credits, so a send is refused only
   * past the reject threshold, which only a client that ignores credits reaches; likewise under
   * PAGE once more than REJECT_HEADROOM_BYTES of pages wait to be written.
   */
  admit(): SendAdmission {
    const full = this.isFull();
    switch (this.settings.addressFullPolicy) {
      case 'FAIL':
        return full ? 'refuse' : 'accept';
      case 'DROP':
        return full ? 'drop' : 'accept';
      case 'BLOCK':
        return this.beyondRejectThreshold() ? 'refuse' : 'accept';
      case 'PAGE':
        return this.pageWriteBacklog(this.address) > REJECT_HEADROOM_BYTES ? 'refuse' : 'accept';
    }
  }

  /** The size past which a BLOCK address refuses sends, or -1 for none. */
  get rejectThreshold(): number {
    const { maxSizeBytes, maxSizeBytesRejectThreshold } = this.settings;
    if (maxSizeBytesRejectThreshold >= 0) return maxSizeBytesRejectThreshold;
    return maxSizeBytes < 0 ? -1 : maxSizeBytes + REJECT_HEADROOM_BYTES;
  }

  private beyondRejectThreshold(): boolean {
    const threshold = this.rejectThreshold;
    return threshold >= 0 && this.bytes > threshold;
  }

  add(bytes: number): void {
    this.bytes += bytes;
  }

  remove(bytes: number): void {
    this.bytes -= bytes;
    this.releaseIfRoom();
  }

  /** Lets waiting producers go if there is room now (a page write done, messages gone). */
  releaseIfRoom(): void {
    if (this.waiting.length > 0 && !this.mustWait()) this.releaseWaiting();
  }

  /** Nothing counted and nobody waiting: the address' table need not keep it (see AddressSizeTable). */
  get isIdle(): boolean {
    return this.bytes === 0 && this.waiting.length === 0;
  }

  /** Runs `action` now if there is room, else once there is (BLOCK; PAGE behind with its writes). */
  whenRoom(action: () => void): void {
    if (!this.mustWait()) {
      action();
      return;
    }
    this.waiting.push(action);
    this.onWaiting(this);
  }

  /**
   * An address that holds nothing has room, whatever its limit (as in HornetQ, BLOCK waits only
   * for messages to leave): with max-size-bytes 0 a producer would otherwise wait for ever, with
   * nothing to free, and the broker would keep a waiter for any address a client names.
   */
  private mustWait(): boolean {
    switch (this.settings.addressFullPolicy) {
      case 'BLOCK':
        return !this.hasRoom();
      case 'PAGE':
        // Pages not yet written (being written, or failing: a full disk) are held in memory: a
        // producer waits for them whatever the address holds besides, or memory has no bound.
        return this.pageWriteBacklog(this.address) > 0;
      default:
        return false;
    }
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
