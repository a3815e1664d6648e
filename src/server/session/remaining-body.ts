import type { BodyChunk } from '../../core/protocol/large-body-chunks';
import { PacketType } from '../../core/protocol/packet-type';
import type { DeliveryChannel } from './delivery-writer';

/**
 * The chunks of a large message's body still to go to its consumer. They go as the consumer's
 * credits allow (HornetQ's LargeMessageDeliverer), so that a body far larger than the window is
 * not written, and held for replay, all at once.
 */
export class RemainingBody {
  private next: IteratorResult<BodyChunk>;

  constructor(
    private readonly channel: DeliveryChannel,
    private readonly consumerId: number,
    private readonly chunks: Iterator<BodyChunk>,
  ) {
    this.next = chunks.next();
  }

  get done(): boolean {
    return this.next.done === true;
  }

  /** Writes the next chunk; returns the bytes of its frame, length field included. */
  writeNext(): number {
    if (this.next.done === true) throw new Error('the large body was written already');
    const { chunk, continues } = this.next.value;
    this.next = this.chunks.next();
    return this.channel.send({
      type: PacketType.SESS_RECEIVE_CONTINUATION,
      chunk,
      continues,
      consumerId: this.consumerId,
    });
  }
}
