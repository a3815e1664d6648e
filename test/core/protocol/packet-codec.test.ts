import fc from 'fast-check';
import { BufferWriter } from '../../../src/core/protocol/buffer-writer';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import { ErrorCode } from '../../../src/core/protocol/error-code';
import { BufferReader } from '../../../src/core/protocol/buffer-reader';
import {
  continuationFrameBytes,
  DELIVERY_FRAME_OVERHEAD,
  decodeFrame,
  deliveryFrameBytes,
  encodePacket,
  largeDeliveryFrameBytes,
  sendContinuationFrameBytes,
  sendFrameBytes,
} from '../../../src/core/protocol/packet-codec';
import { PacketType } from '../../../src/core/protocol/packet-type';
import { EXTENSION_MAGIC, type Packet } from '../../../src/core/protocol/packets';
import { ProtocolError } from '../../../src/core/protocol/protocol-error';
import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import {
  anyPacket,
  channelId,
  coreMessage,
  describeMessage,
  describePacket,
  largeMessageHead,
  packetArbitraries,
  packetKinds,
  typedValueByKind,
} from './arbitraries';

/** Runs `action` and returns the ProtocolError it throws; any other outcome fails the test. */
function protocolErrorFrom(action: () => unknown): ProtocolError {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  if (!(thrown instanceof ProtocolError)) {
    throw new Error(`expected a ProtocolError, got ${thrown === undefined ? 'no error' : String(thrown)}`, {
      cause: thrown,
    });
  }
  return thrown;
}

/** A frame built by hand, so that fields can hold what no encoder would write. */
function rawFrame(type: number, writeBody: (w: BufferWriter) => void, channel = 1): Buffer {
  const w = new BufferWriter();
  w.writeInt(0);
  w.writeByte(type);
  w.writeLong(channel);
  writeBody(w);
  w.patchInt(0, w.length - 4);
  return Buffer.from(w.toBuffer());
}

/** Eight big-endian bytes given as hex, whatever long they encode. */
function writeRawLong(w: BufferWriter, hex: string): void {
  const raw = Buffer.from(hex, 'hex');
  w.writeInt(raw.readInt32BE(0));
  w.writeInt(raw.readInt32BE(4));
}

/** A copy of `frame` with its length field rewritten to match its (possibly changed) size. */
function withConsistentLength(frame: Buffer): Buffer {
  const copy = Buffer.from(frame);
  if (copy.length >= 4) copy.writeInt32BE(copy.length - 4, 0);
  return copy;
}

/**
 * A message with an empty body, up to (not including) its properties block: endOfBodyPosition 17,
 * endOfMessagePosition (0: the packet decoder does not read it), id 1, address 'q', user id marker.
 */
function writeMessageHead(w: BufferWriter, overrides: { priority?: number; endOfBody?: number } = {}): void {
  w.writeInt(overrides.endOfBody ?? 17);
  w.writeInt(0); // endOfMessagePosition
  w.writeLong(1); // messageId
  w.writeNullableSimpleString('q');
  w.writeByte(0); // no user id
  w.writeByte(0); // type
  w.writeBoolean(true); // durable
  w.writeLong(0); // expiration
  w.writeLong(0); // timestamp
  w.writeByte(overrides.priority ?? 4);
}

/** A SESS_SEND frame whose message has one property of type byte `kind` encoded by `writeValue`. */
function sendWithProperty(kind: number, writeValue: (w: BufferWriter) => void): Buffer {
  return rawFrame(PacketType.SESS_SEND, (w) => {
    writeMessageHead(w);
    w.writeByte(1);
    w.writeInt(1);
    w.writeSimpleString('p');
    w.writeByte(kind);
    writeValue(w);
    w.writeBoolean(false);
  });
}

/** Packets whose decoders take what follows their last field as optional (trailer, node name). */
const OPEN_ENDED_TYPES: ReadonlySet<number> = new Set([
  PacketType.CREATESESSION,
  PacketType.CREATESESSION_RESP,
  PacketType.REATTACH_SESSION,
  PacketType.CLUSTER_TOPOLOGY_V2,
]);

/** The session handshake packets, which ignore bytes after their fields as HornetQ does. */
const HANDSHAKE_TYPES: ReadonlySet<number> = new Set([
  PacketType.CREATESESSION,
  PacketType.CREATESESSION_RESP,
  PacketType.REATTACH_SESSION,
]);

describe('encodePacket / decodeFrame round trip', () => {
  it('has an arbitrary for every PacketType, and each yields packets of its own type', () => {
    const types = Object.values(PacketType)
      .map(Number)
      .sort((a, b) => a - b);
    const covered = Object.keys(packetArbitraries)
      .map(Number)
      .sort((a, b) => a - b);
    expect(covered).toEqual(types);
    for (const type of types) {
      for (const packet of fc.sample(packetArbitraries[type as PacketType], 5))
        expect(packet.type).toBe(type);
    }
  });

  it('has a property arbitrary for every PropertyKind', () => {
    const kinds = Object.values(PropertyKind).sort((a, b) => a - b);
    expect(
      Object.keys(typedValueByKind)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(kinds);
    for (const kind of kinds) {
      for (const typed of fc.sample(typedValueByKind[kind], 5)) expect(typed.kind).toBe(kind);
    }
  });

  it.each(packetKinds)('round-trips %s (%i)', (_name, type, arbitrary) => {
    fc.assert(
      fc.property(channelId, arbitrary, (channel, packet) => {
        const frame = encodePacket(channel, packet);
        expect(frame.readInt32BE(0)).toBe(frame.length - 4);
        expect(frame[4]).toBe(type);

        const decoded = decodeFrame(frame);
        expect(decoded.channelId).toBe(channel);
        expect(decoded.size).toBe(frame.length);
        expect(describePacket(decoded.packet)).toStrictEqual(describePacket(packet));
      }),
      { numRuns: 60 },
    );
  });

  it('decodes messages into CoreMessage instances whose body is a view of the frame (no copy) and whose other fields are not', () => {
    fc.assert(
      fc.property(
        fc.oneof(packetArbitraries[PacketType.SESS_SEND], packetArbitraries[PacketType.SESS_RECEIVE_MSG]),
        (packet) => {
          const frame = Buffer.from(encodePacket(7, packet));
          const decoded = decodeFrame(frame).packet;
          if (decoded.type !== PacketType.SESS_SEND && decoded.type !== PacketType.SESS_RECEIVE_MSG) {
            throw new Error(`decoded as type ${decoded.type}`);
          }
          expect(decoded.message).toBeInstanceOf(CoreMessage);
          expect(Buffer.isBuffer(decoded.message.body)).toBe(true);
          const body = decoded.message.body;
          if (body.length > 0) expect(body.buffer).toBe(frame.buffer);
          const before = describePacket(decoded);
          frame.fill(0xee, 13);
          // Only the body changes with the frame: headers and properties (bytes ones too) were read out.
          decoded.message.body = Buffer.from(
            (before as { message: { body: { hex: string } } }).message.body.hex,
            'hex',
          );
          expect(describePacket(decoded)).toStrictEqual(before);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('with detach, gives each message memory of its own (what the broker keeps holds no socket read)', () => {
    fc.assert(
      fc.property(packetArbitraries[PacketType.SESS_SEND], (packet) => {
        const encoded = encodePacket(7, packet);
        const frame = Buffer.alloc(encoded.length); // not from Node's pool, which the copy may share
        encoded.copy(frame);
        const decoded = decodeFrame(frame, true).packet;
        if (decoded.type !== PacketType.SESS_SEND) throw new Error(`decoded as type ${decoded.type}`);
        expect(decoded.message.body.buffer).not.toBe(frame.buffer);
        const before = describePacket(decoded);
        frame.fill(0xee, 13);
        expect(describePacket(decoded)).toStrictEqual(before);
        expect(describePacket(decodeFrame(encodePacket(7, decoded)).packet)).toStrictEqual(
          describePacket(decodeFrame(encodePacket(7, packet)).packet),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('writes the documented big-endian layout', () => {
    expect(encodePacket(0, { type: PacketType.PING, connectionTtl: 60000 }).toString('hex')).toBe(
      '00000011' + '0a' + '0000000000000000' + '000000000000ea60',
    );
    expect(encodePacket(7, { type: PacketType.DISCONNECT, nodeId: 'bye' }).toString('hex')).toBe(
      '00000014' + '0b' + '0000000000000007' + '01' + '00000006' + '620079006500',
    );
    expect(encodePacket(2 ** 32 + 5, { type: PacketType.DISCONNECT, nodeId: null }).toString('hex')).toBe(
      '0000000a' + '0b' + '0000000100000005' + '00',
    );
    expect(encodePacket(1, { type: PacketType.PACKETS_CONFIRMED, commandId: -2 }).toString('hex')).toBe(
      '0000000d' + '16' + '0000000000000001' + 'fffffffe',
    );
  });

  it('carries the extremes of the safe-integer range in longs and channel ids', () => {
    for (const value of [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, -1, 0, 2 ** 32, -(2 ** 32) - 1]) {
      const decoded = decodeFrame(
        encodePacket(Number.MAX_SAFE_INTEGER, { type: PacketType.PING, connectionTtl: value }),
      );
      expect(decoded.channelId).toBe(Number.MAX_SAFE_INTEGER);
      expect(decoded.packet).toStrictEqual({ type: PacketType.PING, connectionTtl: value });
    }
  });

  it('refuses to encode a long outside the safe-integer range instead of writing a wrong value', () => {
    expect(() => encodePacket(2 ** 53, { type: PacketType.SESS_COMMIT })).toThrow(RangeError);
    expect(() => encodePacket(1, { type: PacketType.PING, connectionTtl: -(2 ** 53) })).toThrow(RangeError);
    expect(() => encodePacket(1, { type: PacketType.PING, connectionTtl: 1.5 })).toThrow(RangeError);
  });

  it('decodes an error code outside the closed set as INTERNAL_ERROR', () => {
    const known = new Set<number>(Object.values(ErrorCode));
    for (const code of [-1, 8, 99, 106, 1000, 0x7fffffff]) {
      expect(known.has(code)).toBe(false);
      const frame = rawFrame(PacketType.EXCEPTION, (w) => {
        w.writeInt(code);
        w.writeNullableHqString('boom');
      });
      expect(decodeFrame(frame).packet).toStrictEqual({
        type: PacketType.EXCEPTION,
        code: 'INTERNAL_ERROR',
        message: 'boom',
      });
    }
  });
});

describe('truncated frames', () => {
  it.each(packetKinds)(
    'every strict prefix of a %s frame fails with ProtocolError (or, open-ended, decodes without its optional tail)',
    (_name, type, arbitrary) => {
      fc.assert(
        fc.property(channelId, arbitrary, (channel, packet) => {
          const frame = encodePacket(channel, packet);
          for (let length = 0; length < frame.length; length++) {
            const prefix = frame.subarray(0, length);
            protocolErrorFrom(() => decodeFrame(prefix));
            // With a length field that matches, the body readers themselves must notice the cut,
            // unless what was cut is optional (our trailer, V2's node name): then HornetQ reads it so.
            if (OPEN_ENDED_TYPES.has(type)) {
              try {
                expect(decodeFrame(withConsistentLength(prefix)).packet.type).toBe(type);
              } catch (error) {
                if (!(error instanceof ProtocolError)) throw error;
              }
            } else {
              protocolErrorFrom(() => decodeFrame(withConsistentLength(prefix)));
            }
          }
        }),
        { numRuns: 15 },
      );
    },
  );

  it('says what was cut and in which packet', () => {
    const frame = encodePacket(4, { type: PacketType.SESS_FLOWTOKEN, consumerId: 9, credits: 100 });
    const error = protocolErrorFrom(() =>
      decodeFrame(withConsistentLength(frame.subarray(0, frame.length - 2))),
    );
    expect(error.message).toMatch(/SESS_FLOWTOKEN\(70\)/);
    expect(error.message).toMatch(/truncated/);
    expect(protocolErrorFrom(() => decodeFrame(Buffer.alloc(12))).message).toMatch(/too short/);
  });
});

describe('corrupted frames', () => {
  const corruptions = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), {
    minLength: 1,
    maxLength: 4,
  });

  function decodeOrProtocolError(frame: Buffer): void {
    try {
      const decoded = decodeFrame(frame);
      expect(decoded.size).toBe(frame.length);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
    }
  }

  it('random byte changes never throw anything but ProtocolError', () => {
    fc.assert(
      fc.property(channelId, anyPacket, corruptions, fc.boolean(), (channel, packet, changes, fixLength) => {
        const frame = Buffer.from(encodePacket(channel, packet));
        for (const [position, value] of changes) frame[position % frame.length] = value;
        decodeOrProtocolError(fixLength ? withConsistentLength(frame) : frame);
      }),
      { numRuns: 2000 },
    );
  });

  it('random 32-bit values written over length and count fields never throw anything but ProtocolError', () => {
    const hostileInt = fc.oneof(
      fc.integer({ min: -0x8000_0000, max: 0x7fff_ffff }),
      fc.constantFrom(-1, -0x8000_0000, 0x7fff_ffff, 0x1000_0000, 0xffff, 1, 0),
    );
    fc.assert(
      fc.property(channelId, anyPacket, fc.nat(), hostileInt, (channel, packet, position, value) => {
        const frame = Buffer.from(encodePacket(channel, packet));
        const at = 13 + (position % Math.max(1, frame.length - 16));
        if (at + 4 <= frame.length) frame.writeInt32BE(value, at);
        decodeOrProtocolError(frame);
      }),
      { numRuns: 1500 },
    );
  });

  it('random tails after a valid header never throw anything but ProtocolError', () => {
    const knownTypes = Object.values(PacketType) as number[];
    fc.assert(
      fc.property(fc.constantFrom(...knownTypes), fc.uint8Array({ maxLength: 80 }), (type, body) => {
        decodeOrProtocolError(rawFrame(type, (w) => w.writeBytes(body)));
        decodeOrProtocolError(withConsistentLength(Buffer.concat([rawFrame(type, () => undefined), body])));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('malformed fields', () => {
  it('rejects every unknown packet type with a ProtocolError that names it', () => {
    const known = new Set<number>(Object.values(PacketType));
    let unknown = 0;
    for (let type = 0; type < 256; type++) {
      if (known.has(type)) continue;
      unknown++;
      const error = protocolErrorFrom(() => decodeFrame(rawFrame(type, (w) => w.writeLong(0))));
      expect(error.message).toMatch(new RegExp(`\\b${type}\\b`));
      expect(error.message).toMatch(/unknown packet type/);
    }
    expect(unknown).toBe(256 - known.size);
    expect(protocolErrorFrom(() => decodeFrame(rawFrame(200, () => undefined, 12))).message).toBe(
      'unknown packet type 200 on channel 12',
    );
  });

  it('names the packet type when its channel id is not a safe integer', () => {
    const frame = Buffer.from(encodePacket(1, { type: PacketType.PING, connectionTtl: 5 }));
    frame.writeUInt32BE(0x7fffffff, 5);
    expect(protocolErrorFrom(() => decodeFrame(frame)).message).toMatch(
      /^malformed PING\(10\): its channel id: long value outside the safe-integer range/,
    );
  });

  it('rejects a length field that disagrees with the frame size', () => {
    const frame = Buffer.from(encodePacket(1, { type: PacketType.PING, connectionTtl: 5 }));
    for (const declared of [0, 9, frame.length - 5, frame.length - 3, 0x7fffffff, -1]) {
      frame.writeInt32BE(declared, 0);
      expect(protocolErrorFrom(() => decodeFrame(frame)).message).toMatch(/length field/);
    }
  });

  describe('string lengths', () => {
    it('rejects a negative string length', () => {
      const frame = rawFrame(PacketType.DELETE_QUEUE, (w) => {
        w.writeInt(-4);
        w.writeByte(0x61);
      });
      expect(protocolErrorFrom(() => decodeFrame(frame)).message).toMatch(/negative SimpleString length -4/);
    });

    it('accepts a string length that exactly reaches the end of the frame', () => {
      const frame = rawFrame(PacketType.SESS_QUEUEQUERY, (w) => {
        w.writeInt(4);
        w.writeRaw(Buffer.from('610000d8', 'hex'));
      });
      expect(decodeFrame(frame).packet).toStrictEqual({
        type: PacketType.SESS_QUEUEQUERY,
        queueName: 'a\ud800',
      });
    });

    it('rejects a SimpleString of an odd byte length', () => {
      const frame = rawFrame(PacketType.SESS_QUEUEQUERY, (w) => {
        w.writeInt(1);
        w.writeByte(0x61);
      });
      expect(protocolErrorFrom(() => decodeFrame(frame)).message).toMatch(
        /SESS_QUEUEQUERY\(45\).*odd byte length 1/,
      );
    });

    it.each([3, 5, 0x7fffffff, 0x10000000])(
      'rejects a string length of %i past the end of the frame',
      (length) => {
        const frame = rawFrame(PacketType.SESS_QUEUEQUERY, (w) => {
          w.writeInt(length);
          w.writeByte(0x61);
          w.writeByte(0x62);
        });
        const error = protocolErrorFrom(() => decodeFrame(frame));
        expect(error.message).toMatch(new RegExp(`SimpleString length ${length} exceeds the 2 bytes left`));
        expect(error.message).toMatch(/SESS_QUEUEQUERY\(45\)/);
      },
    );

    it('rejects a bad length inside a nullable string', () => {
      const frame = rawFrame(PacketType.DISCONNECT, (w) => {
        w.writeByte(1);
        w.writeInt(-1);
      });
      expect(protocolErrorFrom(() => decodeFrame(frame)).message).toMatch(/negative SimpleString length -1/);
    });
  });

  describe('body positions and bytes lengths', () => {
    function sendWithEndOfBody(endOfBody: number): Buffer {
      return rawFrame(PacketType.SESS_SEND, (w) => {
        writeMessageHead(w, { endOfBody });
        w.writeByte(0); // no properties
        w.writeBoolean(false);
      });
    }

    it.each([16, 0, -1, -0x8000_0000])('rejects an endOfBodyPosition of %i, before the body', (endOfBody) => {
      expect(protocolErrorFrom(() => decodeFrame(sendWithEndOfBody(endOfBody))).message).toMatch(
        new RegExp(`SESS_SEND\\(71\\).*endOfBodyPosition ${endOfBody} is outside the message`),
      );
    });

    it('rejects an endOfBodyPosition past the frame without allocating it', () => {
      const frame = sendWithEndOfBody(0x7fffffff);
      const spies = [
        jest.spyOn(Buffer, 'alloc'),
        jest.spyOn(Buffer, 'allocUnsafe'),
        jest.spyOn(Buffer, 'allocUnsafeSlow'),
        jest.spyOn(Buffer, 'from'),
      ];
      try {
        const error = protocolErrorFrom(() => decodeFrame(frame));
        expect(error.message).toMatch(/endOfBodyPosition 2147483647 is outside the message/);
        const requested = spies.flatMap((spy) =>
          spy.mock.calls.map(([size]: unknown[]) =>
            typeof size === 'number' ? size : size instanceof Uint8Array ? size.length : 0,
          ),
        );
        expect(Math.max(0, ...requested)).toBeLessThanOrEqual(frame.length);
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
    });

    it('rejects a bytes property whose length runs past the frame', () => {
      const frame = sendWithProperty(PropertyKind.BYTES, (w) => w.writeInt(1000));
      expect(protocolErrorFrom(() => decodeFrame(frame)).message).toMatch(/bytes length 1000 exceeds/);
    });
  });

  describe('counts', () => {
    function bindingResponseWithCount(count: number, names: string[]): Buffer {
      return rawFrame(PacketType.SESS_BINDINGQUERY_RESP, (w) => {
        w.writeBoolean(true);
        w.writeInt(count);
        for (const name of names) w.writeSimpleString(name);
      });
    }

    it('rejects a negative queue-name count', () => {
      expect(protocolErrorFrom(() => decodeFrame(bindingResponseWithCount(-1, []))).message).toMatch(
        /negative queue name count -1/,
      );
    });

    it.each([0x7fffffff, 0x40000000, 3])(
      'rejects a queue-name count of %i that the bytes left cannot hold, before reading any',
      (count) => {
        const error = protocolErrorFrom(() => decodeFrame(bindingResponseWithCount(count, ['', ''])));
        expect(error.message).toMatch(new RegExp(`queue name count ${count} exceeds the 8 bytes left`));
      },
    );

    it('accepts a count that exactly fills the frame', () => {
      expect(decodeFrame(bindingResponseWithCount(2, ['', ''])).packet).toStrictEqual({
        type: PacketType.SESS_BINDINGQUERY_RESP,
        exists: true,
        queueNames: ['', ''],
      });
    });

    it('rejects a queue-statistics count that the bytes left cannot hold, before reading any', () => {
      const frame = (count: number): Buffer =>
        rawFrame(PacketType.SESS_QUEUE_STATS_RESP, (w) => {
          w.writeInt(count);
          w.writeBytes(Buffer.alloc(60));
        });
      expect(protocolErrorFrom(() => decodeFrame(frame(-1))).message).toMatch(/negative queue count -1/);
      // 64 bytes are left and one queue needs at least 75: a count of 1 is refused up front.
      expect(protocolErrorFrom(() => decodeFrame(frame(1))).message).toMatch(
        /SESS_QUEUE_STATS_RESP\(141\).*queue count 1 exceeds the 64 bytes left/,
      );
    });

    it('rejects negative and oversized property counts', () => {
      const frame = (count: number): Buffer =>
        rawFrame(PacketType.SESS_SEND, (w) => {
          writeMessageHead(w);
          w.writeByte(1);
          w.writeInt(count);
          w.writeRaw(Buffer.alloc(4));
          w.writeBoolean(false);
        });
      expect(protocolErrorFrom(() => decodeFrame(frame(-5))).message).toMatch(/negative property count -5/);
      expect(protocolErrorFrom(() => decodeFrame(frame(0x7fffffff))).message).toMatch(
        /property count 2147483647 exceeds the 5 bytes left/,
      );
      // One property needs at least 5 bytes; 5 are left, so a count of 2 is refused up front.
      expect(protocolErrorFrom(() => decodeFrame(frame(2))).message).toMatch(/property count 2 exceeds/);
    });
  });

  it('rejects trailing bytes after any packet but the session handshake, which ignores them as HornetQ does', () => {
    fc.assert(
      fc.property(
        channelId,
        anyPacket,
        fc.uint8Array({ minLength: 1, maxLength: 16 }),
        (channel, packet, extra) => {
          const frame = withConsistentLength(Buffer.concat([encodePacket(channel, packet), extra]));
          if (HANDSHAKE_TYPES.has(packet.type)) {
            expect(describePacket(decodeFrame(frame).packet)).toStrictEqual(describePacket(packet));
            return;
          }
          const error = protocolErrorFrom(() => decodeFrame(frame));
          expect(error.message).toMatch(new RegExp(`${extra.length} unexpected trailing bytes`));
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each([1, 2, 0x7f, 0x80, 0xff])('reads the boolean byte %i as true, as HornetQ does', (value) => {
    const reattached = rawFrame(PacketType.REATTACH_SESSION_RESP, (w) => {
      w.writeInt(0);
      w.writeByte(value);
    });
    expect(decodeFrame(reattached).packet).toStrictEqual({
      type: PacketType.REATTACH_SESSION_RESP,
      lastConfirmedCommandId: 0,
      reattached: true,
    });
  });

  it('accepts priorities 0..9 and rejects every priority above 9', () => {
    const frame = (priority: number): Buffer =>
      rawFrame(PacketType.SESS_SEND, (w) => {
        writeMessageHead(w, { priority });
        w.writeByte(0);
        w.writeBoolean(false);
      });
    for (let priority = 0; priority <= 9; priority++) {
      const packet = decodeFrame(frame(priority)).packet;
      expect(packet.type === PacketType.SESS_SEND && packet.message.priority).toBe(priority);
    }
    for (let priority = 10; priority < 256; priority++) {
      expect(protocolErrorFrom(() => decodeFrame(frame(priority))).message).toMatch(
        new RegExp(`priority ${priority} is not in 0\\.\\.9`),
      );
    }
  });

  describe('longs outside the safe-integer range', () => {
    const unsafe = [
      ['2^53', '0020000000000000'],
      ['2^53 + 1', '0020000000000001'],
      ['-2^53', 'ffe0000000000000'],
      ['-2^53 - 1', 'ffdfffffffffffff'],
      ['2^63 - 1', '7fffffffffffffff'],
      ['-2^63', '8000000000000000'],
    ] as const;

    it.each(unsafe)('rejects %s as a packet field', (_label, hex) => {
      const ping = rawFrame(PacketType.PING, (w) => writeRawLong(w, hex));
      expect(protocolErrorFrom(() => decodeFrame(ping)).message).toMatch(/PING\(10\).*safe-integer/);
    });

    it.each(unsafe)('rejects %s as a channel id', (_label, hex) => {
      const frame = Buffer.from(encodePacket(0, { type: PacketType.SESS_COMMIT }));
      Buffer.from(hex, 'hex').copy(frame, 5);
      expect(protocolErrorFrom(() => decodeFrame(frame)).message).toMatch(/safe-integer/);
    });

    it.each(unsafe)('reads %s as a LONG property, as a bigint', (_label, hex) => {
      const frame = sendWithProperty(PropertyKind.LONG, (w) => writeRawLong(w, hex));
      const packet = decodeFrame(frame).packet;
      if (packet.type !== PacketType.SESS_SEND) throw new Error(`decoded as type ${packet.type}`);
      expect(packet.message.properties.get('p')).toStrictEqual({
        kind: PropertyKind.LONG,
        value: Buffer.from(hex, 'hex').readBigInt64BE(0),
      });
    });

    it('accepts the safe extremes written as raw bytes', () => {
      for (const [hex, value] of [
        ['001fffffffffffff', Number.MAX_SAFE_INTEGER],
        ['ffe0000000000001', Number.MIN_SAFE_INTEGER],
        ['ffffffffffffffff', -1],
      ] as const) {
        const ping = rawFrame(PacketType.PING, (w) => writeRawLong(w, hex));
        expect(decodeFrame(ping).packet).toStrictEqual({ type: PacketType.PING, connectionTtl: value });
      }
    });
  });

  it.each([1, 12, 0xff])('rejects the unknown property type byte %i', (kind) => {
    const error = protocolErrorFrom(() => decodeFrame(sendWithProperty(kind, () => undefined)));
    expect(error.message).toMatch(new RegExp(`unknown property type byte ${kind}`));
    expect(error.message).toMatch(/SESS_SEND\(71\)/);
  });

  it('keeps the same ProtocolError class for errors from nested message fields', () => {
    const packet: Packet = { type: PacketType.SESS_SEND, message: new CoreMessage(), requiresResponse: true };
    const frame = Buffer.from(encodePacket(1, packet));
    // The priority is the byte before the properties block (0) and requiresResponse.
    frame[frame.length - 3] = 12;
    const error = protocolErrorFrom(() => decodeFrame(frame));
    expect(error.name).toBe('ProtocolError');
    expect(error.message).toMatch(
      /malformed SESS_SEND\(71\) on channel 1: message priority 12 is not in 0\.\.9/,
    );
  });
});

describe('the message layout (HornetQ MessageImpl)', () => {
  function message(fields: Partial<CoreMessage>): CoreMessage {
    return Object.assign(new CoreMessage(), fields);
  }

  it('puts the body first, with absolute positions as if the message began at frame offset 13', () => {
    const sent = message({ messageId: 5, address: 'q', type: 3, durable: true, body: Buffer.from('hi') });
    expect(
      encodePacket(10, { type: PacketType.SESS_SEND, message: sent, requiresResponse: true }).toString('hex'),
    ).toBe(
      '00000038' +
        '47' +
        '000000000000000a' +
        '00000013' + // endOfBodyPosition = 17 + 2
        '6869' +
        '0000003b' + // endOfMessagePosition = 13 + 46
        '0000000000000005' +
        '01' +
        '00000002' +
        '7100' + // address, a nullable SimpleString
        '00' + // no user id
        '03' +
        'ff' +
        '0000000000000000' +
        '0000000000000000' +
        '04' +
        '00' + // no properties
        'ff', // requiresResponse
    );
    expect(sent.encodedSize()).toBe(46);
  });

  it('writes the user id as its 16 raw bytes and an empty address as the null address', () => {
    const sent = message({ userId: '11223344-5566-11ef-9a4b-0242ac120002' });
    const writer = new BufferWriter();
    sent.encodeHeadersAndProperties(writer);
    expect(writer.toBuffer().toString('hex')).toBe(
      '0000000000000000' +
        '00' +
        '01' +
        '11223344556611ef9a4b0242ac120002' +
        '00' +
        '00' +
        '00'.repeat(16) +
        '04' +
        '00',
    );
  });

  it.each(['not-a-uuid', '11223344-5566-11EF-9A4B-0242AC120002', '1122334455661 1ef9a4b0242ac120002'])(
    'refuses to encode the user id %j, which is not a canonical UUID',
    (userId) => {
      expect(() => message({ userId }).encode(new BufferWriter())).toThrow(/is not a lowercase UUID/);
    },
  );

  it('decodes wherever the message lies: the same bytes at any offset give the same message', () => {
    fc.assert(
      fc.property(coreMessage, fc.nat({ max: 40 }), (original, offset) => {
        const writer = new BufferWriter();
        writer.writeRaw(Buffer.alloc(offset, 0xaa));
        original.encode(writer);
        const bytes = Buffer.from(writer.toBuffer());
        expect(bytes.length - offset).toBe(original.encodedSize());
        const decoded = CoreMessage.decode(new BufferReader(bytes, offset));
        expect(describeMessage(decoded)).toStrictEqual(describeMessage(original));
        const again = new BufferWriter();
        decoded.encode(again);
        expect(again.toBuffer().equals(bytes.subarray(offset))).toBe(true);
        // endOfMessagePosition counts from a frame start 13 bytes before the message.
        const endOfBody = bytes.readInt32BE(offset);
        expect(bytes.readInt32BE(offset + endOfBody - 13)).toBe(13 + bytes.length - offset);
      }),
      { numRuns: 200 },
    );
  });

  it('re-encodes afresh a message whose endOfMessagePosition was wrong, writing it right', () => {
    const bytes = Buffer.from(
      encodePacket(10, {
        type: PacketType.SESS_SEND,
        message: message({ address: 'q' }),
        requiresResponse: false,
      }),
    );
    const endOfMessageAt = 13 + 4;
    const right = bytes.readInt32BE(endOfMessageAt);
    bytes.writeInt32BE(0, endOfMessageAt);
    const decoded = decodeFrame(bytes).packet;
    if (decoded.type !== PacketType.SESS_SEND) throw new Error(`decoded as type ${decoded.type}`);
    const again = encodePacket(10, decoded);
    expect(again.readInt32BE(endOfMessageAt)).toBe(right);
  });
});

describe('extension trailers on the session handshake', () => {
  const createSession: Packet = {
    type: PacketType.CREATESESSION,
    name: 'a-session',
    sessionChannelId: 10,
    version: 124,
    username: null,
    password: null,
    minLargeMessageSize: 102400,
    xa: false,
    autoCommitSends: true,
    autoCommitAcks: true,
    windowSize: 1048576,
    preAcknowledge: false,
    defaultAddress: null,
    extension: null,
  };
  const secret = Buffer.alloc(16, 7);

  it('follows the last HornetQ field: magic, version, then the 16-byte secret', () => {
    const plain = encodePacket(1, createSession);
    const extended = encodePacket(1, { ...createSession, extension: { version: 1, reattachSecret: secret } });
    expect(extended.subarray(0, plain.length).subarray(4).equals(plain.subarray(4))).toBe(true);
    expect(extended.subarray(plain.length).toString('hex')).toBe('4e485131' + '01' + '07'.repeat(16));
  });

  it('is absent when the bytes after the last field do not start with the magic (ignored, as HornetQ does)', () => {
    const plain = encodePacket(1, createSession);
    const frame = withConsistentLength(Buffer.concat([plain, Buffer.from('4e485130ff', 'hex')]));
    expect(decodeFrame(frame).packet).toStrictEqual(createSession);
  });

  it('is a ProtocolError when the magic is there and the trailer is cut', () => {
    const extended = encodePacket(1, { ...createSession, extension: { version: 1, reattachSecret: secret } });
    const cut = withConsistentLength(extended.subarray(0, extended.length - 3));
    expect(protocolErrorFrom(() => decodeFrame(cut)).message).toMatch(/CREATESESSION\(30\).*truncated/);
  });

  it('carries the secret and the credentials on REATTACH_SESSION, and the version on CREATESESSION_RESP', () => {
    const reattach = encodePacket(1, {
      type: PacketType.REATTACH_SESSION,
      name: 'n',
      lastConfirmedCommandId: 3,
      extension: { reattachSecret: secret, username: 'u', password: null },
    });
    expect(reattach.subarray(13).toString('hex')).toBe(
      '00000001' + '006e' + '00000003' + '4e485131' + '07'.repeat(16) + '01' + '00000001' + '0075' + '00',
    );
    const response = encodePacket(1, {
      type: PacketType.CREATESESSION_RESP,
      serverVersion: 124,
      extension: { version: 1 },
    });
    expect(response.subarray(13).toString('hex')).toBe('0000007c' + '4e485131' + '01');
    expect(EXTENSION_MAGIC).toBe(0x4e485131);
  });

  it('refuses to encode a secret that is not 16 bytes', () => {
    expect(() =>
      encodePacket(1, { ...createSession, extension: { version: 1, reattachSecret: Buffer.alloc(15) } }),
    ).toThrow(/16 bytes, not 15/);
  });
});

describe('optional and conditional fields', () => {
  it('reads CLUSTER_TOPOLOGY_V2 without a node name when no bytes remain (an older sender)', () => {
    const frame = rawFrame(
      PacketType.CLUSTER_TOPOLOGY_V2,
      (w) => {
        w.writeBoolean(false);
        w.writeHqString('node');
        w.writeLong(1700000000000);
        w.writeBoolean(false);
        w.writeBoolean(false);
        w.writeBoolean(true);
      },
      0,
    );
    expect(decodeFrame(frame).packet).toStrictEqual({
      type: PacketType.CLUSTER_TOPOLOGY_V2,
      exit: false,
      nodeId: 'node',
      uniqueEventId: 1700000000000,
      live: null,
      backup: null,
      last: true,
      nodeName: null,
    });
  });

  it('writes SEND_CONTINUATION’s body size only on the last chunk', () => {
    const chunk = Buffer.from('ab');
    const more = encodePacket(10, {
      type: PacketType.SESS_SEND_CONTINUATION,
      chunk,
      continues: true,
      messageBodySize: -1,
      requiresResponse: false,
    });
    expect(more.subarray(13).toString('hex')).toBe('00000002' + '6162' + 'ff' + '00');
    const last = encodePacket(10, {
      type: PacketType.SESS_SEND_CONTINUATION,
      chunk,
      continues: false,
      messageBodySize: 5,
      requiresResponse: true,
    });
    expect(last.subarray(13).toString('hex')).toBe('00000002' + '6162' + '00' + '0000000000000005' + 'ff');
    expect(more.length).toBe(sendContinuationFrameBytes(2, false));
    expect(last.length).toBe(sendContinuationFrameBytes(2, true));
  });

  it('puts RECEIVE_MSG’s consumer id and delivery count after the message', () => {
    const frame = encodePacket(10, {
      type: PacketType.SESS_RECEIVE_MSG,
      message: new CoreMessage(),
      consumerId: 7,
      deliveryCount: 2,
    });
    expect(frame.subarray(frame.length - 12).toString('hex')).toBe('0000000000000007' + '00000002');
  });
});

describe('sizes that flow control counts (whole frames)', () => {
  test('deliveryFrameBytes and sendFrameBytes are the whole frames; encodedSize() the message in them', () => {
    fc.assert(
      fc.property(coreMessage, fc.nat(), (message, consumerId) => {
        const delivery = encodePacket(10, {
          type: PacketType.SESS_RECEIVE_MSG,
          consumerId,
          deliveryCount: 1,
          message,
        });
        expect(delivery.length).toBe(deliveryFrameBytes(message));
        expect(delivery.length - DELIVERY_FRAME_OVERHEAD).toBe(message.encodedSize());
        const send = encodePacket(10, { type: PacketType.SESS_SEND, message, requiresResponse: false });
        expect(send.length).toBe(sendFrameBytes(message));
      }),
      { numRuns: 300 },
    );
  });

  test('largeDeliveryFrameBytes and continuationFrameBytes are the whole frames', () => {
    fc.assert(
      fc.property(largeMessageHead, fc.uint8Array({ maxLength: 100 }), (head, chunk) => {
        const announce = encodePacket(10, {
          type: PacketType.SESS_RECEIVE_LARGE_MSG,
          consumerId: 1,
          deliveryCount: 1,
          largeMessageSize: 1 << 20,
          message: head,
        });
        expect(announce.length).toBe(largeDeliveryFrameBytes(head));
        const continuation = encodePacket(10, {
          type: PacketType.SESS_RECEIVE_CONTINUATION,
          chunk: Buffer.from(chunk),
          continues: true,
          consumerId: 1,
        });
        expect(continuation.length).toBe(continuationFrameBytes(chunk.length));
      }),
      { numRuns: 100 },
    );
  });
});
