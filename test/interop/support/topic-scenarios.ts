import {
  HornetQConnectionFactory,
  HornetQQueue,
  HornetQTopic,
  IllegalStateException,
  InvalidDestinationException,
  Session,
  type HornetQMessageConsumer,
  type Topic,
} from '../../../src';
import {
  NOTHING_MORE_MS,
  queueRef,
  RECEIVE_MS,
  textOf,
  topicRef,
  type ScenarioContext,
  type ScenarioGroup,
} from './scenario-context';

/** One topic per scenario, so that no scenario's subscriptions see another's messages. */
const TOPICS = {
  nonDurable: 'nonDurable',
  noLocal: 'noLocal',
  durable: 'durableSelector',
} as const;
/** Where our requester asks HornetQ's Java client to publish to our temporary topic. */
const TEMP_TOPIC_REQUESTS = 'tempTopicRequests';

/** The texts `consumer` gets until none comes within NOTHING_MORE_MS. */
async function drain(consumer: HornetQMessageConsumer): Promise<Array<string | null>> {
  const texts: Array<string | null> = [];
  for (
    let message = await consumer.receive(RECEIVE_MS);
    message !== null;
    message = await consumer.receive(NOTHING_MORE_MS)
  ) {
    texts.push(textOf(message));
  }
  return texts;
}

/** Topics on the real server: non-durable and durable subscriptions, noLocal, temporary topics. */
export const topicScenarios: ScenarioGroup = {
  server: { queues: [TEMP_TOPIC_REQUESTS], topics: Object.values(TOPICS) },
  define(context: ScenarioContext): void {
    /** One Java session publishes for every scenario of the group. */
    let javaPublisher: Promise<string> | null = null;
    const publishFromJava = async (topic: string, body: string, colour?: string): Promise<void> => {
      javaPublisher ??= context.javaSession();
      await context.java().send(await javaPublisher, topicRef(topic), {
        class: 'TextMessage',
        body,
        ...(colour === undefined ? {} : { properties: { colour: ['string', colour] } }),
      });
    };

    test('a non-durable subscription gets what is published while it is open, and nothing from before or after', async () => {
      const session = await context.nodeSession();
      const topic = new HornetQTopic(TOPICS.nonDurable);
      const producer = await session.createProducer(topic);
      await producer.send(session.createTextMessage('before'));
      const subscriber = await session.createConsumer(topic);
      const other = await session.createConsumer(topic);
      await producer.send(session.createTextMessage('while open'));
      await publishFromJava(TOPICS.nonDurable, 'from java');
      expect(await drain(subscriber)).toEqual(['while open', 'from java']);
      expect(await drain(other)).toEqual(['while open', 'from java']);
      await subscriber.close();
      await producer.send(session.createTextMessage('after'));
      const again = await session.createConsumer(topic);
      await producer.send(session.createTextMessage('new'));
      expect(await drain(again)).toEqual(['new']);
      expect(await drain(other)).toEqual(['after', 'new']);
    });

    test("noLocal: our subscriber misses its own connection's messages and gets another connection's and Java's", async () => {
      const topic = new HornetQTopic(TOPICS.noLocal);
      const own = await context.nodeConnection();
      const ownSession = await own.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const noLocal = await ownSession.createConsumer(topic, null, true);
      const ownProducer = await ownSession.createProducer(topic);
      const other = await context.nodeConnection();
      const otherSession = await other.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const everything = await otherSession.createConsumer(topic);
      const otherProducer = await otherSession.createProducer(topic);
      // A second session of the same connection is local too: noLocal is per connection.
      const ownSecondSession = await own.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const ownSecondProducer = await ownSecondSession.createProducer(topic);
      await ownProducer.send(ownSession.createTextMessage('own 1'));
      await otherProducer.send(otherSession.createTextMessage('other'));
      await ownSecondProducer.send(ownSecondSession.createTextMessage('own 2'));
      await publishFromJava(TOPICS.noLocal, 'java');
      expect(await drain(noLocal)).toEqual(['other', 'java']);
      expect(await drain(everything)).toEqual(['own 1', 'other', 'own 2', 'java']);
    });

    test('a durable subscription re-subscribed with a changed selector starts afresh; unsubscribe ends it', async () => {
      const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: context.server().port });
      const connection = context.track(await factory.createConnection());
      await connection.setClientID('node-durable-selector');
      await connection.start();
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const topic = new HornetQTopic(TOPICS.durable);
      const subscribe = (selector: string): Promise<HornetQMessageConsumer> =>
        session.createDurableSubscriber(topic, 'sub', selector);
      const red = "colour = 'red'";
      // Selects all that `red` does and more: kept messages would show, and so would the new filter.
      const redOrBlue = "colour IN ('red', 'blue')";

      await (await subscribe(red)).close();
      await publishFromJava(TOPICS.durable, 'red 1', 'red');
      await publishFromJava(TOPICS.durable, 'blue 1', 'blue');
      // The same selector again: the same subscription, with what it kept while away.
      let subscriber = await subscribe(red);
      expect(await drain(subscriber)).toEqual(['red 1']);
      await subscriber.close();

      await publishFromJava(TOPICS.durable, 'red 2', 'red');
      // Another selector: JMS replaces the subscription, and what the old one kept (red 2) is gone.
      subscriber = await subscribe(redOrBlue);
      await publishFromJava(TOPICS.durable, 'red 3', 'red');
      await publishFromJava(TOPICS.durable, 'blue 3', 'blue');
      expect(await drain(subscriber)).toEqual(['red 3', 'blue 3']);

      await expect(session.unsubscribe('sub')).rejects.toBeInstanceOf(IllegalStateException);
      await subscriber.close();
      await session.unsubscribe('sub');
      await publishFromJava(TOPICS.durable, 'red 4', 'red');
      await expect(session.unsubscribe('sub')).rejects.toBeInstanceOf(InvalidDestinationException);
      // A new subscription by the same name: nothing of what was published while there was none.
      subscriber = await subscribe(redOrBlue);
      expect(await subscriber.receive(NOTHING_MORE_MS)).toBeNull();
      await subscriber.close();
      await session.unsubscribe('sub');
    });

    test("a temporary topic of ours: HornetQ's Java client publishes to it as the JMSReplyTo of a request", async () => {
      const java = context.java();
      const javaSession = await context.javaSession();
      const requests = await java.createConsumer(javaSession, queueRef(TEMP_TOPIC_REQUESTS));
      const session = await context.nodeSession();
      const replies: Topic = await session.createTemporaryTopic();
      const subscriber = await session.createConsumer(replies);
      const producer = await session.createProducer(new HornetQQueue(TEMP_TOPIC_REQUESTS));
      const request = session.createTextMessage('publish to my topic');
      request.setJMSReplyTo(replies);
      await producer.send(request);
      const received = await java.receive(requests, RECEIVE_MS);
      expect(received?.JMSReplyTo).toEqual({
        type: 'tempTopic',
        name: replies.getTopicName(),
        address: `jms.temptopic.${replies.getTopicName()}`,
      });
      if (received === null || received.JMSReplyTo === null)
        throw new Error('the request came without its reply-to');
      await java.send(javaSession, received.JMSReplyTo, { class: 'TextMessage', body: 'published' });
      expect(await drain(subscriber)).toEqual(['published']);
    });
  },
};
