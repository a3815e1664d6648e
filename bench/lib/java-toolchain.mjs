// Java 17 and Maven for the comparisons with a Java peer (peers-artemis.mjs, java-client.mjs):
// checks that both are on PATH and builds the two Java sides of one peer: its broker, which is the
// interop harness' embedded server (test/interop/java, module artemis or hornetq), and its client
// (bench/java, the module of the same name). Each failure is one sentence that says what is
// missing, for the caller to print before it exits non-zero.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const javaDir = fileURLToPath(new URL('../java/', import.meta.url));
const interopJavaDir = fileURLToPath(new URL('../../test/interop/java/', import.meta.url));
const MINIMUM_JAVA = 17;

export class ToolchainError extends Error {}

/** The major version of `java` on PATH, or a ToolchainError saying why there is none usable. */
export function checkJava() {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error !== undefined) {
    throw new ToolchainError(`Java ${MINIMUM_JAVA} or later is needed on PATH (java: ${result.error.code})`);
  }
  // `java -version` prints e.g. `openjdk version "17.0.15" 2025-04-15` (or "1.8.0_x") on stderr.
  const match = /version "(\d+)(?:\.(\d+))?/.exec(result.stderr);
  const major = match === null ? null : Number(match[1] === '1' ? match[2] : match[1]);
  if (major === null || major < MINIMUM_JAVA) {
    throw new ToolchainError(
      `Java ${MINIMUM_JAVA} or later is needed; java on PATH says: ${result.stderr.split('\n')[0]}`,
    );
  }
  return major;
}

/** Checks that `mvn` runs. */
export function checkMaven() {
  const result = spawnSync('mvn', ['-v'], { encoding: 'utf8' });
  if (result.error !== undefined || result.status !== 0) {
    throw new ToolchainError(
      `Maven (mvn) is needed on PATH to build bench/java (${result.error?.code ?? `exit ${result.status}`})`,
    );
  }
}

/**
 * Builds both Java sides of `peer` ('artemis' or 'hornetq') and returns their classpaths:
 * `broker`, the interop harness' module of that name (its classes and the jars Maven copied to its
 * target/lib), and `client`, bench/java's module of that name (its classes, bench/java/common's
 * and its dependencies: Artemis 2.40.0 or HornetQ 2.4.7 from Maven Central, cached by Maven after
 * the first build). Each peer's jars stay on its own classpath (HornetQ runs on Netty 4.0,
 * Artemis on Netty 4.1).
 */
export function buildBenchJava(peer) {
  const broker = buildHarnessJava(peer);
  runMaven(
    javaDir,
    ['compile', 'dependency:build-classpath', ...peerModules(peer)],
    `bench/java (module ${peer})`,
  );
  const dependencies = readFileSync(`${javaDir}${peer}/target/classpath.txt`, 'utf8').trim();
  return { broker, client: `${javaDir}${peer}/target/classes:${dependencies}` };
}

/**
 * Builds the interop harness' module `peer` ('artemis' or 'hornetq': its servers, ArtemisServer,
 * ArtemisHaServer, ...) and returns its classpath: its classes and the jars Maven copied to its
 * target/lib.
 */
export function buildHarnessJava(peer) {
  runMaven(interopJavaDir, ['package', ...peerModules(peer)], `test/interop/java (module ${peer})`);
  return `${interopJavaDir}${peer}/target/classes:${interopJavaDir}${peer}/target/lib/*`;
}

/** -pl <peer> -am: that module and what it needs (common), not the other peer's. */
const peerModules = (peer) => ['-pl', peer, '-am'];

function runMaven(cwd, goals, what) {
  const result = spawnSync('mvn', ['-B', '-q', ...goals], { cwd, encoding: 'utf8' });
  if (result.error !== undefined || result.status !== 0) {
    const output = `${result.stdout ?? ''}\n${result.stderr ?? ''}`;
    const firstError =
      output.split('\n').find((line) => line.startsWith('[ERROR]')) ?? output.trim().split('\n').at(-1);
    throw new ToolchainError(`mvn could not build ${what} (is Maven Central reachable?): ${firstError}`);
  }
}
