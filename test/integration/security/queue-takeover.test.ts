import {
  HornetQConnectionFactory,
  HornetQException,
  HornetQQueue,
  HornetQTopic,
  JMSSecurityException,
  Session,
  type Broker,
  type ClientSession,
} from '../../../src';
import { PacketType } from '../../../src/core/protocol';
import { MANAGEMENT_ADDRESS } from '../../../src/server/security/permission';
import { messagesRouted, queueStates } from '../../support/broker-snapshot';
import { textOf } from '../../support/jms-fixture';
import { RAW_SESSION_CHANNEL, RawClient } from '../../support/raw-client';
import { GUEST, setting, type TestUser } from '../../support/secured-broker';
import { receiveCount, seqOf, sequenced, useTestBrokers } from '../../support/test-broker';

/**
 * Issue 15's takeovers of queues, tried as an attacker would with every permission a client may
 * reasonably hold: a temporary queue belongs to the connection that made it (only it lists,
 * consumes from, browses and deletes it; `manage` on its address is the only way around), and a
 * durable queue is deleted only with deleteDurableQueue, whatever else the user holds.
 *
 * alice asks for work on REQUESTS and takes her replies in a temporary queue (JMS request/reply);
 * bob answers them. mallory may send, consume, create and delete non-durable queues everywhere and
 * may list the queues (manage on the management address), but may not manage jms.tempqueue.#.
 * oscar, an operator, may manage everything.
 */

const REQUESTS = 'jms.queue.requests';
const ORDERS = 'jms.queue.orders';
const NEWS = 'jms.topic.news';

const ALICE: TestUser = { name: 'alice', password: 'alice-pw', roles: ['client'] };
const BOB: TestUser = { name: 'bob', password: 'bob-pw', roles: ['client'] };
const MALLORY: TestUser = { name: 'mallory', password: 'mallory-pw', roles: ['client', 'lister'] };
const OSCAR: TestUser = { name: 'oscar', password: 'oscar-pw', roles: ['client', 'operator'] };

const CLIENT_GRANTS = {
  send: ['client'],
  consume: ['client'],
  createNonDurableQueue: ['client'],
  deleteNonDurableQueue: ['client'],
  createDurableQueue: ['client'],
  manage: ['operator'],
};

const SETTINGS = [
  setting('#', CLIENT_GRANTS),
  // Listing is management: alice and mallory may list, and see what is theirs or not temporary.
  setting(MANAGEMENT_ADDRESS, { manage: ['client', 'lister', 'operator'] }),
];

const env = useTestBrokers();

/** With JMS selectors, which JMS's temporary topics need (their marker filter). */
function startBroker(): Promise<Broker> {
  return env.startBroker(
    { queues: [REQUESTS, ORDERS].map((name) => ({ name, address: name, filter: null, durable: true })) },
    { selectors: true, security: { users: [ALICE, BOB, MALLORY, OSCAR], settings: SETTINGS } },
  );
}

async function coreSession(broker: Broker, user: TestUser | null): Promise<ClientSession> {
  const factory = await env.connect(broker);
  return factory.createSession(user === null ? {} : { username: user.name, password: user.password });
}

async function refusal(attempt: Promise<unknown>): Promise<HornetQException> {
  const error: unknown = await attempt.then(
    () => new Error('the attempt was allowed'),
    (e: unknown) => e,
  );
  expect(HornetQException.is(error, 'SECURITY_EXCEPTION')).toBe(true);
  return error as HornetQException;
}

/**
 * Request/reply over JMS: alice makes a temporary queue for her replies and sends a request on
 * REQUESTS naming it as JMSReplyTo; bob takes the request and answers to its JMSReplyTo, with as
 * many replies as asked.
 */
async function requestReply(broker: Broker) {
  const factory = env.track(new HornetQConnectionFactory({ host: '127.0.0.1', port: broker.getPort() }));
  const connection = await factory.createConnection(ALICE.name, ALICE.password);
  await connection.start();
  const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const replyQueue = await session.createTemporaryQueue();
  const replies = await session.createConsumer(replyQueue);
  const request = session.createTextMessage('what is the time?');
  request.setJMSReplyTo(replyQueue);
  await (await session.createProducer(new HornetQQueue('requests'))).send(request);
  const temporary = broker.listQueues().find((queue) => queue.temporary);
  if (temporary === undefined) throw new Error("alice's temporary queue is not on the broker");

  const bob = await factory.createConnection(BOB.name, BOB.password);
  await bob.start();
  const bobSession = await bob.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const received = await (await bobSession.createConsumer(new HornetQQueue('requests'))).receive(5000);
  const replyTo = received?.getJMSReplyTo() ?? null;
  if (replyTo === null) throw new Error('bob got no request with a JMSReplyTo');
  const producer = await bobSession.createProducer(replyTo);
  const answer = async (texts: string[]): Promise<void> => {
    for (const text of texts) await producer.send(bobSession.createTextMessage(text));
  };
  return { replyQueueName: temporary.name, replyAddress: temporary.address, replies, answer };
}

describe("another connection's temporary queue", () => {
  test('is not in the listing of a user who may list the queues but not manage its address; its owner and an operator see it', async () => {
    const broker = await startBroker();
    const ownerConnection = await env.connect(broker);
    const credentials = { username: ALICE.name, password: ALICE.password };
    const owner = await ownerConnection.createSession(credentials);
    await owner.createQueue('jms.tempqueue.alice', 'jms.tempqueue.alice', {
      durable: false,
      temporary: true,
    });
    const mallory = await coreSession(broker, MALLORY);
    await mallory.createQueue('jms.tempqueue.mallory', 'jms.tempqueue.mallory', {
      durable: false,
      temporary: true,
    });

    const names = async (session: ClientSession): Promise<string[]> =>
      (await session.queueStats()).map((queue) => queue.name).sort();
    const shared = ['jms.queue.orders', 'jms.queue.requests'];
    expect(await names(mallory)).toEqual([...shared, 'jms.tempqueue.mallory']);
    expect(await names(owner)).toEqual([...shared, 'jms.tempqueue.alice']);
    // It belongs to the connection, not to the user: another session on it sees it, alice elsewhere does not.
    expect(await names(await ownerConnection.createSession(credentials))).toEqual([
      ...shared,
      'jms.tempqueue.alice',
    ]);
    expect(await names(await coreSession(broker, ALICE))).toEqual(shared);
    expect(await names(await coreSession(broker, OSCAR))).toEqual([
      ...shared,
      'jms.tempqueue.alice',
      'jms.tempqueue.mallory',
    ]);
  });

  test("is not in another connection's binding or queue queries (a send to its address still goes); its owner and an operator see it", async () => {
    const broker = await startBroker();
    const ownerConnection = await env.connect(broker);
    const owner = await ownerConnection.createSession({ username: ALICE.name, password: ALICE.password });
    await owner.createQueue('jms.tempqueue.alice', 'jms.tempqueue.alice', {
      durable: false,
      temporary: true,
    });
    // A non-durable subscription's queue is temporary too: bound to a shared topic address.
    await owner.createQueue(NEWS, 'alice-subscription', { durable: false, temporary: true });
    await owner.createQueue(NEWS, 'news-durable', { durable: true });
    const mallory = await coreSession(broker, MALLORY);

    expect(await mallory.bindingQuery('jms.tempqueue.alice')).toEqual({ exists: true, queueNames: [] });
    expect(await mallory.bindingQuery(NEWS)).toEqual({ exists: true, queueNames: ['news-durable'] });
    for (const name of ['jms.tempqueue.alice', 'alice-subscription']) {
      expect(await mallory.queueQuery(name)).toMatchObject({
        exists: false,
        address: null,
        messageCount: 0,
        consumerCount: 0,
      });
    }
    // Answered as for a queue that does not exist at all.
    expect(await mallory.queueQuery('jms.tempqueue.alice')).toEqual(
      await mallory.queueQuery('no-such-queue'),
    );
    // Sends to it still go (a reply), and are not shown either.
    await mallory.createProducer('jms.tempqueue.alice').send(sequenced(0, { durable: false }));
    expect(await mallory.queueQuery('jms.tempqueue.alice')).toMatchObject({ exists: false, messageCount: 0 });

    for (const seer of [owner, await coreSession(broker, OSCAR)]) {
      expect((await seer.bindingQuery(NEWS)).queueNames.sort()).toEqual([
        'alice-subscription',
        'news-durable',
      ]);
      expect(await seer.bindingQuery('jms.tempqueue.alice')).toEqual({
        exists: true,
        queueNames: ['jms.tempqueue.alice'],
      });
      expect(await seer.queueQuery('jms.tempqueue.alice')).toMatchObject({
        exists: true,
        temporary: true,
        messageCount: 1,
      });
    }
    // alice on another connection is another connection.
    expect(await (await coreSession(broker, ALICE)).queueQuery('alice-subscription')).toMatchObject({
      exists: false,
    });
  });

  test('cannot be consumed from or browsed by another user with consume on every address; the owner gets every reply once', async () => {
    const broker = await startBroker();
    const alice = await requestReply(broker);
    const mallory = await coreSession(broker, MALLORY);
    const before = queueStates(broker);

    const consuming = await refusal(mallory.createConsumer(alice.replyQueueName));
    expect(consuming.message).toBe(
      `temporary queue ${alice.replyQueueName} belongs to another connection: only the connection that created it may consume from it`,
    );
    await refusal(mallory.createConsumer(alice.replyQueueName, { browseOnly: true }));
    expect(queueStates(broker)).toEqual(before);

    await alice.answer(['noon', 'one o clock']);
    const texts: Array<string | null> = [];
    for (let i = 0; i < 2; i++) texts.push(textOf(await alice.replies.receive(5000)));
    expect(texts).toEqual(['noon', 'one o clock']);
    expect(await alice.replies.receive(100)).toBeNull();
  });

  test('cannot be deleted by another user with deleteNonDurableQueue on every address; the owner still gets its replies', async () => {
    const broker = await startBroker();
    const alice = await requestReply(broker);
    const mallory = await coreSession(broker, MALLORY);
    const before = queueStates(broker);

    const deleting = await refusal(mallory.deleteQueue(alice.replyQueueName));
    expect(deleting.message).toBe(
      `temporary queue ${alice.replyQueueName} belongs to another connection: only the connection that created it may delete it`,
    );
    expect(queueStates(broker)).toEqual(before);

    await alice.answer(['noon']);
    expect(textOf(await alice.replies.receive(5000))).toBe('noon');
  });

  test('cannot be tapped: a queue of another user bound to its address, to read copies of the replies, is refused', async () => {
    const broker = await startBroker();
    const alice = await requestReply(broker);
    const mallory = await coreSession(broker, MALLORY);
    const raw = env.track(await RawClient.connect(broker.getPort()));
    const created = await raw.createSession(RAW_SESSION_CHANNEL, {
      username: MALLORY.name,
      password: MALLORY.password,
    });
    expect(created.type).toBe(PacketType.CREATESESSION_RESP);
    const before = queueStates(broker);
    const routed = messagesRouted(broker);

    for (const options of [{ durable: false }, { durable: false, temporary: true }, { durable: true }]) {
      const error = await refusal(mallory.createQueue(alice.replyAddress, 'tap', options));
      expect(error.message).toBe(
        `temporary queue ${alice.replyQueueName} belongs to another connection: only the connection that created it may bind a queue to its address`,
      );
    }
    const shared = await raw.request(RAW_SESSION_CHANNEL, {
      type: PacketType.CREATE_SHARED_QUEUE,
      address: alice.replyAddress,
      queueName: 'shared-tap',
      filter: null,
      durable: false,
      requiresResponse: true,
    });
    expect(shared).toMatchObject({ type: PacketType.EXCEPTION, code: 'SECURITY_EXCEPTION' });
    expect(queueStates(broker)).toEqual(before);

    await alice.answer(['noon']);
    expect(textOf(await alice.replies.receive(5000))).toBe('noon');
    // The reply went to alice's queue and nowhere else.
    expect(messagesRouted(broker)).toBe(routed + 1);
  });

  test("a temporary topic's subscriptions are its connection's: another user cannot subscribe through the core, its owner can", async () => {
    const broker = await startBroker();
    const factory = env.track(new HornetQConnectionFactory({ host: '127.0.0.1', port: broker.getPort() }));
    const connection = await factory.createConnection(ALICE.name, ALICE.password);
    await connection.start();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const topic = await session.createTemporaryTopic();
    const subscriber = await session.createConsumer(topic);
    const address = `jms.temptopic.${topic.getTopicName()}`;
    const mallory = await coreSession(broker, MALLORY);
    const before = queueStates(broker);
    await refusal(mallory.createQueue(address, 'topic-tap', { durable: false, temporary: true }));
    expect(queueStates(broker)).toEqual(before);

    await (await session.createProducer(topic)).send(session.createTextMessage('news'));
    expect(textOf(await subscriber.receive(5000))).toBe('news');
  });

  test('an anonymous client (the default user) is refused the same', async () => {
    const broker = await startBroker();
    const alice = await requestReply(broker);
    const anonymous = await coreSession(broker, null);
    const before = queueStates(broker);
    await refusal(anonymous.createConsumer(alice.replyQueueName));
    await refusal(anonymous.deleteQueue(alice.replyQueueName));
    await refusal(anonymous.queueStats());
    expect(queueStates(broker)).toEqual(before);
    await alice.answer(['noon']);
    expect(textOf(await alice.replies.receive(5000))).toBe('noon');
  });

  test('an operator, who may manage its address, may bind a queue to it, consume from it and delete it', async () => {
    const broker = await startBroker();
    const owner = await coreSession(broker, ALICE);
    await owner.createQueue('jms.tempqueue.alice', 'jms.tempqueue.alice', {
      durable: false,
      temporary: true,
    });
    await (await coreSession(broker, BOB)).createProducer('jms.tempqueue.alice').send(sequenced(0));
    const oscar = await coreSession(broker, OSCAR);
    await oscar.createQueue('jms.tempqueue.alice', 'oscar.audit', { durable: false });
    const consumer = await oscar.createConsumer('jms.tempqueue.alice');
    oscar.start();
    expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([0]);
    await consumer.close();
    await oscar.deleteQueue('jms.tempqueue.alice');
    expect(broker.listQueues().filter((queue) => queue.temporary)).toEqual([]);
  });
});

describe('a durable queue', () => {
  test('is not deleted by a user without deleteDurableQueue, whatever else it holds; its messages are kept', async () => {
    const broker = await startBroker();
    const admin = await coreSession(broker, BOB);
    const producer = admin.createProducer(ORDERS);
    for (const seq of [0, 1, 2]) await producer.send(sequenced(seq, { durable: true }));
    const before = queueStates(broker);
    const routed = messagesRouted(broker);

    for (const user of [MALLORY, ALICE, null]) {
      const session = await coreSession(broker, user);
      const error = await refusal(session.deleteQueue(ORDERS));
      expect(error.message).toBe(
        `User: ${user?.name ?? GUEST.name} doesn't have permission='deleteDurableQueue' on address ${ORDERS}`,
      );
    }
    expect(queueStates(broker)).toEqual(before);
    expect(messagesRouted(broker)).toBe(routed);
    const consumer = await admin.createConsumer(ORDERS);
    admin.start();
    expect((await receiveCount(consumer, 3)).map(seqOf)).toEqual([0, 1, 2]);
  });

  test("another client's durable subscription is not unsubscribed through JMS without deleteDurableQueue", async () => {
    const broker = await startBroker();
    const factory = env.track(new HornetQConnectionFactory({ host: '127.0.0.1', port: broker.getPort() }));
    const owner = await factory.createConnection(ALICE.name, ALICE.password);
    await owner.setClientID('alice-app');
    const ownerSession = await owner.createSession(false, Session.AUTO_ACKNOWLEDGE);
    await (await ownerSession.createDurableSubscriber(new HornetQTopic('news'), 'headlines')).close();
    await (
      await ownerSession.createProducer(new HornetQTopic('news'))
    ).send(ownerSession.createTextMessage('kept'));
    await owner.close();
    const before = queueStates(broker);

    // mallory claims alice's client id (JMS has no ownership of client ids: permissions decide).
    const thief = await factory.createConnection(MALLORY.name, MALLORY.password);
    await thief.setClientID('alice-app');
    const thiefSession = await thief.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const error: unknown = await thiefSession.unsubscribe('headlines').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(JMSSecurityException);
    expect((error as Error).message).toBe(
      `User: mallory doesn't have permission='deleteDurableQueue' on address ${NEWS}`,
    );
    expect(queueStates(broker)).toEqual(before);
    expect(broker.listQueues()).toContainEqual(
      expect.objectContaining({ name: 'alice-app.headlines', durable: true, messageCount: 1 }),
    );
  });
});
