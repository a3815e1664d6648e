/* global process, console, URL */
/**
 * The longer fuzz run: `npm run test:fuzz -- --seed N --minutes M`.
 * Runs test/integration/fuzz.test.ts in one process with --expose-gc (so the heap check measures
 * after real collections), passing the options as FUZZ_SEED and FUZZ_MS. Without --minutes it
 * fuzzes for one minute; without --seed it draws one and prints it.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const USAGE = 'usage: npm run test:fuzz -- [--seed N] [--minutes M]';

function parse(args) {
  const env = {};
  let minutes = 1;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    const match = /^--(seed|minutes)(?:=(.*))?$/.exec(arg);
    if (match === null) throw new Error(`unknown argument ${arg}\n${USAGE}`);
    const value = match[2] ?? args[++i];
    if (value === undefined || value === '' || !Number.isFinite(Number(value))) {
      throw new Error(`--${match[1]} needs a number\n${USAGE}`);
    }
    if (match[1] === 'seed') env.FUZZ_SEED = value;
    else minutes = Number(value);
  }
  // The test checks the range (and names FUZZ_MS when it is wrong).
  env.FUZZ_MS = String(Math.round(minutes * 60_000));
  return env;
}

let fuzzEnv;
try {
  fuzzEnv = parse(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const jest = createRequire(import.meta.url).resolve('jest/bin/jest');
const child = spawn(
  process.execPath,
  ['--expose-gc', jest, '--runInBand', '--verbose', 'test/integration/fuzz.test.ts'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, ...fuzzEnv } },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
