/**
 * `npm start`: transparent session reattachment, shown and checked. Starts the broker from
 * config/ (EmbeddedJMS), connects a JMS producer and a JMS consumer through a local link proxy,
 * resets the link several times while messages flow, then checks that every message arrived
 * exactly once and in order and that every session was reattached rather than re-created.
 * Exits 0 when every check holds, 1 with the reasons otherwise.
 */
import path from 'node:path';
import { HornetQConnectionFactory, type Queue } from '../jms';
import { defaultConfigDir } from '../jndi/config-files';
import { startDemoBroker, type DemoBroker } from './demo-broker';
import { LinkProxy } from './demo-link-proxy';
import {
  sleep,
  startTraffic,
  STREAMS,
  WatchedConnection,
  type Traffic,
  type TrafficPlan,
} from './demo-traffic';

const WINDOW = 1024 * 1024;
/**
 * The demo user of config/hornetq-users.xml (security is on in the shipped config/): the demo logs
 * in as a user would, and the README says which password it has.
 */
const DEMO_USER = 'demo';
const DEMO_PASSWORD = 'demo';
const CUTS = 5;
const PLAN: TrafficPlan = { auto: 15_000, persistentEvery: 4, tx: 5_000, txBatch: 50, maxInFlight: 2_000 };
const TOTAL = PLAN.auto + PLAN.tx;
/** The whole run normally takes a few seconds; past this it has stalled, and says so. */
const DEADLINE_MS = 50_000;

interface Check {
  ok: boolean;
  label: string;
  detail: string;
}

const n = (value: number): string => value.toLocaleString('en-US');
const kib = (bytes: number): string => `${n(Math.round(bytes / 1024))} KiB`;
const mib = (bytes: number): string => `${bytes / (1024 * 1024)} MiB`;
const ms = (value: number): string => `${Math.round(value)} ms`;

async function main(): Promise<boolean> {
  const started = performance.now();
  let progress = 'starting the broker';
  const watchdog = setTimeout(() => {
    console.error(`FAIL: the demo did not finish within ${DEADLINE_MS / 1000} s (${progress})`);
    process.exit(1);
  }, DEADLINE_MS);
  watchdog.unref();

  console.log('hornetq-js: transparent session reattachment, shown and checked\n');
  const configDir = defaultConfigDir();
  const broker = await startDemoBroker(configDir);
  const opened: Array<() => Promise<void>> = [() => broker.stop()];
  let outcome: Outcome;
  try {
    outcome = await demonstrate(broker, configDir, opened, (text) => (progress = text));
  } finally {
    progress = 'closing';
    for (const close of opened) await close();
    clearTimeout(watchdog);
  }

  // Checked once everything is closed, so that a warning from the shutdown counts too.
  const problems = broker.log.problems;
  const checks = [
    ...outcome.checks,
    {
      ok: problems.length === 0,
      label: 'broker log clean, shutdown included',
      detail: problems.length === 0 ? 'no warning or error' : problems.slice(0, 3).join(' | '),
    },
  ];
  console.log(`\nsummary (${ms(performance.now() - started)})`);
  for (const check of checks) {
    console.log(`  ${check.ok ? 'ok  ' : 'FAIL'} ${check.label.padEnd(38)} ${check.detail}`);
  }
  const failed = checks.filter((check) => !check.ok);
  if (failed.length > 0) {
    console.error(`\nFAIL: ${failed.map((check) => check.label).join('; ')}`);
    for (const problem of outcome.firstProblems) console.error(`  ${problem}`);
    return false;
  }
  console.log(
    `\nPASS: ${n(TOTAL)} messages arrived exactly once and in order through ${CUTS} link cuts; every session was reattached, none re-created`,
  );
  return true;
}

interface Outcome {
  checks: Check[];
  /** The first gaps, repeats and reorders the consumer saw, to explain a failure. */
  firstProblems: string[];
}

/**
 * Everything between the broker's start and the shutdown: lookup, proxy, clients, traffic, cuts,
 * and the checks on what happened. What it opens is pushed on `opened` (closed by the caller).
 */
async function demonstrate(
  broker: DemoBroker,
  configDir: string,
  opened: Array<() => Promise<void>>,
  setProgress: (text: string) => void,
): Promise<Outcome> {
  const port = broker.jms.getPort();
  const shownDir = path.relative(process.cwd(), configDir) || '.';
  if (broker.fallbackFrom !== null) {
    console.log(
      `broker    port ${broker.fallbackFrom} is taken on this machine: started from ${shownDir}/ on free port ${port} instead`,
    );
  } else {
    console.log(
      `broker    started from ${shownDir}/ (hornetq-configuration.xml, hornetq-jms.xml) on port ${port}`,
    );
  }

  console.log(
    `journal   ${broker.dataDirectory}/data (persistent messages on disk before they are confirmed; removed at exit)`,
  );

  // Looked up by the names hornetq-jms.xml binds, as an application would.
  const configured = broker.jms.lookup<HornetQConnectionFactory>('/ConnectionFactory');
  const queue = broker.jms.lookup<Queue>('/queue/ExampleQueue');
  const target = configured.getStaticConnectors()[0];
  const host = target?.host ?? 'localhost';
  const proxy = await LinkProxy.start(host, target?.port ?? port);
  opened.unshift(() => proxy.close());
  console.log(
    `lookup    /ConnectionFactory -> tcp://${host}:${target?.port ?? port}, /queue/ExampleQueue -> ${queue.getQueueName()}`,
  );
  console.log(`proxy     127.0.0.1:${proxy.port} relays to the broker; both clients connect through it`);

  const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: proxy.port });
  factory.setConfirmationWindowSize(WINDOW);
  factory.setReconnectAttempts(-1);
  factory.setRetryInterval(100);
  factory.setRetryJitter(0.2);
  opened.unshift(() => factory.close());
  console.log(
    `clients   confirmation window ${mib(factory.getConfirmationWindowSize())}, reconnect attempts ${factory.getReconnectAttempts()} (unlimited), retry interval ${factory.getRetryInterval()} ms`,
  );
  const producer = new WatchedConnection(
    'producer',
    await factory.createConnection(DEMO_USER, DEMO_PASSWORD),
  );
  const consumer = new WatchedConnection(
    'consumer',
    await factory.createConnection(DEMO_USER, DEMO_PASSWORD),
  );
  console.log(
    `login     both as user ${DEMO_USER} (${shownDir}/hornetq-users.xml; security-enabled, the demo role may do everything)`,
  );

  console.log(
    `traffic   ${n(TOTAL)} messages on ExampleQueue: ${n(PLAN.auto)} from an auto-ack session (every ${PLAN.persistentEvery}th persistent), ` +
      `${n(PLAN.tx)} persistent from a transacted session in commits of ${PLAN.txBatch}`,
  );
  setProgress('creating sessions');
  const traffic = await startTraffic(producer.connection, consumer.connection, queue, PLAN);
  const sessionsBefore = broker.jms.getSessionCount();
  const report = (): string => `${n(traffic.sent())} sent, ${n(traffic.received())} received`;
  const cuts = await cutWhileFlowing(proxy, traffic, [producer, consumer], report, setProgress);
  setProgress(`waiting for the last messages: ${report()}`);
  await Promise.all([traffic.produced, traffic.consumed]);
  const queueDrained = await drained(broker);
  // A duplicate would have to come after the last message: give it the chance to show up.
  await sleep(250);

  return {
    checks: verify(broker, traffic, [producer, consumer], cuts, sessionsBefore, queueDrained),
    firstProblems: Object.values(traffic.tallies).flatMap((tally) => tally.firstProblems),
  };
}

interface Cut {
  links: number;
  atSent: number;
  atReceived: number;
  /** From the reset until both connections had finished their failover. */
  recoveredMs: number;
}

/**
 * Resets the link CUTS times, evenly over the run by messages received, each once both
 * connections have recovered from the previous one, so each cut is one failure for each.
 */
async function cutWhileFlowing(
  proxy: LinkProxy,
  traffic: Traffic,
  watched: WatchedConnection[],
  report: () => string,
  setProgress: (text: string) => void,
): Promise<Cut[]> {
  const cuts: Cut[] = [];
  for (let k = 1; k <= CUTS; k++) {
    setProgress(`before cut ${k}: ${report()}`);
    const threshold = Math.floor((k * TOTAL) / (CUTS + 1));
    while (traffic.received() < threshold || watched.some((w) => w.completed < k - 1)) await sleep(1);
    const atSent = traffic.sent();
    const atReceived = traffic.received();
    const cutAt = performance.now();
    const links = proxy.cut();
    setProgress(`recovering from cut ${k}: ${report()}`);
    while (watched.some((w) => w.completed < k)) await sleep(1);
    const cut = { links, atSent, atReceived, recoveredMs: performance.now() - cutAt };
    cuts.push(cut);
    const outcomes = watched.map((w) => {
      const last = w.events.at(-1);
      const outcome =
        last?.type === 'FAILOVER_COMPLETED'
          ? last.reattached === true
            ? 'reattached'
            : 're-created'
          : 'FAILED';
      return `${w.name} ${outcome}`;
    });
    console.log(
      `cut ${k}     at ${n(atSent)} sent / ${n(atReceived)} received: ${links} links reset; ${outcomes.join(', ')} in ${ms(cut.recoveredMs)}`,
    );
  }
  return cuts;
}

/** Automatic acknowledgements are sent without waiting: give the broker a moment to apply the last ones. */
async function drained(broker: DemoBroker): Promise<boolean> {
  const deadline = performance.now() + 10_000;
  while (performance.now() < deadline) {
    const info = broker.jms.getQueueInfo('ExampleQueue');
    if (info !== null && info.messageCount === 0 && info.messagesAcknowledged >= TOTAL) return true;
    await sleep(10);
  }
  return false;
}

function verify(
  broker: DemoBroker,
  traffic: Traffic,
  watched: WatchedConnection[],
  cuts: Cut[],
  sessionsBefore: number,
  queueDrained: boolean,
): Check[] {
  const checks: Check[] = [];
  const tallies = STREAMS.map((stream) => traffic.tallies[stream]);
  const sum = (pick: (tally: (typeof tallies)[number]) => number): number =>
    tallies.reduce((total, tally) => total + pick(tally), 0);
  checks.push({
    ok: tallies.every((tally) => tally.clean) && traffic.strangers() === 0,
    label: 'every message exactly once, in order',
    detail:
      `${n(sum((t) => t.received))} of ${n(TOTAL)} received (${tallies.map((t) => `${t.stream} ${n(t.received)}/${n(t.expected)}`).join(', ')}); ` +
      `${sum((t) => t.missing)} missing, ${sum((t) => t.duplicates)} duplicated, ${sum((t) => t.outOfOrder)} out of order, ` +
      `${sum((t) => t.corrupt)} altered, ${sum((t) => t.redelivered)} redelivered` +
      (traffic.strangers() === 0 ? '' : `, ${traffic.strangers()} from no demo producer`),
  });

  const info = broker.jms.getQueueInfo('ExampleQueue');
  checks.push({
    ok: queueDrained && info !== null && info.messagesAdded === TOTAL && info.messagesAcknowledged === TOTAL,
    label: 'broker applied each send once',
    detail:
      info === null
        ? 'ExampleQueue is gone'
        : `ExampleQueue: ${n(info.messagesAdded)} added, ${n(info.messagesAcknowledged)} acknowledged, ${n(info.messageCount)} left`,
  });

  checks.push({
    ok: cuts.length === CUTS && cuts.every((cut) => cut.links >= watched.length),
    label: 'link cuts while messages flowed',
    detail: `${cuts.length} cuts, ${cuts.reduce((total, cut) => total + cut.links, 0)} links reset with RST; recovered in ${cuts.map((cut) => ms(cut.recoveredMs)).join(', ')}`,
  });

  const stats = watched.map((w) => ({ w, s: w.connection.getStatistics() }));
  checks.push({
    ok: stats.every(({ s }) => s.reattaches === CUTS && s.reconnects === 0),
    label: 'sessions reattached, not re-created',
    detail: `getStatistics(): ${stats.map(({ w, s }) => `${w.name} ${s.reattaches} reattaches, ${s.reconnects} re-creations`).join('; ')}`,
  });

  const sessionsAfter = broker.jms.getSessionCount();
  checks.push({
    ok: sessionsAfter === sessionsBefore && broker.log.reattachedSessions === CUTS * sessionsBefore,
    label: 'same broker sessions throughout',
    detail: `${sessionsBefore} sessions before, ${sessionsAfter} after; the broker reattached ${broker.log.reattachedSessions} (${CUTS} cuts x ${sessionsBefore})`,
  });

  checks.push({
    ok: watched.every(
      (w) =>
        w.count('FAILURE_DETECTED') === CUTS &&
        w.count('FAILOVER_COMPLETED', true) === CUTS &&
        w.count('FAILOVER_COMPLETED', false) === 0 &&
        w.count('FAILOVER_FAILED') === 0 &&
        w.exceptionCodes.length === CUTS &&
        w.exceptionCodes.every((code) => code === 'FAILOVER'),
    ),
    label: 'failover and exception listeners',
    detail: watched
      .map(
        (w) =>
          `${w.name} ${w.count('FAILURE_DETECTED')} FAILURE_DETECTED, ${w.count('FAILOVER_COMPLETED', true)} FAILOVER_COMPLETED {reattached: true}, ` +
          `${w.count('FAILOVER_COMPLETED', false) + w.count('FAILOVER_FAILED')} other, ${w.exceptionCodes.length} x FAILOVER`,
      )
      .join('; '),
  });

  const replayedByClients = stats.reduce((total, { s }) => total + s.replayedCommands, 0);
  checks.push({
    ok: true,
    label: 'commands replayed after reattach',
    detail: `${n(replayedByClients)} by the clients to the broker (${stats.map(({ w, s }) => `${w.name} ${n(s.replayedCommands)}`).join(', ')}), ${n(broker.log.replayedToClients)} by the broker to the clients`,
  });

  const peak = Math.max(...stats.map(({ s }) => s.resendBufferPeakBytes));
  checks.push({
    ok: peak > 0 && peak <= 2 * WINDOW,
    label: 'resend buffer peak within its bound',
    detail: `${kib(peak)} (${Math.round((peak / WINDOW) * 100)}% of the ${mib(WINDOW)} window; bound 2 x window = ${mib(2 * WINDOW)})`,
  });

  return checks;
}

main().then(
  (passed) => {
    process.exitCode = passed ? 0 : 1;
  },
  (error: unknown) => {
    console.error(`FAIL: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
