import fc from 'fast-check';
import { BufferReader } from '../../../src/core/protocol/buffer-reader';
import { BufferWriter } from '../../../src/core/protocol/buffer-writer';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import { decodeFrame, encodePacket } from '../../../src/core/protocol/packet-codec';
import { PacketType } from '../../../src/core/protocol/packet-type';
import {
  PropertyKind,
  readTypedValue,
  TypedProperties,
  typedValueBytes,
  writeTypedValue,
  type TypedValue,
} from '../../../src/core/protocol/typed-properties';
import { describeProperties, HOSTILE_NAMES, propertyEntries, propertiesOf, typedValue } from './arbitraries';

function roundTrip(properties: TypedProperties): TypedProperties {
  const writer = new BufferWriter();
  properties.encode(writer);
  const reader = new BufferReader(Buffer.from(writer.toBuffer()));
  const decoded = TypedProperties.decode(reader);
  reader.expectEnd('properties');
  return decoded;
}

const ONE: TypedValue = { kind: PropertyKind.INT, value: 1 };
const TWO: TypedValue = { kind: PropertyKind.STRING, value: 'two' };

describe('TypedProperties', () => {
  describe('names that are special on plain objects', () => {
    it.each(HOSTILE_NAMES)('keeps %j an ordinary key', (name) => {
      const properties = new TypedProperties();
      expect(properties.has(name)).toBe(false);
      expect(properties.get(name)).toBeUndefined();

      properties.set(name, ONE);
      expect(properties.has(name)).toBe(true);
      expect(properties.get(name)).toBe(ONE);
      expect(properties.size).toBe(1);
      expect(properties.names()).toEqual([name]);
      expect(Object.getPrototypeOf(properties)).toBe(TypedProperties.prototype);

      expect(properties.delete(name)).toBe(true);
      expect(properties.has(name)).toBe(false);
      expect(properties.size).toBe(0);
    });

    it('does not report inherited Object members as properties', () => {
      const properties = new TypedProperties();
      properties.set('x', ONE);
      for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
        expect(properties.has(name)).toBe(false);
        expect(properties.get(name)).toBeUndefined();
      }
      expect(properties.names()).toEqual(['x']);
    });

    it('round-trips all of them together through the wire, with Object.prototype untouched', () => {
      const properties = new TypedProperties();
      HOSTILE_NAMES.forEach((name, i) => properties.set(name, { kind: PropertyKind.INT, value: i }));
      properties.set('polluted', { kind: PropertyKind.BOOLEAN, value: true });

      const message = new CoreMessage();
      message.properties = properties;
      const decoded = decodeFrame(
        encodePacket(1, { type: PacketType.SESS_SEND, message, requiresResponse: false }),
      );
      if (decoded.packet.type !== PacketType.SESS_SEND) throw new Error('decoded as another packet type');
      const received = decoded.packet.message.properties;

      expect(received.names()).toEqual([...HOSTILE_NAMES, 'polluted']);
      HOSTILE_NAMES.forEach((name, i) =>
        expect(received.get(name)).toEqual({ kind: PropertyKind.INT, value: i }),
      );
      expect(Object.getPrototypeOf(received)).toBe(TypedProperties.prototype);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect(Object.prototype.toString).toBe(Object.getPrototypeOf({}).toString);
      expect(typeof Object.prototype.hasOwnProperty).toBe('function');
    });

    it('keeps the last value when a peer repeats a name', () => {
      const writer = new BufferWriter();
      writer.writeByte(1);
      writer.writeInt(2);
      for (const value of [1, 2]) {
        writer.writeSimpleString('__proto__');
        writer.writeByte(PropertyKind.INT);
        writer.writeInt(value);
      }
      const decoded = TypedProperties.decode(new BufferReader(writer.toBuffer()));
      expect(decoded.size).toBe(1);
      expect(decoded.get('__proto__')).toEqual({ kind: PropertyKind.INT, value: 2 });
    });
  });

  it('round-trips random properties of every kind, keeping order and kinds', () => {
    fc.assert(
      fc.property(propertyEntries, (entries) => {
        const properties = propertiesOf(entries);
        const decoded = roundTrip(properties);
        expect(decoded.size).toBe(entries.length);
        expect(describeProperties(decoded)).toStrictEqual(describeProperties(properties));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the declared kind of numbers that look alike', () => {
    const properties = new TypedProperties();
    properties.set('b', { kind: PropertyKind.BYTE, value: -128 });
    properties.set('s', { kind: PropertyKind.SHORT, value: -128 });
    properties.set('i', { kind: PropertyKind.INT, value: -128 });
    properties.set('l', { kind: PropertyKind.LONG, value: -128 });
    properties.set('f', { kind: PropertyKind.FLOAT, value: -0 });
    properties.set('d', { kind: PropertyKind.DOUBLE, value: Number.NaN });
    properties.set('c', { kind: PropertyKind.CHAR, value: 'x' });
    properties.set('str', { kind: PropertyKind.STRING, value: 'x' });
    const decoded = roundTrip(properties);
    expect(decoded.get('b')).toEqual({ kind: PropertyKind.BYTE, value: -128 });
    expect(decoded.get('s')).toEqual({ kind: PropertyKind.SHORT, value: -128 });
    expect(decoded.get('i')).toEqual({ kind: PropertyKind.INT, value: -128 });
    expect(decoded.get('l')).toEqual({ kind: PropertyKind.LONG, value: -128 });
    expect(Object.is(decoded.get('f')?.value, -0)).toBe(true);
    expect(decoded.get('d')?.value).toBeNaN();
    expect(decoded.get('c')).toEqual({ kind: PropertyKind.CHAR, value: 'x' });
    expect(decoded.get('str')).toEqual({ kind: PropertyKind.STRING, value: 'x' });
  });

  describe('copy()', () => {
    it('holds the same entries in the same order', () => {
      fc.assert(
        fc.property(propertyEntries, (entries) => {
          const original = propertiesOf(entries);
          expect(describeProperties(original.copy())).toStrictEqual(describeProperties(original));
        }),
        { numRuns: 100 },
      );
    });

    it('is independent of the original in both directions', () => {
      fc.assert(
        fc.property(
          propertyEntries,
          fc.constantFrom(...HOSTILE_NAMES, 'extra'),
          typedValue,
          (entries, name, value) => {
            const original = propertiesOf(entries);
            const before = describeProperties(original);

            const copy = original.copy();
            copy.set(name, value);
            copy.set('only-in-copy', TWO);
            for (const [existing] of entries.slice(0, 2)) copy.delete(existing);
            expect(describeProperties(original)).toStrictEqual(before);

            const copyState = describeProperties(copy);
            original.set('only-in-original', ONE);
            original.clear();
            expect(describeProperties(copy)).toStrictEqual(copyState);
            expect(copy.has('only-in-original')).toBe(false);
          },
        ),
        { numRuns: 100 },
      );
    });

    it('gives a copied CoreMessage its own properties', () => {
      const message = new CoreMessage();
      message.properties.set('__proto__', ONE);
      const copy = message.copy();
      copy.properties.set('__proto__', TWO);
      copy.properties.set('routed', ONE);
      expect(message.properties.get('__proto__')).toBe(ONE);
      expect(message.properties.has('routed')).toBe(false);
    });
  });
});

describe("TypedProperties' bytes (HornetQ's block)", () => {
  function hexOf(properties: TypedProperties): string {
    const writer = new BufferWriter();
    properties.encode(writer);
    expect(writer.length).toBe(properties.encodedSize());
    return writer.toBuffer().toString('hex');
  }

  it('is byte 0 with no properties, set-and-deleted ones included', () => {
    const properties = new TypedProperties();
    expect(hexOf(properties)).toBe('00');
    properties.set('a', ONE);
    properties.delete('a');
    expect(hexOf(properties)).toBe('00');
  });

  it('is byte 1, a count, then SimpleString name, type byte and value per entry', () => {
    const properties = new TypedProperties();
    properties.set('b', { kind: PropertyKind.BOOLEAN, value: true });
    properties.set('c', { kind: PropertyKind.CHAR, value: '\ud800' });
    properties.set('s', { kind: PropertyKind.STRING, value: 'é' });
    properties.set('l', { kind: PropertyKind.LONG, value: 2n ** 63n - 1n });
    expect(hexOf(properties)).toBe(
      '01' +
        '00000004' +
        ('00000002' + '6200' + '02' + 'ff') +
        ('00000002' + '6300' + '0b' + 'd800') +
        ('00000002' + '7300' + '0a' + '00000002' + 'e900') +
        ('00000002' + '6c00' + '07' + '7fffffffffffffff'),
    );
  });

  it('reads any non-zero first byte as a count to follow, as HornetQ does', () => {
    const decoded = TypedProperties.decode(new BufferReader(Buffer.from('ff00000000', 'hex')));
    expect(decoded.size).toBe(0);
  });

  it('keeps a LONG a number within the safe range and a bigint outside it, both ways', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (value) => {
        const properties = new TypedProperties();
        const asNumber = Number(value);
        const typed: TypedValue = {
          kind: PropertyKind.LONG,
          value: Number.isSafeInteger(asNumber) ? asNumber : value,
        };
        properties.set('l', typed);
        expect(roundTrip(properties).get('l')).toStrictEqual(typed);
      }),
    );
  });
});

describe('single typed values (what JMS Map and Stream bodies are made of)', () => {
  function streamHex(typed: TypedValue): string {
    const writer = new BufferWriter();
    writeTypedValue(writer, typed, 'stream');
    expect(writer.length).toBe(typedValueBytes(typed, 'stream'));
    return writer.toBuffer().toString('hex');
  }

  it("writes a stream's STRING as a nullable three-way String, and null as a null STRING", () => {
    expect(streamHex({ kind: PropertyKind.STRING, value: 'ab' })).toBe('0a' + '01' + '00000002' + '00610062');
    expect(streamHex({ kind: PropertyKind.NULL, value: null })).toBe('0a' + '00');
    const reader = new BufferReader(Buffer.from('0a00', 'hex'));
    expect(readTypedValue(reader, 'stream')).toStrictEqual({ kind: PropertyKind.NULL, value: null });
  });

  it('round-trips every kind in both forms, with the size typedValueBytes gives', () => {
    fc.assert(
      fc.property(typedValue, fc.constantFrom('property' as const, 'stream' as const), (typed, form) => {
        const writer = new BufferWriter();
        writeTypedValue(writer, typed, form);
        expect(writer.length).toBe(typedValueBytes(typed, form));
        const reader = new BufferReader(Buffer.from(writer.toBuffer()));
        const read = readTypedValue(reader, form);
        expect(describeProperties(propertiesOf([['v', read]]))).toStrictEqual(
          describeProperties(propertiesOf([['v', typed]])),
        );
        expect(reader.remaining).toBe(0);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses to write a CHAR that is not one UTF-16 unit', () => {
    expect(() =>
      writeTypedValue(new BufferWriter(), { kind: PropertyKind.CHAR, value: 'ab' }, 'property'),
    ).toThrow(/one UTF-16 unit, not 2/);
  });
});
