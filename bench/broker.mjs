// Our broker in its own process, for the benchmarks: one TCP acceptor on 127.0.0.1 and the
// benchmark queue (BENCH_QUEUE), plus, for fan-out, BENCH_SUBSCRIBERS queues bound to the topic
// address BENCH_TOPIC (HornetQ core: a topic is an address with one queue per subscription).
// Persistence is on, the journal in BENCH_DATA_DIR (lib/persistence.mjs): durable messages are
// fdatasynced before the broker confirms them; non-durable ones never touch the disk.
// Prints {"port":N} once listening; stops on SIGTERM.
// Commands on stdin, one JSON line each, answered on stdout:
//   {"cmd":"heap"}  -> {"heap_used_bytes":N} after a full GC (start node with --expose-gc)
//   {"cmd":"stats"} -> {"connections":N,"sessions":N}
// HEAP_AT=100000,1000000 makes it report the heap by itself each time the benchmark queue has
// taken that many messages: {"heap_at":N,"heap_used_bytes":N,"queue_depth":N}.
import { createInterface } from 'node:readline';
import { clearInterval, setInterval } from 'node:timers';
import hornetq from '../dist/index.js';
import permission from '../dist/server/security/permission.js'; // internal: every permission's name
import { brokerPersistence } from './lib/persistence.mjs';

const { Broker, FileSecurityManager, hashPassword } = hornetq;
const { PERMISSIONS } = permission;
const queue = process.env.BENCH_QUEUE ?? 'jms.queue.bench';
const topic = process.env.BENCH_TOPIC ?? 'jms.topic.bench';
const subscribers = Number(process.env.BENCH_SUBSCRIBERS ?? 0);

const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

const broker = new Broker({
  ...(await securityOf(process.env)),
  ...brokerPersistence(),
  acceptors: [{ name: 'bench', type: 'tcp', host: process.env.HOST ?? '127.0.0.1', port: 0 }],
  queues: [
    { name: queue, address: queue, filter: null, durable: true },
    ...Array.from({ length: subscribers }, (_, i) => ({
      name: `${topic}.subscriber-${i}`,
      address: topic,
      filter: null,
      durable: false,
    })),
  ],
});
await broker.start();
print({ port: broker.getPort() });

/**
 * BENCH_SECURITY=1 (security-overhead): security on as the shipped config/ has it, one user
 * (BENCH_USER / BENCH_PASSWORD, an scrypt hash) whose role holds every permission on `#`, and
 * other settings beside it, so that each check finds the most specific of several matches.
 */
async function securityOf(env) {
  if (env.BENCH_SECURITY !== '1') return { securityEnabled: false };
  const role = 'bench';
  const everything = new Map(PERMISSIONS.map((permission) => [permission, [role]]));
  const others = Array.from({ length: 20 }, (_, i) => ({
    match: `jms.queue.other-${i}.#`,
    permissions: new Map([['send', ['other']]]),
  }));
  return {
    securityEnabled: true,
    securityManager: new FileSecurityManager({
      defaultUser: null,
      users: [{ name: env.BENCH_USER, password: await hashPassword(env.BENCH_PASSWORD), roles: [role] }],
    }),
    securitySettings: [{ match: '#', permissions: everything }, ...others],
  };
}

function heapUsedAfterGc() {
  if (typeof globalThis.gc !== 'function') throw new Error('heap measurements need node --expose-gc');
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

const commands = {
  heap: () => ({ heap_used_bytes: heapUsedAfterGc() }),
  stats: () => ({ connections: broker.getConnectionCount(), sessions: broker.getSessionCount() }),
};
createInterface({ input: process.stdin }).on('line', (text) => {
  const { cmd } = JSON.parse(text);
  print(commands[cmd]());
});

// Polling the queue's counter (rather than hooking the broker) keeps src/ untouched; 20 ms is
// far finer than the 100 000-message steps it watches for.
const heapThresholds = (process.env.HEAP_AT ?? '').split(',').filter(Boolean).map(Number);
if (heapThresholds.length > 0) {
  const poll = setInterval(() => {
    const stats = broker.listQueues().find((q) => q.name === queue);
    while (heapThresholds.length > 0 && stats.messagesAdded >= heapThresholds[0]) {
      print({
        heap_at: heapThresholds.shift(),
        heap_used_bytes: heapUsedAfterGc(),
        queue_depth: stats.messageCount,
      });
    }
    if (heapThresholds.length === 0) clearInterval(poll);
  }, 20);
}

process.on('SIGTERM', () => {
  broker.stop().then(() => process.exit(0));
});
