import { subscriptionQueueName } from '../../../src/jms/destination/subscription-queue-name';

/** HornetQDestination.createQueueNameForDurableSubscription (HornetQ 2.4), case by case. */
describe('subscriptionQueueName', () => {
  it.each<[boolean, string | null, string, string]>([
    [true, null, 'mySharedCon', 'mySharedCon'],
    [false, null, 'mySharedCon', 'nonDurable.mySharedCon'],
    [true, 'client', 'sub', 'client.sub'],
    [false, 'client', 'sub', 'nonDurable.client.sub'],
    [true, 'a.b', 'c.d', 'a\\.b.c\\.d'],
    [false, 'a\\b', 'c\\.d', 'nonDurable.a\\\\b.c\\\\\\.d'],
  ])('durable %s, client id %s, name %s → %s', (durable, clientID, name, expected) => {
    expect(subscriptionQueueName(durable, clientID, name)).toBe(expected);
  });

  it('keeps two subscriptions apart that a plain join would confuse', () => {
    // Client "a.b" with name "c" and client "a" with name "b.c" would both be "a.b.c" unescaped.
    expect(subscriptionQueueName(true, 'a.b', 'c')).not.toBe(subscriptionQueueName(true, 'a', 'b.c'));
  });
});
