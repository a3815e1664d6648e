/**
 * `npm run test:interop [-- jest args]`: builds the Java harness (test/interop/java: HornetQ 2.4.7
 * and Artemis 2.40.0 from Maven Central, cached in ~/.m2 after the first run), then runs the
 * interop scenarios (jest.interop.config.js) against real servers. Without Java 17, Maven or (on
 * a cold cache) Maven Central it says so in one line and exits 1: it never reports a pass it did
 * not run.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import process from 'node:process';
import { buildJavaHarness, repoRoot, runOrExplain } from './interop-java.mjs';

await runOrExplain(() => {
  const buildMs = buildJavaHarness();
  process.stdout.write(`interop: Java harness built in ${(buildMs / 1000).toFixed(1)} s\n`);
  const jest = createRequire(import.meta.url).resolve('jest/bin/jest');
  const run = spawnSync(process.execPath, [jest, '-c', 'jest.interop.config.js', ...process.argv.slice(2)], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
});
