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
/** Written last by scripts/build.mjs: present and newer than the sources means dist/ is whole. */
const ESM_ENTRY = path.join(ROOT, 'dist', 'esm', 'index.mjs');

export default function buildCliOnce(): void {
  if (existsSync(ESM_ENTRY) && newestSource() <= statSync(ESM_ENTRY).mtimeMs) return;
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
  // What npm run build adds to tsc's output: public declarations and the ESM entry points (test/package).
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--shape-only'], {
    cwd: ROOT,
    stdio: 'pipe',
  });
}

function newestSource(): number {
  const settings = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/build.mjs'].map(
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
