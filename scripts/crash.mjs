/**
 * The longer kill -9 run: `npm run test:crash -- --seed N --minutes M [--kills K]`.
 * Runs test/integration/crash/kill.test.ts in one jest process, passing the options as
 * CRASH_SEED, CRASH_MINUTES and CRASH_KILLS. Without --minutes or --kills it runs for one minute;
 * without --seed it draws one and prints it. The run prints the seed first and a summary at the
 * end (broker starts, kills, outcomes, and the checker's lost / unexpected / duplicated counts).
 */
import { runLongTest } from './long-run.mjs';

runLongTest({
  usage: 'usage: npm run test:crash -- [--seed N] [--minutes M] [--kills K]',
  names: ['seed', 'minutes', 'kills'],
  toEnv: ({ seed, minutes, kills }) => ({
    ...(seed === undefined ? {} : { CRASH_SEED: seed }),
    ...(kills === undefined ? {} : { CRASH_KILLS: kills }),
    ...(minutes === undefined && kills !== undefined ? {} : { CRASH_MINUTES: minutes ?? '1' }),
  }),
  testFile: 'test/integration/crash/kill.test.ts',
});
