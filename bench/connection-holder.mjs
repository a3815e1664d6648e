// Holds COUNT idle connections for the connections scenario: each its own session factory
// (connection) with one session and one consumer, a confirmation window >= 0 so that they can
// reattach, and endless reconnect attempts. Prints {"ready":true,...} once all are up.
// Commands on stdin (JSON lines):
//   {"cmd":"expect-failover"} -> forget earlier failovers; once every connection has completed
//     one, print {"failovers_done":true, completedAtNs:[...], reattached, recreated, failed}
//   {"cmd":"report"}          -> print the same, complete or not (on a timeout)
import { createInterface } from 'node:readline';
import hornetq from '../dist/index.js';
import { nowNs } from './payload.mjs';

const { ClientSessionFactory } = hornetq;
const port = Number(process.env.PORT);
const count = Number(process.env.COUNT);
const queue = process.env.BENCH_QUEUE ?? 'jms.queue.bench';
const confirmationWindowSize = Number(process.env.CONFIRMATION_WINDOW ?? 1024 * 1024);
const retryInterval = Number(process.env.RETRY_INTERVAL ?? 100);
const CONNECTING_AT_ONCE = 50; // enough to overlap round trips without a connect storm of our own

const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

let failovers = freshFailovers();
function freshFailovers() {
  return {
    completedAtNs: [],
    reattached: 0,
    recreated: 0,
    failed: 0,
    detected: 0,
    reported: false,
    cpuAtStart: cpuSeconds(),
  };
}

function onFailoverEvent(event) {
  if (event.type === 'FAILURE_DETECTED') failovers.detected++;
  if (event.type === 'FAILOVER_FAILED') failovers.failed++;
  if (event.type !== 'FAILOVER_COMPLETED') return;
  failovers.completedAtNs.push(nowNs());
  if (event.reattached) failovers.reattached++;
  else failovers.recreated++;
  if (failovers.completedAtNs.length + failovers.failed === count && !failovers.reported) report(true);
}

function report(complete) {
  failovers.reported = complete;
  const { reported: _reported, cpuAtStart, ...fields } = failovers;
  print({ failovers_done: complete, ...fields, cpu_s: cpuSeconds() - cpuAtStart });
}

async function openOne() {
  const factory = await ClientSessionFactory.connect({
    connectors: [{ host: '127.0.0.1', port }],
    confirmationWindowSize,
    reconnectAttempts: -1,
    retryInterval,
  });
  factory.addFailoverListener(onFailoverEvent);
  const session = await factory.createSession();
  await session.createConsumer(queue);
  session.start();
  return factory;
}

const startedAtNs = nowNs();
const factories = [];
for (let opened = 0; opened < count; opened += CONNECTING_AT_ONCE) {
  const batch = Math.min(CONNECTING_AT_ONCE, count - opened);
  factories.push(...(await Promise.all(Array.from({ length: batch }, openOne))));
}
print({ ready: true, connections: factories.length, connect_s: (nowNs() - startedAtNs) / 1e9 });

createInterface({ input: process.stdin }).on('line', (text) => {
  const { cmd } = JSON.parse(text);
  if (cmd === 'expect-failover') failovers = freshFailovers();
  if (cmd === 'report') report(false);
});
process.on('SIGTERM', () => process.exit(0));
