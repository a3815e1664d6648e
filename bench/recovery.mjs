// The recovery benchmark's two halves, one process each (run.mjs runs them as scenario
// 'recovery'), on the journal in BENCH_DATA_DIR:
//   ROLE=write: a broker with one durable queue stores RECOVERY_MESSAGES durable messages of SIZE
//     bytes through its storage (StorageManager.storeMessage: the records a durable send makes),
//     waiting for the group commit every 10 000, then stops cleanly. Faster than sending them.
//   ROLE=load: a new broker starts on that journal; prints how long start() took (it loads every
//     message before it listens) with the heap and the journal's size.
// Prints one JSON line.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import hornetq from '../dist/index.js';
import { brokerPersistence } from './lib/persistence.mjs';

const { Broker, CoreMessage } = hornetq;
const queue = 'jms.queue.recovery';
const messages = Number(process.env.RECOVERY_MESSAGES ?? 1_000_000);
const size = Number(process.env.SIZE ?? 1024);
const SYNC_EVERY = 10_000;

const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
const seconds = (startNs) => Number(process.hrtime.bigint() - startNs) / 1e9;
const round = (value, digits = 3) => Number(value.toFixed(digits));

function newBroker() {
  return new Broker({
    securityEnabled: false,
    ...brokerPersistence(),
    acceptors: [{ name: 'bench', type: 'tcp', host: '127.0.0.1', port: 0 }],
    queues: [{ name: queue, address: queue, filter: null, durable: true }],
  });
}

function directoryBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? directoryBytes(path) : statSync(path).size;
  }
  return total;
}

/** This process's peak resident set size (VmHWM) in MiB. */
function peakRssMb() {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return match === null ? null : Math.round(Number(match[1]) / 1024);
}

const synced = (storage) =>
  new Promise((resolve, reject) =>
    storage.afterSync((error) => (error === null ? resolve() : reject(error))),
  );

async function write() {
  const broker = newBroker();
  await broker.start();
  const { storage } = broker;
  const body = Buffer.alloc(size, 'r');
  const startedNs = process.hrtime.bigint();
  for (let i = 0; i < messages; i++) {
    const message = new CoreMessage();
    message.messageId = storage.generateMessageId();
    message.address = queue;
    message.durable = true;
    message.body = body;
    storage.storeMessage(message, [queue]);
    if ((i + 1) % SYNC_EVERY === 0) await synced(storage);
  }
  await synced(storage);
  const writeSeconds = seconds(startedNs);
  await broker.stop();
  print({
    written: messages,
    write_s: round(writeSeconds),
    write_msgs_per_s: Math.round(messages / writeSeconds),
  });
}

async function load() {
  const broker = newBroker();
  const startedNs = process.hrtime.bigint();
  await broker.start();
  const loadSeconds = seconds(startedNs);
  const stats = broker.listQueues().find((q) => q.name === queue);
  if (typeof globalThis.gc === 'function') globalThis.gc();
  const line = {
    loaded: stats?.messageCount ?? 0,
    load_s: round(loadSeconds),
    load_msgs_per_s: Math.round((stats?.messageCount ?? 0) / loadSeconds),
    journal_bytes: directoryBytes(process.env.BENCH_DATA_DIR),
    heap_used_mb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
    rss_peak_mb: peakRssMb(),
  };
  await broker.stop();
  print(line);
}

if (process.env.ROLE === 'write') await write();
else if (process.env.ROLE === 'load') await load();
else throw new Error(`ROLE must be write or load (actual value: ${process.env.ROLE})`);
