/* global process, console, URL */
/**
 * The longer chaos run: `npm run test:chaos -- --seed N --minutes M [--messages K]`.
 * Runs test/integration/chaos/chaos.test.ts in one process with --expose-gc (so the heap check
 * measures after real collections), passing the options as CHAOS_SEED, CHAOS_MINUTES and
 * CHAOS_MESSAGES. Without --minutes or --messages it runs for one minute; without --seed it draws
 * one and prints it.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const USAGE = 'usage: npm run test:chaos -- [--seed N] [--minutes M] [--messages K]';
const OPTIONS = { seed: 'CHAOS_SEED', minutes: 'CHAOS_MINUTES', messages: 'CHAOS_MESSAGES' };

function parse(args) {
  const env = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    const match = /^--(seed|minutes|messages)(?:=(.*))?$/.exec(arg);
    if (match === null) throw new Error(`unknown argument ${arg}\n${USAGE}`);
    const value = match[2] ?? args[++i];
    if (value === undefined || value === '' || !Number.isFinite(Number(value))) {
      throw new Error(`--${match[1]} needs a number\n${USAGE}`);
    }
    env[OPTIONS[match[1]]] = value;
  }
  if (env.CHAOS_MINUTES === undefined && env.CHAOS_MESSAGES === undefined) env.CHAOS_MINUTES = '1';
  return env;
}

let chaosEnv;
try {
  chaosEnv = parse(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const jest = createRequire(import.meta.url).resolve('jest/bin/jest');
const child = spawn(
  process.execPath,
  ['--expose-gc', jest, '--runInBand', '--verbose', 'test/integration/chaos/chaos.test.ts'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, ...chaosEnv } },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
