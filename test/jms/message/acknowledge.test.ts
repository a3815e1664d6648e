import { HornetQMessage } from '../../../src/jms/message/hornetq-message';
import { HornetQTextMessage } from '../../../src/jms/message/hornetq-text-message';
import { transfer } from './wire';

/** Message.acknowledge delegates to the acknowledger the consumer side sets. */

describe('acknowledge', () => {
  it('a message without an acknowledger resolves at once', async () => {
    await expect(new HornetQMessage().acknowledge()).resolves.toBeUndefined();
    await expect(transfer(new HornetQTextMessage('x')).acknowledge()).resolves.toBeUndefined();
  });

  it('calls the acknowledger each time and returns its promise', async () => {
    const received = transfer(new HornetQTextMessage('x'));
    const calls: number[] = [];
    received.setAcknowledger(() => {
      calls.push(calls.length);
      return Promise.resolve();
    });
    await received.acknowledge();
    await received.acknowledge();
    expect(calls).toEqual([0, 1]);
  });

  it('passes a rejection through', async () => {
    const received = transfer(new HornetQMessage());
    const failure = new Error('session closed');
    received.setAcknowledger(() => Promise.reject(failure));
    await expect(received.acknowledge()).rejects.toBe(failure);
  });

  it('can be removed again', async () => {
    const received = transfer(new HornetQMessage());
    received.setAcknowledger(() => Promise.reject(new Error('should not be called')));
    received.setAcknowledger(null);
    await expect(received.acknowledge()).resolves.toBeUndefined();
  });
});
