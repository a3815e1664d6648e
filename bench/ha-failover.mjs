// How fast our own shared-store pair fails over (issue 26 item 5): a live and a backup broker
// (bench/ha-broker.mjs, one process each) on one data directory that first holds
// HA_JOURNAL_MESSAGES durable messages of SIZE bytes (written as bench/recovery.mjs ROLE=write
// writes them, into a queue nobody consumes, so every takeover loads them all). A client with ha
// (ServerLocator ha, reconnect-attempts -1, retry-interval 100 ms) that knows the backup from the
// live's topology (the backup announces itself through its cluster connection) sends a small
// durable message every PROBE_INTERVAL_MS to a probe queue and consumes it. Each kill: kill -9 of
// the live, then
//   serving: from the kill to the backup's status `started` (its acceptors open), stamped by it;
//   first delivery: from the kill to the first message the client gets after FAILOVER_COMPLETED
//     (messages the dead live had already pushed arrive after the kill too and do not count);
//   load: the backup's own journal load time (its "loaded ... in N ms" line).
// The killed side then comes back as the new backup on the same directory, so the roles alternate,
// and the next kill waits until the client's topology names it. Prints one JSON line.
//   HA_JOURNAL_MESSAGES=100000 HA_KILLS=5 node bench/ha-failover.mjs   (run.mjs runs it as
//   scenario 'ha-failover', once per journal size: bench/scenarios/ha-failover.mjs)
import hornetq from '../dist/index.js';
import { freeLoopbackPort } from './lib/free-port.mjs';
import { ProcessGroup, withTimeout } from './lib/processes.mjs';
import { percentileOfSorted } from './lib/stats.mjs';

const { ServerLocator, CoreMessage, FailoverEventType } = hornetq;

const journalMessages = nonNegativeIntegerEnv('HA_JOURNAL_MESSAGES', 0);
const kills = nonNegativeIntegerEnv('HA_KILLS', 5);
const size = nonNegativeIntegerEnv('SIZE', 1024);
/** The queue recovery.mjs writes the journal into; nobody consumes it. */
const JOURNAL_QUEUE = 'jms.queue.recovery';
const PROBE_QUEUE = 'jms.queue.ha.probe';
const PROBE_INTERVAL_MS = 10;
const RETRY_INTERVAL_MS = 100;
/** A member's start, or a takeover that loads a million messages on a loaded 2-core machine. */
const MEMBER_MS = 300_000;
/**
 * Traffic between the pair being whole again and the next kill, plus up to one lock poll period
 * at random: the backup starts polling server.lock when it starts waiting, so a fixed pause
 * would kill the live at the same point of every poll period (the worst one, as it happens)
 * instead of at any point.
 */
const STEADY_MS = 1000;
/** Far beyond what a loaded member needs; a bound still (the live holds the journal in memory). */
const MEMBER_NODE_ARGS = ['--max-old-space-size=8192'];
/** The broker's defaults, which ha-broker.mjs keeps: part of every serving figure. */
const LOCK_POLL_MS = 200;
const TAKEOVER_DELAY_MS = 500;

const group = new ProcessGroup();
const dataDir = group.createDataDir();
const bounded = (promise, what) => withTimeout(promise, MEMBER_MS, what);
const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

try {
  const written = await writeJournal();
  const [portA, portB] = await twoFreePorts();
  let live = startMember('live', portA, portB);
  await bounded(
    live.waitFor((l) => l.state === 'started'),
    'the first live serving',
  );
  let backup = startMember('backup', portB, portA);
  await bounded(
    backup.waitFor((l) => l.state === 'waiting'),
    'the first backup waiting',
  );

  const client = await startClient(portA);
  const results = [];
  for (let k = 0; k < kills; k++) {
    await awaitClientKnowsBackup(client, live.port, backup.port, k);
    await sleep(STEADY_MS + Math.random() * LOCK_POLL_MS);
    results.push(await killLive(client, live, backup, k));
    process.stderr.write(
      `ha-failover: ${JSON.stringify({ journal_messages: journalMessages, ...results.at(-1) })}\n`,
    );
    // The killed side returns as the new backup on the same directory: the roles alternate.
    const returning = startMember('backup', live.port, backup.port);
    await bounded(
      returning.waitFor((l) => l.state === 'waiting'),
      `kill ${k}: the killed side waiting as backup`,
    );
    [live, backup] = [backup, returning];
  }
  const stats = await client.stop();

  const pick = (name) => results.map((result) => result[name]);
  const withinGoal = results.filter((r) => r.serving_ms <= 1000 + r.load_ms).length;
  print({
    scenario: 'ha-failover',
    journal_messages: journalMessages,
    size,
    written_s: written?.write_s ?? null,
    kills,
    ...percentiles('serving', pick('serving_ms')),
    ...percentiles('first_delivery', pick('first_delivery_ms')),
    ...percentiles('load', pick('load_ms')),
    // What the backup adds besides loading: the lock poll, the takeover delay, opening acceptors.
    ...percentiles('serving_minus_load', pick('serving_minus_load_ms')),
    serving_within_goal: `${withinGoal}/${results.length}`,
    lock_poll_ms: LOCK_POLL_MS,
    takeover_delay_ms: TAKEOVER_DELAY_MS,
    retry_interval_ms: RETRY_INTERVAL_MS,
    loaded_messages: pick('loaded_messages'),
    probe_sent: stats.sent,
    probe_received: stats.received,
    probe_send_errors: stats.sendErrors,
    reattached: results.filter((r) => r.reattached === true).length,
    serving_ms: pick('serving_ms'),
    first_delivery_ms: pick('first_delivery_ms'),
  });
} finally {
  await group.stopAll();
}

/** Fills the data directory as recovery.mjs does (the broker's storage, synced every 10 000). */
async function writeJournal() {
  if (journalMessages === 0) return null;
  const writer = group.start('recovery.mjs', {
    ROLE: 'write',
    BENCH_DATA_DIR: dataDir,
    RECOVERY_MESSAGES: String(journalMessages),
    SIZE: String(size),
  });
  const written = await bounded(
    writer.waitFor((l) => 'written' in l),
    'writing the journal',
  );
  await writer.exited;
  return written;
}

function startMember(role, port, peerPort) {
  const handle = group.start(
    'ha-broker.mjs',
    {
      HA_ROLE: role,
      HA_PORT: String(port),
      HA_PEER_PORT: String(peerPort),
      HA_QUEUES: `${JOURNAL_QUEUE},${PROBE_QUEUE}`,
      BENCH_DATA_DIR: dataDir,
    },
    MEMBER_NODE_ARGS,
  );
  handle.port = port;
  return handle;
}

/** kill -9 of the live; resolves with this kill's figures once the client has had a message through the backup. */
async function killLive(client, live, backup, k) {
  const measured = client.expectFailover();
  const serving = backup.waitFor((l) => l.state === 'started');
  const loaded = backup.waitFor((l) => 'load_ms' in l);
  const killedAt = Date.now();
  await live.kill();
  const [started, load, delivered] = await bounded(
    Promise.all([serving, loaded, measured]),
    `kill ${k}: the backup serving and a message through it`,
  );
  return {
    kill: k,
    serving_ms: started.at - killedAt,
    first_delivery_ms: delivered.deliveredAt - killedAt,
    load_ms: load.load_ms,
    serving_minus_load_ms: started.at - killedAt - load.load_ms,
    loaded_messages: load.loaded_messages,
    reattached: delivered.reattached,
  };
}

/**
 * Our client with ha on the live: a producer of one small durable message every
 * PROBE_INTERVAL_MS and a consumer, on one factory. expectFailover() resolves at the first message
 * received after the next FAILOVER_COMPLETED.
 */
async function startClient(livePort) {
  const locator = new ServerLocator({
    connectors: [{ host: '127.0.0.1', port: livePort }],
    ha: true,
    reconnectAttempts: -1,
    retryInterval: RETRY_INTERVAL_MS,
    retryJitter: 0,
    confirmationWindowSize: 1024 * 1024,
    // Each acknowledgement at once: the probe queue stays empty instead of redelivering a batch.
    ackBatchSize: 0,
  });
  const factory = await locator.createSessionFactory();
  let pending = null;
  factory.addFailoverListener((event) => {
    if (
      pending !== null &&
      event.type === FailoverEventType.FAILOVER_COMPLETED &&
      pending.completed === null
    ) {
      pending.completed = { reattached: event.reattached };
    }
  });
  const session = await factory.createSession();
  const producer = session.createProducer(PROBE_QUEUE);
  const consumer = await session.createConsumer(PROBE_QUEUE);
  session.start();
  const counts = { sent: 0, received: 0, sendErrors: 0 };
  let running = true;

  const produce = async () => {
    while (running) {
      const message = new CoreMessage();
      message.durable = true;
      message.body = Buffer.from(`probe ${counts.sent}`);
      try {
        await producer.send(message);
        counts.sent++;
      } catch {
        counts.sendErrors++; // sent during the failover: the next one goes through the backup
      }
      await sleep(PROBE_INTERVAL_MS);
    }
  };
  const consume = async () => {
    while (running) {
      let message;
      try {
        message = await consumer.receive(200);
      } catch {
        await sleep(RETRY_INTERVAL_MS);
        continue;
      }
      if (message === null) continue;
      counts.received++;
      if (pending?.completed != null) {
        const { resolve, completed } = pending;
        pending = null;
        resolve({ deliveredAt: Date.now(), reattached: completed.reattached });
      }
      message.acknowledge().catch(() => undefined); // an acknowledgement the kill cut off: redelivered
    }
  };
  const loops = Promise.all([produce(), consume()]);

  return {
    factory,
    expectFailover() {
      return new Promise((resolve) => {
        pending = { resolve, completed: null };
      });
    },
    async stop() {
      running = false;
      await loops;
      await factory.close();
      return counts;
    },
  };
}

/** Before a kill the client must know where to go: its topology names the backup of the live. */
async function awaitClientKnowsBackup(client, livePort, backupPort, k) {
  const deadline = Date.now() + MEMBER_MS;
  const known = () =>
    client.factory
      .topology()
      .members.some((member) => member.live?.port === livePort && member.backup?.port === backupPort);
  while (!known()) {
    if (Date.now() > deadline) {
      throw new Error(
        `kill ${k}: the client's topology never named ${backupPort} as the backup of ${livePort}: ${JSON.stringify(client.factory.topology())}`,
      );
    }
    await sleep(50);
  }
}

function percentiles(name, values) {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b);
  return {
    [`p50_${name}_ms`]: percentileOfSorted(sorted, 0.5),
    [`p99_${name}_ms`]: percentileOfSorted(sorted, 0.99),
  };
}

async function twoFreePorts() {
  const first = await freeLoopbackPort();
  let second = await freeLoopbackPort();
  while (second === first) second = await freeLoopbackPort();
  return [first, second];
}

function nonNegativeIntegerEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a whole number >= 0 (actual value: ${raw})`);
  return value;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
