import type { Packet } from '../../../src/core/protocol';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import { encodePacket } from '../../../src/core/protocol/packet-codec';
import { PacketType } from '../../../src/core/protocol/packet-type';
import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import {
  MAX_CHUNK_BYTES,
  deliveryFrameBound,
  largestDeliveryFrameBytes,
} from '../../../src/server/session/delivery-frames';
import { DeliveryWriter } from '../../../src/server/session/delivery-writer';

const MAX_FRAME_BYTES = 4096;

function messageWithBody(bytes: number): CoreMessage {
  const message = new CoreMessage();
  message.address = 'jms.queue.q';
  message.body = Buffer.alloc(bytes, 0x61);
  return message;
}

/** A writer over a channel that keeps what it was sent, with a frame cap the test can change. */
function writerWith(minLargeMessageSize: number): {
  writer: DeliveryWriter;
  sent: Packet[];
  cap: { bytes: number };
} {
  const sent: Packet[] = [];
  const cap = { bytes: MAX_FRAME_BYTES };
  const writer = new DeliveryWriter(
    {
      send: (packet) => {
        sent.push(packet);
        return encodePacket(10, packet).length;
      },
      maxFrameBytes: () => cap.bytes,
    },
    minLargeMessageSize,
  );
  return { writer, sent, cap };
}

/** Delivers `message` and writes the rest of its body at once; returns every frame's bytes. */
function deliverWhole(
  writer: DeliveryWriter,
  consumerId: number,
  message: CoreMessage,
  count: number,
): number {
  const { frameBytes, remainingBody } = writer.deliver(consumerId, message, count);
  let total = frameBytes;
  while (remainingBody !== null && !remainingBody.done) total += remainingBody.writeNext();
  return total;
}

function bodyOf(sent: Packet[]): Buffer {
  const chunks: Buffer[] = [];
  for (const packet of sent)
    if (packet.type === PacketType.SESS_RECEIVE_CONTINUATION) chunks.push(packet.chunk);
  return Buffer.concat(chunks);
}

describe('DeliveryWriter', () => {
  it('writes a body under min-large-message-size whole, in one SESS_RECEIVE_MSG', () => {
    const { writer, sent } = writerWith(100);
    const message = messageWithBody(99);
    const { frameBytes, remainingBody } = writer.deliver(3, message, 2);
    expect(remainingBody).toBeNull();
    expect(sent).toEqual([{ type: PacketType.SESS_RECEIVE_MSG, message, consumerId: 3, deliveryCount: 2 }]);
    // What the consumer's credits are charged: the whole frame, length field included.
    expect(frameBytes).toBe(encodePacket(10, sent[0] as Packet).length);
  });

  it('writes a body of min-large-message-size or more as a bodiless head, then chunks that rebuild it', () => {
    const { writer, sent } = writerWith(100);
    const message = messageWithBody(250);
    const frameBytes = deliverWhole(writer, 3, message, 1);
    const [head, ...chunks] = sent;
    expect(head).toMatchObject({
      type: PacketType.SESS_RECEIVE_LARGE_MSG,
      consumerId: 3,
      deliveryCount: 1,
      largeMessageSize: 250,
    });
    // Credits pay for the head's frame and each chunk's.
    expect(frameBytes).toBe(sent.reduce((sum, packet) => sum + encodePacket(10, packet).length, 0));
    if (head?.type !== PacketType.SESS_RECEIVE_LARGE_MSG) throw new Error('no head');
    expect(head.message.body.length).toBe(0);
    // HornetQ's Java client reads the body size of a large message from this property.
    expect(head.message.properties.get('_HQ_LARGE_SIZE')).toEqual({ kind: PropertyKind.LONG, value: 250 });
    expect(message.body.length).toBe(250);
    expect(message.properties.has('_HQ_LARGE_SIZE')).toBe(false);
    expect(
      chunks.map((packet) => packet.type === PacketType.SESS_RECEIVE_CONTINUATION && packet.chunk.length),
    ).toEqual([100, 100, 50]);
    expect(
      chunks.map((packet) => packet.type === PacketType.SESS_RECEIVE_CONTINUATION && packet.continues),
    ).toEqual([true, true, false]);
    expect(bodyOf(sent).equals(message.body)).toBe(true);
  });

  it('writes only the head at first: each chunk goes when asked, and the body says when it is done', () => {
    const { writer, sent } = writerWith(100);
    const { frameBytes, remainingBody } = writer.deliver(3, messageWithBody(150), 1);
    expect(sent.map((packet) => packet.type)).toEqual([PacketType.SESS_RECEIVE_LARGE_MSG]);
    expect(frameBytes).toBe(encodePacket(10, sent[0] as Packet).length);
    expect(remainingBody?.done).toBe(false);
    expect(remainingBody?.writeNext()).toBe(encodePacket(10, sent[1] as Packet).length);
    expect(remainingBody?.done).toBe(false);
    remainingBody?.writeNext();
    expect(remainingBody?.done).toBe(true);
    expect(sent).toHaveLength(3);
    expect(() => remainingBody?.writeNext()).toThrow(/written already/);
  });

  it("bounds a head's frame, _HQ_LARGE_SIZE included, by deliveryFrameBound even for a one-byte body", () => {
    const { writer, sent } = writerWith(1);
    const message = messageWithBody(1);
    writer.deliver(1, message, 1);
    const head = sent[0];
    if (head?.type !== PacketType.SESS_RECEIVE_LARGE_MSG) throw new Error('no head');
    expect(encodePacket(10, head).length).toBeLessThanOrEqual(deliveryFrameBound(message));
    expect(largestDeliveryFrameBytes(message)).toBe(encodePacket(10, head).length);
  });

  it('sizes chunks to the frame cap of the moment, so every chunk frame fits after a reattach to a smaller cap', () => {
    const { writer, sent, cap } = writerWith(MAX_FRAME_BYTES);
    cap.bytes = 1024;
    const message = messageWithBody(3 * MAX_FRAME_BYTES);
    deliverWhole(writer, 1, message, 1);
    const chunkFrames = sent
      .filter((packet) => packet.type === PacketType.SESS_RECEIVE_CONTINUATION)
      .map((packet) => encodePacket(10, packet).length);
    expect(chunkFrames.length).toBeGreaterThan(3);
    expect(Math.max(...chunkFrames)).toBeLessThanOrEqual(1024);
    expect(bodyOf(sent).equals(message.body)).toBe(true);
  });

  it('caps a huge min-large-message-size at MAX_CHUNK_BYTES: such a body still goes in chunks', () => {
    const { writer, sent, cap } = writerWith(Number.MAX_SAFE_INTEGER);
    cap.bytes = 2 * MAX_CHUNK_BYTES;
    deliverWhole(writer, 1, messageWithBody(MAX_CHUNK_BYTES), 1);
    expect(sent[0]?.type).toBe(PacketType.SESS_RECEIVE_LARGE_MSG);
    expect(sent.slice(1).map((packet) => packet.type)).toEqual([PacketType.SESS_RECEIVE_CONTINUATION]);
  });
});
