/* global process, console, URL */
/**
 * The longer kill -9 run: `npm run test:crash -- --seed N --minutes M [--kills K]`.
 * Runs test/integration/crash/kill.test.ts in one jest process, passing the options as
 * CRASH_SEED, CRASH_MINUTES and CRASH_KILLS. Without --minutes or --kills it runs for one minute;
 * without --seed it draws one and prints it. The run prints the seed first and a summary at the
 * end (broker starts, kills, outcomes, and the checker's lost / unexpected / duplicated counts).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const USAGE = 'usage: npm run test:crash -- [--seed N] [--minutes M] [--kills K]';
const OPTIONS = { seed: 'CRASH_SEED', minutes: 'CRASH_MINUTES', kills: 'CRASH_KILLS' };

function parse(args) {
  const env = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    const match = /^--(seed|minutes|kills)(?:=(.*))?$/.exec(arg);
    if (match === null) throw new Error(`unknown argument ${arg}\n${USAGE}`);
    const value = match[2] ?? args[++i];
    if (value === undefined || value === '' || !Number.isFinite(Number(value))) {
      throw new Error(`--${match[1]} needs a number\n${USAGE}`);
    }
    env[OPTIONS[match[1]]] = value;
  }
  if (env.CRASH_MINUTES === undefined && env.CRASH_KILLS === undefined) env.CRASH_MINUTES = '1';
  return env;
}

let crashEnv;
try {
  crashEnv = parse(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const jest = createRequire(import.meta.url).resolve('jest/bin/jest');
const child = spawn(
  process.execPath,
  [jest, '--runInBand', '--verbose', 'test/integration/crash/kill.test.ts'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, ...crashEnv } },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
