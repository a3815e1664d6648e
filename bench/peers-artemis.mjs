// Where we stand against ActiveMQ Artemis 2.40.0, in one invocation:
//   node bench/peers-artemis.mjs [--runs 3] [--np-messages 200000] [--p-messages 50000]
//                                [--size 1024] [--window 1000] [--prefetch 1000] [--timeout 180]
// Measures, run by run and interleaved (scenarios/artemis-comparison.mjs): a) our client -> our
// broker, b) our client -> Artemis (HORNETQ acceptor), c) Artemis' own core client -> Artemis (CORE
// acceptor), each non-persistent and durable, the same counts as np-throughput and p-throughput.
// Prints one JSON line per measurement, then a summary line (medians, ratios b/a, c/a, c/b), and a
// markdown table on stderr. Needs Java 17 and Maven (the interop harness' Artemis server in
// test/interop/java and Artemis' client in bench/java are built first; their jars come from
// Maven Central): without them it says so in one line and exits 69. Exits 1 when a measurement
// failed (its line's `error` says why), 0 otherwise. Build our side first: npm run build.
import { readFileSync } from 'node:fs';
import { ToolchainError, buildBenchJava, checkJava, checkMaven } from './lib/java-toolchain.mjs';
import { DEFAULTS, UsageError } from './lib/options.mjs';
import { summarizeComparison } from './lib/artemis-summary.mjs';
import { measureThroughput } from './lib/throughput.mjs';
import { comparisonSpecs } from './scenarios/artemis-comparison.mjs';

const OPTIONS = ['runs', 'npMessages', 'pMessages', 'size', 'window', 'prefetch', 'timeout'];
const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const USAGE = `node bench/peers-artemis.mjs [options]\n${OPTIONS.map((name) => `  --${kebab(name)} ${DEFAULTS[name]}`).join('\n')}\n  (--timeout is per measurement, in seconds.)`;

function parseArguments(argv) {
  const byFlag = new Map(OPTIONS.map((name) => [`--${kebab(name)}`, name]));
  const options = Object.fromEntries(OPTIONS.map((name) => [name, DEFAULTS[name]]));
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === '--help') throw new UsageError('');
    const name = byFlag.get(argv[i]);
    const value = Number(argv[i + 1]);
    if (name === undefined) throw new UsageError(`unknown option ${argv[i]}`);
    if (!Number.isInteger(value) || value <= 0)
      throw new UsageError(`${argv[i]} takes a positive whole number`);
    options[name] = value;
  }
  return options;
}

let options;
try {
  options = parseArguments(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`${error.message ? `${error.message}\n` : ''}${USAGE}\n`);
  process.exit(error.message ? 64 : 0);
}

let classpaths;
let javaMajor;
try {
  javaMajor = checkJava();
  checkMaven();
  process.stderr.write('peers-artemis: building test/interop/java (artemis) and bench/java (mvn)\n');
  classpaths = buildBenchJava();
} catch (error) {
  if (!(error instanceof ToolchainError)) throw error;
  process.stderr.write(`peers-artemis: ${error.message}\n`);
  process.exit(69); // EX_UNAVAILABLE
}

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const versions = {
  [packageJson.name]: packageJson.version,
  node: process.version,
  artemis: '2.40.0',
  java: javaMajor,
};
const lines = [];
for (let run = 1; run <= options.runs; run++) {
  for (const spec of comparisonSpecs(options, classpaths)) {
    process.stderr.write(`peers-artemis: run ${run}, ${spec.extra.measurement} ${spec.extra.mode}\n`);
    const line = { ...(await measureThroughput(spec)), run };
    lines.push(line);
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}
const { json, table } = summarizeComparison(lines, options, versions);
process.stdout.write(`${JSON.stringify(json)}\n`);
process.stderr.write(`\n${table}\n`);
process.exit(json.errors.length === 0 ? 0 : 1);
