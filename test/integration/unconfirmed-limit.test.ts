import { CoreMessage } from '../../src/core/protocol';
import { useTestBrokers, waitFor } from '../support/test-broker';

/**
 * The broker keeps what it sends a reattachable session until the client confirms it. A client
 * that never confirms must not make it keep everything: past a bound (8 × the window + 32 MiB, or
 * 64 × 1 024 commands) the broker drops that client's connection, and only that one.
 */

const brokers = useTestBrokers();
const QUEUE = 'jms.queue.unconfirmed';
const MESSAGE_BYTES = 64 * 1024;

function message(): CoreMessage {
  const m = new CoreMessage();
  m.body = Buffer.alloc(MESSAGE_BYTES, 7);
  return m;
}

test('a client that never confirms what it receives loses its connection once the broker holds its bound for it; others go on', async () => {
  const broker = await brokers.startBroker({
    queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: false }],
  });
  const sender = await brokers.connect(broker);
  const silent = await brokers.connect(broker, { confirmationWindowSize: 1024, consumerWindowSize: -1 });
  const session = await silent.createSession();
  // This client breaks the protocol: it never sends PacketsConfirmed.
  const channel = (session as unknown as { context: { channel: { flushConfirmations(): void } } }).context
    .channel;
  channel.flushConfirmations = () => undefined;
  const failures: string[] = [];
  silent.addFailureListener((error) => failures.push(error.message));
  const consumer = await session.createConsumer(QUEUE);
  let received = 0;
  consumer.setMessageHandler(() => {
    received++;
  });
  session.start();

  const producer = (await sender.createSession()).createProducer(QUEUE);
  // Half the bound: the broker keeps it all, the client stays connected.
  for (let i = 0; i < 256; i++) await producer.send(message());
  await waitFor(() => received === 256, 'the first 16 MiB to arrive');
  expect(failures).toEqual([]);

  // Past 8 × 1 KiB + 32 MiB unconfirmed, the broker gives up on this connection.
  for (let i = 0; i < 400; i++) await producer.send(message());
  await waitFor(() => failures.length > 0, 'the silent client to lose its connection');
  expect(received).toBeLessThan(656);

  // The sender's connection is untouched: a durable send is answered by the broker.
  const answered = message();
  answered.durable = true;
  await producer.send(answered);
});
