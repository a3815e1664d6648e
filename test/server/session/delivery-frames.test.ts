import fc from 'fast-check';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import {
  CONTINUATION_FRAME_OVERHEAD,
  decodeFrame,
  deliveryFrameBytes,
  encodePacket,
  largeDeliveryFrameBytes,
} from '../../../src/core/protocol/packet-codec';
import { PacketType } from '../../../src/core/protocol/packet-type';
import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import {
  MAX_CHUNK_BYTES,
  chunkBytesFor,
  deliveryFrameBound,
  largeMessageHead,
  largestDeliveryFrameBytes,
} from '../../../src/server/session/delivery-frames';
import { coreMessage } from '../../core/protocol/arbitraries';

/** The message as the broker holds it: decoded from a send, so that it carries its wire image. */
function received(message: CoreMessage): CoreMessage {
  const frame = encodePacket(10, { type: PacketType.SESS_SEND, message, requiresResponse: false });
  const packet = decodeFrame(frame, true).packet;
  if (packet.type !== PacketType.SESS_SEND) throw new Error('not a send');
  return packet.message;
}

/** The first frame a consumer with min-large-message-size `threshold` gets (see DeliveryWriter.deliver). */
function firstDeliveryFrame(message: CoreMessage, threshold: number): number {
  const common = { consumerId: 1, deliveryCount: 1 };
  if (message.body.length < Math.min(threshold, MAX_CHUNK_BYTES))
    return encodePacket(10, { type: PacketType.SESS_RECEIVE_MSG, ...common, message }).length;
  return encodePacket(10, {
    type: PacketType.SESS_RECEIVE_LARGE_MSG,
    ...common,
    largeMessageSize: message.body.length,
    message: largeMessageHead(message),
  }).length;
}

function withProperty(value: string, body: Buffer): CoreMessage {
  const message = new CoreMessage();
  message.address = 'jms.queue.q';
  message.properties.set('p', { kind: PropertyKind.STRING, value });
  message.body = body;
  return message;
}

describe('delivery frame sizes', () => {
  it('deliveryFrameBytes and largeDeliveryFrameBytes are the sizes of the frames encoded', () => {
    fc.assert(
      fc.property(coreMessage, (built) => {
        const message = received(built);
        const common = { consumerId: 7, deliveryCount: 3 };
        expect(deliveryFrameBytes(message)).toBe(
          encodePacket(10, { type: PacketType.SESS_RECEIVE_MSG, ...common, message }).length,
        );
        const head = largeMessageHead(message);
        expect(largeDeliveryFrameBytes(head)).toBe(
          encodePacket(10, {
            type: PacketType.SESS_RECEIVE_LARGE_MSG,
            ...common,
            largeMessageSize: 1,
            message: head,
          }).length,
        );
      }),
    );
  });

  it('the largest delivery is the largest first frame over every threshold a consumer may have, and the bound is above it', () => {
    fc.assert(
      fc.property(coreMessage, (built) => {
        const message = received(built);
        const length = message.body.length;
        const thresholds = [1, length, length + 1, MAX_CHUNK_BYTES].filter((t) => t >= 1);
        const frames = thresholds.map((threshold) => firstDeliveryFrame(message, threshold));
        expect(largestDeliveryFrameBytes(message)).toBe(Math.max(...frames));
        expect(deliveryFrameBound(message)).toBeGreaterThanOrEqual(largestDeliveryFrameBytes(message));
      }),
    );
  });

  it('a head re-encoded from what was received never outgrows it: strings are UTF-16 units, kept as they came', () => {
    fc.assert(
      fc.property(coreMessage, (built) => {
        const message = received(built);
        const head = largeMessageHead(message);
        expect(largeDeliveryFrameBytes(head)).toBeLessThanOrEqual(deliveryFrameBound(message));
        expect(deliveryFrameBytes(message)).toBeLessThanOrEqual(deliveryFrameBound(message));
      }),
    );
  });

  it('an empty body always goes whole; a body of MAX_CHUNK_BYTES or more always as a head', () => {
    const empty = received(withProperty('v', Buffer.alloc(0)));
    expect(largestDeliveryFrameBytes(empty)).toBe(deliveryFrameBytes(empty));
    const big = received(withProperty('v', Buffer.alloc(MAX_CHUNK_BYTES)));
    expect(largestDeliveryFrameBytes(big)).toBe(largeDeliveryFrameBytes(largeMessageHead(big)));
  });

  it('chunks are cut to fit the frame cap', () => {
    expect(chunkBytesFor(100 * 1024, 10 * 1024 * 1024)).toBe(100 * 1024);
    expect(chunkBytesFor(MAX_CHUNK_BYTES, 256 * 1024)).toBe(256 * 1024 - CONTINUATION_FRAME_OVERHEAD);
    const chunk = Buffer.alloc(chunkBytesFor(MAX_CHUNK_BYTES, 256 * 1024));
    const frame = encodePacket(10, {
      type: PacketType.SESS_RECEIVE_CONTINUATION,
      consumerId: 1,
      chunk,
      continues: true,
    });
    expect(frame.length).toBe(256 * 1024);
  });
});
