// A benchmark producer or consumer in its own process. Configured by env (see readConfig);
// JSON lines on stdout: {"ready":true,"cpu_s":N} once connected (a consumer: subscribed), then the result
// ({"done":true,...}). A consumer reads {"cmd":"producer-done"} on stdin, after which it stops
// and reports what it has if nothing arrives for IDLE_MS.
import { createInterface } from 'node:readline';
import { watchForStall } from './lib/idle-watch.mjs';
import { oursConsumer, oursProducer } from './clients/ours.mjs';
import { rawConsumer, rawProducer } from './clients/raw.mjs';

function readConfig(env) {
  const number = (name, fallback) =>
    env[name] === undefined || env[name] === '' ? fallback : Number(env[name]);
  const address = env.BENCH_ADDRESS ?? env.BENCH_QUEUE ?? 'jms.queue.bench';
  return {
    role: env.ROLE,
    target: env.TARGET,
    host: env.HOST ?? '127.0.0.1',
    port: number('PORT'),
    messages: number('MESSAGES'),
    size: number('SIZE', 1024),
    address,
    queues: (env.BENCH_QUEUES ?? address).split(','),
    durable: env.DURABLE === '1',
    inFlight: number('IN_FLIGHT', 1000),
    rate: number('RATE', 0),
    ack: env.ACK ?? 'cumulative',
    confirmationWindow: number('CONFIRMATION_WINDOW', -1),
    producerWindow: number('PRODUCER_WINDOW', 64 * 1024),
    consumerWindow: number('CONSUMER_WINDOW', null),
    histogram: env.HISTOGRAM === '1',
    idleMs: number('IDLE_MS', 5000),
    user: env.BENCH_USER ?? null,
    password: env.BENCH_PASSWORD ?? null,
  };
}

const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** How a role talks to the orchestrator. */
function createReport(cfg) {
  const producerDoneListeners = [];
  createInterface({ input: process.stdin }).on('line', (text) => {
    if (JSON.parse(text).cmd === 'producer-done') for (const listener of producerDoneListeners) listener();
  });
  return {
    ready: async () => print({ ready: true, cpu_s: cpuSeconds() }),
    done: (result) => print({ done: true, ...result, cpu_s: cpuSeconds() }),
    onProducerDone: (listener) => producerDoneListeners.push(listener),
    watchForStall: (progress, onStall) => watchForStall(progress, cfg.idleMs, onStall),
  };
}

const roles = {
  'ours-producer': oursProducer,
  'ours-consumer': oursConsumer,
  'raw-producer': rawProducer,
  'raw-consumer': rawConsumer,
};
const cfg = readConfig(process.env);
const run = roles[`${cfg.target}-${cfg.role}`];
if (run === undefined) throw new Error(`unknown TARGET-ROLE ${cfg.target}-${cfg.role}`);
await run(cfg, createReport(cfg));
// stdin (the command channel) would keep the process alive; the result is out, so end here.
process.exit(0);
