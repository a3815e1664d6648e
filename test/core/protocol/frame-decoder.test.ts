import fc from 'fast-check';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import {
  DEFAULT_MAX_FRAME_BYTES,
  DEFAULT_PRE_AUTH_MAX_FRAME_BYTES,
  FRAME_HEADER_BYTES,
  FrameDecoder,
  HORNETQ_PREAMBLE,
} from '../../../src/core/protocol/frame-decoder';
import { InputBudget } from '../../../src/core/protocol/input-budget';
import { decodeFrame, encodePacket } from '../../../src/core/protocol/packet-codec';
import { PacketType } from '../../../src/core/protocol/packet-type';
import type { Packet } from '../../../src/core/protocol/packets';
import { ProtocolError } from '../../../src/core/protocol/protocol-error';
import { anyPacket, channelId, describePacket } from './arbitraries';

/** Feeds `chunks` in order and returns copies of every frame emitted, as hex for readable diffs. */
function framesFrom(chunks: Buffer[], decoder = new FrameDecoder()): string[] {
  const frames: Buffer[] = [];
  for (const chunk of chunks) decoder.feed(chunk, (frame) => frames.push(frame));
  // Compared only after every chunk is fed: a frame must not change when later bytes arrive.
  return frames.map((frame) => frame.toString('hex'));
}

function expectProtocolError(action: () => void, pattern: RegExp): void {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ProtocolError);
  expect((thrown as ProtocolError).message).toMatch(pattern);
}

function sendOfBodySize(bodyBytes: number): Packet {
  const message = new CoreMessage();
  message.address = 'jms.queue.big';
  message.body = Buffer.alloc(bodyBytes, 0x5a);
  return { type: PacketType.SESS_SEND, message, requiresResponse: false };
}

/** A 4-byte length field announcing `length` bytes after it. */
function lengthField(length: number): Buffer {
  const header = Buffer.alloc(4);
  header.writeInt32BE(length, 0);
  return header;
}

const SAMPLE_FRAMES = [
  encodePacket(0, { type: PacketType.PING, connectionTtl: 60000 }),
  encodePacket(1, { type: PacketType.SESS_COMMIT }),
  encodePacket(12, { type: PacketType.DISCONNECT, nodeId: 'bye 👋' }),
  encodePacket(Number.MAX_SAFE_INTEGER, {
    type: PacketType.SESS_ROLLBACK,
    considerLastMessageAsDelivered: true,
  }),
];
const SAMPLE_HEX = SAMPLE_FRAMES.map((frame) => frame.toString('hex'));
const STREAM = Buffer.concat(SAMPLE_FRAMES);

describe('FrameDecoder', () => {
  it('uses the documented limits', () => {
    expect(FRAME_HEADER_BYTES).toBe(13);
    expect(DEFAULT_MAX_FRAME_BYTES).toBe(10 * 1024 * 1024);
    expect(DEFAULT_PRE_AUTH_MAX_FRAME_BYTES).toBe(16 * 1024);
    expect(new FrameDecoder().maxFrameBytes).toBe(DEFAULT_MAX_FRAME_BYTES);
  });

  describe('splitting a stream', () => {
    it('returns frames fed whole, one per chunk', () => {
      expect(framesFrom(SAMPLE_FRAMES)).toEqual(SAMPLE_HEX);
    });

    it('returns every frame of one chunk holding several', () => {
      expect(framesFrom([STREAM])).toEqual(SAMPLE_HEX);
    });

    it('returns the same frames whichever byte boundary the stream is split at', () => {
      for (let cut = 0; cut <= STREAM.length; cut++) {
        expect(framesFrom([STREAM.subarray(0, cut), STREAM.subarray(cut)])).toEqual(SAMPLE_HEX);
      }
    });

    it('returns the same frames for every pair of split points (cuts inside the length field included)', () => {
      const two = Buffer.concat(SAMPLE_FRAMES.slice(0, 2));
      const expected = SAMPLE_HEX.slice(0, 2);
      for (let first = 0; first <= two.length; first++) {
        for (let second = first; second <= two.length; second++) {
          const chunks = [two.subarray(0, first), two.subarray(first, second), two.subarray(second)];
          expect(framesFrom(chunks)).toEqual(expected);
        }
      }
    });

    it('returns the same frames fed one byte at a time, and holds exactly the bytes of the frame in progress', () => {
      const decoder = new FrameDecoder();
      const frames: string[] = [];
      let frameStart = 0;
      for (let i = 0; i < STREAM.length; i++) {
        decoder.feed(STREAM.subarray(i, i + 1), (frame) => {
          frames.push(Buffer.from(frame).toString('hex'));
          frameStart = i + 1;
        });
        expect(decoder.bufferedBytes).toBe(i + 1 - frameStart);
      }
      expect(frames).toEqual(SAMPLE_HEX);
      expect(decoder.bufferedBytes).toBe(0);
    });

    it('ignores empty chunks', () => {
      const empty = Buffer.alloc(0);
      expect(framesFrom([empty, STREAM.subarray(0, 2), empty, STREAM.subarray(2), empty])).toEqual(
        SAMPLE_HEX,
      );
    });

    it('reassembles random packets from random chunkings, and each frame decodes to its packet', () => {
      const chunking = fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 40 });
      fc.assert(
        fc.property(
          fc.array(fc.tuple(channelId, anyPacket), { minLength: 1, maxLength: 6 }),
          chunking,
          (packets, sizes) => {
            const encoded = packets.map(([channel, packet]) => encodePacket(channel, packet));
            const stream = Buffer.concat(encoded);
            const chunks: Buffer[] = [];
            for (let offset = 0, i = 0; offset < stream.length; i++) {
              const size = sizes[i % sizes.length] as number;
              chunks.push(stream.subarray(offset, offset + size));
              offset += size;
            }
            const decoder = new FrameDecoder();
            const frames: Buffer[] = [];
            for (const chunk of chunks) decoder.feed(chunk, (frame) => frames.push(frame));
            expect(decoder.bufferedBytes).toBe(0);
            expect(frames.map((frame) => frame.toString('hex'))).toEqual(
              encoded.map((frame) => frame.toString('hex')),
            );
            frames.forEach((frame, i) => {
              const [channel, packet] = packets[i] as [number, Packet];
              const decoded = decodeFrame(frame);
              expect(decoded.channelId).toBe(channel);
              expect(describePacket(decoded.packet)).toStrictEqual(describePacket(packet));
            });
          },
        ),
        { numRuns: 150 },
      );
    });
  });

  it('says the size of the frame being assembled: 0 until its length field is whole, and once the frame is', () => {
    const decoder = new FrameDecoder();
    const frame = encodePacket(10, { type: PacketType.SESS_FLOWTOKEN, consumerId: 1, credits: 100 });
    decoder.feed(frame.subarray(0, 3), () => undefined);
    expect(decoder.incompleteFrameBytes).toBe(0);
    decoder.feed(frame.subarray(3, 5), () => undefined);
    expect(decoder.incompleteFrameBytes).toBe(frame.length);
    let emitted = 0;
    decoder.feed(Buffer.concat([frame.subarray(5), frame.subarray(0, 6)]), () => emitted++);
    expect(emitted).toBe(1);
    expect(decoder.incompleteFrameBytes).toBe(frame.length);
    decoder.feed(frame.subarray(6), () => emitted++);
    expect(emitted).toBe(2);
    expect(decoder.incompleteFrameBytes).toBe(0);
  });

  describe('frame size limits', () => {
    it('refuses an oversized frame as soon as its length field is complete, before its body arrives', () => {
      const decoder = new FrameDecoder(1024);
      const header = lengthField(2000);
      decoder.feed(header.subarray(0, 3), () => undefined);
      expect(decoder.bufferedBytes).toBe(3);
      expectProtocolError(
        () => decoder.feed(header.subarray(3), () => undefined),
        /frame of 2004 bytes exceeds the maximum of 1024 bytes/,
      );
      expect(decoder.bufferedBytes).toBeLessThanOrEqual(4);
    });

    it('refuses a frame announcing 2 GiB without allocating for it', () => {
      const decoder = new FrameDecoder(DEFAULT_PRE_AUTH_MAX_FRAME_BYTES);
      // The length field and the first body bytes in one chunk: the decoder's fast path.
      const chunk = Buffer.concat([lengthField(0x7fff_fffb), Buffer.alloc(64)]);
      const spies = [
        jest.spyOn(Buffer, 'alloc'),
        jest.spyOn(Buffer, 'allocUnsafe'),
        jest.spyOn(Buffer, 'allocUnsafeSlow'),
      ];
      try {
        expectProtocolError(() => decoder.feed(chunk, () => undefined), /exceeds the maximum of 16384 bytes/);
        const requested = spies.flatMap((spy) => spy.mock.calls.map(([size]) => Number(size)));
        expect(Math.max(0, ...requested)).toBeLessThanOrEqual(64);
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
      expect(decoder.bufferedBytes).toBeLessThanOrEqual(4);
    });

    it('sets aside memory for what has arrived of a big frame, not for what its length field announces', () => {
      const frame = encodePacket(1, sendOfBodySize(DEFAULT_MAX_FRAME_BYTES - 1024));
      const decoder = new FrameDecoder();
      const frames: Buffer[] = [];
      const allocations = jest.spyOn(Buffer, 'allocUnsafe');
      try {
        decoder.feed(frame.subarray(0, 100), (whole) => frames.push(whole));
        expect(decoder.bufferedBytes).toBe(100);
        expect(Math.max(0, ...allocations.mock.calls.map(([size]) => size))).toBeLessThanOrEqual(64 * 1024);
        expect(decoder.heldBytes).toBeLessThanOrEqual(64 * 1024);
      } finally {
        allocations.mockRestore();
      }
      // The rest as socket reads: the buffer grows with what arrives, and the frame comes out whole.
      for (let at = 100; at < frame.length; at += 64 * 1024) {
        decoder.feed(frame.subarray(at, at + 64 * 1024), (whole) => frames.push(Buffer.from(whole)));
        if (frames.length === 0) {
          expect(decoder.heldBytes).toBeLessThanOrEqual(2 * decoder.bufferedBytes + 64 * 1024);
        }
      }
      expect(frames).toHaveLength(1);
      expect((frames[0] as Buffer).equals(frame)).toBe(true);
      expect([decoder.bufferedBytes, decoder.heldBytes]).toEqual([0, 0]);
    });

    it('accepts a frame of exactly maxFrameBytes and refuses one byte more', () => {
      const frame = encodePacket(1, sendOfBodySize(500));
      expect(framesFrom([frame], new FrameDecoder(frame.length))).toEqual([frame.toString('hex')]);
      expectProtocolError(
        () => new FrameDecoder(frame.length - 1).feed(frame, () => undefined),
        new RegExp(`frame of ${frame.length} bytes exceeds the maximum of ${frame.length - 1} bytes`),
      );
    });

    it('does not emit the frames after the oversized one', () => {
      const small = encodePacket(1, { type: PacketType.SESS_COMMIT });
      const big = encodePacket(1, sendOfBodySize(2000));
      const frames: Buffer[] = [];
      const decoder = new FrameDecoder(1024);
      expectProtocolError(
        () => decoder.feed(Buffer.concat([small, big, small]), (frame) => frames.push(frame)),
        /exceeds the maximum/,
      );
      expect(frames.map((frame) => frame.toString('hex'))).toEqual([small.toString('hex')]);
    });

    it.each([-0x8000_0000, -1, 0, 1, 4, 8])(
      'refuses a length field of %i, below the minimum of 9',
      (length) => {
        for (const chunks of [
          [lengthField(length)],
          [...lengthField(length)].map((byte) => Buffer.from([byte])),
        ]) {
          const decoder = new FrameDecoder();
          expectProtocolError(
            () => {
              for (const chunk of chunks) decoder.feed(chunk, () => undefined);
            },
            new RegExp(`frame length ${length} is below the minimum of 9`),
          );
        }
        const decoder = new FrameDecoder();
        expectProtocolError(
          () => decoder.feed(Buffer.concat([lengthField(length), Buffer.alloc(16)]), () => undefined),
          /below the minimum of 9/,
        );
      },
    );

    it('accepts the minimum length of 9 (a packet with an empty body)', () => {
      const commit = encodePacket(3, { type: PacketType.SESS_COMMIT });
      expect(commit.readInt32BE(0)).toBe(9);
      expect(framesFrom([commit])).toEqual([commit.toString('hex')]);
    });
  });

  describe('changing maxFrameBytes between frames', () => {
    const handshake = encodePacket(1, {
      type: PacketType.CREATESESSION,
      name: 'session',
      sessionChannelId: 10,
      version: 1,
      username: 'guest',
      password: 'guest',
      minLargeMessageSize: 102400,
      xa: false,
      autoCommitSends: true,
      autoCommitAcks: true,
      windowSize: 1048576,
      preAcknowledge: false,
      defaultAddress: null,
      extension: null,
    });
    const large = encodePacket(10, sendOfBodySize(DEFAULT_PRE_AUTH_MAX_FRAME_BYTES + 1000));

    it('refuses a large frame under the pre-auth cap', () => {
      expect(large.length).toBeGreaterThan(DEFAULT_PRE_AUTH_MAX_FRAME_BYTES);
      expect(large.length).toBeLessThan(DEFAULT_MAX_FRAME_BYTES);
      const decoder = new FrameDecoder(DEFAULT_PRE_AUTH_MAX_FRAME_BYTES);
      expect(framesFrom([handshake], decoder)).toEqual([handshake.toString('hex')]);
      expectProtocolError(() => decoder.feed(large, () => undefined), /exceeds the maximum of 16384 bytes/);
    });

    it('accepts it once the cap is raised to the post-auth default, even mid-chunk', () => {
      const decoder = new FrameDecoder(DEFAULT_PRE_AUTH_MAX_FRAME_BYTES);
      const frames: Buffer[] = [];
      // The handshake and the large frame arrive in one chunk; authentication happens in between.
      decoder.feed(Buffer.concat([handshake, large]), (frame) => {
        frames.push(frame);
        decoder.maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
      });
      expect(frames.map((frame) => frame.toString('hex'))).toEqual([
        handshake.toString('hex'),
        large.toString('hex'),
      ]);
    });

    it('applies a lowered cap to the next frame', () => {
      const decoder = new FrameDecoder(DEFAULT_MAX_FRAME_BYTES);
      expect(framesFrom([large], decoder)).toEqual([large.toString('hex')]);
      decoder.maxFrameBytes = DEFAULT_PRE_AUTH_MAX_FRAME_BYTES;
      expect(framesFrom([handshake], decoder)).toEqual([handshake.toString('hex')]);
      expectProtocolError(() => decoder.feed(large.subarray(0, 4), () => undefined), /exceeds the maximum/);
    });
  });
});

describe('FrameDecoder with a shared InputBudget', () => {
  /** A frame of `bodyBytes` (about) on channel 10. */
  function frameOf(bodyBytes: number): Buffer {
    const message = new CoreMessage();
    message.address = 'a';
    message.body = Buffer.alloc(bodyBytes, 7);
    return encodePacket(10, { type: PacketType.SESS_SEND, message, requiresResponse: false });
  }

  it('takes what unfinished frames set aside, refuses a frame past the limit, and gives back on completion and release', () => {
    const budget = new InputBudget(1024 * 1024);
    const [a, b, c] = [0, 1, 2].map(() => new FrameDecoder(DEFAULT_MAX_FRAME_BYTES, budget)) as [
      FrameDecoder,
      FrameDecoder,
      FrameDecoder,
    ];
    const big = frameOf(600 * 1024);
    const frames: Buffer[] = [];
    a.feed(big.subarray(0, big.length - 10), (frame) => frames.push(frame));
    expect(budget.heldBytes).toBe(a.heldBytes);
    // Grown to what arrived in the one chunk.
    expect(budget.heldBytes).toBe(big.length - 10);
    // b's frame fits while small, and is refused as it grows past what is left.
    b.feed(big.subarray(0, 1000), (frame) => frames.push(frame));
    expect(budget.heldBytes).toBe(big.length - 10 + 64 * 1024);
    expectProtocolError(
      () => b.feed(big.subarray(1000, 500 * 1024), (frame) => frames.push(frame)),
      /^input held in unfinished frames across all connections would exceed 1048576 bytes \(max-unfinished-frame-bytes; \d+ held\): a frame of \d+ bytes, \d+ of them received, is refused$/,
    );
    b.release();
    expect(budget.heldBytes).toBe(big.length - 10);
    // A complete frame belongs to its packet: the budget has it back.
    a.feed(big.subarray(big.length - 10), (frame) => frames.push(frame));
    expect(frames.map((frame) => frame.length)).toEqual([big.length]);
    expect(budget.heldBytes).toBe(0);
    // Frames that lie whole within one chunk take nothing.
    c.feed(Buffer.concat([frameOf(10), frameOf(20)]), (frame) => frames.push(frame));
    expect(frames).toHaveLength(3);
    expect(budget.heldBytes).toBe(0);
    c.release();
    expect(budget.heldBytes).toBe(0);
  });
});

describe('the HORNETQ preamble', () => {
  const frames = SAMPLE_FRAMES.slice(0, 2);
  const stream = Buffer.concat([HORNETQ_PREAMBLE, ...frames]);

  it('is skipped before the first frame, however the stream is cut', () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      const decoder = new FrameDecoder();
      decoder.acceptPreamble();
      expect(framesFrom([stream.subarray(0, cut), stream.subarray(cut)], decoder)).toEqual(
        frames.map((frame) => frame.toString('hex')),
      );
    }
    expect(HORNETQ_PREAMBLE.toString('ascii')).toBe('HORNETQ');
  });

  it('is optional: a stream may start with a frame at once', () => {
    const decoder = new FrameDecoder();
    decoder.acceptPreamble();
    expect(framesFrom([Buffer.concat(frames)], decoder)).toEqual(
      frames.map((frame) => frame.toString('hex')),
    );
  });

  it('is taken only before the first frame, and only when accepted', () => {
    expectProtocolError(() => new FrameDecoder().feed(stream, () => undefined), /exceeds the maximum/);
    const decoder = new FrameDecoder();
    decoder.acceptPreamble();
    expectProtocolError(
      () => framesFrom([Buffer.concat([frames[0] as Buffer, HORNETQ_PREAMBLE])], decoder),
      /exceeds the maximum/,
    );
  });

  it('refuses a native Artemis client by its ARTEMIS preamble, saying so', () => {
    const decoder = new FrameDecoder();
    decoder.acceptPreamble();
    expectProtocolError(
      () => framesFrom([Buffer.from('ART'), Buffer.from('EMIS'), frames[0] as Buffer], decoder),
      /native ActiveMQ Artemis client \(preamble 'ARTEMIS'\)/,
    );
  });

  it('refuses a stream that starts like a preamble and is none', () => {
    const decoder = new FrameDecoder();
    decoder.acceptPreamble();
    expectProtocolError(
      () => framesFrom([Buffer.from('HORNETX')], decoder),
      /neither a frame nor the HORNETQ preamble/,
    );
  });
});
