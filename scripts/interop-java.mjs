/**
 * The Java side of the interop harness (test/interop/java): checks that Java 17 and Maven are
 * there, builds the Maven project once (offline when ~/.m2 already holds every jar, from Maven
 * Central otherwise) and says where each module's classpath is. Used by `npm run test:interop`
 * and `npm run interop:vectors`; a machine that cannot build gets ONE line saying why, and a
 * non-zero exit, never a silent pass.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const javaProject = path.join(repoRoot, 'test', 'interop', 'java');

/** Bounds for the tools, generous for a cold cache on a shared 2-core machine. */
const VERSION_CHECK_MS = 30_000;
const BUILD_MS = 15 * 60_000;

/** Why this machine cannot run the Java harness: one line for the user, and the exit code. */
export class InteropUnavailable extends Error {}

/** Java's major version from `java -version` ("17.0.15" → 17), or null when java will not run. */
function javaMajorVersion() {
  const run = spawnSync('java', ['-version'], { encoding: 'utf8', timeout: VERSION_CHECK_MS });
  if (run.error || run.status !== 0) return null;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(run.stderr);
  if (match === null) return null;
  const major = Number(match[1]);
  return major === 1 ? Number(match[2]) : major;
}

export function requireToolchain() {
  const major = javaMajorVersion();
  if (major === null)
    throw new InteropUnavailable(
      'no Java found (java -version failed): the interop harness needs Java 17 and Maven',
    );
  if (major < 17)
    throw new InteropUnavailable(`Java ${major} found: the interop harness needs Java 17 or later`);
  const maven = spawnSync('mvn', ['-v'], { encoding: 'utf8', timeout: VERSION_CHECK_MS });
  if (maven.error || maven.status !== 0)
    throw new InteropUnavailable('no Maven found (mvn -v failed): the interop harness needs Maven 3.8');
}

/** Lines of Maven's output that mean an artifact could not be had, offline or from Central. */
const UNRESOLVED =
  /Could not resolve|Cannot access|offline mode|Could not transfer|Failed to read artifact descriptor|Non-resolvable/i;

function mvn(args) {
  const run = spawnSync('mvn', ['-B', '-q', ...args, 'package'], {
    cwd: javaProject,
    encoding: 'utf8',
    timeout: BUILD_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  if (run.error) return { ok: false, unresolved: false, output: `${run.error.message}\n${output}` };
  return { ok: run.status === 0, unresolved: UNRESOLVED.test(output), output };
}

/**
 * Builds test/interop/java; offline first (seconds once the jars are cached), then, if jars are
 * missing, from Maven Central. Returns how long it took. A compile error is thrown whole.
 */
export function buildJavaHarness(modules = ['common', 'hornetq', 'artemis']) {
  requireToolchain();
  const started = Date.now();
  const selection = ['-pl', modules.join(','), '-am'];
  let build = mvn(['-o', ...selection]);
  if (!build.ok && build.unresolved) build = mvn(selection);
  if (!build.ok && build.unresolved) {
    throw new InteropUnavailable(
      'Maven could not fetch the HornetQ/Artemis jars (no Maven Central and not in ~/.m2): the interop harness cannot run here',
    );
  }
  if (!build.ok)
    throw new Error(`the interop harness does not build (mvn package in ${javaProject}):\n${build.output}`);
  return Date.now() - started;
}

/** The classpath of one built module: its classes and the jars Maven copied to target/lib. */
export function moduleClasspath(module) {
  const target = path.join(javaProject, module, 'target');
  if (!existsSync(path.join(target, 'lib'))) {
    throw new Error(`${module} is not built (no ${target}/lib): run npm run test:interop, which builds it`);
  }
  return [path.join(target, 'classes'), path.join(target, 'lib', '*')].join(path.delimiter);
}

/** JVM options every harness program runs with (one list, shared with test/interop/support). */
export const JVM_OPTIONS = JSON.parse(
  readFileSync(path.join(javaProject, 'jvm-options.json'), 'utf8'),
).options;

/** Runs `main`, turning InteropUnavailable into one line on stderr and exit code 1. */
export async function runOrExplain(main) {
  try {
    await main();
  } catch (error) {
    if (error instanceof InteropUnavailable) {
      process.stderr.write(`interop: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
