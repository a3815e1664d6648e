import { MessageNotReadableException, MessageNotWriteableException } from '../../../src/jms/exceptions';
import { HornetQBytesMessage } from '../../../src/jms/message/hornetq-bytes-message';
import { HornetQMapMessage } from '../../../src/jms/message/hornetq-map-message';
import { HornetQObjectMessage } from '../../../src/jms/message/hornetq-object-message';
import { HornetQStreamMessage } from '../../../src/jms/message/hornetq-stream-message';
import { HornetQTextMessage } from '../../../src/jms/message/hornetq-text-message';
import { transfer } from './wire';

/**
 * JORAM MessageBodyTest and the body modes of research §4 C4 (each body type's details are in
 * its own file: text-, bytes-, map-, stream- and object-message.test.ts).
 */

describe('MessageBodyTest (JORAM)', () => {
  it('testClearBody_1: clearBody empties the text', () => {
    const message = new HornetQTextMessage();
    message.setText('bar');
    message.clearBody();
    expect(message.getText()).toBeNull();
  });

  it('testClearBody_2: clearBody keeps the properties', () => {
    const message = new HornetQTextMessage();
    message.setStringProperty('prop', 'foo');
    message.clearBody();
    expect(message.getStringProperty('prop')).toBe('foo');
  });

  it('testWriteOnReceivedBody: setText on a received message is a MessageNotWriteableException', () => {
    const received = transfer(new HornetQTextMessage('testWriteOnReceivedBody'));
    expect(() => received.setText('another text')).toThrow(MessageNotWriteableException);
    expect(received.getText()).toBe('testWriteOnReceivedBody');
  });
});

describe('body modes (C4.1–C4.3)', () => {
  it('Text, Map and Object bodies are readable and writable before send', () => {
    const text = new HornetQTextMessage('a');
    text.setText('b');
    expect(text.getText()).toBe('b');
    const map = new HornetQMapMessage();
    map.setInt('i', 1);
    expect(map.getInt('i')).toBe(1);
    const object = new HornetQObjectMessage({ a: 1 });
    object.setObject({ a: 2 });
    expect(object.getObject()).toEqual({ a: 2 });
  });

  it('Bytes and Stream bodies are write-only until reset', () => {
    const bytes = new HornetQBytesMessage();
    bytes.writeInt(1);
    expect(() => bytes.readInt()).toThrow(MessageNotReadableException);
    const stream = new HornetQStreamMessage();
    stream.writeInt(1);
    expect(() => stream.readInt()).toThrow(MessageNotReadableException);
    bytes.reset();
    stream.reset();
    expect(bytes.readInt()).toBe(1);
    expect(stream.readInt()).toBe(1);
    expect(() => bytes.writeInt(2)).toThrow(MessageNotWriteableException);
    expect(() => stream.writeInt(2)).toThrow(MessageNotWriteableException);
  });

  it('testSMBodyReadable: a received StreamMessage is readable at once', () => {
    const message = new HornetQStreamMessage();
    message.writeString('abc');
    expect(transfer(message).readString()).toBe('abc');
  });

  it.each<[string, () => { clearBody(): void }, (m: never) => void]>([
    ['Text', () => transfer(new HornetQTextMessage('x')), (m: HornetQTextMessage) => m.setText('y')],
    ['Map', () => transfer(new HornetQMapMessage()), (m: HornetQMapMessage) => m.setInt('i', 1)],
    ['Object', () => transfer(new HornetQObjectMessage(1)), (m: HornetQObjectMessage) => m.setObject(2)],
    ['Bytes', () => transfer(new HornetQBytesMessage()), (m: HornetQBytesMessage) => m.writeInt(1)],
    ['Stream', () => transfer(new HornetQStreamMessage()), (m: HornetQStreamMessage) => m.writeInt(1)],
  ])('a received %s body is read-only until clearBody (C4.2)', (_, receive, write) => {
    const received = receive();
    expect(() => write(received as never)).toThrow(MessageNotWriteableException);
    received.clearBody();
    expect(() => write(received as never)).not.toThrow();
  });

  it('clearBody leaves Bytes and Stream write-only, empty', () => {
    const bytes = transfer(new HornetQBytesMessage());
    bytes.clearBody();
    expect(() => bytes.getBodyLength()).toThrow(MessageNotReadableException);
    bytes.reset();
    expect(bytes.getBodyLength()).toBe(0);
    const stream = transfer(new HornetQStreamMessage());
    stream.clearBody();
    expect(() => stream.readBoolean()).toThrow(MessageNotReadableException);
  });

  it('after a send the sender may change its message without touching what was sent', () => {
    const message = new HornetQTextMessage('first');
    const sentCore = message.toCoreMessage();
    message.setText('second');
    const received = new HornetQTextMessage();
    received.initReceived(sentCore, 1);
    expect(received.getText()).toBe('first');
  });
});
