import type { CoreMessage, Packet } from '../../core/protocol';
import { largeBodyChunks } from '../../core/protocol/large-body-chunks';
import { PacketType } from '../../core/protocol/packet-type';
import { MAX_CHUNK_BYTES, chunkBytesFor, largeMessageHead } from './delivery-frames';

/**
 * Where deliveries are written: the session's channel. The frame cap is asked for on every
 * delivery, not once, because a reattached session's channel moves to another connection.
 */
export interface DeliveryChannel {
  /** Sends the packet; returns the bytes of its frame, length field included. */
  send(packet: Packet): number;
  maxFrameBytes(): number;
}

/**
 * Writes deliveries to a consumer's client the way HornetQ does: a body under the client's
 * min-large-message-size goes whole (SESS_RECEIVE_MSG); a larger one goes as a head without its
 * body (SESS_RECEIVE_LARGE_MSG) followed by the body in chunks that each fit in a frame.
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
   * Writes one delivery; returns the bytes of every frame it took (what HornetQ charges the
   * consumer's credits: the whole SESS_RECEIVE_MSG frame, or the head's frame and each chunk's).
   */
  deliver(consumerId: number, message: CoreMessage, deliveryCount: number): number {
    if (message.body.length < this.minLargeMessageSize) {
      return this.channel.send({ type: PacketType.SESS_RECEIVE_MSG, message, consumerId, deliveryCount });
    }
    let frameBytes = this.channel.send({
      type: PacketType.SESS_RECEIVE_LARGE_MSG,
      consumerId,
      deliveryCount,
      largeMessageSize: message.body.length,
      message: largeMessageHead(message),
    });
    const chunkBytes = chunkBytesFor(this.minLargeMessageSize, this.channel.maxFrameBytes());
    for (const { chunk, continues } of largeBodyChunks(message.body, chunkBytes)) {
      frameBytes += this.channel.send({
        type: PacketType.SESS_RECEIVE_CONTINUATION,
        chunk,
        continues,
        consumerId,
      });
    }
    return frameBytes;
  }
}
