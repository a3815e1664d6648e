import { HornetQException, type ClientProducer, type ClientSession } from '../../../src';
import { InMemoryStorage } from '../../../src/server/storage/in-memory-storage';
import { MessageHeader } from '../../../src/core/protocol/message-header';
import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import { DEFAULT_BROKER_LIMITS } from '../../../src/server/broker-configuration';
import { useTestBrokers } from '../../support/test-broker';
import { drainBodies, queues, queueStats, text, transacted } from './support';

/** §5.2 Duplicate detection: _HQ_DUPL_ID, a circular cache of id-cache-size ids per address. */
const Q = 'jms.queue.dupl';

async function sendIds(producer: ClientProducer, ids: readonly string[], tag = ''): Promise<void> {
  for (const id of ids) await producer.send(text(`${id}${tag}`, { duplicateId: id }));
}

async function consumeAll(session: ClientSession, queue = Q): Promise<string[]> {
  const consumer = await session.createConsumer(queue);
  session.start();
  const bodies = await drainBodies(consumer);
  await consumer.close();
  return bodies;
}

describe('duplicate detection', () => {
  const env = useTestBrokers();

  test('a repeated id is dropped silently, the send still succeeds (probe abcdefg / hijklmnop)', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(Q);
    const consumer = await session.createConsumer(Q);
    session.start();
    const step = async (id: string): Promise<string | null> => {
      await producer.send(text(id, { duplicateId: id }));
      const message = await consumer.receive(300);
      await message?.acknowledge();
      return message === null ? null : message.message.body.toString();
    };
    expect(await step('abcdefg')).toBe('abcdefg');
    expect(await step('abcdefg')).toBeNull();
    expect(await step('abcdefg')).toBeNull();
    expect(await step('hijklmnop')).toBe('hijklmnop');
    expect(await step('hijklmnop')).toBeNull();
    expect(await step('abcdefg')).toBeNull();
    await consumer.close(); // sends the batched acknowledgements
    expect(await session.queueQuery(Q)).toMatchObject({ messageCount: 0 });
    expect(queueStats(broker, Q)).toMatchObject({ messagesAdded: 2, messagesAcknowledged: 2 });
  });

  test('cache size N: N ids, the same N dropped, N new accepted, the first N evicted and accepted again', async () => {
    const broker = await env.startBroker({ queues: queues(Q), idCacheSize: 5 });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(Q);
    const first = ['a', 'b', 'c', 'd', 'e'];
    const second = ['f', 'g', 'h', 'i', 'j'];

    await sendIds(producer, first);
    await sendIds(producer, first, '-again');
    expect(await consumeAll(session)).toEqual(first);
    await sendIds(producer, second);
    await sendIds(producer, second, '-again');
    expect(await consumeAll(session)).toEqual(second);
    await sendIds(producer, first, '-evicted');
    expect(await consumeAll(session)).toEqual(first.map((id) => `${id}-evicted`));
  });

  test('a transaction with a duplicate fails its commit with DUPLICATE_ID_REJECTED and is rolled back whole', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const factory = await env.connect(broker);
    const plain = await factory.createSession();
    await plain.createProducer(Q).send(text('original', { duplicateId: 'X' }));

    const tx = await transacted(factory);
    // The transaction consumes 'original' and sends three messages, one repeating its id.
    const txConsumer = await tx.createConsumer(Q);
    tx.start();
    const consumed = await txConsumer.receive(5000);
    await consumed?.acknowledge();
    const producer = tx.createProducer(Q);
    await producer.send(text('fresh', { duplicateId: 'Y' }));
    await producer.send(text('plain'));
    await producer.send(text('copy', { duplicateId: 'X' }));
    let error: unknown;
    try {
      await tx.commit();
    } catch (e) {
      error = e;
    }
    expect(HornetQException.is(error, 'DUPLICATE_ID_REJECTED')).toBe(true);
    await txConsumer.close();
    // No send went through and the acknowledgement was undone: 'original' is back, redelivered.
    const again = await plain.createConsumer(Q);
    plain.start();
    const redelivered = await again.receive(5000);
    expect(redelivered?.message.body.toString()).toBe('original');
    expect(redelivered?.deliveryCount).toBe(2);
    await redelivered?.acknowledge();
    expect(await again.receive(300)).toBeNull();
    await again.close();

    // Nothing of the refused transaction was recorded: 'Y' is still new.
    await producer.send(text('fresh again', { duplicateId: 'Y' }));
    await tx.commit();
    expect(await consumeAll(plain)).toEqual(['fresh again']);
  });

  test('a transaction repeating its own id is refused; the ids of a committed one are recorded', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const factory = await env.connect(broker);
    const tx = await transacted(factory);
    const producer = tx.createProducer(Q);
    await producer.send(text('one', { duplicateId: 'same' }));
    await producer.send(text('two', { duplicateId: 'same' }));
    await expect(tx.commit()).rejects.toMatchObject({ code: 'DUPLICATE_ID_REJECTED' });

    // The retry pattern: resend the batch after an unknown outcome; the second commit is refused.
    for (let attempt = 0; attempt < 2; attempt++) {
      await producer.send(text('batch-1', { duplicateId: 'batch' }));
      await producer.send(text('batch-2'));
      if (attempt === 0) await tx.commit();
      else await expect(tx.commit()).rejects.toMatchObject({ code: 'DUPLICATE_ID_REJECTED' });
    }
    expect(await consumeAll(await factory.createSession())).toEqual(['batch-1', 'batch-2']);
  });

  test('a session closed without committing records nothing: a resend later is accepted', async () => {
    const broker = await env.startBroker({ queues: queues(Q) });
    const factory = await env.connect(broker);
    const abandoned = await transacted(factory);
    await abandoned.createProducer(Q).send(text('never committed', { duplicateId: 'Z' }));
    await abandoned.close();

    const plain = await factory.createSession();
    await plain.createProducer(Q).send(text('accepted', { duplicateId: 'Z' }));
    expect(await consumeAll(plain)).toEqual(['accepted']);
  });

  test('each address has its own cache: the same id sent to three queues is accepted by each', async () => {
    const names = ['jms.queue.d1', 'jms.queue.d2', 'jms.queue.d3'];
    const broker = await env.startBroker({ queues: queues(...names) });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(null);
    for (const name of names) await producer.send(text(name, { duplicateId: 'shared' }), name);
    for (const name of names) await producer.send(text(`${name} again`, { duplicateId: 'shared' }), name);
    for (const name of names) expect(await consumeAll(session, name)).toEqual([name]);
  });

  test.each([
    [true, []],
    [false, ['after restart']],
  ])('persistIdCache %s: the cache does (not) survive a broker restart', async (persistIdCache, expected) => {
    const storage = new InMemoryStorage();
    const broker = await env.startBroker({ queues: queues(Q), storage, persistIdCache });
    const before = await env.connect(broker);
    const first = await before.createSession();
    await first.createProducer(Q).send(text('before restart', { duplicateId: 'R' }));
    expect(await consumeAll(first)).toEqual(['before restart']);
    await before.close();
    await broker.stop();
    await broker.start();

    const session = await (await env.connect(broker)).createSession();
    await session.createProducer(Q).send(text('after restart', { duplicateId: 'R' }));
    expect(await consumeAll(session)).toEqual(expected);
  });

  test('a duplicate id longer than maxDuplicateIdLength is refused, naming the limit; ids up to it are kept', async () => {
    const broker = await env.startBroker({ queues: queues(Q), maxDuplicateIdLength: 40 });
    const factory = await env.connect(broker);
    const session = await factory.createSession();
    const producer = session.createProducer(Q);
    const uuid = '123e4567-e89b-12d3-a456-426614174000';
    await producer.send(text('uuid', { duplicateId: uuid }));
    await producer.send(text('40', { duplicateId: 'x'.repeat(40) }));
    const refusal = (sent: Promise<void>): Promise<unknown> =>
      sent.then(
        () => null,
        (error: unknown) => error,
      );
    const long = await refusal(producer.send(text('41', { duplicateId: 'x'.repeat(41) })));
    expect(HornetQException.is(long, 'ILLEGAL_STATE')).toBe(true);
    expect((long as Error).message).toMatch(
      /duplicate-detection id \(_HQ_DUPL_ID\) is 41 long; the broker allows at most 40 \(maxDuplicateIdLength/,
    );

    // A bytes id counts its bytes; a transacted send is refused at the send too.
    const bytes = text('bytes');
    bytes.properties.set(MessageHeader.DUPLICATE_DETECTION_ID, {
      kind: PropertyKind.BYTES,
      value: Buffer.alloc(41, 7),
    });
    expect(HornetQException.is(await refusal(producer.send(bytes)), 'ILLEGAL_STATE')).toBe(true);
    const tx = await transacted(factory);
    const txProducer = tx.createProducer(Q);
    expect(
      HornetQException.is(
        await refusal(txProducer.send(text('tx', { duplicateId: 'y'.repeat(41) }))),
        'ILLEGAL_STATE',
      ),
    ).toBe(true);
    await tx.commit();

    // The session carries on; only the ids within the limit were kept (their repeats are dropped).
    await producer.send(text('uuid again', { duplicateId: uuid }));
    await producer.send(text('40 again', { duplicateId: 'x'.repeat(40) }));
    expect(await consumeAll(session)).toEqual(['uuid', '40']);
  });

  test('by default a duplicate id may be 512 long', async () => {
    expect(DEFAULT_BROKER_LIMITS.maxDuplicateIdLength).toBe(512);
    const broker = await env.startBroker({ queues: queues(Q) });
    const producer = (await (await env.connect(broker)).createSession()).createProducer(Q);
    await expect(producer.send(text('512', { duplicateId: 'z'.repeat(512) }))).resolves.toBeUndefined();
    await expect(producer.send(text('513', { duplicateId: 'z'.repeat(513) }))).rejects.toMatchObject({
      code: 'ILLEGAL_STATE',
    });
  });
});
