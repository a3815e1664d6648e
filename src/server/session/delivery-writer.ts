import type { CoreMessage, Packet } from '../../core/protocol';
import { largeBodyChunks } from '../../core/protocol/large-body-chunks';
import { PacketType } from '../../core/protocol/packet-type';
import { MAX_CHUNK_BYTES, chunkBytesFor, largeMessageHead } from './delivery-frames';
import { RemainingBody } from './remaining-body';

/**
 * Where deliveries are written: the session's channel. The frame cap is asked for on every
 * delivery, not once, because a reattached session's channel moves to another connection.
 */
export interface DeliveryChannel {
  /** Sends the packet; returns the bytes of its frame, length field included. */
  send(packet: Packet): number;
  maxFrameBytes(): number;
}

/** A delivery's first frame: its bytes, and the body still to write when the message is large. */
export interface Delivery {
  frameBytes: number;
  remainingBody: RemainingBody | null;
}

/**
 * Writes deliveries to a consumer's client the way HornetQ does: a body under the client's
 * min-large-message-size goes whole (SESS_RECEIVE_MSG); a larger one goes as a head without its
 * body (SESS_RECEIVE_LARGE_MSG), its body following in chunks that each fit in a frame.
 */
export class DeliveryWriter {
  private readonly minLargeMessageSize: number;

  constructor(
    private readonly channel: DeliveryChannel,
    /** The client's min-large-message-size. */
    minLargeMessageSize: number,
  ) {
    // Capped so that a client asking for a huge threshold still gets frames well under the cap.
    this.minLargeMessageSize = Math.min(minLargeMessageSize, MAX_CHUNK_BYTES);
  }

  /**
   * Writes one delivery's first frame (what HornetQ charges the consumer's credits: the whole
   * SESS_RECEIVE_MSG frame, or the head's, each chunk's frame being charged as it goes).
   */
  deliver(consumerId: number, message: CoreMessage, deliveryCount: number): Delivery {
    if (message.body.length < this.minLargeMessageSize) {
      const frameBytes = this.channel.send({
        type: PacketType.SESS_RECEIVE_MSG,
        message,
        consumerId,
        deliveryCount,
      });
      return { frameBytes, remainingBody: null };
    }
    const frameBytes = this.channel.send({
      type: PacketType.SESS_RECEIVE_LARGE_MSG,
      consumerId,
      deliveryCount,
      largeMessageSize: message.body.length,
      message: largeMessageHead(message),
    });
    const chunkBytes = chunkBytesFor(this.minLargeMessageSize, this.channel.maxFrameBytes());
    const chunks = largeBodyChunks(message.body, chunkBytes);
    return { frameBytes, remainingBody: new RemainingBody(this.channel, consumerId, chunks) };
  }
}
