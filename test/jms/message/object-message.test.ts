import fc from 'fast-check';
import { MessageType } from '../../../src/core/protocol/core-message';
import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import { MessageFormatException, MessageNotWriteableException } from '../../../src/jms/exceptions';
import { HornetQObjectMessage, MAX_OBJECT_DEPTH } from '../../../src/jms/message/hornetq-object-message';
import { MessageProperty } from '../../../src/jms/message/property-names';
import { receivedWithBody, transfer } from './wire';

/** HornetQ's object body layout: an int length, then the data. */
function lengthPrefixed(data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(data.length);
  return Buffer.concat([length, data]);
}

/** A received ObjectMessage whose data is `data`, marked as our JSON encoding unless `marked` is false. */
function receivedObject(data: Buffer | string, marked = true): HornetQObjectMessage {
  const body = lengthPrefixed(Buffer.from(data));
  return receivedWithBody(MessageType.OBJECT, body, (core) => {
    if (marked)
      core.properties.set(MessageProperty.OBJECT_ENCODING, { kind: PropertyKind.STRING, value: 'json' });
  }) as HornetQObjectMessage;
}

/** The opening of what Java's ObjectOutputStream writes for a String "hi": magic, version, TC_STRING. */
const JAVA_SERIALIZED_HI = Buffer.from([0xac, 0xed, 0x00, 0x05, 0x74, 0x00, 0x02, 0x68, 0x69]);

/**
 * HornetQ's ObjectMessageTest and MessageBodyTest.testObjectMessage, with research §6.8: JSON-
 * compatible values only, snapshot on set, copy on get, nothing from the wire becomes an instance.
 */

describe('ObjectMessageTest', () => {
  it('testVectorOnObjectMessage: a list round-trips', () => {
    const list = [3, 4, 'abc', [true, null]];
    expect(transfer(new HornetQObjectMessage(list)).getObject()).toEqual(list);
  });

  it('testObjectIsolation: setObject takes a snapshot; each getObject is an independent copy', () => {
    const value = { list: [1, 2], name: 'a' };
    const message = new HornetQObjectMessage();
    message.setObject(value);
    value.list.push(3);
    value.name = 'b';
    const first = message.getObject() as { list: number[]; name: string };
    expect(first).toEqual({ list: [1, 2], name: 'a' });
    first.list.push(99);
    expect(message.getObject()).toEqual({ list: [1, 2], name: 'a' });
    expect(message.getObject()).not.toBe(message.getObject());
    const received = transfer(message);
    value.list.push(4);
    expect(received.getObject()).toEqual({ list: [1, 2], name: 'a' });
  });

  it('testReadOnEmptyObjectMessage: null before and after sending', () => {
    const message = new HornetQObjectMessage();
    expect(message.getObject()).toBeNull();
    expect(transfer(message).getObject()).toBeNull();
  });

  it('ObjectMessageDeliveryTest: three payloads arrive as sent', () => {
    for (const payload of ['a string', 37.6, { nested: { deep: [1, { x: 'y' }] } }]) {
      expect(transfer(new HornetQObjectMessage(payload)).getObject()).toEqual(payload);
    }
  });
});

describe('MessageBodyTest.testObjectMessage', () => {
  it('a received object is read-only; after clearBody setObject works', () => {
    const received = transfer(new HornetQObjectMessage({ a: 1 }));
    expect(() => received.setObject({ a: 2 })).toThrow(MessageNotWriteableException);
    expect(received.getObject()).toEqual({ a: 1 });
    received.clearBody();
    expect(received.getObject()).toBeNull();
    received.setObject({ a: 3 });
    expect(received.getObject()).toEqual({ a: 3 });
  });

  it('setObject(null) and setObject(undefined) clear the object', () => {
    const message = new HornetQObjectMessage(1);
    message.setObject(null);
    expect(message.getObject()).toBeNull();
    message.setObject(2);
    message.setObject(undefined);
    expect(transfer(message).getObject()).toBeNull();
  });
});

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe('JSON-compatible values only', () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic['self'] = cyclic;
  const cyclicArray: unknown[] = [];
  cyclicArray.push([cyclicArray]);
  const sparse: unknown[] = new Array(3);
  sparse[0] = 1;
  sparse[2] = 3;
  const withAccessor = Object.defineProperty({}, 'x', { get: () => 1, enumerable: true });

  it.each<[string, unknown]>([
    ['a function', () => 1],
    ['a symbol', Symbol('s')],
    ['a bigint', 10n],
    ['a class instance', new Point(1, 2)],
    ['a Date', new Date(0)],
    ['a Map', new Map([[1, 2]])],
    ['a Set', new Set([1])],
    ['a RegExp', /x/],
    ['a Uint8Array', new Uint8Array(1)],
    ['an Error', new Error('x')],
    ['a boxed string', new String('x')],
    ['a Promise', Promise.resolve()],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['a cycle', cyclic],
    ['a cycle through arrays', cyclicArray],
    ['a function deep inside', { a: [{ b: () => 1 }] }],
    ['a bigint in an array', [1, 2n]],
    ['a class instance inside', { p: new Point(0, 0) }],
    ['undefined in an array', [1, undefined]],
    ['a sparse array', sparse],
    ['an accessor property', withAccessor],
    ['a symbol key', { [Symbol('k')]: 1 }],
  ])('%s is a MessageFormatException and the previous object stays', (_, value) => {
    const message = new HornetQObjectMessage('previous');
    expect(() => message.setObject(value)).toThrow(MessageFormatException);
    expect(message.getObject()).toBe('previous');
    expect(() => new HornetQObjectMessage(value)).toThrow(MessageFormatException);
  });

  it('a cycle is reported as a cycle, not as excessive depth', () => {
    expect(() => new HornetQObjectMessage(cyclic)).toThrow(/cycle/);
    expect(() => new HornetQObjectMessage(cyclicArray)).toThrow(/cycle/);
  });

  it('a shared (acyclic) reference is fine and arrives as two copies', () => {
    const shared = { v: 1 };
    const received = transfer(new HornetQObjectMessage({ a: shared, b: shared })).getObject() as Record<
      string,
      unknown
    >;
    expect(received).toEqual({ a: { v: 1 }, b: { v: 1 } });
    expect(received['a']).not.toBe(received['b']);
  });

  it('an object with a null prototype is accepted; undefined-valued properties are left out', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, gone: undefined });
    expect(transfer(new HornetQObjectMessage(bare)).getObject()).toEqual({ a: 1 });
  });

  it(`nesting up to ${MAX_OBJECT_DEPTH} levels is accepted, deeper is refused`, () => {
    const nest = (depth: number): unknown => {
      let value: unknown = 0;
      for (let i = 0; i < depth; i++) value = [value];
      return value;
    };
    expect(() => new HornetQObjectMessage(nest(MAX_OBJECT_DEPTH))).not.toThrow();
    expect(() => new HornetQObjectMessage(nest(MAX_OBJECT_DEPTH + 1))).toThrow(MessageFormatException);
  });
});

describe('nothing from the wire becomes an instance or code', () => {
  it('a __proto__ key arrives as an own property; no prototype is set and Object.prototype is untouched', () => {
    const message = receivedObject(
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    );
    const value = message.getObject() as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true);
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('class-like tags stay data', () => {
    const value = receivedObject('{"@class":"java.util.Date","$type":"Point","value":0}').getObject();
    expect(value).toEqual({ '@class': 'java.util.Date', $type: 'Point', value: 0 });
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('a received object whose own __proto__ key is set again goes out and back unchanged', () => {
    const received = receivedObject('{"__proto__":{"a":1}}');
    const value = received.getObject();
    const again = transfer(new HornetQObjectMessage(value)).getObject() as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(again, '__proto__')?.value).toEqual({ a: 1 });
    expect(Object.getPrototypeOf(again)).toBe(Object.prototype);
  });
});

describe('object body encoding (HornetQ’s int length + data; the data is JSON, marked)', () => {
  it('is an int length and the JSON text in UTF-8, marked JMS_HQJS_OBJECT_ENCODING = json; empty for no object', () => {
    const message = new HornetQObjectMessage({ a: 'é' });
    expect([...message.encodeBody()]).toEqual([0, 0, 0, 10, ...Buffer.from('{"a":"é"}')]);
    expect(message.toCoreMessage().properties.get('JMS_HQJS_OBJECT_ENCODING')).toEqual({
      kind: PropertyKind.STRING,
      value: 'json',
    });
    const none = new HornetQObjectMessage();
    expect(none.encodeBody()).toHaveLength(0);
    expect(none.toCoreMessage().properties.has('JMS_HQJS_OBJECT_ENCODING')).toBe(false);
  });

  it('the marker is the provider’s: not listed, and kept when a received message is sent on after clearProperties', () => {
    const received = transfer(new HornetQObjectMessage([1]));
    expect(received.getPropertyNames()).toEqual(['JMSXDeliveryCount']);
    received.clearProperties();
    expect(transfer(received).getObject()).toEqual([1]);
  });

  it('a Java client’s serialized object (stream magic 0xACED) is a MessageFormatException saying why', () => {
    const message = receivedObject(JAVA_SERIALIZED_HI, false);
    expect(() => message.getObject()).toThrow(MessageFormatException);
    expect(() => message.getObject()).toThrow(/Java serialization \(stream magic 0xACED\)/);
    // Sent on by Node, the Java body stays as it was, unmarked, for a Java consumer to read.
    const forwarded = transfer(message);
    expect(forwarded.encodeBody()).toEqual(lengthPrefixed(JAVA_SERIALIZED_HI));
    expect(forwarded.getCoreMessage().properties.has('JMS_HQJS_OBJECT_ENCODING')).toBe(false);
  });

  it('an empty body is no object, as HornetQ writes a null object', () => {
    expect(
      (receivedWithBody(MessageType.OBJECT, Buffer.alloc(0)) as HornetQObjectMessage).getObject(),
    ).toBeNull();
  });

  it.each<[string, HornetQObjectMessage]>([
    ['not JSON', receivedObject('{a:1}')],
    ['truncated JSON', receivedObject('{"a":')],
    ['trailing garbage', receivedObject('1 2')],
    ['invalid UTF-8', receivedObject(Buffer.from([0x22, 0xff, 0x22]))],
    ['a JavaScript expression', receivedObject('(function(){return 1})()')],
    ['JSON without the marker', receivedObject('{"a":1}', false)],
    [
      'a length that disagrees with the body',
      receivedWithBody(MessageType.OBJECT, Buffer.from([0, 0, 0, 9, 0x31])) as HornetQObjectMessage,
    ],
    ['a truncated length', receivedWithBody(MessageType.OBJECT, Buffer.from([0, 0])) as HornetQObjectMessage],
  ])('%s is a corrupt body: MessageFormatException on getObject', (_, message) => {
    expect(() => message.getObject()).toThrow(MessageFormatException);
  });

  it('deep nesting from the wire is read without a stack overflow', () => {
    const depth = 100_000;
    const message = receivedObject('['.repeat(depth) + ']'.repeat(depth));
    expect(Array.isArray(message.getObject())).toBe(true);
  });
});

describe('round trip of any JSON value', () => {
  it('getObject after the wire equals the value set', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const normalised = JSON.parse(JSON.stringify(value)) as unknown;
        expect(transfer(new HornetQObjectMessage(value)).getObject()).toEqual(normalised);
      }),
      { numRuns: 200 },
    );
  });
});
