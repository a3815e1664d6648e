import {
  CONTINUATION_FRAME_OVERHEAD,
  LARGE_DELIVERY_FRAME_OVERHEAD,
  MessageHeader,
  PropertyKind,
  TypedProperties,
  deliveryFrameBytes,
  largeDeliveryFrameBytes,
  type CoreMessage,
} from '../../core/protocol';

/**
 * The largest chunk of a large message body the broker writes in one frame, and so the largest
 * min-large-message-size it applies: a body of this size or more always goes in chunks.
 */
export const MAX_CHUNK_BYTES = 1024 * 1024;

const EMPTY = Buffer.alloc(0);

/**
 * What a large delivery sends first: the message without its body, which follows in chunks, and
 * with the body's size as _HQ_LARGE_SIZE, as HornetQ's server sets it (HornetQ's Java client
 * reads a large BytesMessage's length from it, and fails on a head without it).
 */
export function largeMessageHead(message: CoreMessage): CoreMessage {
  const head = message.copy();
  head.body = EMPTY;
  head.properties.set(MessageHeader.LARGE_BODY_SIZE, largeBodySize(message.body.length));
  return head;
}

function largeBodySize(bytes: number): { kind: typeof PropertyKind.LONG; value: number } {
  return { kind: PropertyKind.LONG, value: bytes };
}

/** The most a head's _HQ_LARGE_SIZE adds to the message's encoding (with the properties' own header). */
const LARGE_BODY_SIZE_BOUND = ((): number => {
  const properties = new TypedProperties();
  properties.set(MessageHeader.LARGE_BODY_SIZE, largeBodySize(0));
  return properties.encodedSize();
})();

/**
 * The bytes of body each chunk of a large delivery carries: the consumer's threshold, or less
 * where a chunk that size would not fit in a frame of `maxFrameBytes`.
 */
export function chunkBytesFor(threshold: number, maxFrameBytes: number): number {
  return Math.min(threshold, maxFrameBytes - CONTINUATION_FRAME_OVERHEAD);
}

/**
 * The largest frame any consumer's delivery of `message` takes (chunks aside: they are sized to
 * fit). A body under the consumer's min-large-message-size goes whole (SESS_RECEIVE_MSG), one at
 * or over it as a head (SESS_RECEIVE_LARGE_MSG) and chunks. Thresholds run from 1 to
 * MAX_CHUNK_BYTES, so an empty body always goes whole, a body of MAX_CHUNK_BYTES or more always
 * as a head, and anything between either way, depending on the consumer.
 */
export function largestDeliveryFrameBytes(message: CoreMessage): number {
  const length = message.body.length;
  const whole = length < MAX_CHUNK_BYTES ? deliveryFrameBytes(message) : 0;
  const head = length > 0 ? largeDeliveryFrameBytes(largeMessageHead(message)) : 0;
  return Math.max(whole, head);
}

/**
 * At least largestDeliveryFrameBytes(message), found without copying anything: for the many
 * messages far below the cap, which need no exact answer. A message delivered as received is its
 * received bytes again; one the broker re-encodes (a head, a moved copy) comes out no larger,
 * since every string in a message is a SimpleString (UTF-16 units, which decode and re-encode to
 * the same bytes) and a head drops the body and its two offsets but adds _HQ_LARGE_SIZE. A head's
 * frame overhead is the larger, so it bounds both.
 */
export function deliveryFrameBound(message: CoreMessage): number {
  return LARGE_DELIVERY_FRAME_OVERHEAD + message.encodedSize() + LARGE_BODY_SIZE_BOUND;
}
