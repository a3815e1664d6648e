/**
 * The longer fuzz run: `npm run test:fuzz -- --seed N --minutes M`.
 * Runs test/integration/fuzz.test.ts in one process with --expose-gc (so the heap check measures
 * after real collections), passing the options as FUZZ_SEED and FUZZ_MS. Without --minutes it
 * fuzzes for one minute; without --seed it draws one and prints it.
 */
import { runLongTest } from './long-run.mjs';

runLongTest({
  usage: 'usage: npm run test:fuzz -- [--seed N] [--minutes M]',
  names: ['seed', 'minutes'],
  // The test checks the range (and names FUZZ_MS when it is wrong).
  toEnv: ({ seed, minutes }) => ({
    ...(seed === undefined ? {} : { FUZZ_SEED: seed }),
    FUZZ_MS: String(Math.round(Number(minutes ?? 1) * 60_000)),
  }),
  testFile: 'test/integration/fuzz.test.ts',
  nodeArgs: ['--expose-gc'],
});
