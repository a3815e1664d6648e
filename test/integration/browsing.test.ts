import { range, receiveCount, seqOf, sequenced, useTestBrokers } from '../support/test-broker';

const QUEUE = 'jms.queue.browsed';
const queues = [{ name: QUEUE, address: QUEUE, filter: null, durable: true }];

describe('browsing', () => {
  const env = useTestBrokers();

  test('a browser sees every message in delivery order without consuming any', async () => {
    const broker = await env.startBroker({ queues });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(QUEUE);
    for (let seq = 0; seq < 20; seq++) {
      await producer.send(sequenced(seq, { durable: true, priority: seq === 15 ? 9 : 4 }));
    }

    const browser = await session.createConsumer(QUEUE, { browseOnly: true });
    session.start();
    const browsed = await receiveCount(browser, 20);
    expect(browsed.map(seqOf)).toEqual([15, ...range(20).filter((seq) => seq !== 15)]);
    expect(await browser.receiveImmediate()).toBeNull();
    await browser.close();
    expect(await session.queueQuery(QUEUE)).toMatchObject({ messageCount: 20, consumerCount: 0 });

    // A second browse sees them all again; a real consumer then gets them as first deliveries.
    const again = await session.createConsumer(QUEUE, { browseOnly: true });
    expect((await receiveCount(again, 20)).length).toBe(20);
    await again.close();
    const consumer = await session.createConsumer(QUEUE);
    const consumed = await receiveCount(consumer, 20);
    expect(consumed.map(seqOf)).toEqual(browsed.map(seqOf));
    expect(consumed.every((m) => m.deliveryCount === 1)).toBe(true);
  });

  test('a browser does not take messages from a consumer of the same queue', async () => {
    const broker = await env.startBroker({ queues });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(QUEUE);
    for (let seq = 0; seq < 5; seq++) await producer.send(sequenced(seq, { durable: true }));
    const browser = await session.createConsumer(QUEUE, { browseOnly: true });
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    expect((await receiveCount(browser, 5)).map(seqOf)).toEqual(range(5));
    expect((await receiveCount(consumer, 5)).map(seqOf)).toEqual(range(5));
    expect(await session.queueQuery(QUEUE)).toMatchObject({ consumerCount: 1 });
  });
});
