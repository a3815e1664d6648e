import { receiveCount, seqOf, sequenced } from '../support/test-broker';
import { outcome, QUEUE, sleep, useReattachKit } from './reattach/rig';

/**
 * A producer asks for its credits when it is created, as HornetQ's does: its first send need not
 * wait a round trip, and a link that goes dark just then does not hold the send back.
 */

const kit = useReattachKit();

test('a new producer has its credits before its first send: a send into a dark link is written at once', async () => {
  // Long TTL: the black hole must not be noticed while the send is judged.
  const { broker, proxy, factory, recorder } = await kit.rig({
    client: { connectionTTL: 60_000, clientFailureCheckPeriod: 30_000, producerWindowSize: 64 * 1024 },
  });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  // A round trip after the creation: the broker answered the credit request before this.
  await session.queueQuery(QUEUE);
  proxy.blackHole();
  const sent = outcome(producer.send(sequenced(0)));
  const settled = await Promise.race([sent.then(() => true), sleep(3000).then(() => false)]);
  expect(settled).toBe(true);
  expect(await sent).toMatchObject({ ok: true });
  // The link is cut and heals: the send, held in the resend buffer, reaches the broker once.
  proxy.cut();
  proxy.pass();
  await recorder.ended(1);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:true']);
  const direct = await kit.connect(broker);
  const reader = await direct.createSession();
  const consumer = await reader.createConsumer(QUEUE);
  reader.start();
  expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([0]);
  expect(await consumer.receive(200)).toBeNull();
});
