// How long our client takes to fail over to a backup: an Artemis 2.40.0 live/backup pair with
// replication (the interop harness' ArtemisHaServer, one JVM a server), a paced producer of
// numbered durable messages and a consumer on one client factory (ha, duplicate-id-on-durable-send,
// 1 MiB confirmation window). Each kill: kill -9 of the server that is live, then the time from the
// kill to the first message the consumer gets through the backup (after FAILOVER_COMPLETED:
// messages the dead live had already pushed arrive after the kill too and do not count). The killed
// server comes back as the new backup on its own data directory, as an operator restarts it (a
// replicating backup sets its old journal aside and copies the live's), and the next kill waits
// until it is in sync and the client's topology names it: the roles alternate, no failback. The consumer acknowledges each message with a blocking
// individual acknowledgement (pipelined) and the producer waits while it is more than 1 000 behind.
// At the end the consumer drains the queue: lost are sends whose promise resolved and that never
// arrived, duplicated are messages whose acknowledgement the broker answered twice (consumed twice).
// Prints one JSON line.
//   FAILOVER_CLASSPATH=<test/interop/java/artemis classpath> node bench/failover.mjs
//   [FAILOVER_KILLS=20] [FAILOVER_RATE=200]   (run.mjs runs it as scenario 'failover' and builds the
//   classpath: bench/scenarios/failover.mjs)
import { createInterface } from 'node:readline';
import hornetq from '../dist/index.js';
import { BROKER_JVM_FLAGS, LOG_FLAGS } from './lib/artemis-peer.mjs';
import { freeLoopbackPort } from './lib/free-port.mjs';
import { startJava } from './lib/java-process.mjs';
import { createPacer } from './lib/pacer.mjs';
import { ProcessGroup, withTimeout } from './lib/processes.mjs';
import { createPayloadFactory, nowNs, round } from './payload.mjs';

const { ClientSessionFactory, CoreMessage } = hornetq;

const classpath = requiredEnv('FAILOVER_CLASSPATH');
const kills = positiveIntegerEnv('FAILOVER_KILLS', 20);
/** Messages per second the producer offers; the consumer keeps up, so the queue stays short. */
const rate = positiveIntegerEnv('FAILOVER_RATE', 200);
const QUEUE = 'failover';
const ADDRESS = `jms.queue.${QUEUE}`;
const MESSAGE_BYTES = 256;
/** Sends in flight at once (each a blocking durable send): what a failover has to settle. */
const MAX_IN_FLIGHT = 32;
/** Acknowledgements in flight at once (each blocking, so that an answered one is applied). */
const MAX_ACKS_IN_FLIGHT = 256;
/** Messages sent and not yet received at most: 5 s of traffic. */
const MAX_BACKLOG = 1000;
const RETRY_INTERVAL_MS = 100;
/** A JVM start plus Artemis' activation, or a backup's full copy of the journal, on a loaded 2-core machine. */
const SERVER_MS = 120_000;
/** From a kill to the first delivery through the backup: far beyond anything seen, short of forever. */
const FAILOVER_MS = 120_000;
/** Traffic between a pair being whole again and the next kill, so each kill meets sends in flight. */
const STEADY_MIN_MS = 1000;
const STEADY_SPREAD_MS = 1000;
/** The drain ends when every resolved send has arrived, or when nothing has for this long. */
const DRAIN_QUIET_MS = 15_000;

const group = new ProcessGroup();
const payload = createPayloadFactory(MESSAGE_BYTES);
let duplicatesDropped = 0;
const [portA, portB] = await twoFreePorts();

/** One server of the pair as a process: its port, and its HaWatch lines as promises. */
function startServer(policy, port, peerPort, dataDir = group.createDataDir()) {
  const name = `artemis-${port === portA ? 'a' : 'b'}`;
  const handle = startJava(group, name, {
    flags: [...LOG_FLAGS, ...BROKER_JVM_FLAGS],
    classpath,
    mainClass: 'interop.artemis.ArtemisHaServer',
    args: [
      '--ha',
      policy,
      '--port',
      String(port),
      '--peer-port',
      String(peerPort),
      '--data',
      dataDir,
      '--allow-failback',
      'false',
      '--queue',
      QUEUE,
    ],
  });
  // Registered now, before the lines can come; a server killed while live never prints the others.
  const line = (prefix) => {
    const seen = handle.waitForText((text) => text.startsWith(prefix)).then(() => nowNs());
    seen.catch(() => undefined);
    return seen;
  };
  // Artemis warns AMQ222059 for each message its duplicate-id cache dropped: our resends of sends
  // the dead live had stored before it could answer.
  createInterface({ input: handle.child.stderr }).on('line', (text) => {
    if (text.includes('AMQ222059')) duplicatesDropped++;
  });
  return {
    name,
    port,
    dataDir,
    handle,
    live: line('ROLE live '),
    announced: line('BACKUP announced'),
    synced: line('REPLICA synced'),
  };
}

const bounded = (promise, what) => withTimeout(promise, SERVER_MS, what);

let live = startServer('replication-primary', portA, portB);
await bounded(live.live, `${live.name} serving`);
let backup = startServer('replication-backup', portB, portA);
await bounded(Promise.all([live.announced, backup.synced]), `${backup.name} announced and in sync`);

const factory = await ClientSessionFactory.connect({
  connectors: [{ host: '127.0.0.1', port: live.port }],
  ha: true,
  reconnectAttempts: -1,
  retryInterval: RETRY_INTERVAL_MS,
  retryJitter: 0,
  confirmationWindowSize: 1024 * 1024,
  duplicateIdOnDurableSend: true,
  blockOnAcknowledge: true,
});

/** What the client said about the kill being measured, stamped on the clock of the kill. */
let current = null;
const events = [];
factory.addFailoverListener((event) => {
  events.push(event.type === 'FAILOVER_COMPLETED' ? `${event.type}:${event.reattached}` : event.type);
  if (current === null) return;
  current.events.push(event.type);
  if (event.type === 'FAILOVER_COMPLETED' && current.completedAt === null) {
    current.completedAt = nowNs();
    current.reattached = event.reattached;
    current.nodeId = event.nodeId ?? null;
  }
});

// Per sequence number: 1 sent, 2 resolved, 3 rejected; times delivered; acknowledgements the
// broker answered. A message consumed twice is one whose acknowledgement was answered twice: a
// redelivery after an acknowledgement the kill cut off is HornetQ's and Artemis' at-least-once
// delivery, not a duplicate.
const sendState = [];
const deliveries = [];
const acknowledged = [];
let receivedUnique = 0;
let redelivered = 0;
let acknowledgeErrors = 0;
let lastDeliveryAt = nowNs();
const sendErrors = [];
const receiveErrors = [];

const producerSession = await factory.createSession();
const producer = producerSession.createProducer(ADDRESS);
const consumerSession = await factory.createSession();
const consumer = await consumerSession.createConsumer(ADDRESS);
consumerSession.start();

let producing = true;
let consuming = true;
const producing$ = produce();
const consuming$ = consume();

const kill = [];
for (let k = 0; k < kills; k++) {
  await awaitPairWhole(k);
  await sleep(STEADY_MIN_MS + Math.random() * STEADY_SPREAD_MS);
  kill.push(await killLive(k));
  process.stderr.write(`failover: ${JSON.stringify(kill.at(-1))}\n`);
}

producing = false;
await producing$;
await drain();
consuming = false;
await consuming$;

const lost = [];
const duplicated = [];
const unacknowledged = [];
for (let seq = 0; seq < sendState.length; seq++) {
  if (sendState[seq] === 2 && !(deliveries[seq] > 0)) lost.push(seq);
  if (acknowledged[seq] > 1) duplicated.push(seq);
  if (deliveries[seq] > 0 && !(acknowledged[seq] > 0)) unacknowledged.push(seq);
}
const ms = (pick) => kill.map(pick);
const statistics = factory.getStatistics();
process.stdout.write(
  `${JSON.stringify({
    scenario: 'failover',
    broker: 'artemis-2.40.0 replication pair',
    kills,
    rate_msgs_per_s: rate,
    retry_interval_ms: RETRY_INTERVAL_MS,
    duplicate_id_on_durable_send: true,
    ...percentiles(
      'failover',
      ms((k) => k.firstDeliveryMs),
    ),
    ...percentiles(
      'activation',
      ms((k) => k.activationMs),
    ),
    ...percentiles(
      'completed',
      ms((k) => k.completedMs),
    ),
    // The client's share: from the backup serving (its HaWatch line, polled every 50 ms) to the
    // first delivery; the rest of the failover figure is Artemis' activation.
    ...percentiles(
      'client',
      ms((k) => round(k.firstDeliveryMs - k.activationMs)),
    ),
    sent: sendState.length,
    resolved: sendState.filter((s) => s === 2).length,
    send_errors: sendErrors.length,
    received: deliveries.filter((n) => n > 0).length,
    lost: lost.length,
    dups: duplicated.length,
    redelivered,
    dropped_by_duplicate_id: duplicatesDropped,
    acknowledge_errors: acknowledgeErrors,
    // Delivered, and no acknowledgement of it answered (the kill took the answer, not the ack).
    unacknowledged: unacknowledged.length,
    receive_errors: receiveErrors.length,
    reattached: kill.filter((k) => k.reattached === true).length,
    recreated: kill.filter((k) => k.reattached === false).length,
    replayed_commands: statistics.replayedCommands,
    resend_buffer_peak_bytes: statistics.resendBufferPeakBytes,
    ...(lost.length + duplicated.length + sendErrors.length > 0
      ? {
          lost_seqs: lost.slice(0, 20),
          dup_seqs: duplicated.slice(0, 20),
          send_error_list: sendErrors.slice(0, 5),
        }
      : {}),
  })}\n`,
);
process.stderr.write(`failover: client events ${events.join(' ')}\n`);

await factory.close();
await group.stopAll();

/**
 * Waits until the backup holds the live's data and the client's topology names it as the live's
 * backup: before that, a kill would leave the client nowhere to go.
 */
async function awaitPairWhole(k) {
  // The live's own BACKUP line is no help here: it prints changes only, and a stale member can
  // keep it at announced across a kill. What counts is what the client was told.
  await bounded(backup.synced, `kill ${k}: ${backup.name} in sync`);
  const deadline = Date.now() + SERVER_MS;
  while (!clientKnowsBackup()) {
    if (Date.now() > deadline) {
      throw new Error(
        `kill ${k}: the client's topology never named ${backup.port} as the backup of ${live.port}: ${JSON.stringify(factory.topology())}`,
      );
    }
    await sleep(50);
  }
}

function clientKnowsBackup() {
  return factory
    .topology()
    .members.some((member) => member.live?.port === live.port && member.backup?.port === backup.port);
}

/**
 * kill -9 of the live; resolves once the consumer got its first message through the backup, and
 * the killed server is starting again as the new backup.
 */
async function killLive(k) {
  const dead = live;
  const record = { kill: k, killedAt: nowNs(), completedAt: null, firstAt: null, events: [] };
  current = record;
  const delivered = new Promise((resolve) => (record.delivered = resolve));
  await dead.handle.kill();
  const activatedAt = await bounded(backup.live, `kill ${k}: ${backup.name} serving`);
  await withTimeout(delivered, FAILOVER_MS, `kill ${k}: a delivery through ${backup.name}`).catch((error) => {
    throw new Error(`${error.message}; the client saw: ${record.events.join(' ') || 'no failover event'}`);
  });
  current = null;
  live = backup;
  backup = startServer('replication-backup', dead.port, live.port, dead.dataDir);
  const since = (at) => (at === null ? null : round((at - record.killedAt) / 1e6));
  return {
    kill: k,
    activationMs: since(activatedAt),
    completedMs: since(record.completedAt),
    firstDeliveryMs: since(record.firstAt),
    reattached: record.reattached,
    nodeId: record.nodeId,
  };
}

async function produce() {
  const pace = createPacer(rate);
  const inFlight = new Set();
  for (let seq = 0; producing; seq++) {
    await pace(seq);
    while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
    // A consumer fallen behind lets the queue, the journal, and with it each backup's copy and
    // activation grow from kill to kill: the producer waits for it instead.
    while (sendState.length - receivedUnique >= MAX_BACKLOG && producing) await sleep(10);
    if (!producing) break;
    const message = new CoreMessage();
    message.durable = true;
    message.body = payload(seq);
    sendState[seq] = 1;
    const sent = producer.send(message).then(
      () => (sendState[seq] = 2),
      (error) => {
        sendState[seq] = 3;
        sendErrors.push(`#${seq}: ${error.message}`);
      },
    );
    inFlight.add(sent);
    sent.finally(() => inFlight.delete(sent));
  }
  await Promise.all(inFlight);
}

async function consume() {
  const acking = new Set();
  while (consuming) {
    let received;
    try {
      received = await consumer.receive(200);
    } catch (error) {
      if (consumer.closed) throw error;
      receiveErrors.push(error.message); // counted and reported; the consumer carries on
      continue;
    }
    if (received === null) continue;
    const at = nowNs();
    lastDeliveryAt = at;
    const seq = received.message.body.readUInt32LE(8);
    noteDelivery(seq, at);
    // Blocking acknowledgements, pipelined: one answered is one the broker applied.
    while (acking.size >= MAX_ACKS_IN_FLIGHT) await Promise.race(acking);
    const ack = Promise.resolve()
      .then(() => received.individualAcknowledge())
      .then(
        () => (acknowledged[seq] = (acknowledged[seq] ?? 0) + 1),
        () => acknowledgeErrors++, // the kill took the answer: the message may come again, legitimately
      );
    acking.add(ack);
    ack.finally(() => acking.delete(ack));
  }
  await Promise.all(acking);
}

function noteDelivery(seq, at) {
  if (deliveries[seq] > 0) redelivered++;
  else receivedUnique++;
  deliveries[seq] = (deliveries[seq] ?? 0) + 1;
  if (current !== null && current.completedAt !== null && current.firstAt === null) {
    current.firstAt = at;
    current.delivered();
  }
}

async function drain() {
  const missing = () => sendState.some((s, seq) => s === 2 && !(deliveries[seq] > 0));
  while (missing() && (nowNs() - lastDeliveryAt) / 1e6 < DRAIN_QUIET_MS) await sleep(100);
}

/** p50, p99 and max of one measure over the kills, named `p50_<name>_ms`, ... */
function percentiles(name, values) {
  const sorted = values.filter((v) => v !== null).sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? null;
  return {
    [`p50_${name}_ms`]: at(0.5),
    [`p99_${name}_ms`]: at(0.99),
    [`max_${name}_ms`]: sorted.at(-1) ?? null,
  };
}

async function twoFreePorts() {
  const first = await freeLoopbackPort();
  let second = await freeLoopbackPort();
  while (second === first) second = await freeLoopbackPort();
  return [first, second];
}

function requiredEnv(name) {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} must be set (see bench/failover.mjs)`);
  return value;
}

function positiveIntegerEnv(name, fallback) {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer, not ${text}`);
  return value;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
