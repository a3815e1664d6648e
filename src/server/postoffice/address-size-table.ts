import { AddressSize, type AddressSizeSettings, type PageWriteBacklog } from './address-size';

/**
 * The sizes of the addresses that hold messages. Clients name addresses freely (a send, a request
 * for producer credits), so an address is kept only while something is counted in it: the table is
 * bounded by the addresses whose queues hold messages, not by every name ever sent to. An address
 * that holds nothing is made afresh when asked for (its settings looked up again) and not kept.
 */
export class AddressSizeTable {
  private readonly held = new Map<string, AddressSize>();

  constructor(
    private readonly settingsFor: (address: string) => AddressSizeSettings,
    private readonly pageWriteBacklog?: PageWriteBacklog,
  ) {}

  /** Addresses kept: those with messages counted (or producers waiting for them to leave). */
  get count(): number {
    return this.held.size;
  }

  /**
   * The address' size as it is now. Use it at once (check, or wait for room): one that holds
   * nothing is not kept, so a later call may return another object.
   */
  of(address: string): AddressSize {
    return this.held.get(address) ?? this.create(address);
  }

  add(address: string, bytes: number): void {
    let size = this.held.get(address);
    if (size === undefined) {
      size = this.create(address);
      this.held.set(address, size);
    }
    size.add(bytes);
  }

  /** The address' page store has written a page: producers waiting for that may go on. */
  pageWritten(address: string): void {
    const size = this.held.get(address);
    if (size === undefined) return;
    size.releaseIfRoom();
    if (size.isIdle) this.held.delete(address);
  }

  private create(address: string): AddressSize {
    // A size holding nothing is kept once something waits on it (PAGE: pages not yet written).
    return new AddressSize(address, this.settingsFor(address), this.pageWriteBacklog, (size) => {
      if (!this.held.has(address)) this.held.set(address, size);
    });
  }

  /** Counts bytes out; an address left holding nothing (its waiters released) is forgotten. */
  remove(address: string, bytes: number): void {
    const size = this.held.get(address);
    if (size === undefined) return;
    size.remove(bytes);
    // Checked after the release: a producer granted room may already have sent more here.
    if (size.isIdle) this.held.delete(address);
  }
}
