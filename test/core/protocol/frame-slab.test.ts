import { CoreMessage } from '../../../src/core/protocol/core-message';
import { FrameSlab } from '../../../src/core/protocol/frame-slab';
import { decodeFrame, encodePacket } from '../../../src/core/protocol/packet-codec';
import { PacketType } from '../../../src/core/protocol/packet-type';
import type { Packet } from '../../../src/core/protocol/packets';

function send(body: Buffer): Packet {
  const message = new CoreMessage();
  message.address = 'jms.queue.q';
  message.body = body;
  return { type: PacketType.SESS_SEND, message, requiresResponse: false };
}

describe('FrameSlab', () => {
  it('carves frames side by side, each decoding to what was encoded', () => {
    const slab = new FrameSlab();
    const frames = [0, 1, 2].map((i) => encodePacket(10, send(Buffer.alloc(100, i)), slab));
    expect(frames[1]?.buffer).toBe(frames[0]?.buffer);
    expect(frames[1]?.byteOffset).toBe((frames[0] as Buffer).byteOffset + (frames[0] as Buffer).length);
    frames.forEach((frame, i) => {
      const packet = decodeFrame(frame).packet;
      expect(packet.type === PacketType.SESS_SEND && packet.message.body).toEqual(Buffer.alloc(100, i));
    });
  });

  it('never writes over a frame already handed out, however many follow', () => {
    const slab = new FrameSlab();
    const first = encodePacket(10, send(Buffer.alloc(500, 7)), slab);
    const copy = Buffer.from(first);
    for (let i = 0; i < 2000; i++) encodePacket(10, send(Buffer.alloc(500, i % 256)), slab);
    expect(first).toEqual(copy);
  });

  it('gives a frame too large to share a slab a buffer of its own', () => {
    const slab = new FrameSlab(64 * 1024);
    const small = encodePacket(10, send(Buffer.alloc(10)), slab);
    const large = encodePacket(10, send(Buffer.alloc(40 * 1024)), slab);
    expect(large.buffer).not.toBe(small.buffer);
    expect(decodeFrame(large).size).toBe(large.length);
    const next = encodePacket(10, send(Buffer.alloc(10)), slab);
    expect(next.byteOffset).toBe(small.byteOffset + small.length);
  });

  it('encodes a packet larger than its estimate (the writer outgrows its room)', () => {
    const slab = new FrameSlab(1024);
    encodePacket(10, send(Buffer.alloc(200)), slab);
    const packet: Packet = {
      type: PacketType.SESS_BINDINGQUERY_RESP,
      exists: true,
      queueNames: Array.from({ length: 100 }, (_, i) => `jms.queue.some-long-queue-name-${i}`),
    };
    const frame = encodePacket(10, packet, slab);
    expect(decodeFrame(frame).packet).toEqual(packet);
  });

  it('starts small: an idle connection holds a few KiB, not a full slab', () => {
    const slab = new FrameSlab();
    const ping = encodePacket(0, { type: PacketType.PING, connectionTtl: 60_000 }, slab);
    expect(ping.buffer.byteLength).toBeLessThanOrEqual(4 * 1024);
  });
});
