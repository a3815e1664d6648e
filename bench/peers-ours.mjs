// The `ours` slot of the peers harness (../shared/peers, README "The `ours` slot"):
//   cd <peers> && ./bench.sh --peers limit-relay,aedes,ours --ours 'node <this repo>/bench/peers-ours.mjs'
// Env in: MESSAGES, SIZE, MODE=nonpersistent|persistent, WINDOW (sends in flight awaiting the
// broker's confirmation), PREFETCH (consumer credit in messages), HOST, PEERS_DIR (unused: our
// payload.mjs has the peers' payload layout). Starts our broker (bench/broker.mjs) on a free
// loopback port, runs producer and consumer as separate processes with MODE's semantics
// (scenarios/ours-workloads.mjs: persistent = durable messages, block-on-durable-send with WINDOW
// sends outstanding, one individual ack per message, consumerWindowSize = PREFETCH messages),
// prints one JSON line on stdout, stops the broker. Logs go to stderr. Exit 0 when the run
// completed, 1 (with `error` in the line) when it did not.
import { readFileSync } from 'node:fs';
import { measureThroughput } from './lib/throughput.mjs';
import { nonPersistentSpec, persistentSpec } from './scenarios/ours-workloads.mjs';

const env = process.env;
const numberFrom = (name, fallback) => (env[name] ? Number(env[name]) : fallback);
const mode = env.MODE ?? 'nonpersistent';
if (mode !== 'nonpersistent' && mode !== 'persistent') {
  process.stderr.write(`peers-ours: MODE must be nonpersistent or persistent, not ${mode}\n`);
  process.exit(64);
}
const messages = numberFrom('MESSAGES', 1000);
const options = {
  npMessages: messages,
  pMessages: messages,
  size: numberFrom('SIZE', 1024),
  window: numberFrom('WINDOW', 1000),
  prefetch: numberFrom('PREFETCH', 1000),
  // Under the harness's own cap (--timeout, 150 s by default), so that we report before it kills us.
  timeout: numberFrom('OURS_TIMEOUT_S', 140),
};
const workload = mode === 'persistent' ? persistentSpec : nonPersistentSpec;
const spec = workload(options);
spec.brokerEnv = { ...spec.brokerEnv, HOST: env.HOST ?? '127.0.0.1' };

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
process.stderr.write(`peers-ours: ${mode}, ${messages} x ${options.size} B\n`);
const line = await measureThroughput({ ...spec, scenario: mode });
const { peer: _peer, scenario: _scenario, ...fields } = line; // the harness sets peer and scenario
process.stdout.write(
  `${JSON.stringify({ ...fields, versions: { [packageJson.name]: packageJson.version, node: process.version } })}\n`,
);
process.exit(line.error === undefined ? 0 : 1);
