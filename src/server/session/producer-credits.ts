import type { Packet } from '../../core/protocol';
import { PacketType } from '../../core/protocol/packet-type';
import type { AddressSize } from '../postoffice/address-size';

/** The most credits one SESS_PRODUCER_CREDITS carries (an int on the wire). */
export const MAX_CREDITS = 2_147_483_647;

/** What granting credits needs from the post office: which names it keeps, and address sizes. */
export interface CreditAddresses {
  acceptsName(address: string): boolean;
  addressSize(address: string): AddressSize;
}

/**
 * Answers a session's producer credit requests: credits are granted while the address has room;
 * with BLOCK the grant waits for room, with PAGE for the address' pages to be written (see
 * AddressSize.whenRoom), with FAIL a full address answers with fail-credits so the
 * client refuses the send itself. One waiting grant per address adds up every request for it, so
 * a client that keeps asking while the address is full costs nothing more.
 */
export class ProducerCredits {
  /** Credits asked for and not yet granted (BLOCK: no room; PAGE: pages being written), by address. */
  private readonly pending = new Map<string, { credits: number; grant: () => void }>();
  private closed = false;

  constructor(
    private readonly addresses: CreditAddresses,
    /** Writes an answer to the session's client. */
    private readonly send: (packet: Packet) => void,
  ) {}

  request(address: string, credits: number): void {
    if (!this.addresses.acceptsName(address)) {
      // Nothing is kept for a name too long: the send itself is refused, and says why.
      this.send({ type: PacketType.SESS_PRODUCER_CREDITS, address, credits });
      return;
    }
    const addressSize = this.addresses.addressSize(address);
    if (addressSize.isFull() && addressSize.policy === 'FAIL') {
      this.send({ type: PacketType.SESS_PRODUCER_FAIL_CREDITS, address, credits });
      return;
    }
    const waiting = this.pending.get(address);
    if (waiting !== undefined) {
      // Capped at what the answer can carry (a Java int); an honest client asks for far less.
      waiting.credits = Math.min(waiting.credits + credits, MAX_CREDITS);
      return;
    }
    const grant = (): void => this.grant(address);
    this.pending.set(address, { credits, grant });
    // Waits under BLOCK for room, under PAGE for the page store's writes (see AddressSize.mustWait).
    addressSize.whenRoom(grant);
  }

  /** The session closed: waiting grants leave their addresses' queues, and none is sent. */
  close(): void {
    this.closed = true;
    for (const [address, { grant }] of this.pending) {
      this.addresses.addressSize(address).cancelWaiting(new Set([grant]));
    }
    this.pending.clear();
  }

  /** Sends every credit asked for the address since its grant began to wait. */
  private grant(address: string): void {
    const waiting = this.pending.get(address);
    if (waiting === undefined) return;
    this.pending.delete(address);
    if (!this.closed)
      this.send({ type: PacketType.SESS_PRODUCER_CREDITS, address, credits: waiting.credits });
  }
}
