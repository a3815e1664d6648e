import {
  HornetQQueue,
  HornetQTemporaryQueue,
  HornetQTemporaryTopic,
  HornetQTopic,
  IllegalStateException,
  InvalidDestinationException,
  JMSException,
  Session,
  type Message,
} from '../../../src';
import {
  failureOf,
  receiveTexts,
  sendTexts,
  textOf,
  useJmsFixture,
  waitFor,
} from '../../support/jms-fixture';

/**
 * jms-conformance.md §4 H (destinations H1–H3) and E8 (consumers on another connection's
 * temporary destination), with HornetQ's TemporaryDestinationTest and QueueTest/TopicTest name
 * cases (§2.1). Temporary destinations are owned by their connection on the broker too.
 */

const fx = useJmsFixture();

describe('H1 names and core addresses', () => {
  test('getQueueName / getTopicName give the short JMS name; the core address has the HornetQ prefix (testQueueName)', async () => {
    const { session } = await fx.open();
    const queue = session.createQueue('Queue1');
    const topic = session.createTopic('Topic1');
    expect(queue.getQueueName()).toBe('Queue1');
    expect(topic.getTopicName()).toBe('Topic1');
    expect((queue as HornetQQueue).address).toBe('jms.queue.Queue1');
    expect((topic as HornetQTopic).address).toBe('jms.topic.Topic1');
    await session.createConsumer(topic);
    expect(fx.queuesOn('jms.topic.Topic1')).toHaveLength(1);
  });

  test('temporary queues live at jms.tempqueue.<name>, temporary topics at jms.temptopic.<name>', async () => {
    const { session } = await fx.open();
    const tempQueue = await session.createTemporaryQueue();
    const tempTopic = await session.createTemporaryTopic();
    const queueAddress = `jms.tempqueue.${tempQueue.getQueueName()}`;
    expect((tempQueue as HornetQTemporaryQueue).address).toBe(queueAddress);
    expect((tempTopic as HornetQTemporaryTopic).address).toBe(`jms.temptopic.${tempTopic.getTopicName()}`);
    const onBroker = fx.coreQueue(queueAddress);
    expect(onBroker).toMatchObject({ address: queueAddress, temporary: true, durable: false });
  });

  test('two temporary queues have different names', async () => {
    const { session } = await fx.open();
    const a = await session.createTemporaryQueue();
    const b = await session.createTemporaryQueue();
    expect(a.getQueueName()).not.toBe(b.getQueueName());
  });
});

describe('H2 temporary destinations', () => {
  test('a temporary queue round-trips (testTemporaryQueueBasic)', async () => {
    const { session } = await fx.open();
    const temp = await session.createTemporaryQueue();
    await sendTexts(session, temp, ['temp q']);
    expect(await receiveTexts(await session.createConsumer(temp), 1)).toEqual(['temp q']);
  });

  test('a temporary topic round-trips; the message is sent while the receive waits (testTemporaryTopicBasic)', async () => {
    const { session } = await fx.open();
    const temp = await session.createTemporaryTopic();
    const subscriber = await session.createConsumer(temp);
    const pending = subscriber.receive(5000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await sendTexts(session, temp, ['temp t']);
    expect(textOf(await pending)).toBe('temp t');
  });

  test('a temporary queue belongs to its connection, not its session: it outlives the session', async () => {
    const { connection, session } = await fx.open();
    const creator = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const temp = await creator.createTemporaryQueue();
    await creator.close();
    await sendTexts(session, temp, ['still here']);
    expect(await receiveTexts(await session.createConsumer(temp), 1)).toEqual(['still here']);
  });

  test('a temporary queue goes away with its connection, messages included', async () => {
    const { connection, session } = await fx.open();
    const temp = await session.createTemporaryQueue();
    const address = `jms.tempqueue.${temp.getQueueName()}`;
    await sendTexts(session, temp, ['lost']);
    expect(fx.coreQueue(address)?.messageCount).toBe(1);
    await connection.close();
    await waitFor(() => fx.coreQueue(address) === undefined, 'the temporary queue to be deleted');
  });

  test('anyone may send to a temporary queue, e.g. a reply through JMSReplyTo', async () => {
    const requester = await fx.open();
    const responder = await fx.open();
    const replies = await requester.session.createTemporaryQueue();
    const request = requester.session.createTextMessage('ping');
    request.setJMSReplyTo(replies);
    await (await requester.session.createProducer(fx.queue('Queue1'))).send(request);

    const got = await (await responder.session.createConsumer(fx.queue('Queue1'))).receive(5000);
    const replyTo = got?.getJMSReplyTo();
    expect(replyTo).toBeInstanceOf(HornetQTemporaryQueue);
    const answer = responder.session.createTextMessage('pong');
    answer.setJMSCorrelationID(got?.getJMSMessageID() ?? null);
    await (await responder.session.createProducer(null)).send(replyTo as HornetQTemporaryQueue, answer);

    const reply = await (await requester.session.createConsumer(replies)).receive(5000);
    expect(textOf(reply)).toBe('pong');
    expect(reply?.getJMSCorrelationID()).toBe(request.getJMSMessageID());
  });

  test('delete() with an active consumer throws; after the consumer closes it succeeds (testTemporaryQueueDeleteWithConsumer)', async () => {
    const { session } = await fx.open();
    const temp = await session.createTemporaryQueue();
    const consumer = await session.createConsumer(temp);
    const error = await failureOf(temp.delete());
    expect(error).toBeInstanceOf(JMSException);
    expect(error).toBeInstanceOf(IllegalStateException);
    await consumer.close();
    await temp.delete();
    expect(fx.coreQueue(`jms.tempqueue.${temp.getQueueName()}`)).toBeUndefined();
  });

  test('a temporary topic: delete() with a subscriber throws; after it closes delete succeeds (testTemp, testTemporaryTopicDeleteWithConsumer)', async () => {
    const { session } = await fx.open();
    const temp = await session.createTemporaryTopic();
    const subscriber = await session.createConsumer(temp);
    await sendTexts(session, temp, ['t']);
    expect(await receiveTexts(subscriber, 1)).toEqual(['t']);
    expect(await failureOf(temp.delete())).toBeInstanceOf(JMSException);
    await subscriber.close();
    await temp.delete();
  });

  test('sending to a deleted temporary queue fails with InvalidDestinationException', async () => {
    const { session } = await fx.open();
    const temp = await session.createTemporaryQueue();
    await temp.delete();
    const producer = await session.createProducer(null);
    expect(await failureOf(producer.send(temp, session.createTextMessage('x')))).toBeInstanceOf(
      InvalidDestinationException,
    );
    expect(await failureOf(session.createConsumer(temp))).toBeInstanceOf(JMSException);
  });

  test('sending to a deleted temporary topic fails with InvalidDestinationException', async () => {
    const { session } = await fx.open();
    const temp = await session.createTemporaryTopic();
    await temp.delete();
    expect(await failureOf(session.createProducer(temp))).toBeInstanceOf(InvalidDestinationException);
  });

  test('after delete and close, a new connection cannot send to the temporary queue (testTemporaryQueueDeleted)', async () => {
    const first = await fx.open();
    const temp = await first.session.createTemporaryQueue();
    await temp.delete();
    await first.connection.close();
    const second = await fx.open();
    const producer = await second.session.createProducer(null);
    expect(await failureOf(producer.send(temp, second.session.createTextMessage('x')))).toBeInstanceOf(
      JMSException,
    );
  });

  test('a durable subscription on a temporary topic throws InvalidDestinationException (testDurableSubscriptionOnTemporaryTopic)', async () => {
    const { session } = await fx.open({ clientID: 'temp-durable' });
    const temp = await session.createTemporaryTopic();
    expect(await failureOf(session.createDurableSubscriber(temp, 'sub'))).toBeInstanceOf(
      InvalidDestinationException,
    );
  });

  test('createTemporaryQueue/Topic on a closed session throws IllegalStateException', async () => {
    const { session } = await fx.open();
    await session.close();
    expect(await failureOf(() => session.createTemporaryQueue())).toBeInstanceOf(IllegalStateException);
    expect(await failureOf(() => session.createTemporaryTopic())).toBeInstanceOf(IllegalStateException);
  });

  test('a temporary queue received as JMSReplyTo cannot be deleted by the receiver', async () => {
    const requester = await fx.open();
    const temp = await requester.session.createTemporaryQueue();
    const message = requester.session.createTextMessage('r');
    message.setJMSReplyTo(temp);
    await (await requester.session.createProducer(fx.queue('Queue1'))).send(message);
    const other = await fx.open();
    const got = await (await other.session.createConsumer(fx.queue('Queue1'))).receive(5000);
    const replyTo = got?.getJMSReplyTo() as HornetQTemporaryQueue;
    expect(await failureOf(replyTo.delete())).toBeInstanceOf(JMSException);
    expect(fx.coreQueue(`jms.tempqueue.${temp.getQueueName()}`)).toBeDefined();
  });
});

describe('E8 consumers on another connection’s temporary destination', () => {
  test('a temporary queue: JMSException (testCanNotCreateConsumerFromAnotherConnectionForTemporaryQueue)', async () => {
    const owner = await fx.open();
    const other = await fx.open();
    const temp = await owner.session.createTemporaryQueue();
    expect(await failureOf(other.session.createConsumer(temp))).toBeInstanceOf(JMSException);
    expect(fx.coreQueue(`jms.tempqueue.${temp.getQueueName()}`)?.consumerCount).toBe(0);
  });

  test('a temporary topic: JMSException (testCanNotCreateConsumerFromAnotherConnectionForTemporaryTopic)', async () => {
    const owner = await fx.open();
    const other = await fx.open();
    const temp = await owner.session.createTemporaryTopic();
    expect(await failureOf(other.session.createConsumer(temp))).toBeInstanceOf(JMSException);
  });

  test('another session of the owning connection may consume', async () => {
    const { connection, session } = await fx.open();
    const temp = await session.createTemporaryQueue();
    const sibling = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    await sendTexts(session, temp, ['sibling']);
    expect(await receiveTexts(await sibling.createConsumer(temp), 1)).toEqual(['sibling']);
  });
});

describe('H3 destination equality', () => {
  test('the received JMSDestination equals the producer’s queue; two handles by name are equal', async () => {
    const { session } = await fx.open();
    const queue = session.createQueue('Queue1');
    await sendTexts(session, queue, ['eq']);
    const received = (await (await session.createConsumer(queue)).receive(5000)) as Message;
    const destination = received.getJMSDestination() as HornetQQueue;
    expect(destination).toBeInstanceOf(HornetQQueue);
    expect(destination.equals(queue)).toBe(true);
    expect(destination.getQueueName()).toBe('Queue1');
    expect(new HornetQQueue('Queue1').equals(session.createQueue('Queue1'))).toBe(true);
    expect(new HornetQQueue('Queue1').equals(new HornetQTopic('Queue1'))).toBe(false);
  });

  test('a topic message carries its topic as JMSDestination', async () => {
    const { session } = await fx.open();
    const subscriber = await session.createConsumer(fx.topic('Topic1'));
    await sendTexts(session, fx.topic('Topic1'), ['t']);
    const received = await subscriber.receive(5000);
    const destination = received?.getJMSDestination() as HornetQTopic;
    expect(destination).toBeInstanceOf(HornetQTopic);
    expect(destination.equals(fx.topic('Topic1'))).toBe(true);
  });
});
