import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import type { Queue, Topic } from '../../../src/jms/destination/destination';
import { HornetQQueue } from '../../../src/jms/destination/hornetq-queue';
import { HornetQTemporaryQueue } from '../../../src/jms/destination/hornetq-temporary-queue';
import { HornetQTemporaryTopic } from '../../../src/jms/destination/hornetq-temporary-topic';
import { HornetQTopic } from '../../../src/jms/destination/hornetq-topic';
import { InvalidDestinationException, JMSException } from '../../../src/jms/exceptions';
import { HornetQMessage } from '../../../src/jms/message/hornetq-message';
import { DeliveryMode } from '../../../src/jms/message/message';
import { transfer } from './wire';

/**
 * JORAM MessageHeaderTest and HornetQ's header tests (JMSCorrelationID, JMSDeliveryMode,
 * JMSDestination, JMSExpiration, JMSMessageID, JMSPriority, JMSReplyTo, JMSTimestamp, JMSType),
 * at the message level: what each header maps to on the core message, and that it survives the
 * wire. What a producer overwrites at send time is the producer's to test.
 */

describe('header ↔ core mapping', () => {
  it('JMSMessageID is "ID:" + the core userId (a UUID, 16 bytes on the wire)', () => {
    const message = new HornetQMessage();
    message.getCoreMessage().userId = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
    expect(message.getJMSMessageID()).toBe('ID:1b4e28ba-2fa1-11d2-883f-0016d3cca427');
    expect(transfer(message).getJMSMessageID()).toBe('ID:1b4e28ba-2fa1-11d2-883f-0016d3cca427');
  });

  it('setJMSMessageID, which JMS reserves for providers, is local as in HornetQ: it clears the userId and never travels', () => {
    const message = new HornetQMessage();
    message.getCoreMessage().userId = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
    message.setJMSMessageID('ID:abc-1');
    expect(message.getJMSMessageID()).toBe('ID:abc-1');
    expect(message.getCoreMessage().userId).toBeNull();
    expect(transfer(message).getJMSMessageID()).toBeNull();
    message.setJMSMessageID(null);
    expect(message.getJMSMessageID()).toBeNull();
  });

  it('the producer’s id replaces what setJMSMessageID set', () => {
    const message = new HornetQMessage();
    message.setJMSMessageID('ID:abc-1');
    message.assignMessageID('1b4e28ba-2fa1-11d2-883f-0016d3cca427');
    expect(message.getJMSMessageID()).toBe('ID:1b4e28ba-2fa1-11d2-883f-0016d3cca427');
    message.assignMessageID(null);
    expect(message.getJMSMessageID()).toBeNull();
  });

  it('JMSMessageID must start with "ID:"', () => {
    const message = new HornetQMessage();
    expect(() => message.setJMSMessageID('foo')).toThrow(JMSException);
    expect(() => message.setJMSMessageID('id:foo')).toThrow(JMSException);
    expect(message.getJMSMessageID()).toBeNull();
  });

  it('JMSTimestamp, JMSExpiration and JMSPriority are core fields', () => {
    const message = new HornetQMessage();
    message.setJMSTimestamp(1_700_000_000_123);
    message.setJMSExpiration(1_700_000_060_123);
    message.setJMSPriority(7);
    const core = message.getCoreMessage();
    expect([core.timestamp, core.expiration, core.priority]).toEqual([
      1_700_000_000_123, 1_700_000_060_123, 7,
    ]);
    const received = transfer(message);
    expect(received.getJMSTimestamp()).toBe(1_700_000_000_123);
    expect(received.getJMSExpiration()).toBe(1_700_000_060_123);
    expect(received.getJMSPriority()).toBe(7);
  });

  it.each([-1, 10, 4.5, NaN])('JMSPriority %p is a JMSException', (priority) => {
    const message = new HornetQMessage();
    expect(() => message.setJMSPriority(priority)).toThrow(JMSException);
    expect(message.getJMSPriority()).toBe(4);
  });

  it.each([2 ** 53, 1.5, NaN])('a timestamp or expiration of %p is a JMSException', (value) => {
    const message = new HornetQMessage();
    expect(() => message.setJMSTimestamp(value)).toThrow(JMSException);
    expect(() => message.setJMSExpiration(value)).toThrow(JMSException);
  });

  it('JMSDeliveryMode is core durable: PERSISTENT 2, NON_PERSISTENT 1', () => {
    const message = new HornetQMessage();
    message.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
    expect(message.getCoreMessage().durable).toBe(false);
    expect(transfer(message).getJMSDeliveryMode()).toBe(1);
    message.setJMSDeliveryMode(DeliveryMode.PERSISTENT);
    expect(message.getCoreMessage().durable).toBe(true);
    expect(transfer(message).getJMSDeliveryMode()).toBe(2);
    expect(() => message.setJMSDeliveryMode(3)).toThrow(JMSException);
    expect(() => message.setJMSDeliveryMode(0)).toThrow(JMSException);
  });

  it('JMSCorrelationID is a STRING property of that name (JMSCorrelationIDHeaderTest)', () => {
    for (const id of ['ID:812739812378', 'this is an arbitrary string']) {
      const message = new HornetQMessage();
      message.setJMSCorrelationID(id);
      expect(message.getCoreMessage().properties.get('JMSCorrelationID')).toEqual({
        kind: PropertyKind.STRING,
        value: id,
      });
      expect(transfer(message).getJMSCorrelationID()).toBe(id);
      expect(transfer(message).getJMSCorrelationIDAsBytes()).toBeNull();
    }
    const message = new HornetQMessage();
    message.setJMSCorrelationID('x');
    message.setJMSCorrelationID(null);
    expect(message.getCoreMessage().properties.has('JMSCorrelationID')).toBe(false);
  });

  it('JMSCorrelationID as bytes round-trips, negative bytes included', () => {
    const bytes = Int8Array.from([-1, 0, 127, -128, 3]);
    const message = new HornetQMessage();
    message.setJMSCorrelationIDAsBytes(new Uint8Array(bytes.buffer));
    const received = transfer(message);
    expect(Int8Array.from(received.getJMSCorrelationIDAsBytes() ?? [])).toEqual(bytes);
    expect(received.getJMSCorrelationID()).toBeNull();
    expect(() => message.setJMSCorrelationIDAsBytes(new Uint8Array(0))).toThrow(JMSException);
  });

  it('JMSType is a STRING property; default null (JMSTypeHeaderTest)', () => {
    const message = new HornetQMessage();
    expect(message.getJMSType()).toBeNull();
    expect(transfer(message).getJMSType()).toBeNull();
    message.setJMSType('TYPE1');
    expect(message.getCoreMessage().properties.get('JMSType')).toEqual({
      kind: PropertyKind.STRING,
      value: 'TYPE1',
    });
    expect(transfer(message).getJMSType()).toBe('TYPE1');
  });

  it('JMSDestination is the core address', () => {
    const message = new HornetQMessage();
    expect(message.getJMSDestination()).toBeNull();
    message.setJMSDestination(new HornetQQueue('queue1'));
    expect(message.getCoreMessage().address).toBe('jms.queue.queue1');
    const destination = transfer(message).getJMSDestination() as Queue;
    expect(destination).toBeInstanceOf(HornetQQueue);
    expect(destination.getQueueName()).toBe('queue1');
    expect((destination as HornetQQueue).equals(new HornetQQueue('queue1'))).toBe(true);
    message.setJMSDestination(null);
    expect(message.getCoreMessage().address).toBe('');
  });

  it('a received JMSDestination is the same object on each call', () => {
    const message = new HornetQMessage();
    message.setJMSDestination(new HornetQTopic('t'));
    const received = transfer(message);
    expect(received.getJMSDestination()).toBe(received.getJMSDestination());
  });

  it('testForeignJMSDestination: a foreign destination set on a message is returned as it is', () => {
    const foreign: Queue = { getQueueName: () => 'other', toString: () => 'ForeignQueue[other]' };
    const message = new HornetQMessage();
    message.setJMSDestination(foreign);
    expect(message.getJMSDestination()).toBe(foreign);
    expect(message.getCoreMessage().address).toBe('jms.queue.other');
    expect((transfer(message).getJMSDestination() as Queue).getQueueName()).toBe('other');
  });

  it('a non-JMS core address is an InvalidDestinationException naming it (HornetQDestination.fromAddress: "Invalid address")', () => {
    const message = new HornetQMessage();
    message.getCoreMessage().address = 'some.core.address';
    const received = transfer(message);
    expect(() => received.getJMSDestination()).toThrow(InvalidDestinationException);
    expect(() => received.getJMSDestination()).toThrow(/Invalid address 'some.core.address'/);
    message.getCoreMessage().address = '';
    expect(transfer(message).getJMSDestination()).toBeNull();
  });

  it('a JMSReplyTo that is not a JMS destination’s address is an InvalidDestinationException too', () => {
    const message = new HornetQMessage();
    message.getCoreMessage().properties.set('JMSReplyTo', { kind: PropertyKind.STRING, value: 'replies' });
    expect(() => transfer(message).getJMSReplyTo()).toThrow(InvalidDestinationException);
  });

  it('a destination that is neither queue nor topic is an InvalidDestinationException', () => {
    const message = new HornetQMessage();
    expect(() => message.setJMSDestination({} as unknown as Queue)).toThrow(InvalidDestinationException);
    expect(() => message.setJMSReplyTo({ toString: () => 'x' } as unknown as Topic)).toThrow(
      InvalidDestinationException,
    );
  });
});

describe('JMSReplyTo (JORAM testJMSReplyTo_1/_2, JMSReplyToHeaderTest)', () => {
  it.each<[string, Queue | Topic, string, new (...args: never[]) => unknown]>([
    ['a queue', new HornetQQueue('replies'), 'jms.queue.replies', HornetQQueue],
    ['a topic', new HornetQTopic('news'), 'jms.topic.news', HornetQTopic],
    [
      'a temporary queue',
      new HornetQTemporaryQueue('tq-1', () => Promise.resolve()),
      'jms.tempqueue.tq-1',
      HornetQTemporaryQueue,
    ],
    ['a temporary topic', new HornetQTemporaryTopic('tt-1'), 'jms.temptopic.tt-1', HornetQTemporaryTopic],
  ])('%s arrives with its type and name', (_, destination, address, type) => {
    const message = new HornetQMessage();
    message.setJMSReplyTo(destination);
    expect(message.getJMSReplyTo()).toBe(destination);
    expect(message.getCoreMessage().properties.get('JMSReplyTo')).toEqual({
      kind: PropertyKind.STRING,
      value: address,
    });
    const replyTo = transfer(message).getJMSReplyTo();
    expect(replyTo).toBeInstanceOf(type);
    expect(replyTo?.toString()).toBe(destination.toString());
    expect((replyTo as HornetQQueue).address).toBe(address);
  });

  it('null stays null', () => {
    const message = new HornetQMessage();
    expect(transfer(message).getJMSReplyTo()).toBeNull();
    message.setJMSReplyTo(new HornetQQueue('q'));
    message.setJMSReplyTo(null);
    expect(message.getCoreMessage().properties.has('JMSReplyTo')).toBe(false);
    expect(transfer(message).getJMSReplyTo()).toBeNull();
  });

  it('a temporary queue decoded from a message cannot be deleted through it', async () => {
    const message = new HornetQMessage();
    message.setJMSReplyTo(new HornetQTemporaryQueue('tq', () => Promise.resolve()));
    const replyTo = transfer(message).getJMSReplyTo() as HornetQTemporaryQueue;
    await expect(replyTo.delete()).rejects.toThrow(/only be deleted by the connection/);
  });

  it('is not listed as a property and survives clearProperties', () => {
    const message = new HornetQMessage();
    message.setJMSReplyTo(new HornetQTopic('topic1'));
    const received = transfer(message);
    expect(received.getPropertyNames()).toEqual(['JMSXDeliveryCount']);
    received.clearProperties();
    expect((received.getJMSReplyTo() as Topic).getTopicName()).toBe('topic1');
  });
});

describe('JMSRedelivered', () => {
  it('follows the delivery count of a received message', () => {
    const message = new HornetQMessage();
    expect(message.getJMSRedelivered()).toBe(false);
    expect(transfer(message, 1).getJMSRedelivered()).toBe(false);
    expect(transfer(message, 2).getJMSRedelivered()).toBe(true);
    expect(transfer(message, 5).getJMSRedelivered()).toBe(true);
  });

  it('can be set locally and does not travel', () => {
    const message = new HornetQMessage();
    message.setJMSRedelivered(true);
    expect(message.getJMSRedelivered()).toBe(true);
    expect(transfer(message, 1).getJMSRedelivered()).toBe(false);
    const received = transfer(message, 1);
    received.setJMSRedelivered(true);
    expect(received.getJMSRedelivered()).toBe(true);
  });
});

describe('testClearMessage (HornetQ MessageHeaderTest)', () => {
  it('clearProperties on a received message keeps JMSDestination', () => {
    const message = new HornetQMessage();
    message.setJMSDestination(new HornetQQueue('queue1'));
    message.setStringProperty('p', 'v');
    const received = transfer(message);
    received.clearProperties();
    expect((received.getJMSDestination() as Queue).getQueueName()).toBe('queue1');
  });
});

describe('sending snapshots the message', () => {
  it('changing the message after toCoreMessage does not change what was sent', () => {
    const message = new HornetQMessage();
    message.setStringProperty('p', 'before');
    message.setJMSPriority(3);
    const core = message.toCoreMessage();
    message.setStringProperty('p', 'after');
    message.setJMSPriority(8);
    expect(core.properties.get('p')).toEqual({ kind: PropertyKind.STRING, value: 'before' });
    expect(core.priority).toBe(3);
  });

  it('the received message is a different object from the sent one (testCopyOnJBossMessage)', () => {
    const message = new HornetQMessage();
    message.setStringProperty('p', 'v');
    const received = transfer(message);
    expect(received).not.toBe(message);
    expect(received.getCoreMessage()).not.toBe(message.getCoreMessage());
  });
});
