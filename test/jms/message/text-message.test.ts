import { MessageType } from '../../../src/core/protocol/core-message';
import { MessageFormatException, MessageNotWriteableException } from '../../../src/jms/exceptions';
import type { HornetQTextMessage as TextMessage } from '../../../src/jms/message/hornetq-text-message';
import { HornetQTextMessage } from '../../../src/jms/message/hornetq-text-message';
import { receivedWithBody, transfer } from './wire';

/** HornetQ's TextMessageTest and MessageBodyTest.testTextMessage, plus the body encoding. */

const HANGUL = '\uac00\ub098\ub2e4\ub77c\ub9c8\ubc14\uc0ac\uc544';

describe('TextMessage', () => {
  it('createTextMessage() has a null text; createTextMessage(s) has s (C4.4)', () => {
    expect(new HornetQTextMessage().getText()).toBeNull();
    expect(new HornetQTextMessage('s').getText()).toBe('s');
  });

  it.each([
    ['Hangul', HANGUL],
    ['an empty string', ''],
    ['emoji and NUL', 'a\u0000b😀'],
    ['a long text', 'x'.repeat(100_000)],
  ])('testTextMessage: %s round-trips', (_, text) => {
    expect(transfer(new HornetQTextMessage(text)).getText()).toBe(text);
  });

  it('null and the empty string stay distinct on the wire', () => {
    expect(transfer(new HornetQTextMessage(null)).getText()).toBeNull();
    expect(transfer(new HornetQTextMessage('')).getText()).toBe('');
  });

  it('a received text is read-only; clearBody makes it null and writable', () => {
    const received = transfer(new HornetQTextMessage(HANGUL));
    expect(() => received.setText('x')).toThrow(MessageNotWriteableException);
    received.clearBody();
    expect(received.getText()).toBeNull();
    received.setText('x');
    expect(received.getText()).toBe('x');
  });

  it('testClearProperties: clearProperties on a received message leaves the text', () => {
    const message = new HornetQTextMessage('text');
    message.setStringProperty('p', 'v');
    const received = transfer(message);
    received.clearProperties();
    expect(received.getText()).toBe('text');
  });

  it('a non-string text is a MessageFormatException', () => {
    expect(() => new HornetQTextMessage(5 as unknown as string)).toThrow(MessageFormatException);
  });

  it('the sent message can be forwarded unread: the body bytes are passed on', () => {
    const received = transfer(new HornetQTextMessage(HANGUL));
    expect(transfer(received).getText()).toBe(HANGUL);
  });
});

describe('text body encoding', () => {
  it('is empty for null, 0x01 + UTF-8 otherwise', () => {
    expect(new HornetQTextMessage(null).encodeBody()).toEqual(Buffer.alloc(0));
    expect(new HornetQTextMessage('').encodeBody()).toEqual(Buffer.from([1]));
    expect(new HornetQTextMessage('é').encodeBody()).toEqual(Buffer.from([1, 0xc3, 0xa9]));
  });

  it.each<[string, number[]]>([
    ['an unknown marker', [0]],
    ['another unknown marker', [2, 0x41]],
    ['invalid UTF-8', [1, 0xff]],
    ['a truncated UTF-8 sequence', [1, 0xe2, 0x82]],
    ['an encoded surrogate', [1, 0xed, 0xa0, 0x80]],
  ])('%s is a corrupt body: MessageFormatException on getText', (_, bytes) => {
    const message = receivedWithBody(MessageType.TEXT, Buffer.from(bytes)) as TextMessage;
    expect(() => message.getText()).toThrow(MessageFormatException);
    expect(() => message.getText()).toThrow(MessageFormatException);
    expect(message.getJMSPriority()).toBe(4);
  });
});
