/**
 * `npm run interop:vectors`: regenerates test/fixtures/hornetq-2.4.7/{values,packets,jms-bodies}.json,
 * HornetQ 2.4.7's own bytes printed by test/interop/java/hornetq's Vectors from the Maven Central
 * jars (see the README there). Needs Java 17 and Maven; `npm test` only reads the committed files.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildJavaHarness, JVM_OPTIONS, moduleClasspath, repoRoot, runOrExplain } from './interop-java.mjs';

const VECTORS_MS = 120_000;

await runOrExplain(() => {
  buildJavaHarness(['common', 'hornetq']);
  const out = path.join(repoRoot, 'test', 'fixtures', 'hornetq-2.4.7');
  const run = spawnSync(
    'java',
    [...JVM_OPTIONS, '-cp', moduleClasspath('hornetq'), 'interop.hornetq.Vectors', '--out', out],
    { stdio: ['ignore', 'inherit', 'inherit'], timeout: VECTORS_MS },
  );
  if (run.status !== 0) throw new Error(`Vectors failed (${run.error?.message ?? `exit ${run.status}`})`);
  // Committed files follow the repository's formatting, so `npm run lint` stays clean.
  const files = ['values.json', 'packets.json', 'jms-bodies.json'].map((file) => path.join(out, file));
  const format = spawnSync('npx', ['prettier', '--write', '--log-level', 'warn', ...files], {
    cwd: repoRoot,
    stdio: 'inherit',
    timeout: VECTORS_MS,
  });
  if (format.status !== 0) throw new Error('prettier could not format the vectors');
});
