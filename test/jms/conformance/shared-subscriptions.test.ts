import {
  IllegalStateException,
  InvalidDestinationException,
  JMSException,
  type HornetQMessageConsumer,
  type HornetQSession,
} from '../../../src';
import {
  expectNothing,
  failureOf,
  receiveTexts,
  sendTexts,
  textOf,
  useJmsFixture,
  waitFor,
} from '../../support/jms-fixture';

/**
 * JMS 2.0 shared subscriptions (issue 27 item 1): the behaviours of HornetQ 2.4's
 * SharedConsumerTest and of its HornetQSession.internalCreateSharedConsumer, on our broker.
 */

/** A deployed JMS topic, as hornetq-jms.xml makes one: a queue that matches nothing binds it. */
function deployedTopic(name: string): { name: string; address: string; filter: string; durable: boolean } {
  const address = `jms.topic.${name}`;
  return { name: address, address, filter: '__HQX=-1', durable: true };
}

const fx = useJmsFixture({
  broker: { queues: [deployedTopic('Topic1'), deployedTopic('Topic2')] },
});
const T1 = (): ReturnType<typeof fx.topic> => fx.topic('Topic1');
const T2 = (): ReturnType<typeof fx.topic> => fx.topic('Topic2');

async function publish(texts: string[], topic = T1()): Promise<void> {
  const { connection, session } = await fx.open();
  await sendTexts(session, topic, texts);
  await connection.close();
}

/** Receives from both until `total` messages arrived between them; each one's texts, in order. */
async function drain(
  consumers: [HornetQMessageConsumer, HornetQMessageConsumer],
  total: number,
): Promise<[string[], string[]]> {
  const received: [string[], string[]] = [[], []];
  const deadline = Date.now() + 10_000;
  while (received[0].length + received[1].length < total && Date.now() < deadline) {
    for (const index of [0, 1] as const) {
      const message = await consumers[index].receive(50);
      if (message !== null) received[index].push(textOf(message) ?? '<null>');
    }
  }
  return received;
}

function texts(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i}`);
}

async function expectMismatch(attempt: Promise<unknown>): Promise<void> {
  const error = await failureOf(attempt);
  expect(error).toBeInstanceOf(JMSException);
  // Not a subclass (HornetQ's JMSExceptionHelper maps INVALID_TRANSIENT_QUEUE_USE to JMSException).
  expect((error as JMSException).constructor).toBe(JMSException);
  expect((error as JMSException).errorCode).toBe('INVALID_TRANSIENT_QUEUE_USE');
}

describe('round robin between the consumers of one subscription', () => {
  test('two shared durable consumers of one session split 10 messages 5 and 5 (sharedDurableSubSimpleRoundRobin)', async () => {
    const { session } = await fx.open();
    const con1 = await session.createSharedDurableConsumer(T1(), 'mySharedCon');
    const con2 = await session.createSharedDurableConsumer(T1(), 'mySharedCon');
    await publish(texts('msg:', 10));
    const [first, second] = await drain([con1, con2], 10);
    expect(first).toHaveLength(5);
    expect(second).toHaveLength(5);
    expect([...first, ...second].sort()).toEqual(texts('msg:', 10).sort());
    await expectNothing(con1, 100);
  });

  test('shared non-durable consumers on two connections (two services) each get a share, none twice', async () => {
    const a = await fx.open();
    const b = await fx.open();
    const consumers: [HornetQMessageConsumer, HornetQMessageConsumer] = [
      await a.session.createSharedConsumer(T1(), 'replicas'),
      await b.session.createSharedConsumer(T1(), 'replicas'),
    ];
    await publish(texts('m', 20));
    const [first, second] = await drain(consumers, 20);
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    expect([...first, ...second].sort()).toEqual(texts('m', 20).sort());
    expect(fx.queuesOn('jms.topic.Topic1').map((queue) => queue.name)).toContain('nonDurable.replicas');
  });

  test('a shared subscription gets its own copy of each message, besides a plain subscriber', async () => {
    const { session } = await fx.open();
    const plain = await session.createConsumer(T1());
    const shared = await session.createSharedConsumer(T1(), 'copy');
    await publish(['one', 'two']);
    expect(await receiveTexts(plain, 2)).toEqual(['one', 'two']);
    expect(await receiveTexts(shared, 2)).toEqual(['one', 'two']);
  });
});

describe('queue names as HornetQ 2.4 makes them, seen through the core API', () => {
  test('durable: name, or clientID.name escaped; non-durable: nonDurable.[clientID.]name; bound to the topic with the translated selector', async () => {
    const anonymous = await fx.open();
    await anonymous.session.createSharedDurableConsumer(T1(), 'mySharedCon', 'JMSPriority > 3');
    await anonymous.session.createSharedConsumer(T1(), 'mySharedCon');
    const named = await fx.open({ clientID: 'client.1' });
    await named.session.createSharedDurableConsumer(T1(), 'my.sub\\x');
    await named.session.createSharedConsumer(T2(), 'my.sub\\x');

    const core = anonymous.session.core;
    expect(await core.queueQuery('mySharedCon')).toMatchObject({
      exists: true,
      durable: true,
      address: 'jms.topic.Topic1',
      filter: 'HQPriority > 3',
      consumerCount: 1,
    });
    expect(await core.queueQuery('nonDurable.mySharedCon')).toMatchObject({
      exists: true,
      durable: false,
      address: 'jms.topic.Topic1',
      filter: null,
    });
    expect(await core.queueQuery('client\\.1.my\\.sub\\\\x')).toMatchObject({ exists: true, durable: true });
    expect(await core.queueQuery('nonDurable.client\\.1.my\\.sub\\\\x')).toMatchObject({
      exists: true,
      durable: false,
      address: 'jms.topic.Topic2',
    });
  });

  test('ClientSession.createSharedQueue answers alike for the same queue and refuses another filter with INVALID_TRANSIENT_QUEUE_USE', async () => {
    const { session } = await fx.open();
    const core = session.core;
    await core.createSharedQueue('jms.topic.Topic1', 'core-shared', { durable: true, filter: 'a = 1' });
    await core.createSharedQueue('jms.topic.Topic1', 'core-shared', { durable: true, filter: 'a = 1' });
    const error = await failureOf(
      core.createSharedQueue('jms.topic.Topic1', 'core-shared', { durable: true, filter: 'a = 2' }),
    );
    expect(error).toMatchObject({
      code: 'INVALID_TRANSIENT_QUEUE_USE',
      message: expect.stringContaining('has a different filter than requested'),
    });
    expect(await core.queueQuery('core-shared')).toMatchObject({ exists: true, filter: 'a = 1' });
  });
});

describe('the life of a subscription', () => {
  test('a durable one keeps what is published while it has no consumer; unsubscribe ends it and frees the name for another topic (sharedDurableUnsubscribeNewTopic)', async () => {
    const { session } = await fx.open();
    const con1 = await session.createSharedDurableConsumer(T1(), 'mySharedCon');
    const con2 = await session.createSharedDurableConsumer(T1(), 'mySharedCon');
    await con1.close();
    await con2.close();
    await publish(['kept']);
    const again = await session.createSharedDurableConsumer(T1(), 'mySharedCon');
    expect(await receiveTexts(again, 1)).toEqual(['kept']);

    const refused = await failureOf(session.unsubscribe('mySharedCon'));
    expect(refused).toBeInstanceOf(IllegalStateException);
    expect((await session.core.queueQuery('mySharedCon')).exists).toBe(true);

    await again.close();
    await session.unsubscribe('mySharedCon');
    expect((await session.core.queueQuery('mySharedCon')).exists).toBe(false);
    const onTopic2 = await session.createSharedDurableConsumer(T2(), 'mySharedCon');
    await publish(['t1'], T1());
    await publish(['t2'], T2());
    expect(await receiveTexts(onTopic2, 1)).toEqual(['t2']);
    await expectNothing(onTopic2, 100);
  });

  test('unsubscribe is refused while a consumer of another connection is open', async () => {
    const a = await fx.open({ clientID: 'shared-client' });
    const b = await fx.open();
    await b.session.createSharedDurableConsumer(T1(), 'busy');
    // With a client id, `busy` names another subscription (queue shared-client.busy): none.
    const other = await fx.open();
    expect(await failureOf(other.session.unsubscribe('busy'))).toBeInstanceOf(IllegalStateException);
    expect(await failureOf(a.session.unsubscribe('busy'))).toBeInstanceOf(InvalidDestinationException);
  });

  test('a non-durable one is deleted with its last consumer and keeps nothing meanwhile; its name is then free for another topic (sharedNonDurableUnsubscribeDifferentTopic)', async () => {
    const { session } = await fx.open();
    const con1 = await session.createSharedConsumer(T1(), 'mySharedCon');
    const con2 = await session.createSharedConsumer(T1(), 'mySharedCon');
    await con1.close();
    expect(fx.coreQueue('nonDurable.mySharedCon')).toBeDefined();
    await con2.close();
    await waitFor(() => fx.coreQueue('nonDurable.mySharedCon') === undefined, 'the subscription queue to go');
    await publish(['lost']);
    const onTopic2 = await session.createSharedConsumer(T2(), 'mySharedCon');
    await publish(['t2'], T2());
    expect(await receiveTexts(onTopic2, 1)).toEqual(['t2']);
    await expectNothing(onTopic2, 100);
  });

  test('closing the session leaves no non-durable subscription behind', async () => {
    const { session } = await fx.open();
    await session.createSharedConsumer(T1(), 'with-session');
    await session.createSharedConsumer(T1(), 'with-session');
    await session.close();
    await waitFor(
      () => fx.coreQueue('nonDurable.with-session') === undefined,
      'the subscription queue to go',
    );
  });
});

describe('a mismatched topic or selector is a JMSException (INVALID_TRANSIENT_QUEUE_USE), and the subscription is left as it was', () => {
  const cases: Array<
    [string, (s: HornetQSession) => Promise<unknown>, (s: HornetQSession) => Promise<unknown>]
  > = [
    [
      'non-durable, another selector (sharedNonDurableSubOnDifferentSelector)',
      (s) => s.createSharedConsumer(T1(), 'mySharedCon', "sel = 'sel1'"),
      (s) => s.createSharedConsumer(T1(), 'mySharedCon', "sel = 'sel2'"),
    ],
    [
      'non-durable, a selector where there was none (…SrcFilterNull)',
      (s) => s.createSharedConsumer(T1(), 'mySharedCon'),
      (s) => s.createSharedConsumer(T1(), 'mySharedCon', "sel = 'sel2'"),
    ],
    [
      'non-durable, no selector where there was one (…TargetFilterNull)',
      (s) => s.createSharedConsumer(T1(), 'mySharedCon', "sel = 'sel1'"),
      (s) => s.createSharedConsumer(T1(), 'mySharedCon'),
    ],
    [
      'non-durable, another topic',
      (s) => s.createSharedConsumer(T1(), 'mySharedCon'),
      (s) => s.createSharedConsumer(T2(), 'mySharedCon'),
    ],
    [
      'durable, another topic (sharedDurableSubOnDifferentTopic)',
      (s) => s.createSharedDurableConsumer(T1(), 'mySharedCon'),
      (s) => s.createSharedDurableConsumer(T2(), 'mySharedCon'),
    ],
    [
      'durable, another selector (sharedDurableSubOnDifferentSelector)',
      (s) => s.createSharedDurableConsumer(T1(), 'mySharedCon', "sel = 'sel1'"),
      (s) => s.createSharedDurableConsumer(T1(), 'mySharedCon', "sel = 'sel2'"),
    ],
    [
      'durable, a selector where there was none (…SrcFilterNull)',
      (s) => s.createSharedDurableConsumer(T1(), 'mySharedCon'),
      (s) => s.createSharedDurableConsumer(T1(), 'mySharedCon', "sel = 'sel2'"),
    ],
    [
      'durable, no selector where there was one (…TargetFilterNull)',
      (s) => s.createSharedDurableConsumer(T1(), 'mySharedCon', "sel = 'sel1'"),
      (s) => s.createSharedDurableConsumer(T1(), 'mySharedCon'),
    ],
  ];

  test.each(cases)('%s', async (_title, first, second) => {
    const { session } = await fx.open();
    const existing = (await first(session)) as HornetQMessageConsumer;
    await expectMismatch(second(session));
    await sendTexts(session, T1(), ['still'], (message) => message.setStringProperty('sel', 'sel1'));
    expect(await receiveTexts(existing, 1)).toEqual(['still']);
  });

  test('a durable subscription with no consumer is not replaced either (unlike an unshared one)', async () => {
    const { session } = await fx.open();
    const consumer = await session.createSharedDurableConsumer(T1(), 'idle', "sel = 'a'");
    await consumer.close();
    await expectMismatch(session.createSharedDurableConsumer(T1(), 'idle', "sel = 'b'"));
    expect(await session.core.queueQuery('idle')).toMatchObject({ exists: true, filter: "sel = 'a'" });
  });
});

describe('shared and unshared durable subscriptions of one name are one subscription, as on HornetQ', () => {
  test('createDurableSubscriber (and createDurableConsumer) is refused with IllegalStateException, a JMSException, while shared consumers are open', async () => {
    const { session } = await fx.open({ clientID: 'cid' });
    const shared = await session.createSharedDurableConsumer(T1(), 'both');
    for (const attempt of [
      session.createDurableSubscriber(T1(), 'both'),
      session.createDurableConsumer(T1(), 'both'),
    ]) {
      const error = await failureOf(attempt);
      expect(error).toBeInstanceOf(IllegalStateException);
      expect(error).toBeInstanceOf(JMSException);
    }
    expect(await session.core.queueQuery('cid.both')).toMatchObject({ exists: true, consumerCount: 1 });
    await publish(['to shared']);
    expect(await receiveTexts(shared, 1)).toEqual(['to shared']);
  });

  test('a shared consumer takes over what an unshared subscriber, since closed, left', async () => {
    const { session } = await fx.open({ clientID: 'cid' });
    const unshared = await session.createDurableConsumer(T1(), 'handover');
    await unshared.close();
    await publish(['waiting']);
    const shared = await session.createSharedDurableConsumer(T1(), 'handover');
    expect(await receiveTexts(shared, 1)).toEqual(['waiting']);
  });
});

describe('bad arguments', () => {
  test('an empty or missing subscription name is refused with a JMSException naming it, and nothing is created', async () => {
    const { session } = await fx.open();
    for (const attempt of [
      () => session.createSharedConsumer(T1(), ''),
      () => session.createSharedDurableConsumer(T1(), null as unknown as string),
    ]) {
      const error = await failureOf(attempt);
      expect(error).toBeInstanceOf(JMSException);
      expect((error as Error).message).toMatch(/subscription needs a non-empty name/);
    }
    expect(fx.queuesOn('jms.topic.Topic1').map((queue) => queue.name)).toEqual(['jms.topic.Topic1']);
  });

  test('a topic that does not exist, or a queue, is an InvalidDestinationException', async () => {
    const { session } = await fx.open();
    const missing = await failureOf(session.createSharedConsumer(fx.topic('Nowhere'), 'sub'));
    expect(missing).toBeInstanceOf(InvalidDestinationException);
    expect((missing as Error).message).toMatch(/jms\.topic\.Nowhere does not exist/);
    const queue = fx.queue('Queue1') as unknown as Parameters<HornetQSession['createSharedConsumer']>[0];
    expect(await failureOf(session.createSharedDurableConsumer(queue, 'sub'))).toBeInstanceOf(
      InvalidDestinationException,
    );
  });

  test('a durable subscription on a temporary topic is an InvalidDestinationException; a non-durable shared one works', async () => {
    const { session } = await fx.open();
    const temporary = await session.createTemporaryTopic();
    // Something must be bound there for the topic to exist, as on HornetQ.
    await session.createConsumer(temporary);
    const error = await failureOf(session.createSharedDurableConsumer(temporary, 'on-temp'));
    expect(error).toBeInstanceOf(InvalidDestinationException);
    expect((error as Error).message).toMatch(/temporary topic/);
    const shared = await session.createSharedConsumer(temporary, 'on-temp');
    await sendTexts(session, temporary, ['temp']);
    expect(await receiveTexts(shared, 1)).toEqual(['temp']);
  });

  test('the selector is checked before anything is sent', async () => {
    const { session } = await fx.open();
    const error = await failureOf(session.createSharedConsumer(T1(), 'sub', 'a = = 1'));
    expect(error).toBeInstanceOf(JMSException);
    expect(fx.coreQueue('nonDurable.sub')).toBeUndefined();
  });
});
