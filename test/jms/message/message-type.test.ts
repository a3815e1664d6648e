import { CoreMessage, MessageType } from '../../../src/core/protocol/core-message';
import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import { MessageFormatException } from '../../../src/jms/exceptions';
import { fromCoreMessage } from '../../../src/jms/message/from-core-message';
import { HornetQBytesMessage } from '../../../src/jms/message/hornetq-bytes-message';
import { HornetQMapMessage } from '../../../src/jms/message/hornetq-map-message';
import { HornetQMessage } from '../../../src/jms/message/hornetq-message';
import { HornetQObjectMessage } from '../../../src/jms/message/hornetq-object-message';
import { HornetQStreamMessage } from '../../../src/jms/message/hornetq-stream-message';
import { HornetQTextMessage } from '../../../src/jms/message/hornetq-text-message';
import { throughWire, transfer } from './wire';

/** JORAM MessageTypeTest: each message type arrives as that type, empty and with a body. */

describe('MessageTypeTest', () => {
  it('testStreamMessage_1: an empty StreamMessage arrives as a StreamMessage', () => {
    expect(transfer(new HornetQStreamMessage())).toBeInstanceOf(HornetQStreamMessage);
  });

  it('testStreamMessage_2: "pi" then 3.14159', () => {
    const message = new HornetQStreamMessage();
    message.writeString('pi');
    message.writeDouble(3.14159);
    const received = transfer(message);
    expect(received.readString()).toBe('pi');
    expect(received.readDouble()).toBe(3.14159);
  });

  it('testMapMessage_1: an empty MapMessage arrives as a MapMessage', () => {
    const received = transfer(new HornetQMapMessage());
    expect(received).toBeInstanceOf(HornetQMapMessage);
    expect(received.getMapNames()).toEqual([]);
  });

  it('testMapMessage_2: setString and setDouble round-trip', () => {
    const message = new HornetQMapMessage();
    message.setString('name', 'pi');
    message.setDouble('value', 3.14159);
    const received = transfer(message);
    expect(received.getString('name')).toBe('pi');
    expect(received.getDouble('value')).toBe(3.14159);
  });

  it('testMapMessageConversion: a double stays a double', () => {
    const message = new HornetQMapMessage();
    message.setDouble('pi', 3.14159);
    const received = transfer(message);
    expect(received.getObject('pi')).toBe(3.14159);
    expect(received.getDouble('pi')).toBe(3.14159);
    expect(() => received.getFloat('pi')).toThrow(MessageFormatException);
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['empty', ''],
  ])('testNullInSetMethodsForMapMessage / testEmptyString…: a %s name is a TypeError', (_, name) => {
    const message = new HornetQMapMessage();
    expect(() => message.setBoolean(name as string, true)).toThrow(TypeError);
    expect(message.getMapNames()).toEqual([]);
  });

  it('testgetMapNames', () => {
    const message = new HornetQMapMessage();
    expect(message.getMapNames()).toEqual([]);
    message.setDouble('pi', 3.14159);
    expect(transfer(message).getMapNames()[0]).toBe('pi');
  });

  it('testObjectMessage_1: an empty ObjectMessage arrives as an ObjectMessage', () => {
    const received = transfer(new HornetQObjectMessage());
    expect(received).toBeInstanceOf(HornetQObjectMessage);
    expect(received.getObject()).toBeNull();
  });

  it('testObjectMessage_2: a list round-trips equal', () => {
    const message = new HornetQObjectMessage(['pi', 3.14159]);
    expect(transfer(message).getObject()).toEqual(['pi', 3.14159]);
  });

  it('testBytesMessage_1: an empty BytesMessage arrives as a BytesMessage', () => {
    const received = transfer(new HornetQBytesMessage());
    expect(received).toBeInstanceOf(HornetQBytesMessage);
    expect(received.getBodyLength()).toBe(0);
  });

  it('testBytesMessage_2: 2 bytes then a double', () => {
    const message = new HornetQBytesMessage();
    message.writeBytes(Buffer.from('pi'));
    message.writeDouble(3.14159);
    const received = transfer(message);
    const pi = new Uint8Array(2);
    expect(received.readBytes(pi)).toBe(2);
    expect(Buffer.from(pi).toString()).toBe('pi');
    expect(received.readDouble()).toBe(3.14159);
  });

  it('testTextMessage_1: an empty TextMessage arrives as a TextMessage', () => {
    const received = transfer(new HornetQTextMessage());
    expect(received).toBeInstanceOf(HornetQTextMessage);
    expect(received.getText()).toBeNull();
  });

  it('testTextMessage_2', () => {
    expect(transfer(new HornetQTextMessage('testTextMessage_2')).getText()).toBe('testTextMessage_2');
  });

  it('a plain Message arrives as a plain Message', () => {
    const received = transfer(new HornetQMessage());
    expect(received.constructor).toBe(HornetQMessage);
  });
});

describe('fromCoreMessage picks the class by the core type number', () => {
  it.each<[number, new () => HornetQMessage]>([
    [MessageType.DEFAULT, HornetQMessage],
    [MessageType.OBJECT, HornetQObjectMessage],
    [MessageType.TEXT, HornetQTextMessage],
    [MessageType.BYTES, HornetQBytesMessage],
    [MessageType.MAP, HornetQMapMessage],
    [MessageType.STREAM, HornetQStreamMessage],
  ])('type %i → %p', (type, expected) => {
    const core = new CoreMessage();
    core.type = type;
    const message = fromCoreMessage(throughWire(core), 1);
    expect(message.constructor).toBe(expected);
    expect(message.toCoreMessage().type).toBe(type);
  });

  it.each([1, 7, 255])('an unknown type %i is a MessageFormatException', (type) => {
    const core = new CoreMessage();
    core.type = type;
    expect(() => fromCoreMessage(core, 1)).toThrow(MessageFormatException);
  });

  it('never by a name carried in the message', () => {
    const core = new CoreMessage();
    core.type = MessageType.TEXT;
    for (const name of ['_class', 'JMSType', 'className', '__proto__', 'constructor']) {
      core.properties.set(name, { kind: PropertyKind.STRING, value: 'HornetQObjectMessage' });
    }
    const message = fromCoreMessage(throughWire(core), 1);
    expect(message.constructor).toBe(HornetQTextMessage);
  });

  it('wraps a copy: clearing the received properties leaves the core message as it was', () => {
    const core = new CoreMessage();
    core.properties.set('p', { kind: PropertyKind.INT, value: 1 });
    const message = fromCoreMessage(core, 1);
    message.clearProperties();
    expect(core.properties.has('p')).toBe(true);
  });

  it.each([-1, 1.5, NaN])('a delivery count of %p is a RangeError', (count) => {
    expect(() => fromCoreMessage(new CoreMessage(), count)).toThrow(RangeError);
  });
});
