import { CapturingLogger, useTestBrokers } from '../support/test-broker';

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
