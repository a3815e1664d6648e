import { RAW_SESSION_CHANNEL, RawClient } from '../../support/raw-client';
import { CapturingLogger, useTestBrokers, waitFor } from '../../support/test-broker';

/**
 * The broker's log tells a close from a failure: a client that closes its sessions and then its
 * socket is a close (debug), not "failed"; a client that vanishes with sessions open, or whose
 * link is reset, is a failure (info, with the reason).
 */
describe('the end of a connection, as the broker logs it', () => {
  const env = useTestBrokers();

  async function loggedBroker(): Promise<{
    logger: CapturingLogger;
    port: number;
    connections: () => number;
  }> {
    const logger = new CapturingLogger();
    const broker = await env.startBroker({ logger });
    return { logger, port: broker.getPort(), connections: () => broker.getConnectionCount() };
  }

  const ended = (logger: CapturingLogger): RegExp[] =>
    logger.find(/connection \d+ (closed by its client|failed)/).map((line) => new RegExp(line.message));

  test('a clean close (sessions closed, then the socket) is a close at debug, never "failed"', async () => {
    const { logger, port } = await loggedBroker();
    const factory = await env.connect(port);
    const session = await factory.createSession();
    await session.close();
    await factory.close();
    await waitFor(() => ended(logger).length > 0, 'the end of the connection logged');
    expect(logger.find(/closed by its client/, ['debug'])).toHaveLength(1);
    expect(logger.find(/failed/, ['info', 'warn', 'error'])).toEqual([]);
  });

  test('a client that goes with a session open failed, and the log says how many were open', async () => {
    const { logger, port } = await loggedBroker();
    const client = await RawClient.connect(port);
    await client.createSession(RAW_SESSION_CHANNEL);
    client.socket.end();
    await waitFor(() => ended(logger).length > 0, 'the end of the connection logged');
    expect(
      logger.find(/connection \d+ failed with 1 sessions open; they are cleared up/, ['info']),
    ).toHaveLength(1);
    expect(logger.find(/closed by its client/)).toEqual([]);
  });

  test('a reset link failed, even with no session open', async () => {
    const { logger, port, connections } = await loggedBroker();
    const client = await RawClient.connect(port);
    // Reset once the broker has read from the connection (a reset while the preamble still waits
    // to be read reaches it as a plain close).
    await client.subscribeTopology();
    expect(connections()).toBe(1);
    client.socket.resetAndDestroy();
    await waitFor(() => ended(logger).length > 0, 'the end of the connection logged');
    expect(logger.find(/connection \d+ failed with 0 sessions open/, ['info'])).toHaveLength(1);
  });
});
