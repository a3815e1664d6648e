import { type ClientSession } from '../../../src';
import { InMemoryStorage } from '../../../src/server/storage/in-memory-storage';
import { useTestBrokers } from '../../support/test-broker';
import { bodyOf, queues, text } from './support';

/** §4 L1: strict priority among messages waiting at the broker, FIFO within a priority. */
const Q = 'jms.queue.prio';
const LETTERS = 'abcdefghij'.split('');

async function sendWithPriorities(session: ClientSession, priorities: readonly number[]): Promise<void> {
  const producer = session.createProducer(Q);
  for (let i = 0; i < priorities.length; i++)
    await producer.send(text(LETTERS[i] as string, { priority: priorities[i] as number }));
}

/** Receives `count` messages one at a time (window 0: nothing buffered ahead, strict order). */
async function receiveBodies(session: ClientSession, count: number): Promise<string[]> {
  const consumer = await session.createConsumer(Q, { windowSize: 0 });
  session.start();
  const bodies: string[] = [];
  for (let i = 0; i < count; i++) {
    const message = await consumer.receive(5000);
    if (message === null) throw new Error(`only ${bodies.join('')} arrived`);
    bodies.push(bodyOf(message));
    await message.acknowledge();
  }
  expect(await consumer.receive(200)).toBeNull();
  return bodies;
}

describe('priority (L1)', () => {
  const env = useTestBrokers();

  test('priorities 0..9 on a..j, consumer created after the sends: j, i, …, a', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const session = await (await env.connect(broker)).createSession();
    await sendWithPriorities(session, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await receiveBodies(session, 10)).join('')).toBe('jihgfedcba');
  });

  test('priorities [0,0,0,3,3,4,4,5,5,6] on a..j: j, h, i, f, g, d, e, a, b, c', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const session = await (await env.connect(broker)).createSession();
    await sendWithPriorities(session, [0, 0, 0, 3, 3, 4, 4, 5, 5, 6]);
    expect((await receiveBodies(session, 10)).join('')).toBe('jhifgdeabc');
  });

  test('the order survives a broker restart', async () => {
    const storage = new InMemoryStorage();
    const broker = await env.startBroker({ queues: queues(Q), storage });
    const before = await env.connect(broker);
    await sendWithPriorities(await before.createSession(), [0, 0, 0, 3, 3, 4, 4, 5, 5, 6]);
    await before.close();
    await broker.stop();
    await broker.start();
    const session = await (await env.connect(broker)).createSession();
    expect((await receiveBodies(session, 10)).join('')).toBe('jhifgdeabc');
  });

  test('a scheduled message joins its priority when its time comes', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(Q);
    await producer.send(text('low', { priority: 1 }));
    await producer.send(text('urgent-later', { priority: 9, scheduledAt: Date.now() + 200 }));
    await producer.send(text('mid', { priority: 5 }));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await receiveBodies(session, 3)).toEqual(['urgent-later', 'mid', 'low']);
  });
});
