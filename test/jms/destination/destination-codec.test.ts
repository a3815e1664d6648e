import type { Queue } from '../../../src/jms/destination/destination';
import { addressOfDestination, destinationFromAddress } from '../../../src/jms/destination/destination-codec';
import { HornetQQueue } from '../../../src/jms/destination/hornetq-queue';
import { HornetQTemporaryQueue } from '../../../src/jms/destination/hornetq-temporary-queue';
import { HornetQTemporaryTopic } from '../../../src/jms/destination/hornetq-temporary-topic';
import { HornetQTopic } from '../../../src/jms/destination/hornetq-topic';
import { IllegalStateException, InvalidDestinationException } from '../../../src/jms/exceptions';

/** JMS ↔ core naming (research §5.8, §4 H1/H3). */

describe('destinations', () => {
  it.each<[string, HornetQQueue | HornetQTopic, string, string, boolean, boolean]>([
    ['queue', new HornetQQueue('orders'), 'jms.queue.orders', 'HornetQQueue[orders]', true, false],
    ['topic', new HornetQTopic('news'), 'jms.topic.news', 'HornetQTopic[news]', false, false],
    [
      'temporary queue',
      new HornetQTemporaryQueue('t1'),
      'jms.tempqueue.t1',
      'HornetQTemporaryQueue[t1]',
      true,
      true,
    ],
    [
      'temporary topic',
      new HornetQTemporaryTopic('t2'),
      'jms.temptopic.t2',
      'HornetQTemporaryTopic[t2]',
      false,
      true,
    ],
  ])('a %s has its address, name and string form', (_, destination, address, text, isQueue, isTemporary) => {
    expect(destination.address).toBe(address);
    expect(destination.toString()).toBe(text);
    expect(destination.isQueue).toBe(isQueue);
    expect(destination.isTemporary).toBe(isTemporary);
    expect(addressOfDestination(destination)).toBe(address);
    const decoded = destinationFromAddress(address);
    expect(decoded.constructor).toBe(destination.constructor);
    expect(decoded.equals(destination)).toBe(true);
    expect(decoded.toString()).toBe(text);
  });

  it('getQueueName and getTopicName give the short JMS name (H1)', () => {
    expect(new HornetQQueue('Queue1').getQueueName()).toBe('Queue1');
    expect(new HornetQTopic('Topic1').getTopicName()).toBe('Topic1');
    expect((destinationFromAddress('jms.tempqueue.a.b') as HornetQQueue).getQueueName()).toBe('a.b');
  });

  it('equality is by address (H3): same name, different kinds differ', () => {
    expect(new HornetQQueue('x').equals(new HornetQQueue('x'))).toBe(true);
    expect(new HornetQQueue('x').equals(new HornetQTopic('x'))).toBe(false);
    expect(new HornetQQueue('x').equals(new HornetQTemporaryQueue('x'))).toBe(false);
    expect(new HornetQQueue('x').equals({ getQueueName: () => 'x' })).toBe(false);
  });

  it.each(['', 'orders', 'jms.queue.', 'jms.topic.', 'jms.tempqueue.', 'jms.queues.x', 'JMS.QUEUE.x'])(
    'address %p is an InvalidDestinationException',
    (address) => {
      expect(() => destinationFromAddress(address)).toThrow(InvalidDestinationException);
    },
  );

  it('an empty name is an InvalidDestinationException', () => {
    expect(() => new HornetQQueue('')).toThrow(InvalidDestinationException);
    expect(() => new HornetQTopic('')).toThrow(InvalidDestinationException);
  });

  it('a foreign destination maps by its contract methods', () => {
    const queue: Queue = { getQueueName: () => 'fq', toString: () => 'fq' };
    expect(addressOfDestination(queue)).toBe('jms.queue.fq');
    expect(addressOfDestination({ getTopicName: () => 'ft', toString: () => 'ft' })).toBe('jms.topic.ft');
    expect(() => addressOfDestination({ getQueueName: () => '', toString: () => '' })).toThrow(
      InvalidDestinationException,
    );
    expect(() => addressOfDestination(null as unknown as Queue)).toThrow(InvalidDestinationException);
  });

  it('a temporary destination is deleted through its deleter; without one, delete rejects', async () => {
    let deleted = 0;
    const owned = new HornetQTemporaryQueue('t', () => {
      deleted++;
      return Promise.resolve();
    });
    await owned.delete();
    expect(deleted).toBe(1);
    await expect(new HornetQTemporaryQueue('t').delete()).rejects.toThrow(IllegalStateException);
    await expect(new HornetQTemporaryTopic('t').delete()).rejects.toThrow(IllegalStateException);
  });
});
