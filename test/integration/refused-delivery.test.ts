import { HornetQException, type ErrorCodeName } from '../../src';
import { CoreMessage } from '../../src/core/protocol/core-message';
import { receiveCount, seqOf, sequenced, useTestBrokers, waitFor } from '../support/test-broker';

/**
 * A delivery the client cannot take (a large message over its max-large-message-bytes) is refused
 * back to the broker: redelivered, then moved to the dead-letter address after
 * max-delivery-attempts. The application hears of it; the connection and its other sessions
 * never notice (no failover, no reattach loop).
 */

const QUEUE = 'refused';
const DLQ = 'refused.dead';
const ATTEMPTS = 3;
const LIMIT = 50_000;

const env = useTestBrokers();

async function setUp(windowSize: number) {
  const broker = await env.startBroker({
    queues: [
      { name: QUEUE, address: QUEUE, filter: null, durable: true },
      { name: DLQ, address: DLQ, filter: null, durable: true },
    ],
    addressSettings: { [QUEUE]: { maxDeliveryAttempts: ATTEMPTS, deadLetterAddress: DLQ } },
  });
  // The producer may send what the consumer's client may not take.
  const sender = await env.connect(broker, { minLargeMessageSize: 10_000 });
  const producing = await sender.createSession();
  const producer = producing.createProducer(QUEUE);
  const huge = new CoreMessage();
  huge.durable = true;
  huge.body = Buffer.alloc(4 * LIMIT, 7);
  await producer.send(huge);
  await producer.send(sequenced(1, { durable: true }));

  const factory = await env.connect(broker, {
    confirmationWindowSize: 64 * 1024,
    reconnectAttempts: -1,
    retryInterval: 20,
    minLargeMessageSize: 10_000,
    maxLargeMessageBytes: LIMIT,
  });
  const failures: string[] = [];
  factory.addFailureListener((error) => failures.push(error.message));
  const session = await factory.createSession();
  const told: Array<{ code: ErrorCodeName; message: string }> = [];
  session.setAsyncErrorHandler((error: HornetQException) =>
    told.push({ code: error.code, message: error.message }),
  );
  const bystander = await factory.createSession();
  const consumer = await session.createConsumer(QUEUE, { windowSize });
  session.start();
  return { broker, factory, failures, session, told, bystander, consumer };
}

test.each([
  ['a window of 64 KiB', 64 * 1024],
  ['a window of 0 (one message at a time)', 0],
])('with %s: refused, redelivered, then dead-lettered; the connection never fails', async (_name, window) => {
  const { broker, factory, failures, told, bystander, consumer } = await setUp(window);
  // The message the client could take comes through, after the one it could not.
  expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([1]);
  await waitFor(() => told.length >= ATTEMPTS, `${ATTEMPTS} refusals reported`);
  expect(told).toEqual(
    Array.from({ length: ATTEMPTS }, () => ({
      code: 'LARGE_MESSAGE_ERROR_BODY',
      message: expect.stringMatching(/200000 bytes exceeds this client's limit of 50000 bytes/),
    })),
  );
  // Another session of the same connection answers at once: nothing failed over.
  const dead = await bystander.queueQuery(DLQ);
  expect(dead).toMatchObject({ exists: true, messageCount: 1 });
  expect(broker.listQueues().find((queue) => queue.name === QUEUE)).toMatchObject({ messagesKilled: 1 });
  expect(failures).toEqual([]);
  expect(factory.getStatistics()).toMatchObject({ reattaches: 0, reconnects: 0 });
});
