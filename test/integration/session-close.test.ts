import { CapturingLogger, sequenced, useTestBrokers, waitFor } from '../support/test-broker';

describe('closing a session with a confirmation window', () => {
  const env = useTestBrokers();

  test('the connection stays healthy: nothing is sent on the closed channel', async () => {
    const logger = new CapturingLogger();
    const broker = await env.startBroker({ logger, queues: [] });
    const factory = await env.connect(broker, { confirmationWindowSize: 1024 });
    const first = await factory.createSession();
    await first.queueQuery('anything');
    await first.close();
    // A second session on the same connection works, and the broker saw no protocol error.
    const second = await factory.createSession();
    expect(await second.queueQuery('anything')).toMatchObject({ exists: false });
    expect(broker.getConnectionCount()).toBe(1);
    expect(logger.find(/does not exist|protocol error/, ['warn', 'error', 'info'])).toEqual([]);
  });
});

describe('closing a session while its consumer streams', () => {
  const env = useTestBrokers();
  const QUEUE = 'streamed';
  const MESSAGES = 5000;
  const RUNS = 4;

  test(`no confirmation follows the close and the other sessions never notice (${RUNS} runs)`, async () => {
    const logger = new CapturingLogger();
    const broker = await env.startBroker({
      logger,
      queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: false }],
    });
    const factory = await env.connect(broker, { confirmationWindowSize: 64 * 1024 });
    const failures: string[] = [];
    factory.addFailureListener((error) => failures.push(error.message));
    const bystander = await factory.createSession();
    for (let run = 0; run < RUNS; run++) {
      const producer = bystander.createProducer(QUEUE);
      for (let i = 0; i < MESSAGES; i++) await producer.send(sequenced(i));
      producer.close();
      const streaming = await factory.createSession();
      const consumer = await streaming.createConsumer(QUEUE, { windowSize: -1 });
      streaming.start();
      // Closed while thousands of deliveries are still on their way to it.
      await waitFor(() => consumer.bufferedCount > 0, 'the first deliveries');
      await streaming.close();
      expect(await bystander.queueQuery(QUEUE)).toMatchObject({ exists: true });
    }
    expect(failures).toEqual([]);
    expect(factory.getStatistics()).toMatchObject({ reattaches: 0, reconnects: 0 });
    expect(broker.getConnectionCount()).toBe(1);
    expect(logger.find(/not open on this connection|does not exist|protocol error/)).toEqual([]);
  });
});
