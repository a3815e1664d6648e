import {
  HornetQConnectionFactory,
  HornetQMessage,
  HornetQQueue,
  HornetQTopic,
  IllegalStateException,
  JMSException,
  Session,
  type HornetQConnection,
  type HornetQMessageConsumer,
  type HornetQSession,
  type Message,
} from '../../src';
import { InteropServer, SERVER_VERSIONS, type ServerKind } from './support/interop-server';
import { JmsDriver } from './support/jms-driver';
import { NOTHING_MORE_MS, RECEIVE_MS, textOf, topicRef } from './support/scenario-context';

/**
 * Issue 27 items 1 and 2 on real servers: our client's JMS 2.0 shared subscriptions (split
 * between two connections, as two replicas of a service would, kept or dropped as their kind
 * says, refused on a mismatch, unsubscribed) and delivery delay (honoured by the server), against
 * HornetQ 2.4.7, Artemis 2.40.0 and our broker; and one subscription shared by HornetQ 2.4.7's
 * Java client and ours, which needs the same queue name on both sides.
 */

const TOPICS = {
  durable: 'sharedDurable',
  nonDurable: 'sharedNonDurable',
  mismatchA: 'sharedMismatchA',
  mismatchB: 'sharedMismatchB',
  delayed: 'delayedTopic',
  withJava: 'sharedWithJava',
} as const;
const DELAY_QUEUE = 'delayQueue';
const DELAY_MS = 1000;
/** Java and Node read the same system clock, each rounding to a millisecond of its own. */
const CLOCK_SLACK_MS = 10;

/** Receives from both until `total` messages came between them or none came for a while. */
async function drainBoth(
  consumers: [HornetQMessageConsumer, HornetQMessageConsumer],
  total: number,
): Promise<[string[], string[]]> {
  const received: [string[], string[]] = [[], []];
  let quietSince = Date.now();
  while (received[0].length + received[1].length < total && Date.now() - quietSince < RECEIVE_MS) {
    for (const index of [0, 1] as const) {
      const message = await consumers[index].receive(50);
      if (message === null) continue;
      received[index].push(textOf(message) ?? '<null>');
      quietSince = Date.now();
    }
  }
  return received;
}

/** The texts `consumer` gets until none comes within NOTHING_MORE_MS. */
async function drain(consumer: HornetQMessageConsumer): Promise<string[]> {
  const texts: string[] = [];
  for (
    let message = await consumer.receive(RECEIVE_MS);
    message !== null;
    message = await consumer.receive(NOTHING_MORE_MS)
  ) {
    texts.push(textOf(message) ?? '<null>');
  }
  return texts;
}

function numbered(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
}

function ours(message: Message | null): HornetQMessage {
  if (!(message instanceof HornetQMessage)) throw new Error('expected a message');
  return message;
}

describe.each<ServerKind>(['hornetq', 'artemis', 'ours'])(
  'JMS 2.0 shared subscriptions and delivery delay of our client against %s',
  (kind) => {
    let server: InteropServer | null = null;
    let java: JmsDriver | null = null;
    const connections: HornetQConnection[] = [];

    beforeAll(async () => {
      server = await InteropServer.start(kind, { queues: [DELAY_QUEUE], topics: Object.values(TOPICS) });
      java = await JmsDriver.start();
    });

    afterAll(async () => {
      await Promise.allSettled(connections.map((connection) => connection.close()));
      await java?.close();
      await server?.stop();
    });

    /** A session on a connection of its own: one replica of a service. */
    async function replica(): Promise<HornetQSession> {
      if (server === null) throw new Error(`${SERVER_VERSIONS[kind]} did not start`);
      const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: server.port });
      const connection = await factory.createConnection();
      connections.push(connection);
      await connection.start();
      return connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    }

    async function publish(topic: string, texts: readonly string[]): Promise<void> {
      const session = await replica();
      const producer = await session.createProducer(new HornetQTopic(topic));
      for (const text of texts) await producer.send(session.createTextMessage(text));
      await session.close();
    }

    /** The server deletes a transient queue once its last consumer's close is done: poll for it. */
    async function waitUntilGone(session: HornetQSession, queueName: string): Promise<void> {
      const deadline = Date.now() + RECEIVE_MS;
      while (await queueExists(session, queueName)) {
        if (Date.now() > deadline) throw new Error(`queue ${queueName} still exists after ${RECEIVE_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    async function queueExists(session: HornetQSession, queueName: string): Promise<boolean> {
      return (await session.core.queueQuery(queueName)).exists;
    }

    test('a shared durable subscription split between two connections: each gets a share, none lost or twice; it keeps what comes while nobody reads; unsubscribe is refused while it has a consumer, then deletes it', async () => {
      const topic = new HornetQTopic(TOPICS.durable);
      const [a, b] = [await replica(), await replica()];
      const consumers: [HornetQMessageConsumer, HornetQMessageConsumer] = [
        await a.createSharedDurableConsumer(topic, 'orders'),
        await b.createSharedDurableConsumer(topic, 'orders'),
      ];
      const sent = numbered('d', 40);
      await publish(TOPICS.durable, sent);
      const [first, second] = await drainBoth(consumers, sent.length);
      expect(first.length).toBeGreaterThan(0);
      expect(second.length).toBeGreaterThan(0);
      expect([...first, ...second].sort()).toEqual([...sent].sort());

      await consumers[0].close();
      await consumers[1].close();
      await publish(TOPICS.durable, ['kept']);
      const again = await a.createSharedDurableConsumer(topic, 'orders');
      expect(await drain(again)).toEqual(['kept']);

      expect(await queueExists(a, 'orders')).toBe(true);
      expect(await b.unsubscribe('orders').catch((error: unknown) => error)).toBeInstanceOf(
        IllegalStateException,
      );
      await again.close();
      await b.unsubscribe('orders');
      expect(await queueExists(a, 'orders')).toBe(false);
    });

    test('a shared non-durable subscription split between two connections ends with its last consumer and keeps nothing meanwhile', async () => {
      const topic = new HornetQTopic(TOPICS.nonDurable);
      const [a, b] = [await replica(), await replica()];
      const consumers: [HornetQMessageConsumer, HornetQMessageConsumer] = [
        await a.createSharedConsumer(topic, 'events'),
        await b.createSharedConsumer(topic, 'events'),
      ];
      expect(await queueExists(a, 'nonDurable.events')).toBe(true);
      const sent = numbered('n', 40);
      await publish(TOPICS.nonDurable, sent);
      const [first, second] = await drainBoth(consumers, sent.length);
      expect(first.length).toBeGreaterThan(0);
      expect(second.length).toBeGreaterThan(0);
      expect([...first, ...second].sort()).toEqual([...sent].sort());

      await consumers[0].close();
      expect(await queueExists(a, 'nonDurable.events')).toBe(true);
      await consumers[1].close();
      const queries = await replica();
      await waitUntilGone(queries, 'nonDurable.events');
      await publish(TOPICS.nonDurable, ['nobody reads this']);
      const later = await a.createSharedConsumer(topic, 'events');
      await publish(TOPICS.nonDurable, ['fresh']);
      expect(await drain(later)).toEqual(['fresh']);
    });

    test('joining a subscription with another topic or selector is a JMSException (INVALID_TRANSIENT_QUEUE_USE) and leaves it as it was', async () => {
      const session = await replica();
      const durable = await session.createSharedDurableConsumer(new HornetQTopic(TOPICS.mismatchA), 'mixed');
      const nonDurable = await session.createSharedConsumer(
        new HornetQTopic(TOPICS.mismatchA),
        'mixed',
        "colour = 'red'",
      );
      for (const attempt of [
        session.createSharedDurableConsumer(new HornetQTopic(TOPICS.mismatchB), 'mixed'),
        session.createSharedDurableConsumer(new HornetQTopic(TOPICS.mismatchA), 'mixed', "colour = 'red'"),
        session.createSharedConsumer(new HornetQTopic(TOPICS.mismatchA), 'mixed'),
        session.createSharedConsumer(new HornetQTopic(TOPICS.mismatchB), 'mixed', "colour = 'red'"),
      ]) {
        const error = await attempt.then(
          () => null,
          (failure: unknown) => failure,
        );
        expect(error).toBeInstanceOf(JMSException);
        expect((error as JMSException).errorCode).toBe('INVALID_TRANSIENT_QUEUE_USE');
      }
      const producer = await session.createProducer(new HornetQTopic(TOPICS.mismatchA));
      const red = session.createTextMessage('red');
      red.setStringProperty('colour', 'red');
      await producer.send(red);
      await producer.send(session.createTextMessage('plain'));
      expect(await drain(durable)).toEqual(['red', 'plain']);
      expect(await drain(nonDurable)).toEqual(['red']);
      await durable.close();
      await session.unsubscribe('mixed');
    });

    test('the server honours a delivery delay: the message comes after it, overtaken by one sent later without, with its JMSDeliveryTime', async () => {
      const session = await replica();
      const queue = new HornetQQueue(DELAY_QUEUE);
      const consumer = await session.createConsumer(queue);
      const producer = await session.createProducer(queue);
      producer.setDeliveryDelay(DELAY_MS);
      const delayed = session.createTextMessage('delayed');
      const before = Date.now();
      await producer.send(delayed);
      await producer.send(session.createTextMessage('at once'), { deliveryDelay: 0 });

      const first = ours(await consumer.receive(RECEIVE_MS));
      expect(textOf(first)).toBe('at once');
      expect(first.getJMSDeliveryTime()).toBe(0);
      const second = ours(await consumer.receive(RECEIVE_MS));
      const elapsed = Date.now() - before;
      expect(textOf(second)).toBe('delayed');
      expect(elapsed).toBeGreaterThanOrEqual(DELAY_MS - CLOCK_SLACK_MS);
      expect(second.getJMSDeliveryTime()).toBe(delayed.getJMSDeliveryTime());
      expect(delayed.getJMSDeliveryTime()).toBeGreaterThanOrEqual(before + DELAY_MS);
    });

    test('a delayed publish reaches every subscription, shared ones included, after the delay', async () => {
      const session = await replica();
      const topic = new HornetQTopic(TOPICS.delayed);
      const plain = await session.createConsumer(topic);
      const shared = await session.createSharedConsumer(topic, 'delayed-share');
      const producer = await session.createProducer(topic);
      const before = Date.now();
      await producer.send(session.createTextMessage('later'), { deliveryDelay: DELAY_MS });
      for (const consumer of [plain, shared]) {
        const message = await consumer.receive(RECEIVE_MS);
        expect(textOf(message)).toBe('later');
        expect(Date.now() - before).toBeGreaterThanOrEqual(DELAY_MS - CLOCK_SLACK_MS);
      }
    });

    test("one subscription shared by HornetQ 2.4.7's Java client and ours: the same queue, each gets a share, none lost or twice", async () => {
      if (server === null || java === null) throw new Error('the server or the Java driver did not start');
      const javaConnection = await java.connect({ port: server.port });
      await java.start(javaConnection);
      const javaSession = await java.createSession(javaConnection);
      const javaConsumer = await java.createSharedConsumer(
        javaSession,
        topicRef(TOPICS.withJava),
        'with-java',
      );
      const session = await replica();
      const nodeConsumer = await session.createSharedConsumer(new HornetQTopic(TOPICS.withJava), 'with-java');
      expect(await session.core.queueQuery('nonDurable.with-java')).toMatchObject({
        exists: true,
        consumerCount: 2,
      });

      const sent = numbered('j', 20);
      await publish(TOPICS.withJava, sent);
      const fromNode: string[] = [];
      const fromJava: string[] = [];
      for (let quiet = 0; fromNode.length + fromJava.length < sent.length && quiet < 20;) {
        const [node, javaMessage] = await Promise.all([
          nodeConsumer.receive(100),
          java.receive(javaConsumer, 100),
        ]);
        if (node !== null) fromNode.push(textOf(node) ?? '<null>');
        if (javaMessage !== null) fromJava.push(String(javaMessage.body));
        quiet = node === null && javaMessage === null ? quiet + 1 : 0;
      }
      expect(fromNode.length).toBeGreaterThan(0);
      expect(fromJava.length).toBeGreaterThan(0);
      expect([...fromNode, ...fromJava].sort()).toEqual([...sent].sort());
      await java.closeConnection(javaConnection);
    });
  },
);
