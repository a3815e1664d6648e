import type { ClientConsumer, ClientSessionFactory, ReceivedMessage } from '../../src';
import { range, seqOf, sequenced, useTestBrokers, waitFor } from '../support/test-broker';

const QUEUE = 'jms.queue.work';
const queues = [{ name: QUEUE, address: QUEUE, filter: null, durable: false }];

/** Collects what a consumer's handler gets, acknowledging each message. */
function collect(consumer: ClientConsumer): number[] {
  const seqs: number[] = [];
  consumer.setMessageHandler(async (message: ReceivedMessage) => {
    seqs.push(seqOf(message));
    await message.acknowledge();
  });
  return seqs;
}

async function consumerOn(factory: ClientSessionFactory, windowSize?: number): Promise<ClientConsumer> {
  const session = await factory.createSession();
  const consumer = await session.createConsumer(QUEUE, windowSize === undefined ? {} : { windowSize });
  session.start();
  return consumer;
}

describe('competing consumers on one queue', () => {
  const env = useTestBrokers();

  test.each([
    ['the default window', undefined],
    ['a window of 0', 0],
  ])(
    'with %s every message goes to exactly one of three consumers, and each gets work',
    async (_, window) => {
      const COUNT = 3_000;
      const broker = await env.startBroker({ queues });
      const consumers = await Promise.all(
        [1, 2, 3].map(async () => consumerOn(await env.connect(broker), window)),
      );
      const seen = consumers.map(collect);

      const producerSession = await (await env.connect(broker)).createSession();
      const producer = producerSession.createProducer(QUEUE);
      for (let seq = 0; seq < COUNT; seq++) await producer.send(sequenced(seq));

      const total = (): number => seen.reduce((sum, seqs) => sum + seqs.length, 0);
      await waitFor(() => total() >= COUNT, `${COUNT} messages across the consumers`, 30_000);
      const all = seen.flat().sort((a, b) => a - b);
      expect(all).toEqual(range(COUNT));
      for (const seqs of seen) {
        expect(seqs.length).toBeGreaterThan(COUNT / 10);
        // Each consumer sees its share in the order the messages were sent.
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      }
      await Promise.all(consumers.map((consumer) => consumer.close()));
      expect(await producerSession.queueQuery(QUEUE)).toMatchObject({ messageCount: 0, consumerCount: 0 });
    },
  );

  test('a consumer that closes without acknowledging gives its messages to the others, none lost', async () => {
    const COUNT = 200;
    const broker = await env.startBroker({ queues });
    const factory = await env.connect(broker);
    const producerSession = await factory.createSession();
    const producer = producerSession.createProducer(QUEUE);
    for (let seq = 0; seq < COUNT; seq++) await producer.send(sequenced(seq, { durable: true }));

    // The first consumer takes some messages (its buffer fills with all of them) and never acknowledges.
    const quitter = await consumerOn(factory);
    const taken: ReceivedMessage[] = [];
    for (let i = 0; i < 10; i++) {
      const message = await quitter.receive(5_000);
      if (message === null) throw new Error('the first consumer got nothing');
      taken.push(message);
    }
    expect(taken.map(seqOf)).toEqual(range(10));
    const stayer = await consumerOn(await env.connect(broker));
    await quitter.close();

    const seqs = collect(stayer);
    await waitFor(() => seqs.length >= COUNT, `${COUNT} messages on the remaining consumer`);
    // Returned to the head of the queue, so the order survives the hand-over.
    expect(seqs).toEqual(range(COUNT));
    await stayer.close();
    expect(await producerSession.queueQuery(QUEUE)).toMatchObject({ messageCount: 0 });
  });
});
