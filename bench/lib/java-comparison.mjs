// The command line of a comparison with a Java peer (peers-artemis.mjs, java-client.mjs): parses
// the options, checks Java and Maven and builds the peer's Java sides (exit 69 without them),
// runs every measurement of the comparison run by run, interleaved, printing one JSON line each,
// then the summary line (stdout) and table (stderr). Exits 1 when a measurement failed (its line's
// `error` says why), 0 otherwise.
import { readFileSync } from 'node:fs';
import { ToolchainError, buildBenchJava, checkJava, checkMaven } from './java-toolchain.mjs';
import { DEFAULTS, UsageError } from './options.mjs';
import { summarizeComparison } from './comparison-summary.mjs';
import { measureThroughput } from './throughput.mjs';
import {
  largeMessageTable,
  measureLargeMessages,
  summarizeLargeMessages,
} from '../scenarios/java-large-message.mjs';

const OPTIONS = ['runs', 'npMessages', 'pMessages', 'size', 'window', 'prefetch', 'timeout'];
/** The options of the large-message scenario, for a comparison that has it (see runComparison). */
const LARGE_MESSAGE_DEFAULTS = { largeMessageMib: 50 };
const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const usage = (script, defaults) =>
  `node bench/${script}.mjs [options]\n${Object.entries(defaults)
    .map(([name, value]) => `  --${kebab(name)} ${value}`)
    .join('\n')}\n  (--timeout is per measurement, in seconds.)`;

function parseArguments(argv, defaults) {
  const byFlag = new Map(Object.keys(defaults).map((name) => [`--${kebab(name)}`, name]));
  const options = { ...defaults };
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

function optionsOrExit(script, argv, defaults) {
  try {
    return parseArguments(argv, defaults);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message ? `${error.message}\n` : ''}${usage(script, defaults)}\n`);
    process.exit(error.message ? 64 : 0);
  }
}

/** The classpaths of the peer's Java sides and the Java version, or exit 69 saying what is missing. */
function javaOrExit(script, javaModule) {
  try {
    const javaMajor = checkJava();
    checkMaven();
    process.stderr.write(
      `${script}: building test/interop/java (${javaModule}) and bench/java (${javaModule}) (mvn)\n`,
    );
    return { javaMajor, classpaths: buildBenchJava(javaModule) };
  } catch (error) {
    if (!(error instanceof ToolchainError)) throw error;
    process.stderr.write(`${script}: ${error.message}\n`);
    process.exit(69); // EX_UNAVAILABLE
  }
}

/**
 * comparison: { script (its name in messages and usage), javaModule ('artemis' | 'hornetq': see
 *   buildBenchJava), versions (the peer's, for the summary), layout (see summarizeComparison),
 *   specs(options, classpaths) -> measureThroughput specs of one run, in the order they run
 *   (none: no throughput measurements), largeMessages (HornetQ's: also run the large-message
 *   scenario, scenarios/java-large-message.mjs, after the throughput measurements) }.
 */
export async function runComparison(comparison, argv = process.argv.slice(2)) {
  const { script } = comparison;
  const defaults = {
    ...(comparison.specs === undefined
      ? { runs: DEFAULTS.runs, timeout: DEFAULTS.timeout }
      : pick(DEFAULTS, OPTIONS)),
    ...(comparison.largeMessages ? LARGE_MESSAGE_DEFAULTS : {}),
  };
  const options = optionsOrExit(script, argv, defaults);
  const { javaMajor, classpaths } = javaOrExit(script, comparison.javaModule);
  const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const versions = {
    [packageJson.name]: packageJson.version,
    node: process.version,
    ...comparison.versions,
    java: javaMajor,
  };
  let errors = 0;
  if (comparison.specs !== undefined) {
    const lines = [];
    for (let run = 1; run <= options.runs; run++) {
      for (const spec of comparison.specs(options, classpaths)) {
        process.stderr.write(`${script}: run ${run}, ${spec.extra.measurement} ${spec.extra.mode}\n`);
        const line = { ...(await measureThroughput(spec)), run };
        lines.push(line);
        process.stdout.write(`${JSON.stringify(line)}\n`);
      }
    }
    const { json, table } = summarizeComparison(lines, options, versions, comparison.layout);
    process.stdout.write(`${JSON.stringify(json)}\n`);
    process.stderr.write(`\n${table}\n`);
    errors += json.errors.length;
  }
  if (comparison.largeMessages) errors += await runLargeMessages(script, options, classpaths, versions);
  process.exit(errors === 0 ? 0 : 1);
}

/** The large-message scenario, run by run: its lines and summary; returns how many errors. */
async function runLargeMessages(script, options, classpaths, versions) {
  const lines = [];
  const settings = { mib: options.largeMessageMib, timeoutMs: options.timeout * 1000 };
  for (let run = 1; run <= options.runs; run++) {
    process.stderr.write(`${script}: run ${run}, large message (${settings.mib} MiB each way)\n`);
    for (const line of await measureLargeMessages({ ...settings, run }, classpaths)) {
      lines.push(line);
      process.stdout.write(`${JSON.stringify(line)}\n`);
    }
  }
  const summary = { ...summarizeLargeMessages(lines, { mib: settings.mib, runs: options.runs }), versions };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  process.stderr.write(`\n${largeMessageTable(summary)}\n`);
  return summary.errors.length;
}

function pick(object, names) {
  return Object.fromEntries(names.map((name) => [name, object[name]]));
}
