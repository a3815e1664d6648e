import type { Destination } from '../../../src/jms/destination/destination';
import { HornetQQueue } from '../../../src/jms/destination/hornetq-queue';
import { MessageEOFException } from '../../../src/jms/exceptions';
import { toHornetQMessage } from '../../../src/jms/message/foreign-message';
import { HornetQBytesMessage } from '../../../src/jms/message/hornetq-bytes-message';
import { HornetQMapMessage } from '../../../src/jms/message/hornetq-map-message';
import { HornetQMessage } from '../../../src/jms/message/hornetq-message';
import { HornetQObjectMessage } from '../../../src/jms/message/hornetq-object-message';
import { HornetQStreamMessage } from '../../../src/jms/message/hornetq-stream-message';
import { HornetQTextMessage } from '../../../src/jms/message/hornetq-text-message';
import type { Message } from '../../../src/jms/message/message';
import { transfer } from './wire';

/**
 * HornetQ's ForeignMessageTest and MessageHeaderTest.testCopyOnForeign*Message: a message from
 * another JMS implementation is copied into one of ours (headers, properties, body).
 */

/** A minimal foreign message: headers and properties in plain fields, no body. */
function foreignBase(properties: Record<string, unknown> = {}): Message {
  const headers: Record<string, unknown> = {
    id: 'ID:foreign-1',
    timestamp: 1000,
    correlationId: 'corr',
    replyTo: new HornetQQueue('replies'),
    destination: null,
    mode: 1,
    redelivered: false,
    type: 'ftype',
    expiration: 5000,
    priority: 7,
  };
  const props = new Map(Object.entries(properties));
  return {
    getJMSMessageID: () => headers['id'] as string,
    setJMSMessageID: (v) => void (headers['id'] = v),
    getJMSTimestamp: () => headers['timestamp'] as number,
    setJMSTimestamp: (v) => void (headers['timestamp'] = v),
    getJMSCorrelationID: () => headers['correlationId'] as string,
    setJMSCorrelationID: (v) => void (headers['correlationId'] = v),
    getJMSReplyTo: () => headers['replyTo'] as Destination,
    setJMSReplyTo: (v) => void (headers['replyTo'] = v),
    getJMSDestination: () => headers['destination'] as Destination | null,
    setJMSDestination: (v) => void (headers['destination'] = v),
    getJMSDeliveryMode: () => headers['mode'] as number,
    setJMSDeliveryMode: (v) => void (headers['mode'] = v),
    getJMSRedelivered: () => headers['redelivered'] as boolean,
    setJMSRedelivered: (v) => void (headers['redelivered'] = v),
    getJMSType: () => headers['type'] as string,
    setJMSType: (v) => void (headers['type'] = v),
    getJMSExpiration: () => headers['expiration'] as number,
    setJMSExpiration: (v) => void (headers['expiration'] = v),
    getJMSPriority: () => headers['priority'] as number,
    setJMSPriority: (v) => void (headers['priority'] = v),
    propertyExists: (n) => props.has(n),
    getPropertyNames: () => [...props.keys()],
    clearProperties: () => props.clear(),
    getBooleanProperty: (n) => props.get(n) as boolean,
    setBooleanProperty: (n, v) => void props.set(n, v),
    getByteProperty: (n) => props.get(n) as number,
    setByteProperty: (n, v) => void props.set(n, v),
    getShortProperty: (n) => props.get(n) as number,
    setShortProperty: (n, v) => void props.set(n, v),
    getIntProperty: (n) => props.get(n) as number,
    setIntProperty: (n, v) => void props.set(n, v),
    getLongProperty: (n) => props.get(n) as number,
    setLongProperty: (n, v) => void props.set(n, v),
    getFloatProperty: (n) => props.get(n) as number,
    setFloatProperty: (n, v) => void props.set(n, v),
    getDoubleProperty: (n) => props.get(n) as number,
    setDoubleProperty: (n, v) => void props.set(n, v),
    getStringProperty: (n) => props.get(n) as string,
    setStringProperty: (n, v) => void props.set(n, v),
    getObjectProperty: (n) => props.get(n) ?? null,
    setObjectProperty: (n, v) => void props.set(n, v),
    acknowledge: () => Promise.resolve(),
    clearBody: () => undefined,
  };
}

describe('testSendReceiveForeignMessage / testCopyOnForeignMessage', () => {
  it('copies headers and properties into a plain HornetQMessage', () => {
    const copy = toHornetQMessage(foreignBase({ s: 'v', n: 5, b: true, JMSXDeliveryCount: 3 }));
    expect(copy.constructor).toBe(HornetQMessage);
    expect(copy.getJMSMessageID()).toBe('ID:foreign-1');
    const received = transfer(copy);
    // Only a provider's id travels (the 16-byte user id a producer draws on send), as in HornetQ.
    expect(received.getJMSMessageID()).toBeNull();
    expect(received.getJMSTimestamp()).toBe(1000);
    expect(received.getJMSCorrelationID()).toBe('corr');
    expect((received.getJMSReplyTo() as HornetQQueue).getQueueName()).toBe('replies');
    expect(received.getJMSDeliveryMode()).toBe(1);
    expect(received.getJMSType()).toBe('ftype');
    expect(received.getJMSExpiration()).toBe(5000);
    expect(received.getJMSPriority()).toBe(7);
    expect(received.getStringProperty('s')).toBe('v');
    expect(received.getIntProperty('n')).toBe(5);
    expect(received.getBooleanProperty('b')).toBe(true);
    expect(received.getIntProperty('JMSXDeliveryCount')).toBe(1);
  });

  it('testForeignMessageSetDestination: a null destination can be set afterwards', () => {
    const copy = toHornetQMessage(foreignBase());
    expect(copy.getJMSDestination()).toBeNull();
    copy.setJMSDestination(new HornetQQueue('q'));
    expect(transfer(copy).getJMSDestination()?.toString()).toBe('HornetQQueue[q]');
  });

  it('a message of ours is returned as it is', () => {
    const ours = new HornetQTextMessage('x');
    expect(toHornetQMessage(ours)).toBe(ours);
  });
});

describe('foreign bodies', () => {
  it('text', () => {
    const foreign = Object.assign(foreignBase(), { getText: () => 'foreign text', setText: () => undefined });
    const copy = toHornetQMessage(foreign);
    expect(copy).toBeInstanceOf(HornetQTextMessage);
    expect(transfer(copy as HornetQTextMessage).getText()).toBe('foreign text');
  });

  it('map', () => {
    const entries = new Map<string, unknown>([
      ['a', 1],
      ['b', 'two'],
    ]);
    const foreign = Object.assign(foreignBase(), {
      getMapNames: () => [...entries.keys()],
      getObject: (name: string) => entries.get(name),
    });
    const copy = toHornetQMessage(foreign) as HornetQMapMessage;
    expect(copy).toBeInstanceOf(HornetQMapMessage);
    expect(copy.getInt('a')).toBe(1);
    expect(copy.getString('b')).toBe('two');
  });

  it('bytes, read in chunks after a reset', () => {
    const data = Buffer.alloc(150_000, 7);
    let position = 0;
    const foreign = Object.assign(foreignBase(), {
      getBodyLength: () => data.length,
      reset: () => void (position = 0),
      readBytes: (target: Uint8Array) => {
        if (position >= data.length) return -1;
        const count = Math.min(target.length, data.length - position);
        target.set(data.subarray(position, position + count));
        position += count;
        return count;
      },
    });
    position = 10;
    const copy = toHornetQMessage(foreign) as HornetQBytesMessage;
    expect(copy).toBeInstanceOf(HornetQBytesMessage);
    expect(transfer(copy).getBodyLength()).toBe(150_000);
  });

  it('stream, read with readObject until the end', () => {
    const fields: unknown[] = [true, 5, 'x', null];
    let position = 0;
    const foreign = Object.assign(foreignBase(), {
      reset: () => void (position = 0),
      readObject: () => {
        if (position >= fields.length) throw new MessageEOFException('end');
        return fields[position++];
      },
    });
    const copy = toHornetQMessage(foreign) as HornetQStreamMessage;
    expect(copy).toBeInstanceOf(HornetQStreamMessage);
    const received = transfer(copy);
    expect([
      received.readObject(),
      received.readObject(),
      received.readObject(),
      received.readObject(),
    ]).toEqual(fields);
  });

  it('object', () => {
    const foreign = Object.assign(foreignBase(), { getObject: () => ({ a: [1] }) });
    const copy = toHornetQMessage(foreign) as HornetQObjectMessage;
    expect(copy).toBeInstanceOf(HornetQObjectMessage);
    expect(transfer(copy).getObject()).toEqual({ a: [1] });
  });
});
