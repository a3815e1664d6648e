import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The CLI tests run `node dist/cli/hornetq.js` as a user would, so dist/ must hold the current
 * sources: compile them once per jest run when any source (or build setting) is newer than the
 * compiled command. A fresh clone has no dist/ and always compiles.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const ENTRY = path.join(ROOT, 'dist', 'cli', 'hornetq.js');

export default function buildCliOnce(): void {
  if (existsSync(ENTRY) && newestSource() <= statSync(ENTRY).mtimeMs) return;
  const tsc = require.resolve('typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], {
      cwd: ROOT,
      stdio: 'pipe',
    });
  } catch (error) {
    // Type errors still emit JavaScript (tsc --noEmit reports them in `npm test`); only a missing
    // entry point stops the CLI tests.
    if (!existsSync(ENTRY)) throw error;
  }
}

function newestSource(): number {
  const settings = ['tsconfig.json', 'tsconfig.build.json', 'package.json'].map(
    (file) => statSync(path.join(ROOT, file)).mtimeMs,
  );
  return Math.max(...settings, newestIn(path.join(ROOT, 'src')));
}

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(full) : statSync(full).mtimeMs);
  }
  return newest;
}
