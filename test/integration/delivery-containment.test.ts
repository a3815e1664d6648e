import {
  CoreMessage,
  PropertyKind,
  selectorFilterFactory,
  type Broker,
  type BrokerConfiguration,
  type ClientSessionFactory,
} from '../../src';
import { InMemoryStorage } from '../../src/server/storage/in-memory-storage';
import type { Filter } from '../../src/server/postoffice/filter';
import { CapturingLogger, seqOf, sequenced, useTestBrokers, waitFor } from '../support/test-broker';
import { queueStats } from './broker-features/support';
import { useNoUncaughtErrors } from '../support/uncaught-errors';

/**
 * A delivery that throws is the broker's fault, not a client's, and it runs from a delivery pass
 * that nothing above catches: it must close the connection it was for (with the reason in the
 * log), leave every other client alone, and never reach the event loop (which would end the
 * process: here, the test worker, so uncaught exceptions are counted instead).
 */
const SHARED = 'jms.queue.shared';
const OTHER = 'jms.queue.other';
const BIG = 'jms.queue.big';
const THROWING_FILTER = 'throws';

/** Selectors as usual, plus one filter that throws: an honest stand-in for a faulty one. */
function filterFactory(expression: string): Filter {
  if (expression !== THROWING_FILTER) return selectorFilterFactory(expression);
  return {
    expression,
    match: () => {
      throw new Error('this filter is broken');
    },
  };
}

describe('an exception from a delivery fails its connection alone', () => {
  const env = useTestBrokers();
  useNoUncaughtErrors();

  function startBroker(config: Partial<BrokerConfiguration>): Promise<Broker> {
    return env.startBroker(config, { filterFactory });
  }

  const queues = (...names: string[]) =>
    names.map((name) => ({ name, address: name, filter: null, durable: true }));

  /** Counts the failures its factory reports (reconnect-attempts 0: a failure is final). */
  function failuresOf(factory: ClientSessionFactory): unknown[] {
    const failures: unknown[] = [];
    factory.addFailureListener((error) => failures.push(error));
    return failures;
  }

  test('a consumer whose filter throws loses its connection; a competing consumer gets every message', async () => {
    const logger = new CapturingLogger();
    const broker = await startBroker({ queues: queues(SHARED), logger });
    const faulty = await env.connect(broker);
    const faultyFailures = failuresOf(faulty);
    const faultySession = await faulty.createSession();
    await faultySession.createConsumer(SHARED, { filter: THROWING_FILTER });
    faultySession.start();

    const healthy = await env.connect(broker);
    const healthyFailures = failuresOf(healthy);
    const session = await healthy.createSession();
    const consumer = await session.createConsumer(SHARED);
    session.start();
    const producer = session.createProducer(SHARED);
    for (let seq = 0; seq < 20; seq++) await producer.send(sequenced(seq, { durable: true }));

    const seqs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const received = await consumer.receive(10_000);
      if (received === null) throw new Error(`only ${i} of 20 messages arrived`);
      seqs.push(seqOf(received));
      await received.acknowledge();
    }
    expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => i));
    await waitFor(() => faultyFailures.length > 0, 'the faulty consumer connection to fail');
    expect(healthyFailures).toEqual([]);
    expect(broker.getConnectionCount()).toBe(1);
    expect(
      logger.find(/delivery to consumer \d+ on queue jms\.queue\.shared failed: this filter is broken/, [
        'error',
      ]),
    ).not.toEqual([]);
  });

  test('a stored message this broker cannot frame fails the connection of each consumer it goes to, and no other', async () => {
    // Stored by a broker with a larger frame cap; this one has a smaller one (an operator lowered it).
    const storage = new InMemoryStorage();
    const before = await startBroker({ queues: queues(BIG, OTHER), storage });
    const sender = await env.connect(before);
    const big = new CoreMessage();
    big.durable = true;
    big.properties.set('big', { kind: PropertyKind.STRING, value: 'x'.repeat(2 * 1024 * 1024) });
    await (await sender.createSession()).createProducer(BIG).send(big);
    await env.closeAll();

    const logger = new CapturingLogger();
    const broker = await startBroker({
      queues: queues(BIG, OTHER),
      storage,
      logger,
      maxFrameBytes: 1024 * 1024,
    });
    expect(queueStats(broker, BIG).messageCount).toBe(1);
    const other = await env.connect(broker);
    const otherFailures = failuresOf(other);
    const otherSession = await other.createSession();
    const otherConsumer = await otherSession.createConsumer(OTHER);
    otherSession.start();

    const faulty = await env.connect(broker);
    const faultyFailures = failuresOf(faulty);
    const faultySession = await faulty.createSession();
    await faultySession.createConsumer(BIG);
    faultySession.start();
    await waitFor(() => faultyFailures.length > 0, 'the connection of the consumer on BIG to fail');
    expect(
      logger.find(
        /delivery to consumer \d+ on queue jms\.queue\.big failed: .*exceeds the maximum frame size of 1048576 bytes/,
        ['error'],
      ),
    ).not.toEqual([]);

    // The message is back in its queue (its delivery failed with the connection), nothing leaked.
    await waitFor(() => queueStats(broker, BIG).deliveringCount === 0, 'the failed delivery to come back');
    expect(queueStats(broker, BIG).messageCount).toBe(1);
    await otherSession.createProducer(OTHER).send(sequenced(7, { durable: true }));
    const received = await otherConsumer.receive(10_000);
    expect(received === null ? null : seqOf(received)).toBe(7);
    await received?.acknowledge();
    expect(otherFailures).toEqual([]);
    expect(broker.started).toBe(true);
  });
});
