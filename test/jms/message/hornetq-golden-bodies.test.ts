import { PropertyKind, type TypedValue } from '../../../src/core/protocol/typed-properties';
import { MessageEOFException } from '../../../src/jms/exceptions';
import { HornetQBytesMessage } from '../../../src/jms/message/hornetq-bytes-message';
import { HornetQMapMessage } from '../../../src/jms/message/hornetq-map-message';
import { HornetQMessage } from '../../../src/jms/message/hornetq-message';
import { HornetQStreamMessage } from '../../../src/jms/message/hornetq-stream-message';
import { HornetQTextMessage } from '../../../src/jms/message/hornetq-text-message';
import { type JmsBodyVector, loadJmsBodyVectors } from '../../fixtures/hornetq-2.4.7/golden-vectors';
import { receivedWithBody } from './wire';

/**
 * Our JMS bodies against HornetQ 2.4.7's own (test/fixtures/hornetq-2.4.7/jms-bodies.json, printed
 * by HornetQ's JMS classes): what we build from the same content is byte for byte what HornetQ
 * wrote, and what HornetQ wrote reads back as that content.
 */

const vectors = loadJmsBodyVectors().vectors;

type Entry = [string, TypedValue];
type Operation = [string, unknown];

function build(vector: JmsBodyVector): HornetQMessage {
  const content = vector.content;
  switch (vector.jmsClass) {
    case 'Message':
      return new HornetQMessage();
    case 'TextMessage':
      return new HornetQTextMessage(content['text'] as string | null);
    case 'MapMessage': {
      const message = new HornetQMapMessage();
      for (const [name, typed] of content['entries'] as Entry[]) setEntry(message, name, typed);
      return message;
    }
    case 'StreamMessage': {
      const message = new HornetQStreamMessage();
      for (const typed of content['entries'] as TypedValue[]) writeField(message, typed);
      return message;
    }
    case 'BytesMessage': {
      const message = new HornetQBytesMessage();
      for (const [method, value] of content['operations'] as Operation[]) {
        (message[method as 'writeInt'] as (v: unknown) => void).call(message, value);
      }
      return message;
    }
  }
}

function setEntry(message: HornetQMapMessage, name: string, typed: TypedValue): void {
  switch (typed.kind) {
    case PropertyKind.NULL:
      return message.setString(name, null);
    case PropertyKind.BOOLEAN:
      return message.setBoolean(name, typed.value);
    case PropertyKind.BYTE:
      return message.setByte(name, typed.value);
    case PropertyKind.BYTES:
      return message.setBytes(name, typed.value);
    case PropertyKind.SHORT:
      return message.setShort(name, typed.value);
    case PropertyKind.INT:
      return message.setInt(name, typed.value);
    case PropertyKind.LONG:
      return message.setLong(name, typed.value);
    case PropertyKind.FLOAT:
      return message.setFloat(name, typed.value);
    case PropertyKind.DOUBLE:
      return message.setDouble(name, typed.value);
    case PropertyKind.STRING:
      return message.setString(name, typed.value);
    case PropertyKind.CHAR:
      return message.setChar(name, typed.value);
  }
}

function writeField(message: HornetQStreamMessage, typed: TypedValue): void {
  switch (typed.kind) {
    case PropertyKind.NULL:
      return message.writeString(null);
    case PropertyKind.BOOLEAN:
      return message.writeBoolean(typed.value);
    case PropertyKind.BYTE:
      return message.writeByte(typed.value);
    case PropertyKind.BYTES:
      return message.writeBytes(typed.value);
    case PropertyKind.SHORT:
      return message.writeShort(typed.value);
    case PropertyKind.INT:
      return message.writeInt(typed.value);
    case PropertyKind.LONG:
      return message.writeLong(typed.value);
    case PropertyKind.FLOAT:
      return message.writeFloat(typed.value);
    case PropertyKind.DOUBLE:
      return message.writeDouble(typed.value);
    case PropertyKind.STRING:
      return message.writeString(typed.value);
    case PropertyKind.CHAR:
      return message.writeChar(typed.value);
  }
}

/** What getObject / readObject give for a typed value. */
function asObject(typed: TypedValue): unknown {
  return typed.kind === PropertyKind.NULL ? null : typed.value;
}

function checkRead(vector: JmsBodyVector, received: HornetQMessage): void {
  const content = vector.content;
  if (received instanceof HornetQTextMessage) {
    expect(received.getText()).toBe(content['text']);
  } else if (received instanceof HornetQMapMessage) {
    const entries = content['entries'] as Entry[];
    expect(received.getMapNames()).toEqual(entries.map(([name]) => name));
    for (const [name, typed] of entries) expect(received.getObject(name)).toEqual(asObject(typed));
  } else if (received instanceof HornetQStreamMessage) {
    for (const typed of content['entries'] as TypedValue[])
      expect(received.readObject()).toEqual(asObject(typed));
    expect(() => received.readObject()).toThrow(MessageEOFException);
  } else if (received instanceof HornetQBytesMessage) {
    for (const [method, value] of content['operations'] as Operation[])
      readOperation(received, method, value);
    expect(received.readBytes(new Uint8Array(1))).toBe(-1);
  }
}

/** Reads back what `method` wrote; a long beyond ±2^53 (which readLong refuses) as its two ints. */
function readOperation(received: HornetQBytesMessage, method: string, value: unknown): void {
  if (method === 'writeBytes') {
    const expected = value as Buffer;
    const target = new Uint8Array(expected.length);
    expect(received.readBytes(target)).toBe(expected.length);
    expect(Buffer.from(target)).toEqual(expected);
  } else if (typeof value === 'bigint') {
    const high = BigInt(received.readInt());
    const low = BigInt(received.readInt() >>> 0);
    expect(BigInt.asIntN(64, (high << 32n) | low)).toBe(value);
  } else {
    const read = method.replace(/^write/, 'read') as 'readInt';
    expect((received[read] as () => unknown).call(received)).toEqual(value);
  }
}

describe.each(vectors.map((vector) => [vector.name, vector] as const))(
  'HornetQ 2.4.7 body: %s',
  (_, vector) => {
    it('we write HornetQ’s bytes from the same content, with its message type', () => {
      const message = build(vector);
      expect(message.toCoreMessage().type).toBe(vector.messageType);
      expect(message.encodeBody().toString('hex')).toBe(vector.body.toString('hex'));
    });

    it('HornetQ’s bytes read back as the content', () => {
      const received = receivedWithBody(vector.messageType, vector.body);
      expect(received.constructor).toBe(build(vector).constructor);
      checkRead(vector, received);
    });
  },
);
