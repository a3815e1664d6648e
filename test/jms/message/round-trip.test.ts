import fc from 'fast-check';
import { PropertyKind, type TypedValue } from '../../../src/core/protocol/typed-properties';
import type { Destination } from '../../../src/jms/destination/destination';
import { HornetQQueue } from '../../../src/jms/destination/hornetq-queue';
import { HornetQTemporaryQueue } from '../../../src/jms/destination/hornetq-temporary-queue';
import { HornetQTemporaryTopic } from '../../../src/jms/destination/hornetq-temporary-topic';
import { HornetQTopic } from '../../../src/jms/destination/hornetq-topic';
import { MessageEOFException } from '../../../src/jms/exceptions';
import { HornetQBytesMessage } from '../../../src/jms/message/hornetq-bytes-message';
import { HornetQMapMessage } from '../../../src/jms/message/hornetq-map-message';
import { HornetQMessage } from '../../../src/jms/message/hornetq-message';
import { HornetQObjectMessage } from '../../../src/jms/message/hornetq-object-message';
import { HornetQStreamMessage } from '../../../src/jms/message/hornetq-stream-message';
import { HornetQTextMessage } from '../../../src/jms/message/hornetq-text-message';
import { transfer } from './wire';

/**
 * Property-based round trips for every message type: toCoreMessage → SESS_SEND and
 * SESS_RECEIVE_MSG frames encoded and decoded (HornetQ 2.4's layouts; the exact bytes are checked
 * per body type in the *-message tests and against HornetQ's own in hornetq-golden-bodies.test.ts)
 * → fromCoreMessage gives back the same headers, typed properties and body.
 */

const RESERVED = new Set([
  'null',
  'true',
  'false',
  'not',
  'and',
  'or',
  'between',
  'like',
  'in',
  'is',
  'escape',
]);
const propertyName = fc
  .stringMatching(/^[a-z_$][a-zA-Z0-9_$]{0,12}$/)
  .filter(
    (name) => !RESERVED.has(name.toLowerCase()) && !name.startsWith('_HQ_') && !name.startsWith('__HQ_'),
  );
const text = fc.string({ unit: 'grapheme', maxLength: 30 });
/** Any UTF-16 units, lone surrogates included: what modified UTF-8 and chars carry. */
const units = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 30 })
  .map((u) => String.fromCharCode(...u));
const char = fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u));
const bytes = fc.uint8Array({ maxLength: 40 });
const long = fc.oneof(fc.maxSafeInteger(), fc.constantFrom(0, -1, 2 ** 32, -(2 ** 31) - 1));
const float = fc.float().map(Math.fround);
/** A Java long beyond ±2^53, which only a bigint holds exactly. */
const bigLong = fc.oneof(
  fc.bigInt({ min: 2n ** 53n, max: 2n ** 63n - 1n }),
  fc.bigInt({ min: -(2n ** 63n), max: -(2n ** 53n) }),
);

/** A typed value as a setter would store it, with the setter's name. */
type Typed = [TypedValue['kind'], unknown];
const scalar: fc.Arbitrary<Typed> = fc.oneof(
  fc.boolean().map((v): Typed => [PropertyKind.BOOLEAN, v]),
  fc.integer({ min: -128, max: 127 }).map((v): Typed => [PropertyKind.BYTE, v]),
  fc.integer({ min: -32768, max: 32767 }).map((v): Typed => [PropertyKind.SHORT, v]),
  fc.integer().map((v): Typed => [PropertyKind.INT, v]),
  long.map((v): Typed => [PropertyKind.LONG, v]),
  bigLong.map((v): Typed => [PropertyKind.LONG, v]),
  float.map((v): Typed => [PropertyKind.FLOAT, v]),
  fc.double().map((v): Typed => [PropertyKind.DOUBLE, v]),
  text.map((v): Typed => [PropertyKind.STRING, v]),
  fc.constant<Typed>([PropertyKind.NULL, null]),
);
const withCharAndBytes: fc.Arbitrary<Typed> = fc.oneof(
  { arbitrary: scalar, weight: 9 },
  { arbitrary: char.map((v): Typed => [PropertyKind.CHAR, v]), weight: 1 },
  { arbitrary: bytes.map((v): Typed => [PropertyKind.BYTES, v]), weight: 1 },
);

function setProperty(message: HornetQMessage, name: string, [kind, value]: Typed): void {
  switch (kind) {
    case PropertyKind.BOOLEAN:
      return message.setBooleanProperty(name, value as boolean);
    case PropertyKind.BYTE:
      return message.setByteProperty(name, value as number);
    case PropertyKind.SHORT:
      return message.setShortProperty(name, value as number);
    case PropertyKind.INT:
      return message.setIntProperty(name, value as number);
    case PropertyKind.LONG:
      return message.setLongProperty(name, value as number | bigint);
    case PropertyKind.FLOAT:
      return message.setFloatProperty(name, value as number);
    case PropertyKind.DOUBLE:
      return message.setDoubleProperty(name, value as number);
    default:
      return message.setStringProperty(name, value as string | null);
  }
}

const destination: fc.Arbitrary<Destination> = fc
  .tuple(fc.integer({ min: 0, max: 3 }), fc.stringMatching(/^[\w.-]{1,12}$/))
  .map(
    ([kind, name]) =>
      [
        new HornetQQueue(name),
        new HornetQTopic(name),
        new HornetQTemporaryQueue(name),
        new HornetQTemporaryTopic(name),
      ][kind] as Destination,
  );

interface Headers {
  userId: string | null;
  timestamp: number;
  expiration: number;
  priority: number;
  mode: number;
  correlationId: string | null;
  type: string | null;
  replyTo: Destination | null;
  destination: Destination | null;
}

const headers: fc.Arbitrary<Headers> = fc.record({
  /** The core userId a producer draws: JMSMessageID is 'ID:' + it (16 bytes on the wire). */
  userId: fc.option(fc.uuid().map((u) => u.toLowerCase())),
  timestamp: fc.nat({ max: 2 ** 45 }),
  expiration: fc.nat({ max: 2 ** 45 }),
  priority: fc.integer({ min: 0, max: 9 }),
  mode: fc.constantFrom(1, 2),
  correlationId: fc.option(text),
  type: fc.option(text),
  replyTo: fc.option(destination),
  destination: fc.option(destination),
});

const properties = fc.array(fc.tuple(propertyName, scalar), { maxLength: 12 });

function applyHeadersAndProperties(message: HornetQMessage, h: Headers, props: Array<[string, Typed]>): void {
  message.assignMessageID(h.userId);
  message.setJMSTimestamp(h.timestamp);
  message.setJMSExpiration(h.expiration);
  message.setJMSPriority(h.priority);
  message.setJMSDeliveryMode(h.mode);
  message.setJMSCorrelationID(h.correlationId);
  message.setJMSType(h.type);
  message.setJMSReplyTo(h.replyTo);
  message.setJMSDestination(h.destination);
  for (const [name, typed] of props) setProperty(message, name, typed);
}

function checkHeadersAndProperties(
  received: HornetQMessage,
  h: Headers,
  props: Array<[string, Typed]>,
  count: number,
): void {
  expect(received.getJMSMessageID()).toBe(h.userId === null ? null : `ID:${h.userId}`);
  expect(received.getJMSTimestamp()).toBe(h.timestamp);
  expect(received.getJMSExpiration()).toBe(h.expiration);
  expect(received.getJMSPriority()).toBe(h.priority);
  expect(received.getJMSDeliveryMode()).toBe(h.mode);
  expect(received.getJMSCorrelationID()).toBe(h.correlationId);
  expect(received.getJMSType()).toBe(h.type);
  expect(received.getJMSReplyTo()?.toString() ?? null).toBe(h.replyTo?.toString() ?? null);
  expect(received.getJMSReplyTo()?.constructor ?? null).toBe(h.replyTo?.constructor ?? null);
  expect(received.getJMSDestination()?.toString() ?? null).toBe(h.destination?.toString() ?? null);
  expect(received.getJMSDestination()?.constructor ?? null).toBe(h.destination?.constructor ?? null);
  expect(received.getJMSRedelivered()).toBe(count > 1);
  expect(received.getIntProperty('JMSXDeliveryCount')).toBe(count);
  const expected = new Map<string, Typed>();
  for (const [name, typed] of props) expected.set(name, typed);
  expect(received.getPropertyNames().sort()).toEqual([...expected.keys(), 'JMSXDeliveryCount'].sort());
  for (const [name, [kind, value]] of expected) {
    expect(received.getCoreMessage().properties.get(name)).toEqual({ kind, value });
    expect(received.getObjectProperty(name)).toEqual(value);
  }
}

function roundTrip<T extends HornetQMessage>(
  create: fc.Arbitrary<[() => T, (received: T) => void]>,
  runs = 100,
): void {
  fc.assert(
    fc.property(
      create,
      headers,
      properties,
      fc.integer({ min: 1, max: 1000 }),
      ([make, check], h, props, count) => {
        const message = make();
        applyHeadersAndProperties(message, h, props);
        const received = transfer(message, count);
        checkHeadersAndProperties(received, h, props, count);
        check(received);
      },
    ),
    { numRuns: runs },
  );
}

describe('round trip through the wire', () => {
  it('Message', () => {
    roundTrip(
      fc.constant<[() => HornetQMessage, (m: HornetQMessage) => void]>([
        () => new HornetQMessage(),
        () => {},
      ]),
    );
  });

  it('TextMessage', () => {
    roundTrip(
      fc
        .option(text)
        .map((t): [() => HornetQTextMessage, (m: HornetQTextMessage) => void] => [
          () => new HornetQTextMessage(t),
          (m) => expect(m.getText()).toBe(t),
        ]),
    );
  });

  it('ObjectMessage', () => {
    roundTrip(
      fc
        .jsonValue()
        .map((v): [() => HornetQObjectMessage, (m: HornetQObjectMessage) => void] => [
          () => new HornetQObjectMessage(v),
          (m) => expect(m.getObject()).toEqual(JSON.parse(JSON.stringify(v)) as unknown),
        ]),
    );
  });

  it('MapMessage', () => {
    roundTrip(
      fc
        .array(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), withCharAndBytes), { maxLength: 12 })
        .map((entries): [() => HornetQMapMessage, (m: HornetQMapMessage) => void] => [
          () => {
            const m = new HornetQMapMessage();
            for (const [name, [kind, value]] of entries) {
              if (kind === PropertyKind.CHAR) m.setChar(name, value as string);
              else if (kind === PropertyKind.BYTES) m.setBytes(name, value as Uint8Array);
              else m.setObject(name, kind === PropertyKind.NULL ? null : value);
              if (kind !== PropertyKind.CHAR && kind !== PropertyKind.BYTES && kind !== PropertyKind.NULL) {
                // setObject types numbers itself; set again with the exact setter.
                setMapTyped(m, name, [kind, value]);
              }
            }
            return m;
          },
          (m) => {
            const expected = new Map<string, unknown>();
            for (const [name, [kind, value]] of entries) {
              expected.set(name, kind === PropertyKind.BYTES ? Buffer.from(value as Uint8Array) : value);
            }
            expect(m.getMapNames().sort()).toEqual([...expected.keys()].sort());
            for (const [name, value] of expected) expect(m.getObject(name)).toEqual(value);
          },
        ]),
    );
  });

  it('StreamMessage', () => {
    roundTrip(
      fc
        .array(withCharAndBytes, { maxLength: 20 })
        .map((fields): [() => HornetQStreamMessage, (m: HornetQStreamMessage) => void] => [
          () => {
            const m = new HornetQStreamMessage();
            for (const field of fields) writeStreamTyped(m, field);
            return m;
          },
          (m) => {
            for (const [kind, value] of fields) {
              expect(m.readObject()).toEqual(
                kind === PropertyKind.BYTES ? Buffer.from(value as Uint8Array) : value,
              );
            }
            expect(() => m.readObject()).toThrow(MessageEOFException);
          },
        ]),
    );
  });

  it('BytesMessage', () => {
    type Op = [string, unknown];
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.boolean().map((v): Op => ['Boolean', v]),
      fc.integer({ min: -128, max: 127 }).map((v): Op => ['Byte', v]),
      fc.integer({ min: -32768, max: 32767 }).map((v): Op => ['Short', v]),
      char.map((v): Op => ['Char', v]),
      fc.integer().map((v): Op => ['Int', v]),
      long.map((v): Op => ['Long', v]),
      float.map((v): Op => ['Float', v]),
      fc.double().map((v): Op => ['Double', v]),
      units.map((v): Op => ['UTF', v]),
      bytes.map((v): Op => ['Bytes', v]),
    );
    roundTrip(
      fc
        .array(op, { maxLength: 20 })
        .map((ops): [() => HornetQBytesMessage, (m: HornetQBytesMessage) => void] => [
          () => {
            const m = new HornetQBytesMessage();
            for (const [name, value] of ops)
              (m[`write${name}` as 'writeInt'] as (v: unknown) => void).call(m, value);
            return m;
          },
          (m) => {
            for (const [name, value] of ops) {
              if (name === 'Bytes') {
                const array = value as Uint8Array;
                const target = new Uint8Array(array.length);
                if (array.length > 0) expect(m.readBytes(target)).toBe(array.length);
                expect(target).toEqual(array);
              } else {
                expect((m[`read${name}` as 'readInt'] as () => unknown).call(m)).toEqual(value);
              }
            }
            expect(m.readBytes(new Uint8Array(1))).toBe(-1);
          },
        ]),
    );
  });
});

function setMapTyped(m: HornetQMapMessage, name: string, [kind, value]: Typed): void {
  const v = value as never;
  switch (kind) {
    case PropertyKind.BOOLEAN:
      return m.setBoolean(name, v);
    case PropertyKind.BYTE:
      return m.setByte(name, v);
    case PropertyKind.SHORT:
      return m.setShort(name, v);
    case PropertyKind.INT:
      return m.setInt(name, v);
    case PropertyKind.LONG:
      return m.setLong(name, v);
    case PropertyKind.FLOAT:
      return m.setFloat(name, v);
    case PropertyKind.DOUBLE:
      return m.setDouble(name, v);
    default:
      return m.setString(name, v);
  }
}

function writeStreamTyped(m: HornetQStreamMessage, [kind, value]: Typed): void {
  const v = value as never;
  switch (kind) {
    case PropertyKind.BOOLEAN:
      return m.writeBoolean(v);
    case PropertyKind.BYTE:
      return m.writeByte(v);
    case PropertyKind.SHORT:
      return m.writeShort(v);
    case PropertyKind.INT:
      return m.writeInt(v);
    case PropertyKind.LONG:
      return m.writeLong(v);
    case PropertyKind.FLOAT:
      return m.writeFloat(v);
    case PropertyKind.DOUBLE:
      return m.writeDouble(v);
    case PropertyKind.CHAR:
      return m.writeChar(v);
    case PropertyKind.BYTES:
      return m.writeBytes(v);
    default:
      return m.writeString(v);
  }
}
