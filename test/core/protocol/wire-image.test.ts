import fc from 'fast-check';
import { BufferReader } from '../../../src/core/protocol/buffer-reader';
import { BufferWriter } from '../../../src/core/protocol/buffer-writer';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import { coreMessage } from './arbitraries';

// A received message re-encodes by copying the bytes it arrived as. These tests check that the
// shortcut is never taken once the message says something else than those bytes.

function encode(message: CoreMessage): Buffer {
  const writer = new BufferWriter(16);
  message.encode(writer);
  return Buffer.from(writer.toBuffer());
}

function decode(bytes: Buffer): CoreMessage {
  return CoreMessage.decode(new BufferReader(bytes));
}

/** What a message built field by field (no received bytes) encodes to. */
function encodeFresh(message: CoreMessage): Buffer {
  const fresh = new CoreMessage();
  Object.assign(fresh, {
    messageId: message.messageId,
    address: message.address,
    type: message.type,
    durable: message.durable,
    expiration: message.expiration,
    timestamp: message.timestamp,
    priority: message.priority,
    userId: message.userId,
    properties: message.properties.copy(),
    body: Buffer.from(message.body),
  });
  return encode(fresh);
}

const changes: Record<string, (m: CoreMessage) => void> = {
  messageId: (m) => (m.messageId = m.messageId === 7 ? 8 : 7),
  address: (m) => (m.address = `${m.address}.other`),
  type: (m) => (m.type = (m.type + 1) % 256),
  durable: (m) => (m.durable = !m.durable),
  expiration: (m) => (m.expiration = m.expiration === 1 ? 2 : 1),
  timestamp: (m) => (m.timestamp = m.timestamp === 1 ? 2 : 1),
  priority: (m) => (m.priority = (m.priority + 1) % 10),
  userId: (m) => (m.userId = m.userId === null ? '11223344-5566-11ef-9a4b-0242ac120002' : null),
  'property set': (m) => m.properties.set('_added', { kind: PropertyKind.INT, value: 5 }),
  'property deleted': (m) => {
    m.properties.set('_gone', { kind: PropertyKind.BOOLEAN, value: true });
    const again = decode(encode(m));
    again.properties.delete('_gone');
    Object.assign(m, { properties: again.properties });
  },
  'properties cleared': (m) => m.properties.clear(),
  'properties replaced': (m) => (m.properties = m.properties.copy()),
  'body replaced': (m) => (m.body = Buffer.concat([m.body, Buffer.from('!')])),
  'body written in place': (m) => {
    if (m.body.length > 0) m.body[0] = (m.body[0] as number) ^ 0xff;
  },
};

describe('a received message re-encodes from the bytes it arrived as', () => {
  it('encodes exactly as a message built field by field, and measures the same', () => {
    fc.assert(
      fc.property(coreMessage, (original) => {
        const received = decode(encode(original));
        expect(encode(received)).toEqual(encodeFresh(received));
        expect(received.encodedSize()).toBe(encode(received).length);
      }),
    );
  });

  it.each(Object.keys(changes))('reflects a change of %s', (change) => {
    fc.assert(
      fc.property(coreMessage, (original) => {
        const received = decode(encode(original));
        (changes[change] as (m: CoreMessage) => void)(received);
        const bytes = encode(received);
        expect(bytes).toEqual(encodeFresh(received));
        expect(received.encodedSize()).toBe(bytes.length);
      }),
      { numRuns: 50 },
    );
  });

  it('keeps the shortcut in a copy, and a change to the copy leaves the original as it was', () => {
    const original = new CoreMessage();
    original.address = 'jms.queue.a';
    original.properties.set('p', { kind: PropertyKind.STRING, value: 'v' });
    original.body = Buffer.from('body');
    const received = decode(encode(original));
    const copy = received.copy();
    copy.properties.set('_HQ_ORIG_ADDRESS', { kind: PropertyKind.STRING, value: 'x' });
    copy.messageId = 99;
    expect(decode(encode(copy)).properties.get('_HQ_ORIG_ADDRESS')?.value).toBe('x');
    expect(decode(encode(received)).properties.has('_HQ_ORIG_ADDRESS')).toBe(false);
    expect(decode(encode(copy)).messageId).toBe(99);
  });
});

describe('the message id of a received message', () => {
  it('is patched in place at endOfBodyPosition + 4, the rest of the bytes kept as they came', () => {
    fc.assert(
      fc.property(coreMessage, fc.maxSafeNat(), (original, id) => {
        const arrived = encode(original);
        const received = decode(arrived);
        received.messageId = id;
        const sent = encode(received);
        const idAt = arrived.readInt32BE(0) - 13 + 4;
        expect(sent.readBigInt64BE(idAt)).toBe(BigInt(id));
        // Everything but those 8 bytes is what arrived.
        sent.copy(arrived, idAt, idAt, idAt + 8);
        expect(sent).toEqual(arrived);
        expect(sent).toEqual(encodeFresh(received));
      }),
      { numRuns: 100 },
    );
  });
});
