import fc from 'fast-check';
import { BufferWriter } from '../../../src/core/protocol/buffer-writer';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import { ErrorCode } from '../../../src/core/protocol/error-code';
import { DELIVERY_FRAME_OVERHEAD, decodeFrame, encodePacket } from '../../../src/core/protocol/packet-codec';
import { PacketType } from '../../../src/core/protocol/packet-type';
import type { Packet } from '../../../src/core/protocol/packets';
import { ProtocolError } from '../../../src/core/protocol/protocol-error';
import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import {
  anyPacket,
  channelId,
  coreMessage,
  describePacket,
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

/** The fixed fields of a CoreMessage up to (not including) the property count. */
function writeMessageHead(w: BufferWriter, overrides: { priority?: number; userIdFlag?: number } = {}): void {
  w.writeLong(1); // messageId
  w.writeString('q');
  w.writeByte(0); // type
  w.writeBoolean(true); // durable
  w.writeLong(0); // expiration
  w.writeLong(0); // timestamp
  w.writeByte(overrides.priority ?? 4);
  w.writeByte(overrides.userIdFlag ?? 0);
}

/** A SESS_SEND frame whose message has one property of `kind` with `writeValue` as its encoding. */
function sendWithProperty(kind: number, writeValue: (w: BufferWriter) => void): Buffer {
  return rawFrame(PacketType.SESS_SEND, (w) => {
    writeMessageHead(w);
    w.writeInt(1);
    w.writeString('p');
    w.writeByte(kind);
    writeValue(w);
    w.writeBytes(Buffer.alloc(0));
    w.writeBoolean(false);
  });
}

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
    expect(encodePacket(7, { type: PacketType.DISCONNECT, reason: 'bye' }).toString('hex')).toBe(
      '00000011' + '0b' + '0000000000000007' + '01' + '00000003' + '627965',
    );
    expect(encodePacket(2 ** 32 + 5, { type: PacketType.DISCONNECT, reason: null }).toString('hex')).toBe(
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
        w.writeInt(3);
        w.writeInt(code);
        w.writeNullableString('boom');
      });
      expect(decodeFrame(frame).packet).toStrictEqual({
        type: PacketType.EXCEPTION,
        correlationId: 3,
        code: 'INTERNAL_ERROR',
        message: 'boom',
      });
    }
  });
});

describe('truncated frames', () => {
  it.each(packetKinds)(
    'every strict prefix of a %s frame fails with ProtocolError',
    (_name, _type, arbitrary) => {
      fc.assert(
        fc.property(channelId, arbitrary, (channel, packet) => {
          const frame = encodePacket(channel, packet);
          for (let length = 0; length < frame.length; length++) {
            const prefix = frame.subarray(0, length);
            protocolErrorFrom(() => decodeFrame(prefix));
            // With a length field that matches, the body readers themselves must notice the cut.
            protocolErrorFrom(() => decodeFrame(withConsistentLength(prefix)));
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
      expect(protocolErrorFrom(() => decodeFrame(frame)).message).toMatch(/negative string length -4/);
    });

    it('accepts a string length that exactly reaches the end of the frame', () => {
      const frame = rawFrame(PacketType.SESS_QUEUEQUERY, (w) => {
        w.writeInt(2);
        w.writeByte(0x61);
        w.writeByte(0x62);
      });
      expect(decodeFrame(frame).packet).toStrictEqual({ type: PacketType.SESS_QUEUEQUERY, queueName: 'ab' });
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
        expect(error.message).toMatch(new RegExp(`string length ${length} exceeds the 2 bytes left`));
        expect(error.message).toMatch(/SESS_QUEUEQUERY\(45\)/);
      },
    );

    it('rejects a bad length inside a nullable string', () => {
      const frame = rawFrame(PacketType.DISCONNECT, (w) => {
        w.writeBoolean(true);
        w.writeInt(-1);
      });
      expect(protocolErrorFrom(() => decodeFrame(frame)).message).toMatch(/negative string length -1/);
    });
  });

  describe('bytes lengths', () => {
    function sendWithBodyLength(length: number): Buffer {
      return rawFrame(PacketType.SESS_SEND, (w) => {
        writeMessageHead(w);
        w.writeInt(0); // no properties
        w.writeInt(length);
        w.writeByte(1);
        w.writeBoolean(false);
      });
    }

    it('rejects a negative body length', () => {
      expect(protocolErrorFrom(() => decodeFrame(sendWithBodyLength(-1))).message).toMatch(
        /negative bytes length -1/,
      );
    });

    it('rejects an oversized body length without allocating it', () => {
      const frame = sendWithBodyLength(0x7fffffff);
      const spies = [
        jest.spyOn(Buffer, 'alloc'),
        jest.spyOn(Buffer, 'allocUnsafe'),
        jest.spyOn(Buffer, 'allocUnsafeSlow'),
        jest.spyOn(Buffer, 'from'),
      ];
      try {
        const error = protocolErrorFrom(() => decodeFrame(frame));
        expect(error.message).toMatch(/bytes length 2147483647 exceeds the 2 bytes left/);
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
        w.writeInt(1);
        w.writeBoolean(true);
        w.writeInt(count);
        for (const name of names) w.writeString(name);
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
        correlationId: 1,
        exists: true,
        queueNames: ['', ''],
      });
    });

    it('rejects a queue-statistics count that the bytes left cannot hold, before reading any', () => {
      const frame = (count: number): Buffer =>
        rawFrame(PacketType.SESS_QUEUE_STATS_RESP, (w) => {
          w.writeInt(1);
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
          w.writeInt(count);
          w.writeBytes(Buffer.alloc(0));
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

  it('rejects trailing bytes after any packet', () => {
    fc.assert(
      fc.property(
        channelId,
        anyPacket,
        fc.uint8Array({ minLength: 1, maxLength: 16 }),
        (channel, packet, extra) => {
          const frame = withConsistentLength(Buffer.concat([encodePacket(channel, packet), extra]));
          const error = protocolErrorFrom(() => decodeFrame(frame));
          expect(error.message).toMatch(new RegExp(`${extra.length} unexpected trailing bytes`));
        },
      ),
      { numRuns: 200 },
    );
  });

  it.each([2, 3, 0x7f, 0x80, 0xff])('rejects the boolean byte %i', (value) => {
    const reattached = rawFrame(PacketType.REATTACH_SESSION_RESP, (w) => {
      w.writeInt(0);
      w.writeInt(0);
      w.writeByte(value);
    });
    expect(protocolErrorFrom(() => decodeFrame(reattached)).message).toMatch(
      new RegExp(`REATTACH_SESSION_RESP\\(33\\).*invalid boolean byte ${value}`),
    );
    const disconnect = rawFrame(PacketType.DISCONNECT, (w) => w.writeByte(value));
    expect(protocolErrorFrom(() => decodeFrame(disconnect)).message).toMatch(/invalid boolean byte/);
    const userIdFlag = rawFrame(PacketType.SESS_SEND, (w) => {
      writeMessageHead(w, { userIdFlag: value });
      w.writeInt(0);
      w.writeBytes(Buffer.alloc(0));
      w.writeBoolean(false);
    });
    expect(protocolErrorFrom(() => decodeFrame(userIdFlag)).message).toMatch(/invalid boolean byte/);
  });

  it('accepts priorities 0..9 and rejects every priority above 9', () => {
    const frame = (priority: number): Buffer =>
      rawFrame(PacketType.SESS_SEND, (w) => {
        writeMessageHead(w, { priority });
        w.writeInt(0);
        w.writeBytes(Buffer.alloc(0));
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

    it.each(unsafe)('rejects %s as a long property', (_label, hex) => {
      const frame = sendWithProperty(PropertyKind.LONG, (w) => writeRawLong(w, hex));
      expect(protocolErrorFrom(() => decodeFrame(frame)).message).toMatch(/safe-integer/);
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

  it('rejects an unknown property kind', () => {
    const error = protocolErrorFrom(() => decodeFrame(sendWithProperty(11, () => undefined)));
    expect(error.message).toMatch(/unknown property type 11/);
    expect(error.message).toMatch(/SESS_SEND\(71\)/);
  });

  it.each(['', 'ab', '😀'])('rejects a char property %j that is not one UTF-16 unit', (value) => {
    const frame = sendWithProperty(PropertyKind.CHAR, (w) => w.writeString(value));
    expect(protocolErrorFrom(() => decodeFrame(frame)).message).toMatch(/char property of length/);
  });

  it('keeps the same ProtocolError class for errors from nested message fields', () => {
    const packet: Packet = { type: PacketType.SESS_SEND, message: new CoreMessage(), requiresResponse: true };
    const frame = Buffer.from(encodePacket(1, packet));
    frame[frame.length - 1] = 9;
    const error = protocolErrorFrom(() => decodeFrame(frame));
    expect(error.name).toBe('ProtocolError');
    expect(error.message).toMatch(/malformed SESS_SEND\(71\) on channel 1: invalid boolean byte 9/);
  });
});

describe('sizes that flow control counts', () => {
  test('CoreMessage.encodedSize is exactly what the message takes in a delivery frame', () => {
    fc.assert(
      fc.property(coreMessage, fc.nat(), (message, consumerId) => {
        const frame = encodePacket(10, {
          type: PacketType.SESS_RECEIVE_MSG,
          consumerId,
          deliveryCount: 1,
          message,
        });
        expect(frame.length - DELIVERY_FRAME_OVERHEAD).toBe(message.encodedSize());
      }),
      { numRuns: 300 },
    );
  });
});
