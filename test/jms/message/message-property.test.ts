import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import {
  MessageFormatException,
  MessageNotWriteableException,
  NumberFormatException,
} from '../../../src/jms/exceptions';
import { HornetQMessage } from '../../../src/jms/message/hornetq-message';
import { HornetQTextMessage } from '../../../src/jms/message/hornetq-text-message';
import { transfer } from './wire';

/** JORAM MessagePropertyTest, HornetQ's MessageHeaderTest.testProperties and §4 C2 of the research. */

/** HornetQ's MessageTestBase: eight typed properties. */
function withEightProperties<T extends HornetQMessage>(message: T): T {
  message.setBooleanProperty('booleanProperty', true);
  message.setByteProperty('byteProperty', 3);
  message.setDoubleProperty('doubleProperty', 4.0);
  message.setFloatProperty('floatProperty', 5.0);
  message.setIntProperty('intProperty', 6);
  message.setLongProperty('longProperty', 7);
  message.setShortProperty('shortProperty', 8);
  message.setStringProperty('stringProperty', 'this is a String property');
  return message;
}

const SETTERS: Array<[string, (m: HornetQMessage, name: string) => void]> = [
  ['setBooleanProperty', (m, n) => m.setBooleanProperty(n, true)],
  ['setByteProperty', (m, n) => m.setByteProperty(n, 1)],
  ['setShortProperty', (m, n) => m.setShortProperty(n, 1)],
  ['setIntProperty', (m, n) => m.setIntProperty(n, 1)],
  ['setLongProperty', (m, n) => m.setLongProperty(n, 1)],
  ['setFloatProperty', (m, n) => m.setFloatProperty(n, 1)],
  ['setDoubleProperty', (m, n) => m.setDoubleProperty(n, 1)],
  ['setStringProperty', (m, n) => m.setStringProperty(n, 'v')],
  ['setObjectProperty', (m, n) => m.setObjectProperty(n, 'v')],
];

describe('MessagePropertyTest (JORAM)', () => {
  it('testSetObjectProperty_1: a fraction set as an object is a double (JavaScript has no float literal)', () => {
    const message = new HornetQMessage();
    message.setObjectProperty('pi', 3.14159);
    expect(message.getDoubleProperty('pi')).toBe(3.14159);
    expect(() => message.getFloatProperty('pi')).toThrow(MessageFormatException);
  });

  it.each<[string, unknown]>([
    ['an array', ['a', 'b']],
    ['a plain object', { a: 1 }],
    ['a Map', new Map()],
    ['a Date', new Date(0)],
    ['bytes', Buffer.from([1])],
    ['a bigint beyond the range of a long', -(2n ** 63n) - 1n],
    ['a symbol', Symbol('s')],
    ['a function', () => 1],
    ['undefined', undefined],
  ])('testSetObjectProperty_2: %s is a MessageFormatException', (_, value) => {
    const message = new HornetQMessage();
    expect(() => message.setObjectProperty('p', value)).toThrow(MessageFormatException);
    expect(message.propertyExists('p')).toBe(false);
  });

  it('a long beyond ±2^53 (a Java peer’s Long.MAX_VALUE) is a bigint: getObjectProperty and getStringProperty give it, getLongProperty names it', () => {
    const message = new HornetQMessage();
    message.getCoreMessage().properties.set('max', { kind: PropertyKind.LONG, value: 2n ** 63n - 1n });
    message.getCoreMessage().properties.set('min', { kind: PropertyKind.LONG, value: -(2n ** 63n) });
    const received = transfer(message);
    expect(received.getObjectProperty('max')).toBe(2n ** 63n - 1n);
    expect(received.getObjectProperty('min')).toBe(-(2n ** 63n));
    expect(received.getStringProperty('max')).toBe('9223372036854775807');
    expect(() => received.getLongProperty('max')).toThrow(MessageFormatException);
    expect(() => received.getLongProperty('max')).toThrow(
      /property 'max' = 9223372036854775807 is a long outside/,
    );
    expect(() => received.getDoubleProperty('max')).toThrow(MessageFormatException);
  });

  it('setLongProperty and setObjectProperty take a bigint within the range of a long; a safe one is stored as a number', () => {
    const message = new HornetQMessage();
    message.setLongProperty('big', 2n ** 62n);
    message.setObjectProperty('obj', -(2n ** 63n));
    message.setLongProperty('small', 42n);
    expect(message.getCoreMessage().properties.get('big')).toEqual({
      kind: PropertyKind.LONG,
      value: 2n ** 62n,
    });
    expect(message.getCoreMessage().properties.get('small')).toEqual({ kind: PropertyKind.LONG, value: 42 });
    expect(message.getLongProperty('small')).toBe(42);
    const received = transfer(message);
    expect(received.getObjectProperty('big')).toBe(2n ** 62n);
    expect(received.getObjectProperty('obj')).toBe(-(2n ** 63n));
    expect(() => message.setLongProperty('x', 2n ** 63n)).toThrow(MessageFormatException);
  });

  it('testGetObjectProperty / testGetStringProperty / testGetBooleanProperty: missing → null, null, false', () => {
    const message = new HornetQMessage();
    expect(message.getObjectProperty('x')).toBeNull();
    expect(message.getStringProperty('x')).toBeNull();
    expect(message.getBooleanProperty('x')).toBe(false);
  });

  it.each([
    'getByteProperty',
    'getShortProperty',
    'getIntProperty',
    'getLongProperty',
    'getFloatProperty',
    'getDoubleProperty',
  ] as const)('%s of a missing property is a NumberFormatException', (getter) => {
    const message = new HornetQMessage();
    expect(() => message[getter]('x')).toThrow(NumberFormatException);
  });

  it('testGetPropertyNames: header names are never listed', () => {
    const message = new HornetQMessage();
    message.setJMSCorrelationID('foo');
    message.setJMSType('t');
    message.setJMSReplyTo(null);
    message.setStringProperty('app', 'x');
    for (const received of [message, transfer(message)]) {
      const names = received.getPropertyNames();
      expect(names).toContain('app');
      for (const name of names) expect(!name.startsWith('JMS') || name.startsWith('JMSX')).toBe(true);
    }
  });

  it('testPropertyIteration: one more property, one more name', () => {
    const message = new HornetQTextMessage();
    const before = message.getPropertyNames().length;
    message.setObjectProperty('newProp', 'x');
    const names = message.getPropertyNames();
    expect(names).toHaveLength(before + 1);
    expect(names).toContain('newProp');
  });

  it('testClearProperties_1 and _2: properties go, the body stays', () => {
    const message = new HornetQTextMessage('body');
    message.setStringProperty('prop', 'foo');
    message.clearProperties();
    expect(message.getStringProperty('prop')).toBeNull();
    expect(message.propertyExists('prop')).toBe(false);
    expect(message.getText()).toBe('body');
  });
});

describe('property names (C2.1)', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['undefined', undefined],
    ['empty', ''],
    ['starting with a digit', '1abc'],
    ['with a dash', 'a-b'],
    ['with a dot', 'a.b'],
    ['with a space', 'a b'],
    ['NULL', 'NULL'],
    ['TRUE', 'TRUE'],
    ['false (any case)', 'false'],
    ['NOT', 'NOT'],
    ['AND', 'AND'],
    ['OR', 'Or'],
    ['BETWEEN', 'BETWEEN'],
    ['LIKE', 'LIKE'],
    ['IN', 'IN'],
    ['IS', 'is'],
    ['ESCAPE', 'ESCAPE'],
    ['JMS_HORNETQ prefixed', 'JMS_HORNETQ_X'],
  ])('a name %s is refused with TypeError by every setter', (_, name) => {
    for (const [, setter] of SETTERS) {
      const message = new HornetQMessage();
      expect(() => setter(message, name as string)).toThrow(TypeError);
      expect(message.getPropertyNames()).toEqual([]);
    }
  });

  it.each([
    'a',
    '_a',
    '$a',
    'a1',
    'a_b$c',
    'élan',
    'JMSXGroupSeq',
    'JMS_vendor',
    'INTEREST',
    'NULLS',
    '__proto__',
    'constructor',
  ])('accepts %p', (name) => {
    const message = new HornetQMessage();
    message.setIntProperty(name, 1);
    expect(message.getIntProperty(name)).toBe(1);
    expect(message.getPropertyNames()).toEqual([name]);
    expect(transfer(message).getIntProperty(name)).toBe(1);
  });

  it('a name like __proto__ stays an ordinary property and pollutes nothing', () => {
    const message = new HornetQMessage();
    message.setStringProperty('__proto__', 'x');
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
    expect(Object.getPrototypeOf(message)).toBe(HornetQMessage.prototype);
    expect(message.getStringProperty('__proto__')).toBe('x');
  });
});

describe('property values (C2.2, C2.3)', () => {
  it.each<[string, (m: HornetQMessage) => void]>([
    ['a byte above 127', (m) => m.setByteProperty('p', 128)],
    ['a byte below -128', (m) => m.setByteProperty('p', -129)],
    ['a fractional byte', (m) => m.setByteProperty('p', 1.5)],
    ['a short above 32767', (m) => m.setShortProperty('p', 32768)],
    ['an int above 2^31-1', (m) => m.setIntProperty('p', 2 ** 31)],
    ['an int that is NaN', (m) => m.setIntProperty('p', NaN)],
    ['a long beyond the safe range', (m) => m.setLongProperty('p', 2 ** 53)],
    ['a fractional long', (m) => m.setLongProperty('p', 0.5)],
    ['a string as a long', (m) => m.setLongProperty('p', '5' as unknown as number)],
    ['a number as a boolean', (m) => m.setBooleanProperty('p', 1 as unknown as boolean)],
    ['a number as a string', (m) => m.setStringProperty('p', 1 as unknown as string)],
    ['a string as a double', (m) => m.setDoubleProperty('p', '1' as unknown as number)],
  ])('%s is a MessageFormatException and nothing is stored', (_, act) => {
    const message = new HornetQMessage();
    expect(() => act(message)).toThrow(MessageFormatException);
    expect(message.propertyExists('p')).toBe(false);
  });

  it('the range edges are accepted', () => {
    const message = new HornetQMessage();
    message.setByteProperty('b', -128);
    message.setShortProperty('s', 32767);
    message.setIntProperty('i', -(2 ** 31));
    message.setLongProperty('l', Number.MIN_SAFE_INTEGER);
    const received = transfer(message);
    expect(received.getByteProperty('b')).toBe(-128);
    expect(received.getShortProperty('s')).toBe(32767);
    expect(received.getIntProperty('i')).toBe(-(2 ** 31));
    expect(received.getLongProperty('l')).toBe(Number.MIN_SAFE_INTEGER);
  });

  it.each<[unknown, string, string]>([
    [7, 'int', 'getIntProperty'],
    [2 ** 31, 'long', 'getLongProperty'],
    [2.5, 'double', 'getDoubleProperty'],
    [2 ** 60, 'double', 'getDoubleProperty'],
    [true, 'boolean', 'getBooleanProperty'],
    ['s', 'string', 'getStringProperty'],
  ])('setObjectProperty(%p) stores a %s', (value, type, getter) => {
    const message = new HornetQMessage();
    message.setObjectProperty('p', value);
    const received = transfer(message);
    expect((received[getter as 'getIntProperty'] as (n: string) => unknown)('p')).toBe(value);
    expect(received.getObjectProperty('p')).toBe(value);
    if (type === 'int') expect(() => received.getDoubleProperty('p')).toThrow(MessageFormatException);
    if (type === 'long') expect(() => received.getIntProperty('p')).toThrow(MessageFormatException);
    if (type === 'double') expect(() => received.getLongProperty('p')).toThrow(MessageFormatException);
  });

  it('setting again replaces value and type (testResetToNull)', () => {
    const message = new HornetQMessage();
    message.setStringProperty('key', 'fish');
    message.setBooleanProperty('key', true);
    expect(transfer(message).getObjectProperty('key')).toBe(true);
    message.setStringProperty('key', null);
    expect(transfer(message).getObjectProperty('key')).toBeNull();
    message.setIntProperty('key', 1);
    message.setObjectProperty('key', null);
    const received = transfer(message);
    expect(received.getObjectProperty('key')).toBeNull();
    expect(received.propertyExists('key')).toBe(true);
  });
});

describe('read-only properties after receive (C2.6)', () => {
  it.each(SETTERS)(
    '%s on a received message is a MessageNotWriteableException, even with a bad name',
    (_, setter) => {
      const received = transfer(withEightProperties(new HornetQMessage()));
      expect(() => setter(received, 'other')).toThrow(MessageNotWriteableException);
      expect(() => setter(received, '')).toThrow(MessageNotWriteableException);
      expect(received.propertyExists('other')).toBe(false);
    },
  );

  it('clearProperties makes them writable again and keeps JMSXDeliveryCount and the headers', () => {
    const message = withEightProperties(new HornetQTextMessage('text'));
    message.setJMSCorrelationID('corr');
    message.setJMSType('type');
    const received = transfer(message);
    received.clearProperties();
    expect(received.getPropertyNames()).toEqual(['JMSXDeliveryCount']);
    expect(received.getJMSCorrelationID()).toBe('corr');
    expect(received.getJMSType()).toBe('type');
    expect(received.getText()).toBe('text');
    received.setIntProperty('again', 1);
    expect(received.getIntProperty('again')).toBe(1);
  });

  it('header setters work on a received message', () => {
    const received = transfer(new HornetQMessage());
    received.setJMSCorrelationID('c');
    received.setJMSType('t');
    received.setJMSPriority(9);
    expect(received.getJMSCorrelationID()).toBe('c');
    expect(received.getJMSType()).toBe('t');
    expect(received.getJMSPriority()).toBe(9);
  });

  it('a message made here keeps writable properties after it is sent', () => {
    const message = new HornetQMessage();
    message.toCoreMessage();
    message.setIntProperty('p', 1);
    expect(message.getIntProperty('p')).toBe(1);
  });
});

describe('testProperties (HornetQ MessageHeaderTest)', () => {
  it('round-trips the eight properties with their types; 9 names with JMSXDeliveryCount', () => {
    const received = transfer(withEightProperties(new HornetQMessage()));
    expect(received.getBooleanProperty('booleanProperty')).toBe(true);
    expect(received.getByteProperty('byteProperty')).toBe(3);
    expect(received.getDoubleProperty('doubleProperty')).toBe(4);
    expect(received.getFloatProperty('floatProperty')).toBe(5);
    expect(received.getIntProperty('intProperty')).toBe(6);
    expect(received.getLongProperty('longProperty')).toBe(7);
    expect(received.getShortProperty('shortProperty')).toBe(8);
    expect(received.getStringProperty('stringProperty')).toBe('this is a String property');
    expect(received.getPropertyNames().sort()).toEqual(
      [
        'JMSXDeliveryCount',
        'booleanProperty',
        'byteProperty',
        'doubleProperty',
        'floatProperty',
        'intProperty',
        'longProperty',
        'shortProperty',
        'stringProperty',
      ].sort(),
    );
    expect(received.getCoreMessage().properties.get('byteProperty')?.kind).toBe(PropertyKind.BYTE);
    expect(received.getCoreMessage().properties.get('floatProperty')?.kind).toBe(PropertyKind.FLOAT);
  });

  it('"xyz123": NumberFormatException for number getters, false for boolean', () => {
    const message = new HornetQMessage();
    message.setStringProperty('s', 'xyz123');
    for (const getter of [
      'getByteProperty',
      'getShortProperty',
      'getIntProperty',
      'getLongProperty',
      'getFloatProperty',
      'getDoubleProperty',
    ] as const) {
      expect(() => message[getter]('s')).toThrow(NumberFormatException);
    }
    expect(message.getBooleanProperty('s')).toBe(false);
  });

  it('propertyExists', () => {
    const message = withEightProperties(new HornetQMessage());
    expect(message.propertyExists('intProperty')).toBe(true);
    expect(message.propertyExists('nothing')).toBe(false);
  });
});
