import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the built Java harness is (test/interop/java, built by scripts/interop-java.mjs before
 * jest starts) and how its programs are run.
 */
export const JAVA_PROJECT = path.resolve(__dirname, '..', 'java');

export type JavaModule = 'hornetq' | 'artemis';

/** The JVM options of every harness program (the list scripts/interop-java.mjs uses too). */
export const JVM_OPTIONS: readonly string[] = (
  JSON.parse(readFileSync(path.join(JAVA_PROJECT, 'jvm-options.json'), 'utf8')) as { options: string[] }
).options;

/** A module's classpath: its classes and the jars Maven copied to its target/lib. */
export function moduleClasspath(module: JavaModule): string {
  const target = path.join(JAVA_PROJECT, module, 'target');
  if (!existsSync(path.join(target, 'lib')) || !existsSync(path.join(target, 'classes'))) {
    throw new Error(
      `the Java harness module '${module}' is not built (${target}): run npm run test:interop, which builds it`,
    );
  }
  return [path.join(target, 'classes'), path.join(target, 'lib', '*')].join(path.delimiter);
}
