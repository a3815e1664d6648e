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

describe('text body encoding (HornetQTextMessage: a nullable SimpleString)', () => {
  it('null is the byte 0; a text is 1, its int byte length and its UTF-16LE units', () => {
    expect([...new HornetQTextMessage(null).encodeBody()]).toEqual([0]);
    expect([...new HornetQTextMessage('').encodeBody()]).toEqual([1, 0, 0, 0, 0]);
    // 'é' is U+00E9, '€' U+20AC: each one unit, low byte first.
    expect([...new HornetQTextMessage('é€').encodeBody()]).toEqual([1, 0, 0, 0, 4, 0xe9, 0x00, 0xac, 0x20]);
    // A surrogate pair is two units; a lone surrogate is one and survives.
    expect([...new HornetQTextMessage('\u{1F600}\ud800').encodeBody()]).toEqual([
      1, 0, 0, 0, 6, 0x3d, 0xd8, 0x00, 0xde, 0x00, 0xd8,
    ]);
  });

  it('decodes what a HornetQ producer writes: null, the empty string, any units', () => {
    const read = (bytes: number[]): string | null =>
      (receivedWithBody(MessageType.TEXT, Buffer.from(bytes)) as TextMessage).getText();
    expect(read([0])).toBeNull();
    expect(read([1, 0, 0, 0, 0])).toBe('');
    expect(read([1, 0, 0, 0, 4, 0x41, 0x00, 0x00, 0xdc])).toBe('A\udc00');
    // HornetQ reads any non-zero presence byte as present.
    expect(read([0xff, 0, 0, 0, 2, 0x42, 0x00])).toBe('B');
    // A core client's text message without a body.
    expect(read([])).toBeNull();
  });

  it.each<[string, number[]]>([
    ['a truncated length', [1, 0, 0]],
    ['a length beyond the body', [1, 0, 0, 0, 4, 0x41, 0x00]],
    ['an odd byte length', [1, 0, 0, 0, 1, 0x41]],
    ['trailing bytes', [0, 0x41]],
    ['a negative length', [1, 0xff, 0xff, 0xff, 0xfe]],
  ])('%s is a corrupt body: MessageFormatException on getText', (_, bytes) => {
    const message = receivedWithBody(MessageType.TEXT, Buffer.from(bytes)) as TextMessage;
    expect(() => message.getText()).toThrow(MessageFormatException);
    expect(() => message.getText()).toThrow(MessageFormatException);
    expect(message.getJMSPriority()).toBe(4);
  });
});
