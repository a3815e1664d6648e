import { range, receiveCount, seqOf, sequenced, waitFor } from '../../support/test-broker';
import { QUEUE, WINDOW, sendRange, useReattachKit } from './rig';

/**
 * getStatistics(): failures survived by reattaching and by re-creating, commands replayed, and
 * the resend buffer's bytes and peak, which the bound of 2 × confirmation-window-size must cap.
 */

const kit = useReattachKit();
const KB = 1024;

test('reattaches and reconnects are counted apart', async () => {
  const rig = await kit.rig({ client: { connectionTTL: 500, clientFailureCheckPeriod: 100 } });
  const { broker, proxy, factory, recorder } = rig;
  const session = await factory.createSession();
  expect(factory.getStatistics()).toMatchObject({ reattaches: 0, reconnects: 0, replayedCommands: 0 });
  proxy.cut();
  await recorder.ended(1);
  expect(factory.getStatistics()).toMatchObject({ reattaches: 1, reconnects: 0 });
  // Silent past the TTL: the broker forgets the session, the client must re-create it.
  proxy.refuseNewConnections();
  proxy.blackHole();
  await waitFor(() => broker.getConnectionCount() === 0, 'the broker to reap the connection');
  proxy.pass();
  await recorder.ended(2);
  expect(factory.getStatistics()).toMatchObject({ reattaches: 1, reconnects: 1 });
  proxy.cut();
  await recorder.ended(3);
  expect(factory.getStatistics()).toMatchObject({ reattaches: 2, reconnects: 1 });
  expect(recorder.trace.filter((t) => t !== 'FAILURE_DETECTED')).toEqual([
    'FAILOVER_COMPLETED:true',
    'FAILOVER_COMPLETED:false',
    'FAILOVER_COMPLETED:true',
  ]);
  await session.createProducer(QUEUE).send(sequenced(1, { durable: true }));
  expect(broker.listQueues().find((q) => q.name === QUEUE)?.messageCount).toBe(1);
});

test('commands the broker never got are replayed and counted; the buffer empties once they are confirmed', async () => {
  const { proxy, factory, recorder } = await kit.rig();
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  await sendRange(producer, 0, 5);
  await waitFor(() => factory.getStatistics().resendBufferBytes === 0, 'the first sends to be confirmed');
  proxy.blackHole();
  await sendRange(producer, 5, 15);
  const held = factory.getStatistics().resendBufferBytes;
  expect(held).toBeGreaterThan(10 * 13);
  proxy.pass();
  proxy.cut();
  await recorder.ended(1);
  const stats = factory.getStatistics();
  expect(stats.replayedCommands).toBeGreaterThanOrEqual(10);
  expect(stats.resendBufferPeakBytes).toBeGreaterThanOrEqual(held);
  // The broker confirms on its timer (100 ms here): nothing stays held.
  await waitFor(() => factory.getStatistics().resendBufferBytes === 0, 'the replayed sends to be confirmed');
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  expect((await receiveCount(consumer, 15)).map(seqOf)).toEqual(range(15));
});

/**
 * Fills the resend buffer faster than the broker confirms (no producer credits in the way) and
 * returns the statistics after every message arrived in order.
 */
async function sendFast(window: number, size: number, count: number) {
  const { factory } = await kit.rig({ client: { confirmationWindowSize: window, producerWindowSize: -1 } });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  await sendRange(producer, 0, count, { body: Buffer.alloc(size) });
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  expect((await receiveCount(consumer, count)).map(seqOf)).toEqual(range(count));
  const stats = factory.getStatistics();
  // The producer outran the broker's confirmations: the bound was reached.
  expect(stats.resendBufferPeakBytes).toBeGreaterThan(window);
  return stats;
}

const SIZES: Array<[string, number, number, number]> = [
  // A window well under 64 KiB: the bound is 2 × the window, not some larger floor.
  ['16 KiB window, 1 KiB messages', 16 * KB, KB, 2000],
  ['64 KiB window, 1 KiB messages', 64 * KB, KB, 2000],
  ['1 MiB window, 16 KiB messages', WINDOW, 16 * KB, 400],
];

describe('the resend buffer peak', () => {
  test.each(SIZES)(
    '%s: never more than one message past 2 × the window',
    async (_name, window, size, count) => {
      const stats = await sendFast(window, size, count);
      expect(stats.resendBufferPeakBytes).toBeLessThanOrEqual(2 * window + size + 100);
    },
  );

  // DESIGN "The reattach contract" 2: a sender waits while the bytes would exceed the bound.
  test.each(SIZES)('%s: at most 2 × the window (strict contract)', async (_name, window, size, count) => {
    const stats = await sendFast(window, size, count);
    expect(stats.resendBufferPeakBytes).toBeLessThanOrEqual(2 * window);
  });
});
