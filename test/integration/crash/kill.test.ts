/**
 * Kill -9: a broker process on one data directory is killed with SIGKILL at seeded moments under
 * load (blocking durable sends from numbered producers, transactions that move messages from one
 * queue to another, a transacted producer, transactions of 150 KiB large messages, a consumer
 * acknowledging), many times, and restarted on the same directory each time; sometimes it is killed
 * while it loads its journal, often a few ms after a large-message file appears. The total-queue
 * checker then judges everything the clients saw: no acknowledged send lost, nothing unexpected,
 * nothing acknowledged back, every transaction all or nothing, each producer's order kept. The
 * seed is printed first.
 *
 * In `npm test` it kills 10 times. Longer runs:
 *   npm run test:crash -- --seed N --minutes M      (also --kills K)
 * or set CRASH_SEED, CRASH_KILLS and CRASH_MINUTES for jest directly.
 */
import { killChildBrokers } from './child-broker';
import { crashSettingsFromEnv, crashSummary, runCrash, type CrashReport } from './crash-run';

const settings = crashSettingsFromEnv();
/** Generous: a loaded 2-core machine may start a process several times slower than an idle one. */
const timeoutMs = (settings.durationMs ?? 0) + 240_000;

describe('kill -9 under load, restarted on the same data directory', () => {
  let report: CrashReport;

  beforeAll(async () => {
    report = await runCrash(settings);
    settings.log(crashSummary(report));
  }, timeoutMs);

  afterAll(killChildBrokers);

  // Each comparison carries the seed, so that a failure shows how to replay it; lists show their
  // first 20 entries and their length (the summary printed above has the rest).
  const seeded = <T>(value: T): { seed: number; value: T } => ({ seed: settings.seed, value });
  const firstOf = (list: readonly string[]): { count: number; first: readonly string[] } => ({
    count: list.length,
    first: list.slice(0, 20),
  });
  const none = { count: 0, first: [] };

  test('no acknowledged send is lost and nothing unexpected appears', () => {
    expect(
      seeded({ lost: firstOf(report.result.lost), unexpected: firstOf(report.result.unexpected) }),
    ).toEqual(seeded({ lost: none, unexpected: none }));
    expect(report.result.acknowledged).toBeGreaterThan(0);
  });

  test('nothing acknowledged comes back, each transaction is all or nothing, each producer keeps its order', () => {
    expect(seeded(firstOf(report.result.problems))).toEqual(seeded(none));
    expect(seeded(report.leftAfterDrain)).toEqual(seeded(0));
  });

  test('only sends whose answer never came may be duplicated; no call failed before a kill', () => {
    expect(report.result.valid).toBe(true);
    expect(seeded(firstOf(report.harnessProblems))).toEqual(seeded(none));
  });

  test('the broker was killed under load, and the load did commit, roll back and acknowledge', () => {
    expect(report.kills).toBe(settings.durationMs === null ? settings.kills : report.kills);
    expect(report.kills).toBeGreaterThan(0);
    for (const outcome of [
      'send ok',
      'transaction ok',
      'transaction rolled-back',
      'ack ok',
      'large-message transaction ok',
    ]) {
      expect(seeded({ outcome, count: report.outcomes[outcome] ?? 0 })).not.toEqual(
        seeded({ outcome, count: 0 }),
      );
    }
  });
});
