import {
  IllegalStateException,
  JMSException,
  Session,
  type Destination,
  type HornetQConnection,
  type HornetQMessageConsumer,
  type HornetQSession,
} from '../../../src';
import { linkedCore, receiveMessages, seqOf, settle, staysAt, useJmsReattach, waitFor } from './rig';

/**
 * hornetq-spec §7.5 JMSReconnectTest, the broker-restart cases: the broker is stopped and a new
 * one started on the same port with the same storage, so it has lost every session and every
 * non-durable queue. With reconnection on, the client re-creates the non-durable subscription
 * queue or the temporary queue its consumer was on; with reconnect-attempts 0, the connection is
 * lost, and closing what is left must neither throw nor hang.
 */

const rig = useJmsReattach();

type Kind = 'non-durable topic subscription' | 'temporary queue';
const KINDS: Kind[] = ['non-durable topic subscription', 'temporary queue'];

/** A consumer on a non-durable subscription of a topic, or on a temporary queue. */
async function consumerOn(
  kind: Kind,
  session: HornetQSession,
): Promise<{ destination: Destination; consumer: HornetQMessageConsumer; coreQueue: () => string }> {
  if (kind === 'temporary queue') {
    const destination = await session.createTemporaryQueue();
    const consumer = await session.createConsumer(destination);
    return { destination, consumer, coreQueue: () => `jms.tempqueue.${destination.getQueueName()}` };
  }
  const destination = session.createTopic('news');
  const consumer = await session.createConsumer(destination);
  // The subscription queue has a generated name: the only queue bound to the topic's address.
  const subscription = rig.broker.listQueues().find((queue) => queue.address === 'jms.topic.news');
  if (subscription === undefined) throw new Error('no subscription queue on the broker');
  return { destination, consumer, coreQueue: () => subscription.name };
}

describe.each(KINDS)('testReconnectSameNodeServerRestartedWith: %s', (kind) => {
  test('after the restart the client has re-created the queue and 100 sends are all received', async () => {
    await rig.start();
    const { connection, heard } = await rig.connect((cf) => cf.setClientFailureCheckPeriod(500));
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const { destination, consumer, coreQueue } = await consumerOn(kind, session);
    const queueName = coreQueue();
    await connection.start();

    const restarted = await rig.restart();
    expect(restarted.listQueues().map((queue) => queue.name)).not.toContain(queueName);
    await heard.exceptionCount(1);
    expect(heard.codes).toEqual(['FAILOVER']);
    expect(linkedCore(heard.exceptions[0]).code).toBe('DISCONNECTED');
    expect(connection.getStatistics()).toMatchObject({ reattaches: 0, reconnects: 1 });
    // Re-created by the client, non-durable as before, with the consumer on it again.
    await waitFor(
      () => restarted.listQueues().find((queue) => queue.name === queueName)?.consumerCount === 1,
      `the consumer back on ${queueName}`,
    );
    expect(restarted.listQueues().find((queue) => queue.name === queueName)).toMatchObject({
      durable: false,
      temporary: true,
    });

    const producer = await session.createProducer(destination);
    for (let seq = 0; seq < 100; seq++) {
      const message = session.createTextMessage(`m${seq}`);
      message.setIntProperty('seq', seq);
      await producer.send(message);
    }
    const received = await receiveMessages(consumer, 100);
    expect(received.map(seqOf)).toEqual([...Array(100).keys()]);
    expect(await consumer.receive(100)).toBeNull();
    await staysAt(heard.exceptions, 1, 100);
  });
});

/** Calls on a closed connection, session and consumer: each must throw IllegalStateException. */
async function expectAllClosed(
  connection: HornetQConnection,
  session: HornetQSession,
  consumer: HornetQMessageConsumer,
): Promise<void> {
  const calls: Array<[string, () => unknown]> = [
    ['connection.createSession', () => connection.createSession(false, Session.AUTO_ACKNOWLEDGE)],
    ['connection.start', () => connection.start()],
    ['session.createTextMessage', () => session.createTextMessage('x')],
    ['session.createProducer', () => session.createProducer(session.createTopic('news'))],
    ['consumer.receive', () => consumer.receive(10)],
    ['consumer.receiveNoWait', () => consumer.receiveNoWait()],
  ];
  for (const [name, call] of calls) {
    const result = await settle(Promise.resolve().then(call));
    expect([name, result.ok]).toEqual([name, false]);
    if (!result.ok) expect([name, result.error]).toEqual([name, expect.any(IllegalStateException)]);
  }
}

describe.each(KINDS)('testNoReconnectCloseAfterFailToReconnectWith: %s', (kind) => {
  test('reconnect-attempts 0: DISCONNECT, then closing session and connection neither throws nor hangs', async () => {
    await rig.start();
    const { connection, heard } = await rig.connect((cf) => cf.setReconnectAttempts(0));
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const { consumer } = await consumerOn(kind, session);
    await connection.start();
    const waiting = consumer.receive();

    await rig.restart();
    await heard.exceptionCount(1);
    expect(heard.codes).toEqual(['DISCONNECT']);
    expect(heard.exceptions[0]).toBeInstanceOf(JMSException);
    expect(linkedCore(heard.exceptions[0]).code).toBe('DISCONNECTED');
    expect(heard.events.map((event) => event.type)).toEqual(['FAILURE_DETECTED', 'FAILOVER_FAILED']);
    // The pending receive is released with null: the consumer will never get anything.
    expect(await waiting).toBeNull();

    const closedSession = await settle(session.close());
    expect(closedSession).toMatchObject({ ok: true });
    expect(closedSession.ms).toBeLessThan(5_000);
    const closedConnection = await settle(connection.close());
    expect(closedConnection).toMatchObject({ ok: true });
    expect(closedConnection.ms).toBeLessThan(5_000);
    // Closing again is a no-op; everything else is an IllegalStateException now.
    await expect(session.close()).resolves.toBeUndefined();
    await expect(connection.close()).resolves.toBeUndefined();
    await expectAllClosed(connection, session, consumer);
    await staysAt(heard.exceptions, 1, 100);
  });
});
