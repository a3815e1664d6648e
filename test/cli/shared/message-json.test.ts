import { messageJson } from '../../../src/cli/shared/message-json';
import {
  HornetQBytesMessage,
  HornetQMapMessage,
  HornetQMessage,
  HornetQObjectMessage,
  HornetQStreamMessage,
  HornetQTextMessage,
  fromCoreMessage,
} from '../../../src/jms/message';

/**
 * The JSON line `hornetq consumer --json` prints about a message (the whole line against a broker
 * is in ../commands/consumer-output.test.ts): here each kind of body, and bodies that do not decode.
 */

/** `sent` as a consumer receives it, its body cut to `bodyBytes` bytes when given. */
function received(sent: HornetQMessage, bodyBytes?: number): HornetQMessage {
  const core = sent.toCoreMessage();
  if (bodyBytes !== undefined) core.body = core.body.subarray(0, bodyBytes);
  return fromCoreMessage(core, 1);
}

function jsonOf(message: HornetQMessage): { properties: unknown; body: unknown } {
  return JSON.parse(messageJson(message)) as { properties: unknown; body: unknown };
}

describe('messageJson', () => {
  it('shows a property or map entry named __proto__ like any other', () => {
    const map = new HornetQMapMessage();
    map.setString('__proto__', 'entry');
    map.setStringProperty('__proto__', 'property');
    const line = messageJson(received(map));
    expect(line).toContain('"properties":{"__proto__":{"type":"string","value":"property"}');
    expect(line).toContain('"entries":{"__proto__":{"type":"string","value":"entry"}}');
  });

  it('shows each kind of body', () => {
    expect(jsonOf(received(new HornetQTextMessage('hi'))).body).toEqual({ kind: 'text', text: 'hi' });
    expect(jsonOf(received(new HornetQTextMessage())).body).toEqual({ kind: 'text', text: null });

    const bytes = new HornetQBytesMessage();
    bytes.writeBytes(Buffer.from([1, 2, 255]));
    expect(jsonOf(received(bytes)).body).toEqual({ kind: 'bytes', base64: 'AQL/' });

    const map = new HornetQMapMessage();
    map.setLong('big', 2n ** 62n);
    map.setFloat('f', 1.1);
    expect(jsonOf(received(map)).body).toEqual({
      kind: 'map',
      entries: { big: { type: 'long', value: '4611686018427387904' }, f: { type: 'float', value: 1.1 } },
    });

    const stream = new HornetQStreamMessage();
    stream.writeShort(1);
    stream.writeString(null);
    expect(jsonOf(received(stream)).body).toEqual({
      kind: 'stream',
      fields: [
        { type: 'short', value: 1 },
        { type: 'null', value: null },
      ],
    });

    const object = received(new HornetQObjectMessage({ a: 1 }));
    expect(jsonOf(object).body).toEqual({
      kind: 'object',
      base64: object.getCoreMessage().body.toString('base64'),
    });
    expect(jsonOf(received(new HornetQMessage())).body).toEqual({ kind: 'none' });
  });

  it.each([
    ['text', new HornetQTextMessage('a text longer than its body'), /^corrupt text body: /],
    ['map', mapOf('k', 'a value longer than its body'), /^property count 1 exceeds/],
    ['stream', streamOf('a string longer than its body'), /truncated/],
  ])('a %s body that does not decode: its kind and why, and the rest of the message', (kind, sent, why) => {
    sent.setIntProperty('n', 7);
    const json = jsonOf(received(sent, 7));
    expect(json.properties).toEqual({ n: { type: 'int', value: 7 } });
    expect(json.body).toEqual({ kind, error: expect.stringMatching(/^the body does not decode: /) });
    const { error } = json.body as { error: string };
    expect(error.slice('the body does not decode: '.length)).toMatch(why);
  });
});

function mapOf(name: string, value: string): HornetQMapMessage {
  const map = new HornetQMapMessage();
  map.setString(name, value);
  return map;
}

function streamOf(value: string): HornetQStreamMessage {
  const stream = new HornetQStreamMessage();
  stream.writeString(value);
  return stream;
}
