import { HornetQException, type Broker } from '../../src';
import { FailoverEventType } from '../../src/core/client';
import { FaultProxy } from '../support/fault-proxy';
import { sequenced, useTestBrokers, waitFor } from '../support/test-broker';

/**
 * Calls made while a failover is in progress wait for it at most call-failover-timeout, then
 * reject without having been sent (issue 11, items 7 and 9). Before, they went ahead on a link
 * that was not there: with a resend buffer they were held for replay, and without one (window -1)
 * a non-blocking send was neither written nor kept, and resolved as if it had gone.
 */

const QUEUE = 'jms.queue.failover-timeout';
const CALL_FAILOVER_TIMEOUT = 500;
/** How late a settlement may be on a loaded 2-core machine. */
const MARGIN = 4_000;

const env = useTestBrokers();
let broker: Broker;
let proxy: FaultProxy;

beforeEach(async () => {
  broker = await env.startBroker({
    connectionTtlCheckInterval: 100,
    queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: true }],
  });
  proxy = env.track(await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: broker.getPort() }));
});

async function settled(promise: Promise<unknown>): Promise<{ error?: unknown; ms: number }> {
  const started = performance.now();
  try {
    await promise;
    return { ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}

test.each([
  ['without a resend buffer (window -1)', -1],
  ['with a resend buffer', 1024 * 1024],
])(
  'a non-blocking send made during an endless failover, %s, rejects unsent after call-failover-timeout',
  async (_name, confirmationWindowSize) => {
    const factory = await env.connect(proxy.port, {
      confirmationWindowSize,
      reconnectAttempts: -1,
      retryInterval: 50,
      callTimeout: 300,
      connectionTTL: 1_000,
      clientFailureCheckPeriod: 250,
      callFailoverTimeout: CALL_FAILOVER_TIMEOUT,
    });
    const detected: unknown[] = [];
    factory.addFailoverListener((event) => {
      if (event.type === FailoverEventType.FAILURE_DETECTED) detected.push(event.cause);
    });
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    await producer.send(sequenced(0)); // non-durable: block-on-non-durable-send is off

    proxy.blackHole();
    await waitFor(() => detected.length === 1, 'the pings to find the black hole', MARGIN);
    const heldBefore = factory.getStatistics().resendBufferBytes;
    const result = await settled(producer.send(sequenced(1)));
    expect(HornetQException.is(result.error, 'NOT_CONNECTED')).toBe(true);
    expect(String(result.error)).toMatch(
      /Timed out after 500 ms \(call-failover-timeout\) waiting for the failover to end; the call was not sent/,
    );
    expect(result.ms).toBeGreaterThanOrEqual(CALL_FAILOVER_TIMEOUT - 5);
    expect(result.ms).toBeLessThan(CALL_FAILOVER_TIMEOUT + MARGIN);
    // Not kept for a replay either.
    expect(factory.getStatistics().resendBufferBytes).toBe(heldBefore);
    expect(factory.failingOver).toBe(true);
  },
);

test('a failover that ends within call-failover-timeout lets the calls made meanwhile go on', async () => {
  const factory = await env.connect(proxy.port, {
    confirmationWindowSize: -1,
    reconnectAttempts: -1,
    retryInterval: 50,
    callFailoverTimeout: 10_000,
  });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  await producer.send(sequenced(0, { durable: true })); // answered: on the broker before the cut
  proxy.refuseNewConnections();
  proxy.cut();
  await waitFor(() => factory.failingOver, 'the failover to start');
  const sending = settled(producer.send(sequenced(1)));
  const querying = settled(session.queueQuery(QUEUE));
  proxy.pass();
  expect((await sending).error).toBeUndefined();
  expect((await querying).error).toBeUndefined();
  // Re-created (window -1): the send made during the failover went to the new session.
  await waitFor(
    () => broker.listQueues().find((queue) => queue.name === QUEUE)?.messageCount === 2,
    'both messages on the broker',
  );
});
