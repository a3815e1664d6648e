import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ClientSessionFactory, type ClientSession } from '../../../src';
import { readEnvNumber } from '../../support/env-number';
import { seededRandom } from '../../support/fault-proxy';
import { ChildBroker, makeDataDir, removeDir } from './child-broker';
import {
  CrashHistory,
  EpochClients,
  LARGE_PRODUCER,
  QUEUES,
  checkBody,
  keyOfMessage,
} from './crash-workload';
import { checkHistory, type CheckResult, type MessageKey } from './total-queue-checker';
import { sleep } from '../../support/wait';

/**
 * The kill test behind test/integration/crash/kill.test.ts and `npm run test:crash`: one data
 * directory, a broker process started on it again and again, each time killed with SIGKILL at a
 * seeded moment while the clients of crash-workload.ts load it (now and then already while it
 * loads its journal, before it listens). After each restart every queue is browsed (a snapshot)
 * before any client runs; at the end everything left is drained and acknowledged, the broker is
 * killed once more, and the queues must then be empty. The checker judges the whole history.
 */

export interface CrashSettings {
  /** Seeds the kill schedule and the workload's choices; printed first so a run can be replayed. */
  readonly seed: number;
  /** Kills under load (a cap when durationMs is set). */
  readonly kills: number;
  /** When set, the run goes on killing until this long has passed (or `kills` were done). */
  readonly durationMs: number | null;
  readonly producers: number;
  /** A kill comes this long after the clients started: uniform in min..max. */
  readonly minLoadMs: number;
  readonly maxLoadMs: number;
  /** The chance that a restart is killed while the broker starts (before it listens). */
  readonly startupKillChance: number;
  /**
   * The chance that a kill under load comes 0-5 ms after a new large-message file appears, when a
   * commit carrying it may be waiting for it (the review's kill), rather than at a random moment.
   */
  readonly largeFileKillChance: number;
  readonly maxBacklog: number;
  readonly log: (line: string) => void;
}

export const CRASH_DEFAULTS = {
  kills: 10,
  producers: 3,
  minLoadMs: 100,
  maxLoadMs: 1_500,
  startupKillChance: 0.15,
  largeFileKillChance: 0.4,
  maxBacklog: 400,
} as const;

export interface CrashReport {
  readonly seed: number;
  readonly elapsedMs: number;
  /** Broker starts, kills under load, kills while starting. */
  readonly epochs: number;
  readonly kills: number;
  readonly startupKills: number;
  readonly events: number;
  readonly outcomes: Readonly<Record<string, number>>;
  /** What the queues held after the final drain and one more kill (should be nothing). */
  readonly leftAfterDrain: number;
  readonly harnessProblems: readonly string[];
  readonly result: CheckResult;
}

/** Reads CRASH_SEED, CRASH_KILLS and CRASH_MINUTES; anything invalid throws naming the variable. */
export function crashSettingsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = (line) => console.log(line),
): CrashSettings {
  const seed = readEnvNumber(
    env,
    'CRASH_SEED',
    (v) => Number.isInteger(v) && v >= 0 && v < 2 ** 32,
    'an integer in 0..4294967295',
  );
  const kills = readEnvNumber(env, 'CRASH_KILLS', (v) => Number.isInteger(v) && v >= 1, 'an integer >= 1');
  const minutes = readEnvNumber(
    env,
    'CRASH_MINUTES',
    (v) => v > 0 && v <= 24 * 60,
    'a number of minutes in (0, 1440]',
  );
  return {
    ...CRASH_DEFAULTS,
    seed: seed ?? Math.floor(Math.random() * 2 ** 32),
    kills: kills ?? (minutes === null ? CRASH_DEFAULTS.kills : Number.MAX_SAFE_INTEGER),
    durationMs: minutes === null ? null : minutes * 60_000,
    log,
  };
}

export async function runCrash(settings: CrashSettings): Promise<CrashReport> {
  settings.log(`crash run: seed ${settings.seed} (replay: npm run test:crash -- --seed ${settings.seed})`);
  const schedule = seededRandom(settings.seed);
  const history = new CrashHistory(seededRandom(settings.seed ^ 0x5bd1e995));
  const dataDir = await makeDataDir();
  const started = Date.now();
  let epoch = 0;
  let kills = 0;
  let startupKills = 0;
  let broker: ChildBroker | null = null;
  try {
    const more = (): boolean =>
      kills < settings.kills && (settings.durationMs === null || Date.now() - started < settings.durationMs);
    while (more()) {
      epoch++;
      if (schedule() < settings.startupKillChance) {
        broker = ChildBroker.spawn(dataDir);
        // Up to 600 ms: some kills land before the journal opens, some while it loads.
        await sleep(schedule() * 600);
        await broker.kill();
        startupKills++;
        continue;
      }
      broker = await ChildBroker.start(dataDir);
      const queued = await snapshot(history, epoch, broker.port);
      const clients = new EpochClients(history, epoch, broker.port, settings, queued);
      const running = clients.run();
      const loadMs = settings.minLoadMs + schedule() * (settings.maxLoadMs - settings.minLoadMs);
      const afterLargeFile = schedule() < settings.largeFileKillChance;
      const lateMs = schedule() * 5;
      if (afterLargeFile) await newLargeMessageFile(dataDir, settings.maxLoadMs + 2_000);
      else await sleep(loadMs);
      await sleep(lateMs);
      clients.end();
      await broker.kill();
      kills++;
      await running;
      await clients.close();
      if (kills % 10 === 0) settings.log(`crash run: ${kills} kills, ${history.events.length} events`);
    }
    epoch++;
    broker = await ChildBroker.start(dataDir);
    await snapshot(history, epoch, broker.port);
    await drain(history, epoch, broker.port);
    await broker.kill();
    epoch++;
    broker = await ChildBroker.start(dataDir);
    const leftAfterDrain = await snapshot(history, epoch, broker.port);
    await broker.stop();
    const result = checkHistory(history.events);
    return {
      seed: settings.seed,
      elapsedMs: Date.now() - started,
      epochs: epoch,
      kills,
      startupKills,
      events: history.events.length,
      outcomes: tallyOutcomes(history),
      leftAfterDrain,
      harnessProblems: history.harnessProblems,
      result,
    };
  } finally {
    await broker?.kill();
    await removeDir(dataDir);
  }
}

/** Browses every queue (no consumer runs yet); returns how many messages they held. */
async function snapshot(history: CrashHistory, epoch: number, port: number): Promise<number> {
  return withSession(port, async (session) => {
    session.start();
    let total = 0;
    for (const queue of QUEUES) {
      const { messageCount } = await session.queueQuery(queue);
      const browser = await session.createConsumer(queue, { browseOnly: true });
      const keys: MessageKey[] = [];
      for (;;) {
        // Receive what the count says with a generous wait, then make sure nothing follows.
        const message =
          keys.length < messageCount ? await browser.receive(10_000) : await browser.receiveImmediate();
        if (message === null) break;
        const key = keyOfMessage(message.message, queue);
        checkBody(history, epoch, key, message.message);
        keys.push(key);
      }
      await browser.close();
      if (keys.length < messageCount) {
        history.harnessProblems.push(
          `epoch ${epoch}: ${queue} counts ${messageCount} messages but browsing gave ${keys.length}`,
        );
      }
      history.record({ type: 'snapshot', epoch, queue, keys });
      total += keys.length;
    }
    return total;
  });
}

/** Takes and acknowledges (blocking) everything the queues hold. */
async function drain(history: CrashHistory, epoch: number, port: number): Promise<void> {
  await withSession(port, async (session) => {
    session.start();
    for (const queue of QUEUES) {
      const consumer = await session.createConsumer(queue);
      for (;;) {
        const message = await consumer.receive(1_000);
        if (message === null) {
          if ((await session.queueQuery(queue)).messageCount === 0) break;
          continue;
        }
        const key = keyOfMessage(message.message, queue);
        history.record({ type: 'receive', epoch, key });
        await consumer.individualAcknowledge(message);
        history.record({ type: 'ack', epoch, keys: [key], outcome: 'ok' });
      }
      await consumer.close();
    }
  });
}

async function withSession<T>(port: number, use: (session: ClientSession) => Promise<T>): Promise<T> {
  const factory = await ClientSessionFactory.connect({
    connectors: [{ host: '127.0.0.1', port }],
    callTimeout: 30_000,
    blockOnAcknowledge: true,
  });
  try {
    return await use(await factory.createSession());
  } finally {
    await factory.close();
  }
}

function tallyOutcomes(history: CrashHistory): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const event of history.events) {
    if (event.type === 'receive' || event.type === 'snapshot') continue;
    const large = event.type === 'transaction' && event.sends.some((key) => key.producer === LARGE_PRODUCER);
    const name = `${large ? 'large-message ' : ''}${event.type} ${event.outcome}`;
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

/**
 * Resolves when a large-message file appears that was not there when called (or after
 * `timeoutMs`, when none did): `hornetq server --data-dir D` keeps them in D/data/largemessages.
 */
async function newLargeMessageFile(dataDir: string, timeoutMs: number): Promise<void> {
  const directory = path.join(dataDir, 'data', 'largemessages');
  const names = async (): Promise<string[]> => fs.readdir(directory).catch(() => []);
  const before = new Set(await names());
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await names()).some((name) => !before.has(name))) return;
    await sleep(1);
  }
}

/** One paragraph for the log: what ran and what the checker found. */
export function crashSummary(report: CrashReport): string {
  const { result } = report;
  return [
    `crash run: seed ${report.seed}, ${(report.elapsedMs / 1000).toFixed(1)} s, ${report.epochs} broker starts, ${report.kills} kills under load, ${report.startupKills} while starting`,
    `  outcomes: ${JSON.stringify(report.outcomes)}`,
    `  checker: ${result.valid ? 'valid' : 'INVALID'}; attempted ${result.attempted}, acknowledged ${result.acknowledged}, seen ${result.seen}, recovered ${result.recovered}, lost ${result.lost.length}, unexpected ${result.unexpected.length}, duplicated ${result.duplicated.length}, problems ${result.problems.length}`,
    `  left after the final drain and kill: ${report.leftAfterDrain}; harness problems: ${report.harnessProblems.length}`,
    ...result.problems.slice(0, 20).map((problem) => `  problem: ${problem}`),
    ...result.lost.slice(0, 20).map((id) => `  lost: ${id}`),
    ...report.harnessProblems.slice(0, 20).map((problem) => `  harness: ${problem}`),
  ].join('\n');
}
