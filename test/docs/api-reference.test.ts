import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * `npm run docs` (typedoc.json) must keep building the API reference of the published entry
 * points: a type a public signature uses but no entry point exports, or a {@link} to nothing, is
 * a warning, and warnings fail it. Validated here without writing the pages (--emit none).
 */
const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');
const TYPEDOC = path.join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc');

interface Outcome {
  code: number;
  output: string;
}

async function typedoc(args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [TYPEDOC, '--emit', 'none', ...args], {
      cwd: ROOT,
      timeout: 170_000,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

test('the API reference of src/index.ts, src/client.ts and src/container.ts builds without a warning', async () => {
  const outcome = await typedoc([]);
  expect(outcome.output).not.toMatch(/warning|error/i);
  expect(outcome.code).toBe(0);
}, 180_000);
