/**
 * Chaos: four sessions on one factory move numbered messages while a fault proxy resets the link
 * every 20–200 ms on a seeded schedule; every message must arrive exactly once and in order, and
 * every failure must be a reattach. The seed is printed at the start of each run.
 *
 * In `npm test` it sends 20 000 messages. Longer runs:
 *   npm run test:chaos -- --seed N --minutes M      (also --messages K)
 * or set CHAOS_SEED, CHAOS_MESSAGES and CHAOS_MINUTES for jest directly.
 */
import {
  CHAOS_DEFAULTS,
  chaosSettingsFromEnv,
  failoverEventProblems,
  runChaos,
  type ChaosReport,
} from '../../support/chaos-run';

const settings = chaosSettingsFromEnv();
/** Generous: a loaded 2-core machine may be several times slower than an idle one. */
const timeoutMs = (settings.durationMs ?? 0) + 170_000;
const MiB = 1024 * 1024;

describe('chaos: the link is cut every 20-200 ms', () => {
  let report: ChaosReport;

  beforeAll(async () => {
    report = await runChaos(settings);
    settings.log(summary(report));
  }, timeoutMs);

  // Each comparison carries the seed, so that a failure shows how to replay it.
  const seeded = <T>(value: T): { seed: number; value: T } => ({ seed: settings.seed, value });

  test('every message is received exactly once per destination and subscription, in each producer order', () => {
    expect(seeded(report.problems)).toEqual(seeded([]));
    expect(report.sent).toBeGreaterThan(0);
    const mismatched = report.tallies.filter((tally) => tally.received !== tally.sent);
    expect(seeded(mismatched)).toEqual(seeded([]));
    // 2 producers per queue, 2 subscriptions × 2 producers on the topic.
    expect(report.tallies).toHaveLength(10);
    if (settings.durationMs === null) expect(report.sent).toBe(settings.messages);
  });

  test('the broker applied every acknowledgement and commit, and released the connection', () => {
    expect(seeded(report.leftInQueues)).toEqual(
      seeded({
        'chaos.auto': 0,
        'chaos.client': 0,
        'chaos.tx': 0,
        'chaos.topic.durable': 0,
        'chaos.topic.non-durable': 0,
      }),
    );
    expect(seeded([report.brokerConnectionsAfterClose, report.brokerSessionsAfterClose])).toEqual(
      seeded([0, 0]),
    );
  });

  test('every failure was detected and ended in a reattach, never a re-creation', () => {
    expect(report.linksCut).toBeGreaterThan(0);
    expect(seeded(failoverEventProblems(report.events))).toEqual(seeded([]));
    const completed = report.events.filter((event) => event === 'FAILOVER_COMPLETED:true').length;
    expect(completed).toBeGreaterThan(0);
    expect(report.reattaches).toBe(completed);
    expect(report.reconnects).toBe(0);
  });

  test('the resend buffer stays within its bound (2 × the confirmation window, plus one send)', () => {
    expect(report.confirmationWindowSize).toBe(CHAOS_DEFAULTS.confirmationWindowSize);
    expect(report.resendBufferPeakBytes).toBeLessThanOrEqual(2 * report.confirmationWindowSize + 64 * 1024);
  });

  test('the heap returns to its baseline once everything is closed', () => {
    const { heap } = report;
    if (heap.gc) {
      expect(seeded({ broker: heap.brokerCollected, factory: heap.factoryCollected })).toEqual(
        seeded({ broker: true, factory: true }),
      );
      expect(heap.afterBytes - heap.baselineBytes).toBeLessThan(8 * MiB);
    } else {
      // Without a collection the garbage of the run may still be there; a leak of the messages
      // themselves (tens of MiB at this size) would still exceed this.
      expect(heap.afterBytes - heap.baselineBytes).toBeLessThan(64 * MiB);
    }
  });
});

function summary(report: ChaosReport): string {
  const mb = (bytes: number): string => `${(bytes / MiB).toFixed(1)} MiB`;
  return [
    `chaos seed=${report.seed}: ${report.sent} sent, ${report.received} received in ${(report.elapsedMs / 1000).toFixed(1)} s`,
    `${report.cuts} cuts + ${report.midFrameCuts} mid-frame (${report.linksCut} links reset), ${report.reattaches} reattaches, ${report.reconnects} re-creations, ${report.replayedCommands} commands replayed; failover mean ${report.meanFailoverMs.toFixed(1)} ms, longest ${report.longestFailoverMs.toFixed(0)} ms`,
    `resend buffer peak ${mb(report.resendBufferPeakBytes)}; heap ${mb(report.heap.baselineBytes)} -> peak ${mb(report.heap.peakBytes)} -> ${mb(report.heap.afterBytes)} (gc: ${report.heap.gc})`,
    `${report.problemCount} problems${report.problemCount > 0 ? `: ${report.problems.slice(0, 10).join(' | ')}` : ''}`,
  ].join('\n');
}
