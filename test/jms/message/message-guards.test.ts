import {
  HornetQStreamMessage,
  isBytesMessage,
  isMapMessage,
  isMessage,
  isObjectMessage,
  isStreamMessage,
  isTextMessage,
  type HornetQMessage,
} from '../../../src';
import { useJmsFixture } from '../../support/jms-fixture';

/**
 * The message kind guards: each narrows to its class without instanceof, by the brand the message
 * carries, so that they agree with a second copy of the package; a receive loop dispatches on them.
 */

const fx = useJmsFixture();

const GUARDS = { isTextMessage, isBytesMessage, isMapMessage, isObjectMessage, isStreamMessage };

type MessageModule = typeof import('../../../src/jms/message');

function otherCopy(): MessageModule {
  let copy: MessageModule | undefined;
  jest.isolateModules(() => {
    copy = jest.requireActual<MessageModule>('../../../src/jms/message');
  });
  if (copy === undefined) throw new Error('isolateModules gave no module');
  return copy;
}

/** What one message says, read through the guards alone. */
function describeMessage(message: unknown): string {
  if (isTextMessage(message)) return `text:${message.getText()}`;
  if (isBytesMessage(message)) return `bytes:${message.getBodyLength()}`;
  if (isMapMessage(message)) return `map:${message.getString('k')}`;
  if (isObjectMessage(message)) return `object:${JSON.stringify(message.getObject())}`;
  if (isStreamMessage(message)) return `stream:${message.readString()}`;
  if (isMessage(message)) return `plain:${message.getStringProperty('p')}`;
  return 'not a message';
}

test('a for await loop over a real consumer tells every kind apart with the guards', async () => {
  const { session } = await fx.open();
  const queue = fx.queue('Queue1');
  const producer = await session.createProducer(queue);
  const bytes = session.createBytesMessage();
  bytes.writeBytes(Buffer.from([1, 2, 3]));
  const map = session.createMapMessage();
  map.setString('k', 'v');
  const stream = session.createStreamMessage();
  stream.writeString('s');
  const plain = session.createMessage();
  plain.setStringProperty('p', 'q');
  const sent: HornetQMessage[] = [
    session.createTextMessage('hello'),
    bytes,
    map,
    session.createObjectMessage({ n: 1 }),
    stream,
    plain,
  ];
  for (const message of sent) await producer.send(message);

  const consumer = await session.createConsumer(queue);
  const seen: string[] = [];
  for await (const message of consumer) {
    seen.push(describeMessage(message));
    if (seen.length === sent.length) break;
  }
  expect(seen).toEqual(['text:hello', 'bytes:3', 'map:v', 'object:{"n":1}', 'stream:s', 'plain:q']);
});

test('each guard accepts its kind only; isMessage accepts every kind; nothing else passes', async () => {
  const { session } = await fx.open();
  const made: Record<keyof typeof GUARDS, HornetQMessage> = {
    isTextMessage: session.createTextMessage('x'),
    isBytesMessage: session.createBytesMessage(),
    isMapMessage: session.createMapMessage(),
    isObjectMessage: session.createObjectMessage(null),
    isStreamMessage: session.createStreamMessage(),
  };
  for (const [kind, message] of Object.entries(made)) {
    for (const [name, guard] of Object.entries(GUARDS))
      expect([kind, name, guard(message)]).toEqual([kind, name, kind === name]);
    expect(isMessage(message)).toBe(true);
  }
  const plain = session.createMessage();
  for (const guard of Object.values(GUARDS)) expect(guard(plain)).toBe(false);
  expect(isMessage(plain)).toBe(true);
  for (const value of [null, undefined, 'text', {}, { getText: () => 'x' }, fx.queue('Queue1')]) {
    expect(isMessage(value)).toBe(false);
    expect(isTextMessage(value)).toBe(false);
  }
});

test('messages made by another copy of the package pass these guards, and the reverse', () => {
  const copy = otherCopy();
  const foreign = new copy.HornetQTextMessage('from the other copy');
  expect(isTextMessage(foreign)).toBe(true);
  expect(isMessage(foreign)).toBe(true);
  expect(isBytesMessage(foreign)).toBe(false);
  expect(copy.isMapMessage(new copy.HornetQMapMessage())).toBe(true);
  const local = new HornetQStreamMessage();
  expect(copy.isStreamMessage(local)).toBe(true);
  expect(copy.isTextMessage(local)).toBe(false);
});
