import {
  HornetQConnectionFactory,
  JMSSecurityException,
  Session,
  HornetQTopic,
  type HornetQConnection,
} from '../../../src';
import { setting, type TestUser } from '../../support/secured-broker';
import { useTestBrokers } from '../../support/test-broker';

/**
 * A JMS subscription is a queue and a consumer: the client makes the queue first, then the
 * consumer. A user who may make the queue but not consume from the topic is refused at the
 * consumer, and the queue it just made goes again, so that nothing collects the topic's messages
 * for a subscriber that was never there.
 */
const TOPIC = 'jms.topic.prices';
const SUBSCRIBER: TestUser = { name: 'sam', password: 'sam-pw', roles: ['subscriber'] };
const QUEUE_MAKER = {
  createDurableQueue: ['subscriber'],
  deleteDurableQueue: ['subscriber'],
  createNonDurableQueue: ['subscriber'],
  deleteNonDurableQueue: ['subscriber'],
} as const;

describe('a subscription refused for want of consume', () => {
  const env = useTestBrokers();

  async function connect({ deployedTopic = false } = {}): Promise<{
    connection: HornetQConnection;
    subscriptionQueues: () => string[];
  }> {
    const broker = await env.startBroker(
      {
        // Our JMS client needs no binding on a topic (but for a shared subscription, as HornetQ's);
        // the broker here has no filters to give the binding queue a marker one.
        queues: deployedTopic ? [{ name: TOPIC, address: TOPIC, filter: null, durable: false }] : [],
      },
      { security: { users: [SUBSCRIBER], settings: [setting('jms.topic.#', QUEUE_MAKER)] } },
    );
    const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: broker.getPort() });
    env.track(factory);
    const connection = await factory.createConnection(SUBSCRIBER.name, SUBSCRIBER.password);
    connection.setClientID('client-1');
    env.track(connection);
    const subscriptionQueues = (): string[] =>
      broker
        .listQueues()
        .filter((queue) => queue.address === TOPIC && queue.name !== TOPIC)
        .map((queue) => queue.name);
    return { connection, subscriptionQueues };
  }

  const topic = (): HornetQTopic => new HornetQTopic('prices');

  test('createDurableSubscriber: JMSSecurityException, and no durable subscription is left', async () => {
    const { connection, subscriptionQueues } = await connect();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    await expect(session.createDurableSubscriber(topic(), 'audit')).rejects.toThrow(JMSSecurityException);
    expect(subscriptionQueues()).toEqual([]);
  });

  test('createConsumer on the topic: JMSSecurityException, and its subscription queue is gone at once', async () => {
    const { connection, subscriptionQueues } = await connect();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    await expect(session.createConsumer(topic())).rejects.toThrow(JMSSecurityException);
    expect(subscriptionQueues()).toEqual([]);
  });

  test('createSharedConsumer: JMSSecurityException, and the transient queue it made goes (it would never have a consumer to go with)', async () => {
    const { connection, subscriptionQueues } = await connect({ deployedTopic: true });
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    await expect(session.createSharedConsumer(topic(), 'audit')).rejects.toThrow(JMSSecurityException);
    expect(subscriptionQueues()).toEqual([]);
  });

  test('createSharedDurableConsumer: JMSSecurityException, and the durable subscription stays (it may hold what other consumers left)', async () => {
    const { connection, subscriptionQueues } = await connect({ deployedTopic: true });
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    await expect(session.createSharedDurableConsumer(topic(), 'audit')).rejects.toThrow(JMSSecurityException);
    expect(subscriptionQueues()).toEqual(['client-1.audit']);
  });
});
