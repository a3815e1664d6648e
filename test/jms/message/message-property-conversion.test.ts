import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import { JMSException, MessageFormatException, NumberFormatException } from '../../../src/jms/exceptions';
import { HornetQMessage } from '../../../src/jms/message/hornetq-message';
import { transfer } from './wire';

/**
 * JORAM MessagePropertyConversionTest and HornetQ's MessagePropertyConversionTest: the JMS 1.1
 * §3.5.4 table, every stored type read as every type, on a message made here and on the same
 * message after the wire (types must survive it).
 */

type JmsType = 'boolean' | 'byte' | 'short' | 'int' | 'long' | 'float' | 'double' | 'string';
const TYPES: JmsType[] = ['boolean', 'byte', 'short', 'int', 'long', 'float', 'double', 'string'];
const MFE = Symbol('MessageFormatException');
const NFE = Symbol('NumberFormatException');
type Outcome = boolean | number | string | null | typeof MFE | typeof NFE;

function set(message: HornetQMessage, type: JmsType, name: string, value: unknown): void {
  switch (type) {
    case 'boolean':
      return message.setBooleanProperty(name, value as boolean);
    case 'byte':
      return message.setByteProperty(name, value as number);
    case 'short':
      return message.setShortProperty(name, value as number);
    case 'int':
      return message.setIntProperty(name, value as number);
    case 'long':
      return message.setLongProperty(name, value as number);
    case 'float':
      return message.setFloatProperty(name, value as number);
    case 'double':
      return message.setDoubleProperty(name, value as number);
    case 'string':
      return message.setStringProperty(name, value as string | null);
  }
}

function get(message: HornetQMessage, type: JmsType, name: string): unknown {
  switch (type) {
    case 'boolean':
      return message.getBooleanProperty(name);
    case 'byte':
      return message.getByteProperty(name);
    case 'short':
      return message.getShortProperty(name);
    case 'int':
      return message.getIntProperty(name);
    case 'long':
      return message.getLongProperty(name);
    case 'float':
      return message.getFloatProperty(name);
    case 'double':
      return message.getDoubleProperty(name);
    case 'string':
      return message.getStringProperty(name);
  }
}

function expectOutcome(read: () => unknown, expected: Outcome): void {
  if (expected === MFE) {
    expect(read).toThrow(MessageFormatException);
  } else if (expected === NFE) {
    expect(read).toThrow(NumberFormatException);
    // NumberFormatException is Java's runtime exception, not a JMS one.
    expect(read).not.toThrow(JMSException);
  } else {
    expect(read()).toBe(expected);
  }
}

/** Row: stored type and value; columns: the outcome of each getter (JMS 1.1 §3.5.4). */
const TABLE: Array<[JmsType, unknown, Record<JmsType, Outcome>]> = [
  [
    'boolean',
    true,
    { boolean: true, byte: MFE, short: MFE, int: MFE, long: MFE, float: MFE, double: MFE, string: 'true' },
  ],
  [
    'byte',
    127,
    { boolean: MFE, byte: 127, short: 127, int: 127, long: 127, float: MFE, double: MFE, string: '127' },
  ],
  [
    'short',
    127,
    { boolean: MFE, byte: MFE, short: 127, int: 127, long: 127, float: MFE, double: MFE, string: '127' },
  ],
  [
    'int',
    0x7fff_ffff,
    {
      boolean: MFE,
      byte: MFE,
      short: MFE,
      int: 0x7fff_ffff,
      long: 0x7fff_ffff,
      float: MFE,
      double: MFE,
      string: '2147483647',
    },
  ],
  [
    'int',
    127,
    { boolean: MFE, byte: MFE, short: MFE, int: 127, long: 127, float: MFE, double: MFE, string: '127' },
  ],
  [
    'long',
    127,
    { boolean: MFE, byte: MFE, short: MFE, int: MFE, long: 127, float: MFE, double: MFE, string: '127' },
  ],
  [
    'float',
    127,
    { boolean: MFE, byte: MFE, short: MFE, int: MFE, long: MFE, float: 127, double: 127, string: '127' },
  ],
  [
    'double',
    127,
    { boolean: MFE, byte: MFE, short: MFE, int: MFE, long: MFE, float: MFE, double: 127, string: '127' },
  ],
  [
    'string',
    '3.14159',
    {
      boolean: false,
      byte: NFE,
      short: NFE,
      int: NFE,
      long: NFE,
      float: Math.fround(3.14159),
      double: 3.14159,
      string: '3.14159',
    },
  ],
  [
    'string',
    'not_a_number',
    {
      boolean: false,
      byte: NFE,
      short: NFE,
      int: NFE,
      long: NFE,
      float: NFE,
      double: NFE,
      string: 'not_a_number',
    },
  ],
  ['string', '0', { boolean: false, byte: 0, short: 0, int: 0, long: 0, float: 0, double: 0, string: '0' }],
  [
    'string',
    'true',
    { boolean: true, byte: NFE, short: NFE, int: NFE, long: NFE, float: NFE, double: NFE, string: 'true' },
  ],
  [
    'string',
    'test',
    { boolean: false, byte: NFE, short: NFE, int: NFE, long: NFE, float: NFE, double: NFE, string: 'test' },
  ],
];

const CELLS = TABLE.flatMap(([stored, value, row]) =>
  TYPES.map((read) => [stored, value, read, row[read]] as [JmsType, unknown, JmsType, Outcome]),
);

describe.each([
  ['made here', (m: HornetQMessage) => m],
  ['received', (m: HornetQMessage) => transfer(m)],
])('conversion table (%s)', (_, deliver) => {
  it.each(CELLS)('%s %p read as %s → %p', (stored, value, read, expected) => {
    const message = new HornetQMessage();
    set(message, stored, 'prop', value);
    expectOutcome(() => get(deliver(message), read, 'prop'), expected);
  });

  it('a failed conversion leaves the property as it was', () => {
    const message = new HornetQMessage();
    message.setStringProperty('prop', 'abc');
    const received = deliver(message);
    expect(() => received.getIntProperty('prop')).toThrow(NumberFormatException);
    expect(() => received.getIntProperty('prop')).toThrow(NumberFormatException);
    expect(received.getStringProperty('prop')).toBe('abc');
  });
});

describe('Java parse rules for strings', () => {
  it.each<[string, JmsType, Outcome]>([
    ['TRUE', 'boolean', true],
    ['True', 'boolean', true],
    ['yes', 'boolean', false],
    ['', 'boolean', false],
    ['127', 'byte', 127],
    ['-128', 'byte', -128],
    ['128', 'byte', NFE],
    ['-129', 'byte', NFE],
    ['32767', 'short', 32767],
    ['32768', 'short', NFE],
    ['+5', 'int', 5],
    ['-0', 'int', 0],
    ['2147483647', 'int', 2147483647],
    ['2147483648', 'int', NFE],
    ['2147483648', 'long', 2147483648],
    ['9007199254740991', 'long', Number.MAX_SAFE_INTEGER],
    ['-9007199254740991', 'long', Number.MIN_SAFE_INTEGER],
    ['9223372036854775808', 'long', NFE],
    [' 5', 'int', NFE],
    ['5 ', 'long', NFE],
    ['1e3', 'int', NFE],
    ['0x10', 'int', NFE],
    ['', 'int', NFE],
    ['', 'double', NFE],
    ['-', 'long', NFE],
    [' 3.5 ', 'double', 3.5],
    ['1e3', 'double', 1000],
    ['2.5f', 'double', 2.5],
    ['2.5D', 'float', 2.5],
    ['.5', 'double', 0.5],
    ['5.', 'double', 5],
    ['-Infinity', 'double', -Infinity],
    ['Infinity', 'float', Infinity],
    ['0x10', 'double', NFE],
    ['1_000', 'double', NFE],
    ['3.4028235e38', 'float', Math.fround(3.4028235e38)],
    ['1e39', 'float', Infinity],
  ])('%p read as %s → %p', (text, read, expected) => {
    const message = new HornetQMessage();
    message.setStringProperty('s', text);
    expectOutcome(() => get(message, read, 's'), expected);
  });

  it('NaN parses as NaN', () => {
    const message = new HornetQMessage();
    message.setStringProperty('s', 'NaN');
    expect(message.getDoubleProperty('s')).toBeNaN();
    expect(message.getFloatProperty('s')).toBeNaN();
  });

  it('a long that Java can hold but JavaScript cannot is a MessageFormatException, not a wrong number', () => {
    const message = new HornetQMessage();
    message.setStringProperty('s', '9007199254740993');
    expect(() => message.getLongProperty('s')).toThrow(MessageFormatException);
  });
});

describe('numbers as strings use JavaScript formatting', () => {
  it.each<[JmsType, number, string]>([
    ['float', 127, '127'],
    ['double', 127, '127'],
    ['float', 3.14159, '3.14159'],
    ['float', 0.1, '0.1'],
    ['float', -2.5, '-2.5'],
    ['float', 3.4028234663852886e38, '3.4028235e+38'],
    ['float', 1e-45, '1e-45'],
    ['float', Infinity, 'Infinity'],
    ['double', 3.14159, '3.14159'],
    ['double', 1e21, '1e+21'],
    ['double', 1e-7, '1e-7'],
    ['double', 0.001, '0.001'],
    ['double', -0, '0'],
    ['long', Number.MAX_SAFE_INTEGER, '9007199254740991'],
    ['byte', -128, '-128'],
  ])('%s %p → %p', (type, value, expected) => {
    const message = new HornetQMessage();
    set(message, type, 'n', value);
    expect(message.getStringProperty('n')).toBe(expected);
    expect(transfer(message).getStringProperty('n')).toBe(expected);
  });

  it('a float read as double is the float widened, not the number that was set', () => {
    const message = new HornetQMessage();
    message.setFloatProperty('pi', 3.14159);
    expect(message.getDoubleProperty('pi')).toBe(Math.fround(3.14159));
    expect(message.getDoubleProperty('pi')).not.toBe(3.14159);
    expect(message.getFloatProperty('pi')).toBe(Math.fround(3.14159));
  });
});

describe('a missing or null property', () => {
  it.each<[JmsType, Outcome]>([
    ['boolean', false],
    ['byte', NFE],
    ['short', NFE],
    ['int', NFE],
    ['long', NFE],
    ['float', NFE],
    ['double', NFE],
    ['string', null],
  ])('read as %s → %p', (read, expected) => {
    const message = new HornetQMessage();
    expectOutcome(() => get(message, read, 'missing'), expected);
    message.setStringProperty('nul', null);
    expectOutcome(() => get(message, read, 'nul'), expected);
    expectOutcome(() => get(transfer(message), read, 'nul'), expected);
  });
});

describe('types from core clients (char and bytes properties)', () => {
  function received(kind: typeof PropertyKind.CHAR | typeof PropertyKind.BYTES): HornetQMessage {
    const message = new HornetQMessage();
    const core = message.toCoreMessage();
    core.properties.set(
      'p',
      kind === PropertyKind.CHAR ? { kind, value: 'x' } : { kind, value: Buffer.from([1, 2, 3]) },
    );
    const local = new HornetQMessage();
    local.initReceived(core, 1);
    return local;
  }

  it('a char property reads as string and object, nothing else', () => {
    const message = received(PropertyKind.CHAR);
    expect(message.getStringProperty('p')).toBe('x');
    expect(message.getObjectProperty('p')).toBe('x');
    for (const type of TYPES.filter((t) => t !== 'string')) {
      expect(() => get(message, type, 'p')).toThrow(MessageFormatException);
    }
  });

  it('a bytes property reads only as object, and as a copy', () => {
    const message = received(PropertyKind.BYTES);
    const first = message.getObjectProperty('p') as Buffer;
    expect([...first]).toEqual([1, 2, 3]);
    first[0] = 99;
    expect([...(message.getObjectProperty('p') as Buffer)]).toEqual([1, 2, 3]);
    for (const type of TYPES) expect(() => get(message, type, 'p')).toThrow(MessageFormatException);
  });
});
