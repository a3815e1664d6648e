import fc from 'fast-check';
import { MessageType } from '../../../src/core/protocol/core-message';
import { MessageFormatException, MessageNotWriteableException } from '../../../src/jms/exceptions';
import { HornetQObjectMessage, MAX_OBJECT_DEPTH } from '../../../src/jms/message/hornetq-object-message';
import { receivedWithBody, transfer } from './wire';

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
    const body = Buffer.from('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
    const message = receivedWithBody(MessageType.OBJECT, body) as HornetQObjectMessage;
    const value = message.getObject() as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true);
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('class-like tags stay data', () => {
    const body = Buffer.from('{"@class":"java.util.Date","$type":"Point","value":0}');
    const value = (receivedWithBody(MessageType.OBJECT, body) as HornetQObjectMessage).getObject();
    expect(value).toEqual({ '@class': 'java.util.Date', $type: 'Point', value: 0 });
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('a received object whose own __proto__ key is set again goes out and back unchanged', () => {
    const body = Buffer.from('{"__proto__":{"a":1}}');
    const received = receivedWithBody(MessageType.OBJECT, body) as HornetQObjectMessage;
    const value = received.getObject();
    const again = transfer(new HornetQObjectMessage(value)).getObject() as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(again, '__proto__')?.value).toEqual({ a: 1 });
    expect(Object.getPrototypeOf(again)).toBe(Object.prototype);
  });
});

describe('object body encoding', () => {
  it('is the JSON text in UTF-8; empty for no object', () => {
    expect(new HornetQObjectMessage({ a: 'é' }).encodeBody().toString('utf8')).toBe('{"a":"é"}');
    expect(new HornetQObjectMessage().encodeBody()).toHaveLength(0);
  });

  it.each<[string, Buffer]>([
    ['not JSON', Buffer.from('{a:1}')],
    ['truncated JSON', Buffer.from('{"a":')],
    ['trailing garbage', Buffer.from('1 2')],
    ['invalid UTF-8', Buffer.from([0x22, 0xff, 0x22])],
    ['a JavaScript expression', Buffer.from('(function(){return 1})()')],
  ])('%s is a corrupt body: MessageFormatException on getObject', (_, body) => {
    const message = receivedWithBody(MessageType.OBJECT, body) as HornetQObjectMessage;
    expect(() => message.getObject()).toThrow(MessageFormatException);
  });

  it('deep nesting from the wire is read without a stack overflow', () => {
    const depth = 100_000;
    const body = Buffer.from('['.repeat(depth) + ']'.repeat(depth));
    const message = receivedWithBody(MessageType.OBJECT, body) as HornetQObjectMessage;
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
