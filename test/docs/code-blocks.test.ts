import { execFile, spawn } from 'node:child_process';
import { promises as fs, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { CliProcess, freePort } from '../cli/support';

/**
 * Every code block the documentation says runs does run: in README.md and every page under docs/
 * (pages added later included), a ```ts, ```js or ```sh block right after a `<!-- runs -->` line
 * is run against a broker of its own, as CONTRIBUTING.md ("Runnable documentation") describes.
 * The README's quick start blocks have their own markers and test (test/package/pack.test.ts).
 *
 * The broker and the `hornetq` command are this repository's build (dist/, compiled by the jest
 * global set-up); the block imports 'hornetq-js' and 'hornetq-js/client' from there too.
 */
const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli', 'hornetq.js');
const MARKER = /^<!--\s*runs\b(.*)-->\s*$/;
/** A block marked `<!-- runs: starts its own broker -->` (an EmbeddedJMS) runs with none beside it. */
const OWN_BROKER = /starts its own broker/;
const LANGUAGES = ['ts', 'js', 'sh'] as const;
type Language = (typeof LANGUAGES)[number];
/** A block that has not ended by then has failed: it must finish on its own. */
const BLOCK_TIMEOUT_MS = 60_000;
/** The port the documentation's examples use: in a block, the port of the broker it runs against. */
const DOCUMENTED_PORT = /\b5445\b/g;

interface RunnableBlock {
  /** Page and line of the block's opening fence, relative to the repository. */
  readonly where: string;
  readonly language: Language;
  readonly code: string;
  /** The block starts a broker on config/'s port: the test starts none. */
  readonly ownBroker: boolean;
}

function markdownPages(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'api' && dir === DOCS ? [] : markdownPages(file);
    return name.endsWith('.md') ? [file] : [];
  });
}

const DOCS = path.join(ROOT, 'docs');

/** The blocks of `text` marked as running; a marker before anything but such a block is an error. */
export function runnableBlocks(text: string, page: string): RunnableBlock[] {
  const lines = text.split('\n');
  const blocks: RunnableBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i]!.trim());
    if (marker === null) continue;
    let open = i + 1;
    while (open < lines.length && lines[open]!.trim() === '') open++;
    const fence = /^```(\w*)\s*$/.exec(lines[open] ?? '');
    const language = fence?.[1] as Language | undefined;
    if (fence === null || language === undefined || !LANGUAGES.includes(language)) {
      throw new Error(
        `${page}:${i + 1}: <!-- runs --> must be followed by a \`\`\`ts, \`\`\`js or \`\`\`sh block`,
      );
    }
    const close = lines.findIndex((line, n) => n > open && line.startsWith('```'));
    if (close === -1) throw new Error(`${page}:${open + 1}: the block never closes`);
    blocks.push({
      where: `${page}:${open + 1}`,
      language,
      code: lines.slice(open + 1, close).join('\n'),
      ownBroker: OWN_BROKER.test(marker[1]!),
    });
    i = close;
  }
  return blocks;
}

const BLOCKS = [path.join(ROOT, 'README.md'), ...markdownPages(DOCS)].flatMap((file) =>
  runnableBlocks(readFileSync(file, 'utf8'), path.relative(ROOT, file)),
);

/** A folder like a user's application: config/ for the broker on `port`, and hornetq-js as a package. */
async function application(port: number): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'hornetq-doc-block-')));
  await fs.mkdir(path.join(dir, 'config'));
  for (const file of await fs.readdir(path.join(ROOT, 'config'))) {
    const text = await fs.readFile(path.join(ROOT, 'config', file), 'utf8');
    await fs.writeFile(path.join(dir, 'config', file), text.replace(DOCUMENTED_PORT, String(port)));
  }
  // `import ... from 'hornetq-js'` finds this repository, whose exports name dist/; any other
  // package a block imports is one the repository installs (OpenTelemetry's, for the tracing page,
  // are among its devDependencies), as if the user had installed it beside.
  const modules = path.join(dir, 'node_modules');
  await fs.mkdir(modules);
  await fs.symlink(ROOT, path.join(modules, 'hornetq-js'), 'dir');
  for (const name of await fs.readdir(path.join(ROOT, 'node_modules'))) {
    if (!name.startsWith('.'))
      await fs.symlink(path.join(ROOT, 'node_modules', name), path.join(modules, name), 'dir');
  }
  // The guide's `node dist/cli/hornetq.js` (the command in a clone) is this repository's too.
  await fs.symlink(path.join(ROOT, 'dist'), path.join(dir, 'dist'), 'dir');
  // `npx hornetq` and `hornetq` in a shell block are this repository's command.
  const bin = path.join(dir, 'bin');
  await fs.mkdir(bin);
  const hornetq = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"`;
  await fs.writeFile(path.join(bin, 'hornetq'), `#!/bin/sh\n${hornetq}\n`, { mode: 0o755 });
  await fs.writeFile(
    path.join(bin, 'npx'),
    `#!/bin/sh\nif [ "$1" = hornetq ]; then shift; ${hornetq}; fi\necho "npx $1: only npx hornetq runs in a documentation block" >&2\nexit 1\n`,
    { mode: 0o755 },
  );
  return dir;
}

async function startBroker(dir: string, port: number): Promise<CliProcess> {
  const broker = new CliProcess(
    spawn(
      process.execPath,
      [CLI, 'server', '--config', 'config', '--data-dir', '.', '--port', String(port)],
      {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  await broker.waitForOutput(new RegExp(`listening on tcp://localhost:${port}`), 60_000);
  return broker;
}

/** The block as a file of the application and the command that runs it. */
async function prepare(block: RunnableBlock, dir: string, port: number): Promise<[string, string[]]> {
  const code = block.code.replace(DOCUMENTED_PORT, String(port));
  if (block.language === 'sh') {
    await fs.writeFile(path.join(dir, 'block.sh'), code);
    return ['sh', ['-e', 'block.sh']];
  }
  // Types stripped (and `await using` lowered for Node 20), the block stays an ES module.
  const { outputText } = ts.transpileModule(code, {
    fileName: `block.${block.language}`,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      allowJs: true,
      verbatimModuleSyntax: false,
    },
  });
  await fs.writeFile(path.join(dir, 'block.mjs'), outputText);
  return [process.execPath, ['block.mjs']];
}

test('the documentation marks blocks to run, and a marker is followed by a block', () => {
  expect(BLOCKS.length).toBeGreaterThan(0);
  expect(() => runnableBlocks('<!-- runs -->\n\n```xml\n<a/>\n```\n', 'page.md')).toThrow(
    'page.md:1: <!-- runs --> must be followed by',
  );
  expect(
    runnableBlocks('text\n<!-- runs -->\n```sh\necho hi\n```\n\n```ts\nnot marked\n```', 'p.md'),
  ).toEqual([{ where: 'p.md:3', language: 'sh', code: 'echo hi', ownBroker: false }]);
  expect(runnableBlocks('<!-- runs: starts its own broker -->\n```js\nx\n```', 'q.md')).toEqual([
    { where: 'q.md:2', language: 'js', code: 'x', ownBroker: true },
  ]);
});

const cases = BLOCKS.map((block) => [block.where, block] as const);
// (test.each refuses an empty table; the test above fails when nothing is marked.)
if (cases.length > 0) {
  test.each(cases)(
    '%s runs to completion against a broker of its own',
    async (_where, block) => {
      const port = await freePort();
      const dir = await application(port);
      const broker = block.ownBroker ? undefined : await startBroker(dir, port);
      try {
        const [command, args] = await prepare(block, dir, port);
        const env = {
          ...process.env,
          PATH: `${path.join(dir, 'bin')}${path.delimiter}${process.env['PATH'] ?? ''}`,
          HORNETQ_REMOTING_NETTY_PORT: String(port),
        };
        const outcome = await run(command, args, { cwd: dir, env, timeout: BLOCK_TIMEOUT_MS }).then(
          () => 'exit 0',
          (error: { code?: unknown; signal?: unknown; stdout?: string; stderr?: string }) =>
            `exit ${String(error.code)} ${String(error.signal ?? '')}\nstdout:\n${error.stdout ?? ''}\nstderr:\n${error.stderr ?? ''}`,
        );
        expect(outcome).toBe('exit 0');
      } finally {
        await broker?.stop();
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
}
