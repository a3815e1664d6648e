import { HornetQException } from '../../../src/core/protocol/hornetq-exception';
import { Queue } from '../../../src/server/postoffice/queue';
import { QueueRegistry } from '../../../src/server/postoffice/queue-registry';

function queue(name: string, address: string): Queue {
  return new Queue({ name, address, filter: null, durable: false, temporary: false }, () => undefined);
}

function errorOf(action: () => void): HornetQException {
  try {
    action();
  } catch (error) {
    if (error instanceof HornetQException) return error;
    throw error;
  }
  throw new Error('expected a HornetQException');
}

describe('QueueRegistry', () => {
  it('finds queues by name and by address, in creation order', () => {
    const registry = new QueueRegistry(10);
    const a = queue('a', 'news');
    const b = queue('b', 'news');
    const c = queue('c', 'sport');
    for (const q of [a, b, c]) registry.add(q);
    expect(registry.get('b')).toBe(b);
    expect(registry.require('c')).toBe(c);
    expect(registry.boundTo('news')).toEqual([a, b]);
    expect(registry.boundTo('weather')).toEqual([]);
    expect([...registry.values()]).toEqual([a, b, c]);
    expect(registry.size).toBe(3);
  });

  it('says when removing a queue leaves its address without queues', () => {
    const registry = new QueueRegistry(10);
    const a = queue('a', 'news');
    const b = queue('b', 'news');
    registry.add(a);
    registry.add(b);
    expect(registry.remove(a)).toBe(false);
    expect(registry.boundTo('news')).toEqual([b]);
    expect(registry.hasBindings('news')).toBe(true);
    expect(registry.remove(b)).toBe(true);
    expect(registry.hasBindings('news')).toBe(false);
    expect(registry.get('b')).toBeUndefined();
  });

  it('refuses a name in use and a queue beyond maxQueues, naming the setting; add itself is not limited', () => {
    const registry = new QueueRegistry(1);
    registry.add(queue('a', 'news'));
    expect(errorOf(() => registry.checkRoomFor('a')).code).toBe('QUEUE_EXISTS');
    const full = errorOf(() => registry.checkRoomFor('b'));
    expect(full.code).toBe('ILLEGAL_STATE');
    expect(full.message).toContain('already has 1 queues, the most it allows (maxQueues)');
    registry.add(queue('loaded', 'news'));
    expect(registry.size).toBe(2);
  });

  it('names a missing queue', () => {
    const error = errorOf(() => new QueueRegistry(1).require('gone'));
    expect(error.code).toBe('QUEUE_DOES_NOT_EXIST');
    expect(error.message).toContain('gone');
  });

  it('forgets that a queue was orphaned when it is removed', () => {
    const registry = new QueueRegistry(10);
    const temporary = queue('tmp', 'tmp');
    registry.add(temporary);
    expect(registry.isOrphaned(temporary)).toBe(false);
    registry.markOrphaned(temporary);
    expect(registry.isOrphaned(temporary)).toBe(true);
    registry.remove(temporary);
    expect(registry.isOrphaned(temporary)).toBe(false);
  });
});
