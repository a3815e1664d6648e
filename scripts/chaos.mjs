/**
 * The longer chaos run: `npm run test:chaos -- --seed N --minutes M [--messages K]`.
 * Runs test/integration/chaos/chaos.test.ts in one process with --expose-gc (so the heap check
 * measures after real collections), passing the options as CHAOS_SEED, CHAOS_MINUTES and
 * CHAOS_MESSAGES. Without --minutes or --messages it runs for one minute; without --seed it draws
 * one and prints it.
 */
import { runLongTest } from './long-run.mjs';

runLongTest({
  usage: 'usage: npm run test:chaos -- [--seed N] [--minutes M] [--messages K]',
  names: ['seed', 'minutes', 'messages'],
  toEnv: ({ seed, minutes, messages }) => ({
    ...(seed === undefined ? {} : { CHAOS_SEED: seed }),
    ...(messages === undefined ? {} : { CHAOS_MESSAGES: messages }),
    ...(minutes === undefined && messages !== undefined ? {} : { CHAOS_MINUTES: minutes ?? '1' }),
  }),
  testFile: 'test/integration/chaos/chaos.test.ts',
  nodeArgs: ['--expose-gc'],
});
