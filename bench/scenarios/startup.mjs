// startup: what loading the package costs an application, and how long the `hornetq` command takes
// to answer. Each sample is a fresh Node process (a warm file cache, no warm module cache), so the
// figure is what a service pays at boot and what a user waits for at the prompt.
//   - require: milliseconds to `require()` each entry point the package exports (the whole
//     library, the JMS client alone), and which of the heavy packages that load pulled in.
//   - cli: wall-clock milliseconds of `hornetq --version` and `hornetq --help`, process start to exit.
//   - node: wall-clock milliseconds of `node -e 0`, the baseline both are compared with.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../lib/stats.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SAMPLES = 15;
const CLI = path.join(ROOT, 'dist/cli/hornetq.js');
/** Packages the JMS client must not need; the report names those an entry point loaded. */
const HEAVY = [
  'inversify',
  'reflect-metadata',
  'commander',
  'cli-progress',
  'pino',
  'pino-pretty',
  'hdr-histogram-js',
  'fast-xml-parser',
];

// Runs in the child: time the require, then list the node_modules packages it loaded.
const PROBE = `
const t0 = process.hrtime.bigint();
require(process.argv[1]);
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
const loaded = new Set();
for (const file of Object.keys(require.cache)) {
  const m = /node_modules[\\\\/]((?:@[^\\\\/]+[\\\\/])?[^\\\\/]+)/.exec(file);
  if (m) loaded.add(m[1].replace(/\\\\/g, '/'));
}
process.stdout.write(JSON.stringify({ ms, loaded: [...loaded], reflect: typeof Reflect.getMetadata === 'function' }));
`;

export default {
  name: 'startup',
  repeated: false,
  async run() {
    return [
      measureProcess('node', ['-e', '0']),
      ...entryPoints().map(measureRequire),
      ...[['--version'], ['--help']].map((args) => measureProcess('cli', [CLI, ...args])),
    ];
  },
};

/** Every require-able entry point of package.json's exports map (just `main` before it had one). */
function entryPoints() {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  if (pkg.exports === undefined) return [{ name: '.', file: path.join(ROOT, pkg.main) }];
  return Object.entries(pkg.exports)
    .filter(([, target]) => typeof target === 'object' && target.require !== undefined)
    .map(([name, target]) => ({ name, file: path.join(ROOT, requireTarget(target.require)) }));
}

function requireTarget(target) {
  return typeof target === 'string' ? target : target.default;
}

function measureRequire(entry) {
  const samples = [];
  let last;
  for (let i = 0; i < SAMPLES; i++) {
    last = JSON.parse(execFileSync(process.execPath, ['-e', PROBE, entry.file], { encoding: 'utf8' }));
    samples.push(last.ms);
  }
  return {
    scenario: 'startup',
    measure: 'require',
    entry: entry.name,
    samples: SAMPLES,
    ms_p50: round(median(samples)),
    ms_min: round(Math.min(...samples)),
    heavy_loaded: HEAVY.filter((name) => last.loaded.includes(name)),
    global_reflect_metadata: last.reflect,
  };
}

/** Wall-clock time of a whole Node process: `node ...args` from spawn to exit. */
function measureProcess(measure, args) {
  const samples = [];
  for (let i = 0; i < SAMPLES; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (result.status !== 0)
      throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  }
  return {
    scenario: 'startup',
    measure,
    command: measure === 'cli' ? `hornetq ${args.slice(1).join(' ')}` : `node ${args.join(' ')}`,
    samples: SAMPLES,
    ms_p50: round(median(samples)),
    ms_min: round(Math.min(...samples)),
  };
}

function round(value) {
  return Math.round(value * 10) / 10;
}
