import { BufferWriter } from '../../../src/core/protocol/buffer-writer';
import { MessageType } from '../../../src/core/protocol/core-message';
import {
  MessageFormatException,
  MessageNotWriteableException,
  NumberFormatException,
} from '../../../src/jms/exceptions';
import { HornetQMapMessage } from '../../../src/jms/message/hornetq-map-message';
import { receivedWithBody, transfer } from './wire';

/** HornetQ's MapMessageTest and MessageBodyTest.testMapMessage; research §4 C5. */

type Getter =
  | 'getBoolean'
  | 'getByte'
  | 'getShort'
  | 'getChar'
  | 'getInt'
  | 'getLong'
  | 'getFloat'
  | 'getDouble'
  | 'getString'
  | 'getBytes';
const GETTERS: Getter[] = [
  'getBoolean',
  'getByte',
  'getShort',
  'getChar',
  'getInt',
  'getLong',
  'getFloat',
  'getDouble',
  'getString',
  'getBytes',
];

function allEleven(): HornetQMapMessage {
  const message = new HornetQMapMessage();
  message.setBoolean('boolean', true);
  message.setByte('byte', 3);
  message.setBytes('bytes', Uint8Array.from([4, 5, 6]));
  message.setChar('char', 'c');
  message.setDouble('double', 4.5);
  message.setFloat('float', 5.5);
  message.setInt('int', 6);
  message.setLong('long', 7);
  message.setObject('object', 'an object');
  message.setShort('short', 8);
  message.setString('string', 'a string');
  return message;
}

describe('MapMessageTest', () => {
  it('all eleven setters round-trip', () => {
    const received = transfer(allEleven());
    expect(received.getBoolean('boolean')).toBe(true);
    expect(received.getByte('byte')).toBe(3);
    expect([...(received.getBytes('bytes') ?? [])]).toEqual([4, 5, 6]);
    expect(received.getChar('char')).toBe('c');
    expect(received.getDouble('double')).toBe(4.5);
    expect(received.getFloat('float')).toBe(5.5);
    expect(received.getInt('int')).toBe(6);
    expect(received.getLong('long')).toBe(7);
    expect(received.getObject('object')).toBe('an object');
    expect(received.getShort('short')).toBe(8);
    expect(received.getString('string')).toBe('a string');
    expect(received.getMapNames()).toHaveLength(11);
  });

  it('testNullValue: setString(name, null) arrives as null', () => {
    const message = new HornetQMapMessage();
    message.setString('nullValue', null);
    const received = transfer(message);
    expect(received.getString('nullValue')).toBeNull();
    expect(received.itemExists('nullValue')).toBe(true);
    expect(received.getObject('nullValue')).toBeNull();
  });

  it('setBytes(name, null) arrives as null', () => {
    const message = new HornetQMapMessage();
    message.setBytes('b', null);
    expect(transfer(message).getBytes('b')).toBeNull();
  });
});

describe('MessageBodyTest.testMapMessage', () => {
  it('setObject accepts boolean, number, string, bytes and null; anything else is a MessageFormatException', () => {
    const message = new HornetQMapMessage();
    message.setObject('b', false);
    message.setObject('n', 1);
    message.setObject('s', 's');
    message.setObject('bytes', Uint8Array.from([1]));
    message.setObject('null', null);
    for (const bad of [{}, [], new Date(0), 2n ** 64n, Symbol('x'), () => 1, undefined]) {
      expect(() => message.setObject('bad', bad)).toThrow(MessageFormatException);
    }
    expect(message.itemExists('bad')).toBe(false);
    expect(message.getMapNames()).toEqual(['b', 'n', 's', 'bytes', 'null']);
  });

  it('a received map is read-only: every setter is a MessageNotWriteableException', () => {
    const received = transfer(allEleven());
    const setters: Array<() => void> = [
      () => received.setBoolean('x', true),
      () => received.setByte('x', 1),
      () => received.setShort('x', 1),
      () => received.setChar('x', 'x'),
      () => received.setInt('x', 1),
      () => received.setLong('x', 1),
      () => received.setFloat('x', 1),
      () => received.setDouble('x', 1),
      () => received.setString('x', 'x'),
      () => received.setBytes('x', new Uint8Array(1)),
      () => received.setObject('x', 1),
      () => received.setInt('', 1),
    ];
    for (const set of setters) expect(set).toThrow(MessageNotWriteableException);
    expect(received.itemExists('x')).toBe(false);
  });

  it('itemExists, and clearBody empties the names', () => {
    const message = allEleven();
    expect(message.itemExists('int')).toBe(true);
    expect(message.itemExists('nothing')).toBe(false);
    message.clearBody();
    expect(message.getMapNames()).toEqual([]);
  });

  it('strings convert to numbers by Java rules; "xyz123" is a NumberFormatException, and false as boolean', () => {
    const message = new HornetQMapMessage();
    message.setString('n', '123');
    message.setString('bad', 'xyz123');
    expect(message.getInt('n')).toBe(123);
    expect(message.getDouble('n')).toBe(123);
    for (const getter of ['getByte', 'getShort', 'getInt', 'getLong', 'getFloat', 'getDouble'] as const) {
      expect(() => message[getter]('bad')).toThrow(NumberFormatException);
    }
    expect(message.getBoolean('bad')).toBe(false);
  });
});

describe('conversion table with char and bytes (C5.2)', () => {
  const MFE = 'MFE';
  const ROWS: Array<[string, (m: HornetQMapMessage) => void, Partial<Record<Getter, unknown>>]> = [
    ['boolean', (m) => m.setBoolean('v', true), { getBoolean: true, getString: 'true' }],
    ['byte', (m) => m.setByte('v', 1), { getByte: 1, getShort: 1, getInt: 1, getLong: 1, getString: '1' }],
    ['short', (m) => m.setShort('v', 1), { getShort: 1, getInt: 1, getLong: 1, getString: '1' }],
    ['char', (m) => m.setChar('v', 'a'), { getChar: 'a', getString: 'a' }],
    ['int', (m) => m.setInt('v', 1), { getInt: 1, getLong: 1, getString: '1' }],
    ['long', (m) => m.setLong('v', 1), { getLong: 1, getString: '1' }],
    ['float', (m) => m.setFloat('v', 1.5), { getFloat: 1.5, getDouble: 1.5, getString: '1.5' }],
    ['double', (m) => m.setDouble('v', 1.5), { getDouble: 1.5, getString: '1.5' }],
    [
      'string',
      (m) => m.setString('v', '1'),
      {
        getBoolean: false,
        getByte: 1,
        getShort: 1,
        getInt: 1,
        getLong: 1,
        getFloat: 1,
        getDouble: 1,
        getString: '1',
      },
    ],
    ['bytes', (m) => m.setBytes('v', Uint8Array.from([9])), { getBytes: Buffer.from([9]) }],
  ];
  const CELLS = ROWS.flatMap(([type, set, row]) =>
    GETTERS.map((getter) => [type, set, getter, getter in row ? row[getter] : MFE] as const),
  );

  it.each(CELLS)('%s read with %s (after the wire)', (_, set, getter, expected) => {
    const message = new HornetQMapMessage();
    set(message);
    const received = transfer(message);
    const read = (): unknown => received[getter]('v');
    if (expected === MFE) expect(read).toThrow(MessageFormatException);
    else expect(read()).toEqual(expected);
  });

  it('a string is not a char', () => {
    const message = new HornetQMapMessage();
    message.setString('s', 'a');
    expect(() => message.getChar('s')).toThrow(MessageFormatException);
  });

  it('missing entries: false, NumberFormatException, TypeError for char, null for string, bytes and object', () => {
    const message = new HornetQMapMessage();
    expect(message.getBoolean('x')).toBe(false);
    for (const getter of ['getByte', 'getShort', 'getInt', 'getLong', 'getFloat', 'getDouble'] as const) {
      expect(() => message[getter]('x')).toThrow(NumberFormatException);
    }
    expect(() => message.getChar('x')).toThrow(TypeError);
    expect(message.getString('x')).toBeNull();
    expect(message.getBytes('x')).toBeNull();
    expect(message.getObject('x')).toBeNull();
  });
});

describe('copies and values', () => {
  it('setBytes copies; getBytes and getObject return fresh copies', () => {
    const source = Uint8Array.from([1, 2, 3]);
    const message = new HornetQMapMessage();
    message.setBytes('b', source);
    source[0] = 9;
    const first = message.getBytes('b') as Uint8Array;
    expect([...first]).toEqual([1, 2, 3]);
    first[1] = 9;
    (message.getObject('b') as Uint8Array)[2] = 9;
    expect([...(message.getBytes('b') as Uint8Array)]).toEqual([1, 2, 3]);
  });

  it('setBytes with offset and length stores that slice', () => {
    const message = new HornetQMapMessage();
    message.setBytes('b', Uint8Array.from([1, 2, 3, 4]), 1, 2);
    expect([...(transfer(message).getBytes('b') as Uint8Array)]).toEqual([2, 3]);
    expect(() => message.setBytes('c', Uint8Array.from([1]), 1, 1)).toThrow(RangeError);
  });

  it.each<[string, (m: HornetQMapMessage) => void]>([
    ['setByte(200)', (m) => m.setByte('v', 200)],
    ['setShort(1.5)', (m) => m.setShort('v', 1.5)],
    ['setInt(2^31)', (m) => m.setInt('v', 2 ** 31)],
    ['setLong(2^53)', (m) => m.setLong('v', 2 ** 53)],
    ['setChar("ab")', (m) => m.setChar('v', 'ab')],
    ['setString(5)', (m) => m.setString('v', 5 as unknown as string)],
    ['setBytes("x")', (m) => m.setBytes('v', 'x' as unknown as Uint8Array)],
  ])('%s is a MessageFormatException', (_, set) => {
    const message = new HornetQMapMessage();
    expect(() => set(message)).toThrow(MessageFormatException);
    expect(message.itemExists('v')).toBe(false);
  });

  it('setObject types numbers as int, long or double', () => {
    const message = new HornetQMapMessage();
    message.setObject('i', 5);
    message.setObject('l', 2 ** 40);
    message.setObject('d', 0.5);
    const received = transfer(message);
    expect(received.getInt('i')).toBe(5);
    expect(() => received.getInt('l')).toThrow(MessageFormatException);
    expect(received.getLong('l')).toBe(2 ** 40);
    expect(() => received.getLong('d')).toThrow(MessageFormatException);
    expect(received.getDouble('d')).toBe(0.5);
  });

  it('names like __proto__ are ordinary entries', () => {
    const message = new HornetQMapMessage();
    message.setString('__proto__', 'p');
    message.setString('constructor', 'c');
    const received = transfer(message);
    expect(received.getMapNames()).toEqual(['__proto__', 'constructor']);
    expect(received.getString('__proto__')).toBe('p');
    expect(received.itemExists('toString')).toBe(false);
  });
});

describe('map body encoding (HornetQMapMessage: one TypedProperties block)', () => {
  function body(write: (w: BufferWriter) => void): Buffer {
    const writer = new BufferWriter();
    write(writer);
    return Buffer.from(writer.toBuffer());
  }
  /** A block of `count` entries, as TypedProperties.encode starts one. */
  const block = (w: BufferWriter, count: number): void => (w.writeByte(1), w.writeInt(count));

  it('is 1, an int count, then per entry a SimpleString name, a type byte and the value', () => {
    const message = new HornetQMapMessage();
    message.setInt('a', 1);
    expect([...message.encodeBody()]).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 2, 0x61, 0, 6, 0, 0, 0, 1]);
  });

  it('writes each type with HornetQ’s type byte and layout', () => {
    const message = new HornetQMapMessage();
    message.setBoolean('b', true);
    message.setChar('c', '\u20ac');
    message.setString('s', 'é');
    message.setLong('l', -2n);
    message.setBytes('y', Uint8Array.from([7]));
    message.setString('n', null);
    const name = (c: string): number[] => [0, 0, 0, 2, c.charCodeAt(0), 0];
    expect([...message.encodeBody()]).toEqual([
      1,
      0,
      0,
      0,
      6,
      ...name('b'),
      2,
      0xff,
      ...name('c'),
      11,
      0x20,
      0xac,
      ...name('s'),
      10,
      0,
      0,
      0,
      2,
      0xe9,
      0x00,
      ...name('l'),
      7,
      0xff,
      0xff,
      0xff,
      0xff,
      0xff,
      0xff,
      0xff,
      0xfe,
      ...name('y'),
      4,
      0,
      0,
      0,
      1,
      7,
      ...name('n'),
      0,
    ]);
  });

  it('an empty map is the single byte 0; an empty body or an empty block reads as one', () => {
    expect([...new HornetQMapMessage().encodeBody()]).toEqual([0]);
    for (const bytes of [[], [0], [1, 0, 0, 0, 0]]) {
      const message = receivedWithBody(MessageType.MAP, Buffer.from(bytes)) as HornetQMapMessage;
      expect(message.getMapNames()).toEqual([]);
    }
  });

  it('a long beyond ±2^53 from a Java peer is a bigint: getObject and getString give it, getLong names it', () => {
    const bytes = body(
      (w) => (block(w, 1), w.writeSimpleString('max'), w.writeByte(7), w.writeInt64(2n ** 63n - 1n)),
    );
    const message = receivedWithBody(MessageType.MAP, bytes) as HornetQMapMessage;
    expect(message.getObject('max')).toBe(2n ** 63n - 1n);
    expect(message.getString('max')).toBe('9223372036854775807');
    expect(() => message.getLong('max')).toThrow(MessageFormatException);
    expect(() => message.getLong('max')).toThrow(/map entry 'max' = 9223372036854775807/);
    // Sent on as it is, it stays exact.
    expect(transfer(message).getObject('max')).toBe(2n ** 63n - 1n);
  });

  it('bytes after the block are ignored, as HornetQMapMessage ignores them', () => {
    const bytes = body(
      (w) => (block(w, 1), w.writeSimpleString('a'), w.writeByte(6), w.writeInt(5), w.writeInt(-1)),
    );
    expect((receivedWithBody(MessageType.MAP, bytes) as HornetQMapMessage).getInt('a')).toBe(5);
  });

  it.each<[string, Buffer]>([
    ['a count beyond the body', body((w) => block(w, 1000))],
    ['a negative count', body((w) => block(w, -1))],
    ['a truncated count', Buffer.from([1, 0, 0])],
    ['a name longer than the body', body((w) => (block(w, 1), w.writeInt(100), w.writeByte(0)))],
    [
      'a name of odd byte length',
      body((w) => (block(w, 1), w.writeInt(1), w.writeByte(0x61), w.writeByte(0))),
    ],
    ['an unknown value type', body((w) => (block(w, 1), w.writeSimpleString('a'), w.writeByte(77)))],
    ['the old BYTES type 1', body((w) => (block(w, 1), w.writeSimpleString('a'), w.writeByte(1)))],
    [
      'a truncated int',
      body((w) => (block(w, 1), w.writeSimpleString('a'), w.writeByte(6), w.writeShort(1))),
    ],
    [
      'a truncated char',
      body((w) => (block(w, 1), w.writeSimpleString('a'), w.writeByte(11), w.writeByte(1))),
    ],
  ])('%s is a corrupt body: MessageFormatException on first read', (_, bytes) => {
    const message = receivedWithBody(MessageType.MAP, bytes) as HornetQMapMessage;
    expect(() => message.getMapNames()).toThrow(MessageFormatException);
    expect(() => message.itemExists('a')).toThrow(MessageFormatException);
    expect(() => message.getInt('a')).toThrow(MessageFormatException);
  });
});
