import { HornetQTopic, Session, type HornetQMessageConsumer } from '../../../src';
import { receiveMessages, seqOf, useJmsReattach, waitFor } from './rig';

/**
 * A shared non-durable subscription across a broker restart: the broker lost the transient queue,
 * both replicas' sessions are re-created, and the queue must come back shared (transient, gone
 * with its last consumer), not as an ordinary queue that would keep collecting the topic's
 * messages once nobody reads them (issue 27's first defect, in another way).
 */

const rig = useJmsReattach();
const TOPIC = 'jms.topic.news';
const SUBSCRIPTION_QUEUE = 'nonDurable.replicas';

async function replica(): Promise<HornetQMessageConsumer> {
  const { connection } = await rig.connect((cf) => cf.setClientFailureCheckPeriod(500));
  const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const consumer = await session.createSharedConsumer(new HornetQTopic('news'), 'replicas');
  await connection.start();
  return consumer;
}

test('after a broker restart both replicas are back on the re-created shared queue, which is still transient', async () => {
  // A deployed topic: a queue that matches nothing binds the address (as hornetq-jms.xml does).
  await rig.start({ queues: [{ name: TOPIC, address: TOPIC, filter: '__HQX=-1', durable: true }] });
  const replicas = [await replica(), await replica()];
  expect(rig.coreQueue(SUBSCRIPTION_QUEUE)?.consumerCount).toBe(2);

  const restarted = await rig.restart();
  expect(rig.coreQueue(SUBSCRIPTION_QUEUE)).toBeUndefined();
  await waitFor(
    () => rig.coreQueue(SUBSCRIPTION_QUEUE)?.consumerCount === 2,
    'both replicas back on the shared queue',
    15_000,
  );

  const { connection } = await rig.connect();
  const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const producer = await session.createProducer(new HornetQTopic('news'));
  for (let seq = 0; seq < 20; seq++) {
    const message = session.createTextMessage(`m${seq}`);
    message.setIntProperty('seq', seq);
    await producer.send(message);
  }
  const shares = await Promise.all(replicas.map((consumer) => receiveMessages(consumer, 10)));
  expect(
    shares
      .flat()
      .map(seqOf)
      .sort((a, b) => a - b),
  ).toEqual([...Array(20).keys()]);

  for (const consumer of replicas) await consumer.close();
  await waitFor(
    () => !restarted.listQueues().some((queue) => queue.name === SUBSCRIPTION_QUEUE),
    'the re-created shared queue to go with its last consumer',
  );
});
