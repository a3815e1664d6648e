import { HornetQException } from '../../../src';
import { useTestBrokers, waitFor } from '../../support/test-broker';
import { drainBodies, queues, queueStats, text } from './support';

/** §5.7 Other address settings: last-value queues and the address-full policies. */
const Q = 'jms.queue.settings';
const KIB = 1024;

/** A message of about 1 KiB. */
function kib(body: string): ReturnType<typeof text> {
  const message = text(body);
  message.body = Buffer.concat([Buffer.from(body), Buffer.alloc(KIB)]);
  return message;
}

function labels(bodies: string[]): string[] {
  return bodies.map((body) => body.replace(/\0+$/, ''));
}

describe('last-value queue', () => {
  const env = useTestBrokers();

  test('two messages with _HQ_LVQ_NAME=STOCK before any consumer: only the second is received', async () => {
    const broker = await env.startBroker({
      queues: queues(Q),
      addressSettings: { [Q]: { lastValueQueue: true } },
    });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(Q);
    await producer.send(text('STOCK 1', { lastValue: 'STOCK' }));
    await producer.send(text('OTHER 1', { lastValue: 'OTHER' }));
    await producer.send(text('STOCK 2', { lastValue: 'STOCK' }));
    expect(queueStats(broker, Q).messageCount).toBe(2);
    const consumer = await session.createConsumer(Q);
    session.start();
    expect(await drainBodies(consumer)).toEqual(['STOCK 2', 'OTHER 1']);
  });

  test('without the setting every message is kept', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(Q);
    await producer.send(text('STOCK 1', { lastValue: 'STOCK' }));
    await producer.send(text('STOCK 2', { lastValue: 'STOCK' }));
    const consumer = await session.createConsumer(Q);
    session.start();
    expect(await drainBodies(consumer)).toEqual(['STOCK 1', 'STOCK 2']);
  });
});

describe('address-full policies with max-size-bytes 10 KiB', () => {
  const env = useTestBrokers();
  const settings = (addressFullPolicy: 'FAIL' | 'DROP' | 'BLOCK' | 'PAGE') => ({
    queues: queues(Q),
    addressSettings: { [Q]: { maxSizeBytes: 10 * KIB, addressFullPolicy } },
  });

  test('FAIL: the send that finds the address full throws', async () => {
    const broker = await env.startBroker(settings('FAIL'));
    const session = await (await env.connect(broker, { producerWindowSize: KIB })).createSession();
    const producer = session.createProducer(Q);
    let failure: unknown = null;
    let sent = 0;
    for (; sent < 30 && failure === null; sent++) {
      await producer.send(kib(`m${sent}`)).catch((error: unknown) => {
        failure = error;
      });
    }
    expect(HornetQException.is(failure)).toBe(true);
    expect(sent).toBeLessThan(30);
  });

  test('DROP: every send returns, but what finds the address full is not there', async () => {
    const broker = await env.startBroker(settings('DROP'));
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(Q);
    for (let i = 0; i < 30; i++) await producer.send(kib(`m${i}`));
    const kept = queueStats(broker, Q).messageCount;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(30);
    const consumer = await session.createConsumer(Q);
    session.start();
    expect(labels(await drainBodies(consumer))).toEqual(Array.from({ length: kept }, (_, i) => `m${i}`));
  });

  test('BLOCK: sends wait while the address is full and all complete once a consumer drains it', async () => {
    const broker = await env.startBroker(settings('BLOCK'));
    const factory = await env.connect(broker, { producerWindowSize: KIB });
    const producer = (await factory.createSession()).createProducer(Q);
    let completed = 0;
    const sending = (async () => {
      for (let i = 0; i < 30; i++) {
        await producer.send(kib(`m${i}`));
        completed++;
      }
    })();
    await waitFor(() => completed > 0, 'the first sends');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(completed).toBeLessThan(30);
    const session = await factory.createSession();
    const consumer = await session.createConsumer(Q);
    session.start();
    const received: string[] = [];
    while (received.length < 30) {
      const message = await consumer.receive(5000);
      if (message === null) throw new Error(`stuck after ${received.length} messages`);
      received.push(message.message.body.toString());
      await message.individualAcknowledge();
    }
    await sending;
    expect(labels(received)).toEqual(Array.from({ length: 30 }, (_, i) => `m${i}`));
  });

  test('PAGE: nothing blocks or fails, and every message is delivered in order', async () => {
    const broker = await env.startBroker(settings('PAGE'));
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(Q);
    for (let i = 0; i < 30; i++) await producer.send(kib(`m${i}`));
    const consumer = await session.createConsumer(Q);
    session.start();
    expect(labels(await drainBodies(consumer))).toEqual(Array.from({ length: 30 }, (_, i) => `m${i}`));
  });
});
