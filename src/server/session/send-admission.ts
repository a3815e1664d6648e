import { HornetQException, type CoreMessage } from '../../core/protocol';
import { REJECT_HEADROOM_BYTES } from '../postoffice/address-settings';
import type { AddressSize } from '../postoffice/address-size';
import type { PreparedRoute } from '../postoffice/post-office';
import { MAX_CHUNK_BYTES, deliveryFrameBound, largestDeliveryFrameBytes } from './delivery-frames';

/** What admission needs from the post office: names, address sizes, routing and move copies. */
export interface AdmissionRouter {
  /** Throws when `name` is not one the broker keeps (too long). */
  checkName(what: 'address', name: string): void;
  addressSize(address: string): AddressSize;
  prepare(message: CoreMessage): PreparedRoute;
  /** No fewer bytes than a move to a dead-letter or expiry address adds to the message. */
  moveGrowthBound(route: PreparedRoute): number;
  /** The largest copies the message may become on its way to a dead-letter or expiry address. */
  largestMoveCopies(route: PreparedRoute): CoreMessage[];
}

/**
 * Decides whether a message sent to the broker is taken: its address name must be one the broker
 * keeps, its address must have room (or, under DROP, the message is silently dropped), and every
 * delivery of it must fit in a frame. Checked before the message is stored or held in a
 * transaction, so that nothing the broker accepted can be stuck in it for good.
 */
export class SendAdmission {
  constructor(
    private readonly router: AdmissionRouter,
    /** The frame cap of the session's connection now (a reattach moves the session to another). */
    private readonly maxFrameBytes: () => number,
  ) {}

  /** The message's route, or null when the address drops it; throws when it is refused. */
  admit(message: CoreMessage): PreparedRoute | null {
    this.router.checkName('address', message.address);
    const addressSize = this.router.addressSize(message.address);
    const admission = addressSize.admit();
    if (admission === 'refuse') throw addressFull(addressSize);
    if (admission === 'drop') return null;
    const route = this.router.prepare(message);
    this.refuseUndeliverable(route);
    return route;
  }

  /**
   * Refuses a message that some delivery could not frame: the message as routed, whole or as the
   * head of a large message (a body goes in chunks, its properties never do), and the copies it
   * may become on its way to a dead-letter or expiry address. Sent frames are capped like
   * delivered ones, but a delivery frame is larger (consumer id, delivery count, and the headers a
   * move adds), so without this a message the broker accepted could never leave it.
   */
  private refuseUndeliverable(route: PreparedRoute): void {
    const maxFrameBytes = this.maxFrameBytes();
    // Most messages are far below the cap: a bound settles them without copying anything.
    if (deliveryFrameBound(route.message) + this.router.moveGrowthBound(route) <= maxFrameBytes) return;
    const direct = largestDeliveryFrameBytes(route.message);
    if (direct > maxFrameBytes) throw undeliverable(route, direct, maxFrameBytes, '');
    for (const copy of this.router.largestMoveCopies(route)) {
      const moved = largestDeliveryFrameBytes(copy);
      if (moved > maxFrameBytes) {
        throw undeliverable(route, moved, maxFrameBytes, ' once moved to a dead-letter or expiry address');
      }
    }
  }
}

/**
 * The refusal of a send to a full address: FAIL's at max-size-bytes, BLOCK's past the reject
 * threshold and PAGE's past the headroom of unwritten pages (a client sending without the credits
 * that would have made it wait).
 */
function addressFull(addressSize: AddressSize): HornetQException {
  if (addressSize.policy === 'BLOCK') {
    return new HornetQException(
      'ADDRESS_FULL',
      `Address ${addressSize.address} is full: it holds ${addressSize.size} bytes, over its reject threshold of ${addressSize.rejectThreshold} (max-size-bytes-reject-threshold); under BLOCK a producer must wait for credits`,
    );
  }
  if (addressSize.policy === 'PAGE') {
    return new HornetQException(
      'ADDRESS_FULL',
      `Address ${addressSize.address} is paging and more than ${REJECT_HEADROOM_BYTES} bytes of its pages wait to be written; under PAGE a producer must wait for credits`,
    );
  }
  return new HornetQException('ADDRESS_FULL', `Address ${addressSize.address} is full`);
}

/** The refusal of a message whose delivery frame would exceed the frame cap. */
function undeliverable(
  route: PreparedRoute,
  frameBytes: number,
  maxFrameBytes: number,
  when: string,
): HornetQException {
  const { message } = route;
  return new HornetQException(
    'GENERIC_EXCEPTION',
    `Message to ${route.address} refused: delivering it would take a frame of ${frameBytes} bytes${when}, over the maximum frame size of ${maxFrameBytes} bytes (its properties take ${message.properties.encodedSize()} bytes, its body ${message.body.length}; a body of ${MAX_CHUNK_BYTES} bytes or more goes in chunks, properties never do)`,
  );
}
