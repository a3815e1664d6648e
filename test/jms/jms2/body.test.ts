import {
  HornetQBytesMessage,
  HornetQMapMessage,
  HornetQMessage,
  HornetQObjectMessage,
  HornetQStreamMessage,
  HornetQTextMessage,
  MessageFormatException,
  Session,
  isMessage,
  type BodyType,
  type Message,
} from '../../../src';
import { useJmsFixture } from '../../support/jms-fixture';

/**
 * JMS 2.0's getBody / isBodyAssignableTo: HornetQ 2.4's BodyTest (jms2client) and
 * BodyIsAssignableFromTest (jms-tests), on messages that went through our broker, plus the rules
 * for messages without a body and for the type argument itself.
 */

const fx = useJmsFixture();
const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');
const ALL_TYPES: BodyType[] = [String, Buffer, Uint8Array, Map, Object, Number, Boolean, Array];

async function roundTrip(message: Message): Promise<HornetQMessage> {
  const { connection, session } = await fx.open();
  const consumer = await session.createConsumer(Q1());
  const producer = await session.createProducer(Q1());
  await producer.send(message);
  const received = await consumer.receive(5000);
  await connection.close();
  if (!isMessage(received)) throw new Error('expected a message of this package');
  return received;
}

function expectAssignable(message: HornetQMessage, yes: BodyType[], body: unknown): void {
  for (const type of ALL_TYPES) {
    const assignable = yes.includes(type);
    expect([type.name, message.isBodyAssignableTo(type)]).toEqual([type.name, assignable]);
    if (assignable) expect(message.getBody(type)).toEqual(body);
    else expect(() => message.getBody(type)).toThrow(MessageFormatException);
  }
}

describe('BodyTest', () => {
  test('testBodyConversion: an (empty) BytesMessage is not a String', async () => {
    const received = await roundTrip(new HornetQBytesMessage());
    expect(() => received.getBody(String)).toThrow(MessageFormatException);
    expect(() => received.getBody(String)).toThrow(/BytesMessage is not assignable to String/);
    expect(received.getBody(Buffer)).toBeNull();
  });
});

describe('BodyIsAssignableFromTest', () => {
  test('testText: String and Object', async () => {
    const received = await roundTrip(new HornetQTextMessage('JMS2'));
    expectAssignable(received, [String, Object], 'JMS2');
  });

  test('testMap: Map and Object, a Map of the entries as getObject reads them', async () => {
    const sent = new HornetQMapMessage();
    sent.setInt('int', 13);
    sent.setLong('long', 37);
    sent.setString('string', 'crocodile');
    const received = await roundTrip(sent);
    expectAssignable(
      received,
      [Map, Object],
      new Map<string, unknown>([
        ['int', 13],
        ['long', 37],
        ['string', 'crocodile'],
      ]),
    );
  });

  test('testStream: never assignable, not even to Object', async () => {
    const sent = new HornetQStreamMessage();
    sent.writeInt(1);
    expectAssignable(await roundTrip(sent), [], null);
  });

  test('testByte: Buffer, Uint8Array and Object; the whole body, a copy', async () => {
    const sent = new HornetQBytesMessage();
    for (let i = 0; i < 20; i++) sent.writeByte(i);
    const received = await roundTrip(sent);
    const expected = Buffer.from(Array.from({ length: 20 }, (_, i) => i));
    expectAssignable(received, [Buffer, Uint8Array, Object], expected);
    const copy = received.getBody(Buffer);
    copy?.fill(0);
    expect(received.getBody(Buffer)).toEqual(expected);
  });

  test('testObject: Object, and what the value is (a number: Number), nothing else', async () => {
    const received = await roundTrip(new HornetQObjectMessage(37.6));
    expectAssignable(received, [Object, Number], 37.6);
    const array = await roundTrip(new HornetQObjectMessage(['a', 1]));
    expectAssignable(array, [Object, Array], ['a', 1]);
  });
});

describe('messages without a body', () => {
  test.each([
    ['a plain Message', (): HornetQMessage => new HornetQMessage()],
    ['a TextMessage with a null text', (): HornetQMessage => new HornetQTextMessage(null)],
    ['an empty MapMessage', (): HornetQMessage => new HornetQMapMessage()],
    ['an ObjectMessage without an object', (): HornetQMessage => new HornetQObjectMessage()],
  ])('%s is assignable to anything and its body is null, before and after a send', async (_name, make) => {
    expectAssignable(make(), ALL_TYPES, null);
    expectAssignable(await roundTrip(make()), ALL_TYPES, null);
  });

  test('a BytesMessage being written gives what it holds so far, without switching mode', () => {
    const message = new HornetQBytesMessage();
    message.writeByte(7);
    expect(message.getBody(Uint8Array)).toEqual(Buffer.from([7]));
    message.writeByte(8);
    message.reset();
    expect(message.getBodyLength()).toBe(2);
  });

  test('an ObjectMessage whose body does not decode is assignable only to Object, which throws the decoding error', () => {
    const message = new HornetQObjectMessage({ a: 1 });
    const core = message.toCoreMessage();
    core.body = Buffer.from([0, 0, 0, 3, 0x7b, 0x7b, 0x7b]);
    const received = new HornetQObjectMessage();
    received.initReceived(core, 1);
    expect(received.isBodyAssignableTo(String)).toBe(false);
    expect(received.isBodyAssignableTo(Object)).toBe(true);
    expect(() => received.getBody(Object)).toThrow(MessageFormatException);
  });
});

test('the type must be one of the body types, the constructor itself: else a TypeError naming them', async () => {
  const { session } = await fx.open({ ackMode: Session.AUTO_ACKNOWLEDGE });
  const message = session.createTextMessage('x');
  expect(() => message.getBody('String' as never)).toThrow(TypeError);
  expect(() => message.isBodyAssignableTo(Date as never)).toThrow(
    /one of String, Buffer, Uint8Array, Map, Object, Number, Boolean, Array .*got function Date/,
  );
});

test('the result is typed by the constructor given', () => {
  const text = new HornetQTextMessage('typed');
  const asString: string | null = text.getBody(String);
  const bytes: Buffer | null = new HornetQBytesMessage().getBody(Buffer);
  const map: Map<string, unknown> | null = new HornetQMapMessage().getBody(Map);
  const value: unknown = new HornetQObjectMessage(1).getBody(Object);
  expect([asString, bytes, map, value]).toEqual(['typed', null, null, 1]);
});
