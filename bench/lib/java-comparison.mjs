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

const OPTIONS = ['runs', 'npMessages', 'pMessages', 'size', 'window', 'prefetch', 'timeout'];
const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const usage = (script) =>
  `node bench/${script}.mjs [options]\n${OPTIONS.map((name) => `  --${kebab(name)} ${DEFAULTS[name]}`).join('\n')}\n  (--timeout is per measurement, in seconds.)`;

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

function optionsOrExit(script, argv) {
  try {
    return parseArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message ? `${error.message}\n` : ''}${usage(script)}\n`);
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
 *   specs(options, classpaths) -> measureThroughput specs of one run, in the order they run }.
 */
export async function runComparison(comparison, argv = process.argv.slice(2)) {
  const { script } = comparison;
  const options = optionsOrExit(script, argv);
  const { javaMajor, classpaths } = javaOrExit(script, comparison.javaModule);
  const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const versions = {
    [packageJson.name]: packageJson.version,
    node: process.version,
    ...comparison.versions,
    java: javaMajor,
  };
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
  process.exit(json.errors.length === 0 ? 0 : 1);
}
