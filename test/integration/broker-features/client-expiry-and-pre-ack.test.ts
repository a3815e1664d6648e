import { useTestBrokers } from '../../support/test-broker';
import { bodyOf, queues, queueStats, text, waitForQueue } from './support';
import { sleep } from '../../support/wait';

const Q = 'jms.queue.buffered';
const EXPIRY = 'jms.queue.ExpiryQueue';

describe('a message that expires while buffered on the client (L2)', () => {
  const env = useTestBrokers();

  test('is never handed out, goes to the expiry address, and receive keeps waiting for a live one', async () => {
    const broker = await env.startBroker({
      queues: queues(Q, EXPIRY),
      addressSettings: { [Q]: { expiryAddress: EXPIRY } },
    });
    const session = await (await env.connect(broker)).createSession({ ackBatchSize: 0 });
    const consumer = await session.createConsumer(Q);
    session.start();
    const producer = session.createProducer(Q);
    await producer.send(text('short-lived', { expiration: Date.now() + 150 }));
    // The message is delivered into the consumer's buffer at once, and expires there.
    await waitForQueue(broker, Q, (q) => q.deliveringCount === 1, 'the message buffered on the client');
    await sleep(250);
    const late = setTimeout(() => void producer.send(text('living')), 300);
    const startedAt = Date.now();
    const received = await consumer.receive(5000);
    clearTimeout(late);
    expect(received === null ? null : bodyOf(received)).toBe('living');
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(250);
    await received?.acknowledge();
    await waitForQueue(
      broker,
      Q,
      (q) => q.messageCount === 0 && q.messagesExpired === 1,
      'the expired one counted',
    );
    expect(queueStats(broker, EXPIRY).messageCount).toBe(1);
  });
});

describe('pre-acknowledge', () => {
  const env = useTestBrokers();

  test('a message counts as acknowledged when delivered; acknowledging it again is harmless', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const session = await (await env.connect(broker)).createSession({ preAcknowledge: true });
    const producer = session.createProducer(Q);
    for (const body of ['a', 'b', 'c']) await producer.send(text(body));
    const consumer = await session.createConsumer(Q);
    session.start();
    const bodies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const received = await consumer.receive(2000);
      if (received !== null) bodies.push(bodyOf(received));
      await received?.acknowledge();
    }
    expect(bodies).toEqual(['a', 'b', 'c']);
    await waitForQueue(
      broker,
      Q,
      (q) => q.messageCount === 0 && q.deliveringCount === 0 && q.messagesAcknowledged === 3,
      'all three acknowledged at delivery',
    );
    await session.close();
    expect(queueStats(broker, Q).messageCount).toBe(0);
  });
});
