// npm run bench: throughput of our broker against the raw Node relay baseline, measured in the
// same run with broker, producer and consumer as separate processes. Prints one JSON line per
// scenario and run (fields as ../shared/peers/README.md "Each result line"), then a summary line
// with the medians and their ratio.
//   node bench/run.mjs [--messages 200000] [--size 1024] [--runs 3]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { round } from './payload.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const options = parseArguments(process.argv.slice(2), {
  messages: 200_000,
  size: 1024,
  runs: 3,
  timeout: 180,
});

// 'ours' runs with HornetQ's default confirmation window (-1: no resend buffers); 'ours-window-1MiB'
// keeps resend buffers and confirmations on both sides, which is what reattachment costs.
const SCENARIOS = [
  { peer: 'limit-relay', scenario: 'nonpersistent', server: 'relay.mjs', target: 'raw', env: {} },
  {
    peer: 'ours',
    scenario: 'nonpersistent',
    server: 'broker.mjs',
    target: 'ours',
    env: { CONFIRMATION_WINDOW: '-1' },
  },
  {
    peer: 'ours-window-1MiB',
    scenario: 'nonpersistent',
    server: 'broker.mjs',
    target: 'ours',
    env: { CONFIRMATION_WINDOW: String(1024 * 1024) },
  },
];

const results = new Map(SCENARIOS.map((s) => [s.peer, []]));
for (let run = 1; run <= options.runs; run++) {
  for (const scenario of SCENARIOS) {
    const line = await measure(scenario, run);
    results.get(scenario.peer).push(line);
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}
printSummary();

async function measure({ peer, scenario, server, target, env: scenarioEnv }, run) {
  const broker = startProcess(server, {});
  const serverStart = cpuTicks(broker.child.pid);
  try {
    const { port } = await broker.nextLine();
    const env = {
      ...scenarioEnv,
      PORT: String(port),
      MESSAGES: String(options.messages),
      SIZE: String(options.size),
      TARGET: target,
    };
    const consumer = startProcess('client.mjs', { ...env, ROLE: 'consumer' });
    await consumer.nextLine();
    const producer = startProcess('client.mjs', { ...env, ROLE: 'producer' });
    const [sent, received] = await withTimeout(
      Promise.all([producer.nextLine(), consumer.nextLine()]),
      options.timeout * 1000,
    );
    const brokerCpu = (cpuTicks(broker.child.pid) - serverStart) / 100;
    await Promise.all([producer.exited, consumer.exited]);
    const seconds = (received.lastAtNs - sent.startedAtNs) / 1e9;
    return {
      peer,
      scenario,
      messages: received.received,
      bytes: received.bytes,
      seconds: round(seconds),
      msgs_per_s: Math.round(received.received / seconds),
      p50_latency_ms: received.p50_latency_ms,
      p99_latency_ms: received.p99_latency_ms,
      sent: options.messages,
      lost: options.messages - received.received,
      dups: received.duplicates,
      out_of_order: received.outOfOrder,
      producer_s: round((sent.finishedAtNs - sent.startedAtNs) / 1e9),
      broker_cpu_s: round(brokerCpu, 2),
      client_cpu_s: round(sent.cpu_s + received.cpu_s, 2),
      ...(sent.resendBufferPeakBytes === undefined
        ? {}
        : { producer_resend_buffer_peak_bytes: sent.resendBufferPeakBytes }),
      size: options.size,
      run,
    };
  } finally {
    broker.child.kill('SIGTERM');
    await broker.exited;
  }
}

function printSummary() {
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  };
  const relay = median(results.get('limit-relay').map((r) => r.msgs_per_s));
  const ours = median(results.get('ours').map((r) => r.msgs_per_s));
  const windowed = median(results.get('ours-window-1MiB').map((r) => r.msgs_per_s));
  const cpuPerMessage = (peer) =>
    round(median(results.get(peer).map((r) => ((r.broker_cpu_s + r.client_cpu_s) * 1e6) / r.messages)), 1);
  process.stdout.write(
    `${JSON.stringify({
      summary: 'nonpersistent',
      runs: options.runs,
      messages: options.messages,
      size: options.size,
      relay_median_msgs_per_s: relay,
      ours_median_msgs_per_s: ours,
      ours_over_relay: round(ours / relay, 3),
      ours_window_1MiB_median_msgs_per_s: windowed,
      reattach_overhead: round(1 - windowed / ours, 3),
      relay_cpu_us_per_msg: cpuPerMessage('limit-relay'),
      ours_cpu_us_per_msg: cpuPerMessage('ours'),
      ours_window_1MiB_cpu_us_per_msg: cpuPerMessage('ours-window-1MiB'),
    })}\n`,
  );
}

/** A child process whose stdout is JSON lines; nextLine() resolves with the next one parsed. */
function startProcess(script, env) {
  const child = spawn(process.execPath, [`${here}${script}`], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = [];
  const waiting = [];
  createInterface({ input: child.stdout }).on('line', (text) => {
    const parsed = JSON.parse(text);
    const next = waiting.shift();
    if (next) next.resolve(parsed);
    else lines.push(parsed);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  exited.then((code) => {
    for (const w of waiting.splice(0))
      w.reject(new Error(`${script} exited (${code}) before printing its result`));
  });
  return {
    child,
    exited,
    nextLine: () =>
      lines.length > 0
        ? Promise.resolve(lines.shift())
        : new Promise((resolve, reject) => waiting.push({ resolve, reject })),
  };
}

/** utime + stime of a process in clock ticks (1/100 s), from /proc. */
function cpuTicks(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

function withTimeout(promise, ms) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`scenario did not finish within ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function parseArguments(argv, defaults) {
  const parsed = { ...defaults };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    if (!(name in defaults))
      throw new Error(`unknown option ${argv[i]}; known: ${Object.keys(defaults).join(', ')}`);
    parsed[name] = Number(argv[i + 1]);
  }
  return parsed;
}
