import { DeferredSyncStorage } from '../support/deferred-sync-storage';
import { receiveCount, sequenced, waitFor } from '../support/test-broker';
import { QUEUE, useReattachKit } from './reattach/rig';

/**
 * Delivery counts reach storage (issue 12, item 6): a durable message delivered and not
 * acknowledged before the broker goes comes back redelivered, with its count; a delivery the
 * client never showed is undone in storage too.
 */

const kit = useReattachKit();

function storedCount(storage: DeferredSyncStorage): number | undefined {
  return [...storage.inner.loadReferences(QUEUE)][0]?.deliveryCount;
}

async function brokerWithOneMessage(): Promise<{
  storage: DeferredSyncStorage;
  broker: Awaited<ReturnType<typeof kit.startBroker>>;
}> {
  const storage = new DeferredSyncStorage();
  storage.autoRelease = true;
  const { broker } = await kit.rig({ broker: { storage } });
  const session = await (await kit.connect(broker)).createSession();
  await session.createProducer(QUEUE).send(sequenced(0, { durable: true }));
  return { storage, broker };
}

test('a delivered durable message has its count in storage, and comes back redelivered after a restart', async () => {
  const { storage, broker } = await brokerWithOneMessage();
  const session = await (await kit.connect(broker)).createSession();
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  const [first] = await receiveCount(consumer, 1);
  expect(first?.deliveryCount).toBe(1);
  expect(storedCount(storage)).toBe(1);

  const restarted = await kit.restart(broker);
  const again = await (await kit.connect(restarted)).createSession();
  const consumerAgain = await again.createConsumer(QUEUE);
  again.start();
  const [second] = await receiveCount(consumerAgain, 1);
  expect(second).toMatchObject({ deliveryCount: 2, redelivered: true });
});

test('a delivery undone (the consumer closed before the application saw it) is undone in storage', async () => {
  const { storage, broker } = await brokerWithOneMessage();
  const session = await (await kit.connect(broker)).createSession();
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  await waitFor(() => storedCount(storage) === 1, 'the delivery to be counted in storage');
  await consumer.close();
  await waitFor(() => storedCount(storage) === 0, 'the undone delivery to reach storage');
});
