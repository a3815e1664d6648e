import fc from 'fast-check';
import { FrameDecoder } from '../../../src/core/protocol/frame-decoder';
import { decodeFrame, encodePacket, type Frame } from '../../../src/core/protocol/packet-codec';
import { ProtocolError } from '../../../src/core/protocol/protocol-error';
import { seededRandom } from '../../support/fault-proxy';
import { mutateFrame } from '../../support/frame-mutations';
import { anyPacket, channelId, describePacket } from './arbitraries';

/**
 * The codec alone against mutated frames (the mutations the broker fuzz test uses): whatever the
 * bytes, decoding either yields packets or throws a ProtocolError, never anything else; and what
 * it yields is a packet the codec can send again, as the broker forwards what it received.
 */

/** Runs `bytes` through a frame decoder and the packet decoder; returns the frames, or the error. */
function decodeStream(bytes: Buffer, maxFrameBytes: number): { frames: Frame[]; error: unknown } {
  const frames: Frame[] = [];
  try {
    new FrameDecoder(maxFrameBytes).feed(bytes, (frame) => frames.push(decodeFrame(frame, true)));
    return { frames, error: null };
  } catch (error) {
    return { frames, error };
  }
}

const mutated = fc
  .tuple(anyPacket, channelId, anyPacket, fc.integer({ min: 0, max: 2 ** 32 - 1 }))
  .map(([packet, channel, donor, seed]) => {
    const random = seededRandom(seed);
    const frame = encodePacket(channel, packet);
    return { seed, ...mutateFrame(frame, random, encodePacket(channel, donor)) };
  });

describe('decoding mutated frames', () => {
  test('throws nothing but ProtocolError, and what decodes re-encodes to the same packet', () => {
    fc.assert(
      fc.property(mutated, ({ bytes }) => {
        const { frames, error } = decodeStream(bytes, 1024 * 1024);
        if (error !== null && !(error instanceof ProtocolError)) throw error;
        for (const frame of frames) {
          const again = decodeFrame(encodePacket(frame.channelId, frame.packet));
          expect(describePacket(again.packet)).toEqual(describePacket(frame.packet));
        }
      }),
      { numRuns: 3000 },
    );
  });
});
