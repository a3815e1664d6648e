/* global process, console, URL */
/**
 * What the long seeded runs (`npm run test:chaos`, `test:fuzz`, `test:crash`) share: numeric
 * `--name value` options (or `--name=value`), `--help`, and one jest process running one test
 * file in band, told the options through its environment. Exits with the test's exit code.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The numeric options named in `names` found in `args`, by name, as the strings given. */
function parseNumericOptions(args, names, usage) {
  const values = {};
  const pattern = new RegExp(`^--(${names.join('|')})(?:=(.*))?$`);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--help' || arg === '-h') {
      console.log(usage);
      process.exit(0);
    }
    const match = pattern.exec(arg);
    if (match === null) throw new Error(`unknown argument ${arg}\n${usage}`);
    const value = match[2] ?? args[++i];
    if (value === undefined || value === '' || !Number.isFinite(Number(value))) {
      throw new Error(`--${match[1]} needs a number\n${usage}`);
    }
    values[match[1]] = value;
  }
  return values;
}

/**
 * Parses the command line for `names`, turns the values into the test's environment with `toEnv`,
 * and runs `testFile` (node started with `nodeArgs`, e.g. --expose-gc).
 */
export function runLongTest({ usage, names, toEnv, testFile, nodeArgs = [] }) {
  let env;
  try {
    env = toEnv(parseNumericOptions(process.argv.slice(2), names, usage));
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
  const root = fileURLToPath(new URL('..', import.meta.url));
  const jest = createRequire(import.meta.url).resolve('jest/bin/jest');
  const child = spawn(process.execPath, [...nodeArgs, jest, '--runInBand', '--verbose', testFile], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
}
