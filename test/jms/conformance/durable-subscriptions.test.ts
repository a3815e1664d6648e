import {
  IllegalStateException,
  InvalidDestinationException,
  JMSException,
  Session,
  type HornetQConnection,
  type HornetQSession,
} from '../../../src';
import {
  expectNothing,
  failureOf,
  receiveTexts,
  sendTexts,
  useJmsFixture,
  waitFor,
} from '../../support/jms-fixture';

/**
 * jms-conformance.md §4 I (durable subscriptions I1–I5 and noLocal I6) with HornetQ's
 * DurableSubscriptionTest, the durable and noLocal cases of MessageConsumerTest, and
 * NonDurableSubscriberTest (§2.1).
 */

const fx = useJmsFixture();
const T1 = (): ReturnType<typeof fx.topic> => fx.topic('Topic1');
const T2 = (): ReturnType<typeof fx.topic> => fx.topic('Topic2');

/** A started connection with `clientID` and one AUTO_ACKNOWLEDGE session. */
async function client(clientID: string): Promise<{ connection: HornetQConnection; session: HornetQSession }> {
  return fx.open({ clientID });
}

async function publish(texts: string[], topic = T1()): Promise<void> {
  const { connection, session } = await fx.open();
  await sendTexts(session, topic, texts);
  await connection.close();
}

describe('I1 a durable subscription needs a client id', () => {
  test('createDurableSubscriber without a client id throws IllegalStateException (testDurableSubscriptionClientIDNotSet); unsubscribe looks for a subscription of that name alone (JMS 2.0: a shared durable one needs no client id)', async () => {
    const { session } = await fx.open();
    const error = await failureOf(session.createDurableSubscriber(T1(), 'no-client-id'));
    expect(error).toBeInstanceOf(IllegalStateException);
    expect(error).toBeInstanceOf(JMSException);
    expect(await failureOf(session.createDurableConsumer(T1(), 'no-client-id'))).toBeInstanceOf(
      IllegalStateException,
    );
    expect(await failureOf(session.unsubscribe('no-client-id'))).toBeInstanceOf(InvalidDestinationException);
    expect(fx.queuesOn('jms.topic.Topic1')).toEqual([]);
  });

  test('a client id preset on the factory is enough, with a selector (testDurableSubscriptionOnPreConfiguredConnectionFactory)', async () => {
    const { session } = await fx.open({ configure: (cf) => cf.setClientID('preconfigured') });
    const subscriber = await session.createDurableSubscriber(T1(), 'preconf-sub', "colour = 'red'");
    await sendTexts(session, T1(), ['blue', 'red'], (m, i) =>
      m.setStringProperty('colour', i === 0 ? 'blue' : 'red'),
    );
    expect(await receiveTexts(subscriber, 1)).toEqual(['red']);
    await expectNothing(subscriber, 100);
  });
});

describe('I2 subscription identity and core queue names', () => {
  test('the core queue is clientID.name, durable, bound to the topic; dots and backslashes are escaped (testDurableSubscriptionWithPeriodsInName)', async () => {
    const { session } = await client('client.with.dots');
    const subscriber = await session.createDurableSubscriber(T1(), 'sub.with\\dots');
    const [queue] = fx.queuesOn('jms.topic.Topic1');
    expect(queue).toMatchObject({
      name: 'client\\.with\\.dots.sub\\.with\\\\dots',
      durable: true,
      temporary: false,
    });
    await publish(['dotted']);
    expect(await receiveTexts(subscriber, 1)).toEqual(['dotted']);
  });

  test('the same name under another client id is another subscription (testDurableSubscriptionReconnectDifferentClientID)', async () => {
    const first = await client('owner-a');
    await (await first.session.createDurableSubscriber(T1(), 'shared-name')).close();
    await publish(['for a']);
    await first.connection.close();
    const second = await client('owner-b');
    const other = await second.session.createDurableSubscriber(T1(), 'shared-name');
    expect(await other.receive(200)).toBeNull();
    expect(fx.queuesOn('jms.topic.Topic1')).toHaveLength(2);
  });
});

describe('I3 messages wait for an offline subscriber', () => {
  test('the subscription outlives its connection; a message sent while offline arrives on reconnect, then nothing else (testSimplestDurableSubscription)', async () => {
    const first = await client('brookeburke');
    await first.session.createDurableSubscriber(T1(), 'monicabelucci');
    expect(fx.queuesOn('jms.topic.Topic1')).toHaveLength(1);
    await first.connection.close();
    expect(fx.queuesOn('jms.topic.Topic1')).toHaveLength(1);
    await publish(['while offline']);
    const second = await client('brookeburke');
    const subscriber = await second.session.createDurableSubscriber(T1(), 'monicabelucci');
    expect(await receiveTexts(subscriber, 1)).toEqual(['while offline']);
    await expectNothing(subscriber);
  });

  test('a durable subscriber receives all 50 messages (testDurableSubscriptionSimple)', async () => {
    const { session } = await client('simple');
    const subscriber = await session.createDurableSubscriber(T1(), 'fifty');
    const texts = Array.from({ length: 50 }, (_, i) => `d${i}`);
    await sendTexts(session, T1(), texts);
    expect(await receiveTexts(subscriber, 50)).toEqual(texts);
  });

  test('receive 1 of 2 and close: on reconnect exactly 1 is left (testDurableSubscriptionReconnect)', async () => {
    const first = await client('reconnect');
    const subscriber = await first.session.createDurableSubscriber(T1(), 'half');
    await sendTexts(first.session, T1(), ['first', 'second']);
    expect(await receiveTexts(subscriber, 1)).toEqual(['first']);
    await first.connection.close();
    const second = await client('reconnect');
    const again = await second.session.createDurableSubscriber(T1(), 'half');
    expect(await receiveTexts(again, 1)).toEqual(['second']);
    await expectNothing(again);
  });

  test('consumed messages are not redelivered; after unsubscribe and resubscribe it starts empty (testDurableSubscriptionDataRemaining, testUnsubscribeDurableSubscription)', async () => {
    const { session } = await client('remaining');
    let subscriber = await session.createDurableSubscriber(T1(), 'remaining-sub');
    await sendTexts(session, T1(), ['one', 'two']);
    expect(await receiveTexts(subscriber, 2)).toEqual(['one', 'two']);
    await subscriber.close();
    subscriber = await session.createDurableSubscriber(T1(), 'remaining-sub');
    await expectNothing(subscriber, 100);
    await subscriber.close();
    await sendTexts(session, T1(), ['pending']);
    await session.unsubscribe('remaining-sub');
    expect(fx.queuesOn('jms.topic.Topic1')).toEqual([]);
    subscriber = await session.createDurableSubscriber(T1(), 'remaining-sub');
    await expectNothing(subscriber);
  });

  test('two subscriptions of one client id: unsubscribing one offline leaves the other with all 50 (testDurableSubscriptionMultipleSubscriptions)', async () => {
    const first = await client('multi');
    await (await first.session.createDurableSubscriber(T1(), 'sub1')).close();
    await (await first.session.createDurableSubscriber(T1(), 'sub2')).close();
    const texts = Array.from({ length: 50 }, (_, i) => `x${i}`);
    await publish(texts);
    await first.session.unsubscribe('sub1');
    await first.connection.close();
    const second = await client('multi');
    expect(await receiveTexts(await second.session.createDurableSubscriber(T1(), 'sub2'), 50)).toEqual(texts);
    const recreated = await second.session.createDurableSubscriber(T1(), 'sub1');
    await expectNothing(recreated);
  });

  test('the selector is kept with the subscription: only matches wait while offline', async () => {
    const first = await client('selective');
    await first.session.createDurableSubscriber(T1(), 'sel', 'n > 2');
    await first.connection.close();
    const { session } = await fx.open();
    await sendTexts(session, T1(), ['n1', 'n2', 'n3', 'n4'], (m, i) => m.setIntProperty('n', i + 1));
    const second = await client('selective');
    const again = await second.session.createDurableSubscriber(T1(), 'sel', 'n > 2');
    expect(again.getMessageSelector()).toBe('n > 2');
    expect(await receiveTexts(again, 2)).toEqual(['n3', 'n4']);
    await expectNothing(again);
  });

  test('a durable subscriber reports its topic, name-independent selector and noLocal flag', async () => {
    const { session } = await client('getters');
    const subscriber = await session.createDurableSubscriber(T1(), 'g', "a = 'b'", true);
    expect(subscriber.getTopic()).toEqual(T1());
    expect(subscriber.getMessageSelector()).toBe("a = 'b'");
    expect(subscriber.getNoLocal()).toBe(true);
  });
});

describe('I4 changing a subscription replaces it', () => {
  test('the same name on a different topic deletes the old subscription and its messages (testDurableSubscriptionOnNewTopic)', async () => {
    const first = await client('mover');
    await (await first.session.createDurableSubscriber(T1(), 'moving')).close();
    await publish(['old topic']);
    const moved = await first.session.createDurableSubscriber(T2(), 'moving');
    expect(fx.queuesOn('jms.topic.Topic1')).toEqual([]);
    expect(fx.queuesOn('jms.topic.Topic2')).toHaveLength(1);
    await expectNothing(moved);
    await publish(['new topic'], T2());
    expect(await receiveTexts(moved, 1)).toEqual(['new topic']);
  });

  test('a different selector deletes and recreates the subscription: the pending message is lost (testDurableSubscriptionDifferentSelector)', async () => {
    const first = await client('reselect');
    await (await first.session.createDurableSubscriber(T1(), 'sel', "colour = 'red'")).close();
    const { session } = await fx.open();
    await sendTexts(session, T1(), ['red pending'], (m) => m.setStringProperty('colour', 'red'));
    await waitFor(() => fx.queuesOn('jms.topic.Topic1')[0]?.messageCount === 1, 'the pending message');
    const changed = await first.session.createDurableSubscriber(T1(), 'sel', "colour = 'blue'");
    await expectNothing(changed);
    await sendTexts(session, T1(), ['red', 'blue'], (m, i) =>
      m.setStringProperty('colour', i === 0 ? 'red' : 'blue'),
    );
    expect(await receiveTexts(changed, 1)).toEqual(['blue']);
  });

  test('the same selector keeps the subscription and its messages', async () => {
    const first = await client('keep');
    await (await first.session.createDurableSubscriber(T1(), 'sel', "colour = 'red'")).close();
    const { session } = await fx.open();
    await sendTexts(session, T1(), ['kept'], (m) => m.setStringProperty('colour', 'red'));
    const same = await first.session.createDurableSubscriber(T1(), 'sel', "colour = 'red'");
    expect(await receiveTexts(same, 1)).toEqual(['kept']);
  });

  test('changing noLocal recreates the subscription too', async () => {
    const first = await client('nolocal-change');
    await (await first.session.createDurableSubscriber(T1(), 'nl', null, false)).close();
    await publish(['pending']);
    const changed = await first.session.createDurableSubscriber(T1(), 'nl', null, true);
    await expectNothing(changed);
  });
});

describe('I5 one active subscriber per subscription', () => {
  test('a second durable subscriber with the same name while the first is open → IllegalStateException (testSubscribeWithActiveSubscription)', async () => {
    const { connection, session } = await client('active');
    await session.createDurableSubscriber(T1(), 'only-one');
    const other = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    expect(await failureOf(other.createDurableSubscriber(T1(), 'only-one'))).toBeInstanceOf(
      IllegalStateException,
    );
    expect(await failureOf(session.createDurableSubscriber(T1(), 'only-one'))).toBeInstanceOf(
      IllegalStateException,
    );
    expect(fx.queuesOn('jms.topic.Topic1')).toHaveLength(1);
  });

  test('unsubscribe while the subscriber is open → IllegalStateException; after close it works (testUnsubscribeWithActiveConsumer, JORAM testUnsubscribe)', async () => {
    const { session } = await client('unsub');
    const subscriber = await session.createDurableSubscriber(T1(), 'topic');
    expect(await failureOf(session.unsubscribe('topic'))).toBeInstanceOf(IllegalStateException);
    expect(fx.queuesOn('jms.topic.Topic1')).toHaveLength(1);
    await subscriber.close();
    await session.unsubscribe('topic');
    expect(fx.queuesOn('jms.topic.Topic1')).toEqual([]);
  });

  test('unsubscribe of an unknown name → InvalidDestinationException (testDurableSubscriptionInvalidUnsubscribe, testNonDurableSubscriberInvalidUnsubscribe)', async () => {
    const { session } = await client('unknown-unsub');
    const error = await failureOf(session.unsubscribe('invalid-subscription-name'));
    expect(error).toBeInstanceOf(InvalidDestinationException);
    expect(error).toBeInstanceOf(JMSException);
  });

  test('a non-durable subscriber is not a subscription that unsubscribe knows', async () => {
    const { session } = await client('non-durable');
    await session.createConsumer(T1());
    expect(await failureOf(session.unsubscribe('anything'))).toBeInstanceOf(InvalidDestinationException);
  });
});

describe('I6 noLocal', () => {
  test('a non-durable noLocal subscriber ignores its own connection’s messages; another connection’s noLocal subscriber gets them (testNoLocal)', async () => {
    const publisher = await fx.open();
    const own = await publisher.session.createConsumer(T1(), null, true);
    const ownPlain = await publisher.session.createConsumer(T1(), null, false);
    const other = await fx.open();
    const foreign = await other.session.createConsumer(T1(), null, true);
    await sendTexts(publisher.session, T1(), ['local']);
    expect(await receiveTexts(foreign, 1)).toEqual(['local']);
    expect(await receiveTexts(ownPlain, 1)).toEqual(['local']);
    await expectNothing(own);
  });

  test('noLocal covers every session of the publishing connection', async () => {
    const { connection, session } = await fx.open();
    const subscriber = await session.createConsumer(T1(), null, true);
    const sibling = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    await sendTexts(sibling, T1(), ['from sibling']);
    const other = await fx.open();
    await sendTexts(other.session, T1(), ['from other']);
    expect(await receiveTexts(subscriber, 1)).toEqual(['from other']);
    await expectNothing(subscriber, 100);
  });

  test('100 own messages do not pile up for a noLocal subscriber (testNoLocalMemoryExhaustion)', async () => {
    const { session } = await fx.open();
    const subscriber = await session.createConsumer(T1(), null, true);
    await sendTexts(
      session,
      T1(),
      Array.from({ length: 100 }, (_, i) => `own${i}`),
    );
    const other = await fx.open();
    await sendTexts(other.session, T1(), ['marker']);
    expect(await receiveTexts(subscriber, 1)).toEqual(['marker']);
    await waitFor(
      () => fx.queuesOn('jms.topic.Topic1')[0]?.messageCount === 0,
      'the marker to be acknowledged',
    );
    // the subscription queue never took the 100 own messages
    expect(fx.queuesOn('jms.topic.Topic1').map((q) => q.messagesAdded)).toEqual([1]);
  });

  test('durable: with noLocal the publishing connection’s subscription gets nothing, the other gets it; without noLocal both do (DurableSubscriptionTest.testNoLocal)', async () => {
    for (const noLocal of [true, false]) {
      const a = await client(`nl-a-${String(noLocal)}`);
      const b = await client(`nl-b-${String(noLocal)}`);
      const subA = await a.session.createDurableSubscriber(T1(), 'same-name', null, noLocal);
      const subB = await b.session.createDurableSubscriber(T1(), 'same-name', null, noLocal);
      await sendTexts(a.session, T1(), [`from a (${String(noLocal)})`]);
      expect(await receiveTexts(subB, 1)).toEqual([`from a (${String(noLocal)})`]);
      if (noLocal) await expectNothing(subA);
      else expect(await receiveTexts(subA, 1)).toEqual([`from a (${String(noLocal)})`]);
      await subA.close();
      await subB.close();
      await a.session.unsubscribe('same-name');
      await b.session.unsubscribe('same-name');
    }
  });

  test('noLocal with a selector: both apply', async () => {
    const publisher = await fx.open();
    const other = await fx.open();
    const subscriber = await publisher.session.createConsumer(T1(), 'n >= 2', true);
    await sendTexts(publisher.session, T1(), ['own'], (m) => m.setIntProperty('n', 5));
    await sendTexts(other.session, T1(), ['low', 'high'], (m, i) => m.setIntProperty('n', i + 1));
    expect(await receiveTexts(subscriber, 1)).toEqual(['high']);
    await expectNothing(subscriber, 100);
  });
});
