import { randomUUID } from 'node:crypto';
import {
  CoreMessage,
  HornetQConnectionFactory,
  HornetQException,
  HornetQQueue,
  PropertyKind,
  Session,
  selectorFilterFactory,
  type Broker,
} from '../../../src';
import { BufferWriter } from '../../../src/core/protocol';
import { MANAGEMENT_LIMITS } from '../../../src/server/management/management-limits';
import { ManagementRequestor } from '../../support/management-requestor';
import { securedBrokerConfig, setting, type TestUser } from '../../support/secured-broker';
import {
  CapturingLogger,
  receiveCount,
  seqOf,
  sequenced,
  useTestBrokers,
  waitFor,
} from '../../support/test-broker';

/**
 * The management address as HornetQ 2.4 answers it, driven over a real socket by the core client
 * with ManagementHelper's layout (test/support/management-requestor.ts): every resource kind, the
 * operations issue 29 names, HornetQ's texts for what does not exist, and the `manage` permission.
 */

const MANAGEMENT = 'jms.queue.hornetq.management';
const WORK = 'jms.queue.work';
const OTHER = 'jms.queue.other';
const DLQ = 'jms.queue.DLQ';
const NEWS = 'jms.topic.news';

const env = useTestBrokers();

function queue(name: string) {
  return { name, address: name, filter: null, durable: true };
}

const QUEUES = [queue(WORK), queue(OTHER), queue(DLQ), { ...queue(NEWS), filter: '__HQX=-1' }];
const ADDRESS_SETTINGS = { [WORK]: { deadLetterAddress: DLQ } };

async function startBroker(extra: Partial<Parameters<typeof env.startBroker>[0]> = {}): Promise<Broker> {
  return env.startBroker(
    { queues: QUEUES, addressSettings: ADDRESS_SETTINGS, ...extra },
    selectorFilterFactory,
  );
}

/** A durable message with a JMS id, `seq` and a colour. */
function message(seq: number): CoreMessage {
  const built = sequenced(seq, { durable: true });
  built.userId = randomUUID();
  built.properties.set('colour', { kind: PropertyKind.STRING, value: seq % 2 === 0 ? 'red' : 'blue' });
  return built;
}

async function setUp(broker: Broker, user: TestUser | null = null) {
  const factory = await env.connect(broker);
  const session = await factory.createSession(
    user === null ? {} : { username: user.name, password: user.password },
  );
  const requestor = await ManagementRequestor.open(session, broker.managementAddress);
  return { factory, session, requestor };
}

async function sendTo(broker: Broker, address: string, count: number): Promise<CoreMessage[]> {
  const session = await (await env.connect(broker)).createSession();
  const producer = session.createProducer(address);
  const sent = Array.from({ length: count }, (_, seq) => message(seq));
  for (const each of sent) await producer.send(each);
  await session.close();
  return sent;
}

function parsed(result: unknown): Array<Record<string, unknown>> {
  if (typeof result !== 'string') throw new Error(`expected a JSON string, got ${JSON.stringify(result)}`);
  return JSON.parse(result) as Array<Record<string, unknown>>;
}

describe('the management address', () => {
  test('jms.queue: attributes and counting, browsing, removing as JMSQueueControl answers', async () => {
    const broker = await startBroker();
    const sent = await sendTo(broker, WORK, 4);
    const { requestor } = await setUp(broker);

    for (const [attribute, value] of [
      ['MessageCount', 4],
      ['messageCount', 4],
      ['MessagesAdded', 4],
      ['ConsumerCount', 0],
      ['DeliveringCount', 0],
      ['ScheduledCount', 0],
      ['Paused', false],
      ['Address', WORK],
      ['Name', 'work'],
      ['DeadLetterAddress', DLQ],
    ] as const) {
      expect(await requestor.attribute(WORK, attribute)).toEqual({
        succeeded: true,
        results: [value],
        result: value,
      });
    }
    expect((await requestor.invoke(WORK, 'getMessageCount')).result).toBe(4);
    expect((await requestor.invoke(WORK, 'countMessages', "colour = 'red'")).result).toBe(2);
    expect((await requestor.invoke(WORK, 'countMessages', null)).result).toBe(4);

    const listed = parsed((await requestor.invoke(WORK, 'listMessagesAsJSON', "colour = 'blue'")).result);
    expect(listed).toHaveLength(2);
    expect(listed[0]).toEqual({
      JMSPriority: 4,
      JMSTimestamp: 0,
      JMSExpiration: 0,
      JMSDeliveryMode: 'PERSISTENT',
      JMSMessageID: `ID:${sent[1]?.userId}`,
      messageID: expect.any(Number),
      address: WORK,
      seq: 1,
      colour: 'blue',
    });

    expect((await requestor.invoke(WORK, 'removeMessage', `ID:${sent[0]?.userId}`)).result).toBe(true);
    expect(await requestor.invoke(WORK, 'removeMessage', `ID:${sent[0]?.userId}`)).toMatchObject({
      succeeded: false,
      result: `No message found for JMSMessageID: ID:${sent[0]?.userId}`,
    });
    expect((await requestor.invoke(WORK, 'removeMessages', "colour = 'blue'")).result).toBe(2);
    expect((await requestor.attribute(WORK, 'MessageCount')).result).toBe(1);
    expect((await requestor.invoke(WORK, 'removeMessages', '')).result).toBe(1);
  });

  test('jms.queue: move, dead-letter and retry, pause and resume, consumers', async () => {
    const broker = await startBroker();
    const sent = await sendTo(broker, WORK, 4);
    const { session, requestor } = await setUp(broker);

    expect((await requestor.invoke(WORK, 'moveMessages', "colour = 'red'", 'other')).result).toBe(2);
    expect((await requestor.invoke(OTHER, 'countMessages', null)).result).toBe(2);
    expect(
      (await requestor.invoke(WORK, 'moveMessage', `ID:${sent[1]?.userId}`, 'other', false)).result,
    ).toBe(true);
    expect((await requestor.invoke(WORK, 'sendMessagesToDeadLetterAddress', null)).result).toBe(1);
    expect((await requestor.invoke(DLQ, 'countMessages', null)).result).toBe(1);
    expect((await requestor.invoke(DLQ, 'retryMessages')).result).toBe(1);
    expect((await requestor.attribute(WORK, 'MessageCount')).result).toBe(1);

    expect((await requestor.invoke(WORK, 'pause')).succeeded).toBe(true);
    expect((await requestor.invoke(WORK, 'isPaused')).result).toBe(true);
    const consumer = await session.createConsumer(WORK);
    expect(await consumer.receive(300)).toBeNull();
    const consumers = parsed((await requestor.invoke(WORK, 'listConsumersAsJSON')).result);
    expect(consumers).toEqual([
      {
        consumerID: expect.any(Number),
        connectionID: expect.any(String),
        sessionID: expect.any(String),
        browseOnly: false,
        creationTime: expect.any(Number),
      },
    ]);
    expect(await requestor.invoke(WORK, 'resume')).toEqual({ succeeded: true, results: null, result: null });
    const [received] = await receiveCount(consumer, 1);
    expect(received === undefined ? null : seqOf(received)).toBe(3);
  });

  test('core.queue: messages by broker id, core names', async () => {
    const broker = await startBroker();
    await sendTo(broker, WORK, 3);
    const { requestor } = await setUp(broker);
    const resource = `core.queue.${WORK}`;

    const listed = parsed((await requestor.invoke(resource, 'listMessagesAsJSON', null)).result);
    expect(listed[0]).toMatchObject({ type: 0, durable: true, priority: 4, address: WORK, seq: 0 });
    expect(typeof listed[0]?.messageID).toBe('number');
    expect(listed[0]?.userID).toMatch(/^ID:/);
    const first = listed[0]?.messageID as number;
    expect((await requestor.invoke(resource, 'removeMessage', first)).result).toBe(true);
    expect((await requestor.invoke(resource, 'removeMessage', first)).result).toBe(false);
    expect((await requestor.invoke(resource, 'moveMessages', null, OTHER)).result).toBe(2);
    expect((await requestor.attribute(`core.queue.${OTHER}`, 'MessageCount')).result).toBe(2);
    expect((await requestor.attribute(resource, 'Filter')).result).toBeNull();
  });

  test('jms.server and core.server: queues, connections, remote addresses', async () => {
    const broker = await startBroker();
    const { requestor } = await setUp(broker);

    expect((await requestor.invoke('jms.server', 'createQueue', 'made')).result).toBe(true);
    expect((await requestor.invoke('jms.server', 'createQueue', 'made')).result).toBe(false);
    expect((await requestor.attribute('jms.server', 'QueueNames')).result).toEqual(
      expect.arrayContaining(['work', 'other', 'DLQ', 'made']),
    );
    expect((await requestor.invoke('jms.server', 'getQueueNames')).result).toContain('made');
    expect((await requestor.invoke('jms.server', 'destroyQueue', 'made')).result).toBe(true);
    expect(
      (await requestor.invoke('core.server', 'createQueue', 'a.b', 'a.q', "colour = 'red'", false)).results,
    ).toBeNull();
    expect((await requestor.attribute('core.server', 'QueueNames')).result).toContain('a.q');
    expect((await requestor.attribute('core.queue.a.q', 'Filter')).result).toBe("colour = 'red'");
    expect((await requestor.invoke('core.server', 'destroyQueue', 'a.q')).succeeded).toBe(true);
    expect((await requestor.attribute('core.server', 'QueueNames')).result).not.toContain('a.q');

    const connections = parsed((await requestor.invoke('jms.server', 'listConnectionsAsJSON')).result);
    expect(connections).toEqual([
      {
        connectionID: expect.any(String),
        clientAddress: expect.stringMatching(/127\.0\.0\.1/),
        creationTime: expect.any(Number),
      },
    ]);
    const addresses = (await requestor.invoke('jms.server', 'listRemoteAddresses', '127.0.0.1')).result;
    expect(addresses).toEqual([connections[0]?.clientAddress]);
    const all = parsed((await requestor.invoke('jms.server', 'listAllConsumersAsJSON')).result);
    expect(all).toEqual([
      expect.objectContaining({ destinationType: 'tempqueue', durable: false, browseOnly: false }),
    ]);

    // Another client's connection, closed by address: the requestor's own goes too (same host).
    const other = await env.connect(broker);
    const closed = new Promise<unknown>((resolve) => other.addFailureListener(resolve));
    // Its own connection closes before its reply can arrive: the reply is lost with it.
    const answer = requestor
      .invoke('jms.server', 'closeConnectionsForAddress', '127.0.0.1')
      .catch((e: unknown) => e);
    await closed;
    expect(HornetQException.is(await answer)).toBe(true);
    await waitFor(() => broker.getConnectionCount() === 0, 'every connection from 127.0.0.1 to close');
  });

  test('jms.topic: subscriptions listed in HornetQ layout and dropped', async () => {
    const broker = await startBroker();
    const { session, requestor } = await setUp(broker);
    await session.createQueue(NEWS, 'app.daily', { durable: true });
    await session.createQueue(NEWS, 'app.weekly', { durable: true, filter: "colour = 'red'" });
    await (
      await env.connect(broker)
    )
      .createSession()
      .then(async (s) => s.createProducer(NEWS).send(message(0)));

    const subscriptions = parsed((await requestor.invoke(NEWS, 'listAllSubscriptionsAsJSON')).result);
    expect(subscriptions).toEqual(
      expect.arrayContaining([
        {
          queueName: 'app.daily',
          clientID: 'app',
          name: 'daily',
          durable: true,
          messageCount: 1,
          deliveringCount: 0,
          consumers: [],
        },
        expect.objectContaining({ queueName: 'app.weekly', selector: "colour = 'red'" }),
      ]),
    );
    expect((await requestor.attribute(NEWS, 'SubscriptionCount')).result).toBe(2);
    expect((await requestor.invoke(NEWS, 'dropDurableSubscription', 'app', 'daily')).succeeded).toBe(true);
    expect(parsed((await requestor.invoke(NEWS, 'listDurableSubscriptionsAsJSON')).result)).toHaveLength(1);
  });

  test('what does not exist is a failure reply with HornetQ text; the session carries on', async () => {
    const broker = await startBroker();
    const { requestor } = await setUp(broker);

    expect(await requestor.invoke('jms.queue.nothing', 'countMessages', null)).toEqual({
      succeeded: false,
      results: ['HQ119067: Cannot find resource with name jms.queue.nothing'],
      result: 'HQ119067: Cannot find resource with name jms.queue.nothing',
    });
    expect((await requestor.invoke(WORK, 'explode', 1, 2)).result).toBe('HQ119069: no operation explode/2');
    expect((await requestor.invoke(WORK, 'countMessages', 42)).result).toBe(
      'HQ119069: no operation countMessages/1',
    );
    expect(await requestor.attribute(WORK, 'Colour')).toMatchObject({
      succeeded: false,
      result: 'Problem while retrieving attribute Colour',
    });
    expect((await requestor.invoke(WORK, 'countMessages', 'colour = ')).succeeded).toBe(false);

    const garbled = new CoreMessage();
    garbled.properties.set('_HQ_ResourceName', { kind: PropertyKind.STRING, value: WORK });
    garbled.properties.set('_HQ_OperationName', { kind: PropertyKind.STRING, value: 'countMessages' });
    const writer = new BufferWriter();
    writer.writeNullableSimpleString('{not json');
    garbled.body = writer.toBuffer();
    expect((await requestor.ask(garbled)).succeeded).toBe(false);

    expect((await requestor.attribute(WORK, 'MessageCount')).result).toBe(0);
  });

  test('a listMessages answer is bounded however long the queue', async () => {
    const broker = await startBroker();
    const { session, requestor } = await setUp(broker);
    const producer = session.createProducer(WORK);
    for (let seq = 0; seq < 1_200; seq++) producer.send(sequenced(seq));
    await session.createProducer(WORK).send(sequenced(-1, { durable: true }));
    expect((await requestor.attribute(WORK, 'MessageCount')).result).toBe(1_201);
    expect(parsed((await requestor.invoke(WORK, 'listMessagesAsJSON', null)).result)).toHaveLength(1_000);
  });

  test('a list answer stays within the reply budget however large the messages', async () => {
    const broker = await startBroker();
    const { session, requestor } = await setUp(broker);
    const producer = session.createProducer(WORK);
    const bulky = 'x'.repeat(100_000);
    for (let seq = 0; seq < 30; seq++) {
      const each = sequenced(seq, { durable: true });
      each.properties.set('bulk', { kind: PropertyKind.STRING, value: bulky });
      await producer.send(each);
    }
    const answer = await requestor.invoke(`core.queue.${WORK}`, 'listMessagesAsJSON', null);
    const listed = parsed(answer.result);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length).toBeLessThan(30);
    expect((answer.result as string).length).toBeLessThanOrEqual(MANAGEMENT_LIMITS.maxReplyChars);
    expect(listed.map((m) => m.seq)).toEqual(listed.map((_, i) => i));
  });

  test('our JMS client drives it: a TextMessage with the parameters, the reply on a temporary queue', async () => {
    const logger = new CapturingLogger();
    const broker = await startBroker({ logger });
    const factory = env.track(new HornetQConnectionFactory({ host: '127.0.0.1', port: broker.getPort() }));
    const connection = await factory.createConnection();
    await connection.start();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const replies = await session.createTemporaryQueue();
    const consumer = await session.createConsumer(replies);
    const request = session.createTextMessage('[]');
    request.setStringProperty('_HQ_ResourceName', WORK);
    request.setStringProperty('_HQ_OperationName', 'pause');
    request.setJMSReplyTo(replies);
    await (await session.createProducer(new HornetQQueue('hornetq.management'))).send(request);
    const reply = await consumer.receive(10_000);
    expect(reply?.getBooleanProperty('_HQ_OperationSucceeded')).toBe(true);
    expect(await broker.management.isPaused(WORK)).toBe(true);
    expect(
      logger.find(/management: anonymous \(management address\) paused queue jms\.queue\.work/),
    ).toHaveLength(1);
  });

  test('a configured <management-address> is where requests go', async () => {
    const broker = await startBroker({ managementAddress: 'admin.requests' });
    const { requestor } = await setUp(broker);
    expect((await requestor.attribute(WORK, 'MessageCount')).result).toBe(0);
  });
});

describe('the manage permission', () => {
  const OPERATOR: TestUser = { name: 'oscar', password: 'oscar-pw', roles: ['operator'] };
  const CLIENT: TestUser = { name: 'carl', password: 'carl-pw', roles: ['client'] };
  const grants = {
    send: ['client', 'operator'],
    consume: ['client', 'operator'],
    createNonDurableQueue: ['client', 'operator'],
  };

  test('a user without it is refused with HornetQ error, and the broker is unchanged', async () => {
    const broker = await startBroker(
      securedBrokerConfig(
        [OPERATOR, CLIENT],
        [setting('#', grants), setting(MANAGEMENT, { manage: ['operator'] })],
      ),
    );
    const admin = await env.connect(broker);
    const adminSession = await admin.createSession({ username: 'admin', password: 'admin-pw' });
    await adminSession.createProducer(WORK).send(message(0));

    const { requestor } = await setUp(broker, CLIENT);
    const refused = await requestor.invoke(WORK, 'removeMessages', null).catch((error: unknown) => error);
    expect(HornetQException.is(refused, 'SECURITY_EXCEPTION')).toBe(true);
    expect((refused as Error).message).toBe(
      `User: carl doesn't have permission='manage' on address ${MANAGEMENT}`,
    );
    expect((await broker.management.getQueue(WORK)).messageCount).toBe(1);

    const { requestor: operator } = await setUp(broker, OPERATOR);
    expect((await operator.invoke(WORK, 'removeMessages', null)).result).toBe(1);
  });
});
