import { HornetQException, type Broker, type ClientOptions, type ClientSessionFactory } from '../../src';
import { FailoverEventType, type FailoverEvent } from '../../src/core/client';
import { FaultProxy } from '../support/fault-proxy';
import { seqOf, sequenced, useTestBrokers, waitFor } from '../support/test-broker';

const QUEUE = 'jms.queue.calls';
const OTHER = 'jms.queue.calls-other';
const queues = [
  { name: QUEUE, address: QUEUE, filter: null, durable: true },
  { name: OTHER, address: OTHER, filter: null, durable: true },
];
const CALL_TIMEOUT = 1_500;
/** How late a settlement may be on a loaded 2-core machine. */
const MARGIN = 3_000;

/** How a promise settled, and when (ms after `since`). */
async function outcome(
  promise: Promise<unknown>,
  since: number,
): Promise<{ value?: unknown; error?: unknown; after: number }> {
  try {
    const value = await promise;
    return { value, after: performance.now() - since };
  } catch (error) {
    return { error, after: performance.now() - since };
  }
}

function codeOf(settled: { error?: unknown }): string | undefined {
  return HornetQException.is(settled.error) ? settled.error.code : undefined;
}

describe('blocking calls are bounded', () => {
  const env = useTestBrokers();
  let broker: Broker;
  let proxy: FaultProxy;

  /** A factory connected through the fault proxy; reconnection off, so a failure is final. */
  async function throughProxy(options: Partial<ClientOptions> = {}): Promise<ClientSessionFactory> {
    return env.connect(proxy.port, { callTimeout: CALL_TIMEOUT, reconnectAttempts: 0, ...options });
  }

  beforeEach(async () => {
    broker = await env.startBroker({ queues });
    proxy = env.track(await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: broker.getPort() }));
  });

  test('against a broker that never answers, calls reject with CONNECTION_TIMEDOUT after callTimeout', async () => {
    const factory = await throughProxy();
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    await producer.send(sequenced(0, { durable: true }));

    proxy.blackHole();
    const started = performance.now();
    const results = await Promise.all([
      outcome(session.queueQuery(QUEUE), started),
      outcome(producer.send(sequenced(1, { durable: true })), started),
      outcome(factory.createSession(), started),
      outcome(session.createConsumer(QUEUE), started),
    ]);
    for (const result of results) {
      expect(codeOf(result)).toBe('CONNECTION_TIMEDOUT');
      // setTimeout may fire a millisecond early by performance.now().
      expect(result.after).toBeGreaterThanOrEqual(CALL_TIMEOUT - 5);
      expect(result.after).toBeLessThanOrEqual(CALL_TIMEOUT + MARGIN);
    }
    // A timeout is not a connection failure: the factory is still open.
    expect(factory.closed).toBe(false);
    proxy.cut();
  });

  test('an answer that comes after the timeout changes nothing, and the session goes on working', async () => {
    const factory = await throughProxy();
    const session = await factory.createSession();
    // Every byte is held, not dropped: the answer arrives, too late.
    proxy.delay(CALL_TIMEOUT + 500);
    const bytesBefore = proxy.bytesToClient;
    const started = performance.now();
    const late = await outcome(session.queueQuery(QUEUE), started);
    expect(codeOf(late)).toBe('CONNECTION_TIMEDOUT');
    expect(late.after).toBeLessThanOrEqual(CALL_TIMEOUT + MARGIN);

    // The late answer reaches the client (and is dropped there); calls work again afterwards.
    await waitFor(() => proxy.bytesToClient > bytesBefore, 'the late answer');
    proxy.pass();
    const producer = session.createProducer(QUEUE);
    await producer.send(sequenced(7, { durable: true }));
    expect(await session.queueQuery(QUEUE)).toMatchObject({ exists: true, messageCount: 1 });
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const received = await consumer.receive(10_000);
    expect(received === null ? null : seqOf(received)).toBe(7);
  });

  test('a cut connection releases every pending call with UNBLOCKED and every receive with null', async () => {
    // A long call timeout: what settles the calls must be the cut, not the clock.
    const factory = await throughProxy({ callTimeout: 60_000 });
    const events: FailoverEvent[] = [];
    const failures: Array<[string, boolean]> = [];
    factory.addFailoverListener((event) => events.push(event));
    factory.addFailureListener((error, failedOver) => failures.push([error.code, failedOver]));
    const session = await factory.createSession();
    const consumer = await session.createConsumer(QUEUE);
    const handlerConsumer = await session.createConsumer(OTHER);
    const handled: unknown[] = [];
    handlerConsumer.setMessageHandler((message) => void handled.push(message));
    session.start();
    const producer = session.createProducer(QUEUE);
    await producer.send(sequenced(0, { durable: true }));
    const first = await consumer.receive(10_000);
    expect(first === null ? null : seqOf(first)).toBe(0);
    await waitFor(() => broker.getSessionCount() === 1, 'the broker to have the session');

    // Requests now go nowhere and nothing comes back, so everything below stays pending.
    proxy.blackHole();
    const started = performance.now();
    const pending = {
      query: outcome(session.queueQuery(QUEUE), started),
      durableSend: outcome(producer.send(sequenced(1, { durable: true })), started),
      // A first send to another address waits for producer credits that never come.
      creditWait: outcome(session.createProducer(OTHER).send(sequenced(2)), started),
      stop: outcome(session.stop(), started),
      receiveForever: outcome(consumer.receive(), started),
      receiveLong: outcome(consumer.receive(60_000), started),
    };
    // Give the requests time to reach the black hole (they would fail the same way if they had not).
    await waitFor(() => proxy.bytesDropped > 0, 'the requests to be swallowed');

    proxy.cut();
    const settled = {
      query: await pending.query,
      durableSend: await pending.durableSend,
      creditWait: await pending.creditWait,
      stop: await pending.stop,
      receiveForever: await pending.receiveForever,
      receiveLong: await pending.receiveLong,
    };
    for (const name of ['query', 'durableSend', 'creditWait', 'stop'] as const) {
      expect([name, codeOf(settled[name])]).toEqual([name, 'UNBLOCKED']);
    }
    for (const name of ['receiveForever', 'receiveLong'] as const) {
      expect([name, settled[name].error, settled[name].value]).toEqual([name, undefined, null]);
    }
    for (const result of Object.values(settled)) expect(result.after).toBeLessThan(10_000);

    // Reconnection is off: the failure is final, reported once, and the session is closed.
    expect(events.map((event) => event.type)).toEqual([
      FailoverEventType.FAILURE_DETECTED,
      FailoverEventType.FAILOVER_FAILED,
    ]);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.[1]).toBe(false);
    expect(session.closed).toBe(true);
    expect(factory.closed).toBe(true);
    expect(consumer.closed).toBe(true);
    expect(handled).toEqual([]);
    await expect(session.queueQuery(QUEUE)).rejects.toMatchObject({ code: 'OBJECT_CLOSED' });

    // The broker clears the session up; the unacknowledged message goes back to the queue.
    await waitFor(() => broker.getSessionCount() === 0, 'the broker to drop the session');
    const check = await (await env.connect(broker)).createSession();
    expect(await check.queueQuery(QUEUE)).toMatchObject({ messageCount: 1, consumerCount: 0 });
  });

  test('a connection that dies while the factory is closing does not hold close() for the call timeout', async () => {
    const factory = await throughProxy({ callTimeout: 60_000 });
    await factory.createSession();
    await factory.createSession();
    proxy.blackHole();
    const started = performance.now();
    const closing = outcome(factory.close(), started);
    await waitFor(() => proxy.bytesDropped > 0, 'the close requests to be swallowed');
    proxy.cut();
    const closed = await closing;
    expect(closed.error).toBeUndefined();
    expect(closed.after).toBeLessThan(10_000);
    expect(factory.sessionCount).toBe(0);
  });

  test('a cut while idle ends the factory: closing it afterwards settles at once', async () => {
    const factory = await throughProxy({ callTimeout: 60_000 });
    const session = await factory.createSession();
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const receiving = consumer.receive();
    proxy.cut();
    await expect(receiving).resolves.toBeNull();
    await waitFor(() => factory.closed, 'the factory to notice the failure');
    const started = performance.now();
    await factory.close();
    await session.close();
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
