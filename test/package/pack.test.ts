import { execFile, spawn } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CONTAINER_ENTRY_PACKAGES, MAIN_ENTRY_PACKAGES } from '../../src/peer-packages';
import { CliProcess, DEMO_LOGIN, freePort, ROOT } from '../cli/support';
import { sleep, waitFor } from '../support/wait';

/**
 * The packages as users get them: `npm run pack` writes two tarballs (scripts/build.mjs), installed
 * into applications of their own (temporary folders outside this repository; only the registry's
 * packages come from the network, and npm's cache usually has them):
 *   - a service that only connects: hornetq-js alone. It installs one package and nothing runs on
 *     install; the README's quick start runs there, against a broker the other application runs.
 *   - an application with a broker: hornetq-js and hornetq-js-server, whose `hornetq` command
 *     starts from a copy of the shipped config/ and runs the README's command examples.
 * Then what loading each entry point pulls in, and whether strict TypeScript accepts the published
 * declarations (skipLibCheck off, so every published .d.ts is checked).
 *
 * dist/ is built by the jest global set-up (test/cli/global-setup.ts) as `npm run build` makes it;
 * the packing (--pack-only) never rebuilds it under the CLI tests running beside this one.
 */
const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const ENTRY_POINTS = ['hornetq-js', 'hornetq-js/client', 'hornetq-js/container'] as const;
/** Packages only the command (or only the container) may load. */
const HEAVY = [
  'inversify',
  'reflect-metadata',
  'commander',
  'cli-progress',
  'pino',
  'pino-pretty',
  'hdr-histogram-js',
];
/**
 * A client-only service's node_modules: hornetq-js alone, about 3 MB (its build, the shipped
 * config/ and docs/). 61 packages and 15 MB before the split.
 */
const CLIENT_INSTALL_MAX_BYTES = 4_000_000;

interface Manifest {
  name: string;
  version: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bin?: Record<string, string>;
}

const ROOT_MANIFEST = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;

let workDir: string;
/** An application with hornetq-js only: a service that connects to a broker. */
let clientApp: string;
/** An application with hornetq-js and hornetq-js-server: the command and an embedded broker. */
let serverApp: string;
let libraryTarball: string;
let serverTarball: string;
/** What npm wrote to stderr while installing into clientApp (warnings). */
let clientInstallWarnings: string;
let serverInstallWarnings: string;

beforeAll(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'hornetq-pack-'));
  const packed = await run(
    process.execPath,
    [path.join(ROOT, 'scripts', 'build.mjs'), '--pack-only', '--out', path.join(workDir, 'packages')],
    { cwd: ROOT, timeout: 120_000 },
  );
  const tarballs = packed.stdout
    .trim()
    .split('\n')
    .map((file) => path.resolve(ROOT, file));
  expect(tarballs.map((file) => path.basename(file))).toEqual([
    expect.stringMatching(/^hornetq-js-\d/),
    expect.stringMatching(/^hornetq-js-server-\d/),
  ]);
  [libraryTarball, serverTarball] = tarballs as [string, string];
  [clientApp, clientInstallWarnings] = await application('client-app', [libraryTarball]);
  [serverApp, serverInstallWarnings] = await application('server-app', [libraryTarball, serverTarball]);
}, 300_000);

/** A new application folder with `tarballs` installed: its path and what npm warned on stderr. */
async function application(name: string, tarballs: string[]): Promise<[string, string]> {
  const dir = path.join(workDir, name);
  await fs.mkdir(dir);
  await fs.writeFile(path.join(dir, 'package.json'), JSON.stringify({ name, private: true }));
  const installed = await run(
    NPM,
    ['install', ...tarballs, '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock'],
    { cwd: dir, timeout: 180_000 },
  );
  return [dir, installed.stderr];
}

afterAll(async () => {
  if (workDir !== undefined) await fs.rm(workDir, { recursive: true, force: true });
});

async function tarballFiles(tarball: string): Promise<string[]> {
  const listed = await run('tar', ['-tzf', tarball]);
  return listed.stdout.split('\n').filter(Boolean);
}

async function tarballManifest(tarball: string): Promise<Manifest> {
  const extracted = await run('tar', ['-xOzf', tarball, 'package/package.json']);
  return JSON.parse(extracted.stdout) as Manifest;
}

test('hornetq-js holds the build, its declarations, the config and the licence; no sources, tests, maps or API pages', async () => {
  const files = await tarballFiles(libraryTarball);
  for (const file of [
    'package/dist/index.js',
    'package/dist/index.d.ts',
    'package/dist/esm/index.mjs',
    'package/dist/esm/client.d.mts',
    'package/dist/cli/hornetq.js',
    'package/config/hornetq-configuration.xml',
    'package/config/hornetq-jms.xml',
    'package/config/hornetq-users.xml',
    'package/console/index.html',
    'package/console/console.css',
    'package/console/console.mjs',
    'package/LICENSE',
    'package/README.md',
    'package/CHANGELOG.md',
    'package/docs/guide/tour.md',
    'package/docs/reference/protocol.md',
  ]) {
    expect(files).toContain(file);
  }
  expect(
    files.filter(
      (f) => /^package\/(src|test|bench|scripts|packages|docs\/api)\//.test(f) || f.endsWith('.map'),
    ),
  ).toEqual([]);
});

test('the published manifests run nothing on install; hornetq-js depends on nothing, hornetq-js-server brings the rest', async () => {
  const root = ROOT_MANIFEST;
  const library = await tarballManifest(libraryTarball);
  const server = await tarballManifest(serverTarball);
  expect(library.scripts).toBeUndefined();
  expect(server.scripts).toBeUndefined();
  expect(library.dependencies).toBeUndefined();
  expect(library.bin).toBeUndefined();
  // Every package the repository depends on is an optional peer of the library and a dependency of the server.
  expect(library.peerDependencies).toEqual(root.dependencies);
  for (const name of Object.keys(root.dependencies!)) {
    expect(library.peerDependenciesMeta?.[name]).toEqual({ optional: true });
  }
  expect(server.dependencies).toEqual({ 'hornetq-js': root.version, ...root.dependencies });
  expect(server.version).toBe(root.version);
  expect(server.bin).toEqual({ hornetq: 'bin/hornetq.js' });
  expect((await tarballFiles(serverTarball)).sort()).toEqual(
    ['package/LICENSE', 'package/README.md', 'package/bin/hornetq.js', 'package/package.json'].sort(),
  );
});

test('a service that only connects installs hornetq-js alone, in a few megabytes, and is not warned about install scripts', async () => {
  const listed = await run(NPM, ['ls', '--all', '--parseable'], { cwd: clientApp });
  const packages = listed.stdout
    .trim()
    .split('\n')
    .slice(1)
    .map((dir) => path.relative(path.join(clientApp, 'node_modules'), dir));
  expect(packages).toEqual(['hornetq-js']);
  expect(await directorySize(path.join(clientApp, 'node_modules'))).toBeLessThan(CLIENT_INSTALL_MAX_BYTES);
  expect(clientInstallWarnings).not.toMatch(/install-scripts|prepare/);
  expect(serverInstallWarnings).not.toMatch(/install-scripts|prepare/);
  // The server's dependency on hornetq-js is the one the application installed: one copy of the library.
  await expect(
    fs.access(path.join(serverApp, 'node_modules', 'hornetq-js-server', 'node_modules')),
  ).rejects.toThrow();
});

async function directorySize(dir: string): Promise<number> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  let bytes = 0;
  for (const entry of entries) {
    if (entry.isFile()) bytes += (await fs.stat(path.join(entry.parentPath, entry.name))).size;
  }
  return bytes;
}

/** `hornetq server` of the server application, from a copy of the shipped config, on a free port. */
async function startInstalledServer(
  configDir: string,
  dataDir: string,
): Promise<{ port: number; server: CliProcess }> {
  const bin = path.join(serverApp, 'node_modules', '.bin', 'hornetq');
  await run(bin, ['config', 'init', configDir], { cwd: serverApp });
  const port = await freePort();
  const server = new CliProcess(
    spawn(bin, ['server', '--config', configDir, '--data-dir', dataDir, '--port', String(port)], {
      cwd: serverApp,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  await server.waitForOutput(new RegExp(`listening on tcp://localhost:${port}`), 60_000);
  return { port, server };
}

test("the README's quick start runs from ESM and from CommonJS in the client-only service, against the installed command's broker", async () => {
  const { port, server } = await startInstalledServer('config', '.');
  try {
    for (const [flavour, file, text] of [
      ['esm', 'send-receive.mjs', 'received: hello from my application'],
      ['cjs', 'send-receive.cjs', 'received: hello from CommonJS'],
    ] as const) {
      const code = (await quickStartBlock(flavour)).replaceAll('5445', String(port));
      await fs.writeFile(path.join(clientApp, file), code);
      const result = await run(process.execPath, [file], { cwd: clientApp, timeout: 60_000 });
      expect(result.stdout.trim()).toBe(text);
    }
  } finally {
    await server.stop();
  }
  expect(server.stderr).not.toMatch(/"level":(50|60)/);
}, 120_000);

test("the README's shared subscription splits a topic between two worker processes", async () => {
  const bin = path.join(serverApp, 'node_modules', '.bin', 'hornetq');
  const { port, server } = await startInstalledServer('shared-config', 'shared-data');
  const workers: CliProcess[] = [];
  try {
    const code = (await quickStartBlock('shared')).replaceAll('5445', String(port));
    await fs.writeFile(path.join(clientApp, 'worker.mjs'), code);
    for (let i = 0; i < 2; i++) {
      workers.push(
        new CliProcess(
          spawn(process.execPath, ['worker.mjs'], { cwd: clientApp, stdio: ['ignore', 'pipe', 'pipe'] }),
        ),
      );
    }
    for (const worker of workers) await worker.waitForOutput(/^worker \d+ ready$/, 60_000);
    const env = { ...process.env, ...DEMO_LOGIN };
    await run(
      bin,
      ['producer', '--destination', '/topic/ExampleTopic', '--count', '10', '--port', String(port)],
      {
        cwd: serverApp,
        env,
        timeout: 60_000,
      },
    );
    const handled = (worker: CliProcess): number =>
      worker.stdout.split('\n').filter((l) => /^worker \d+: /.test(l)).length;
    await waitFor(
      () => workers.reduce((sum, worker) => sum + handled(worker), 0) >= 10,
      'ten messages handled',
      30_000,
    );
    // Nothing more arrives: each message went to one worker only.
    await sleep(500);
    expect(workers.map(handled).reduce((a, b) => a + b)).toBe(10);
    for (const worker of workers) expect(handled(worker)).toBeGreaterThan(0);
  } finally {
    for (const worker of workers) await worker.stop();
    await server.stop();
  }
  for (const worker of workers) expect(worker.stderr).toBe('');
  expect(server.stderr).not.toMatch(/"level":(50|60)/);
}, 180_000);

test("the README's command examples run with the installed hornetq command (on a port of their own): server, consumer, producer, queue stat", async () => {
  const lines = (await readmeShellBlock('npx hornetq consumer')).map(shellWords);
  const [serverLine, consumerLine, producerLine, statLine] = lines;
  expect(lines.map((words) => words.slice(0, 3).join(' '))).toEqual([
    'npx hornetq server',
    'npx hornetq consumer',
    'npx hornetq producer',
    'npx hornetq queue',
  ]);
  const bin = path.join(serverApp, 'node_modules', '.bin', 'hornetq');
  const dir = path.join(serverApp, 'examples');
  await fs.mkdir(dir);
  const port = await freePort();
  // The examples run from a folder without config/: the broker and the commands read the package's.
  const argsOf = (words: string[]): string[] => [...words.slice(2), '--port', String(port)];
  const start = (words: string[]): CliProcess =>
    new CliProcess(spawn(bin, argsOf(words), { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }));
  const server = start(serverLine!);
  let consumer: CliProcess | undefined;
  try {
    await server.waitForOutput(new RegExp(`listening on tcp://localhost:${port}`), 60_000);
    consumer = start(consumerLine!);
    // The consumer has its queue once the broker counts a consumer on it.
    await waitFor(
      async () => / ExampleQueue .* 1 /.test((await run(bin, argsOf(statLine!), { cwd: dir })).stdout),
      'the consumer attached',
      30_000,
    );
    const produced = await run(bin, argsOf(producerLine!), { cwd: dir, timeout: 60_000 });
    expect(produced.stdout).toMatch(/^sent 5 messages/m);
    const received = await consumer.waitForOutput(/^received 5 messages/m, 30_000);
    expect(received).toBeDefined();
    expect(consumer.stdout.match(/text: "hello"/g)).toHaveLength(5);
    const stat = await run(bin, argsOf(statLine!), { cwd: dir, timeout: 30_000 });
    expect(stat.stdout).toMatch(
      /jms\.queue\.ExampleQueue +ExampleQueue +jms\.queue\.ExampleQueue +0 +0 +0 +5 +5/,
    );
  } finally {
    await consumer?.stop();
    await server.stop();
  }
  expect(server.stderr).not.toMatch(/"level":(50|60)/);
}, 180_000);

test.each(ENTRY_POINTS)(
  '%s loads from require and import alike, one copy of each class, and no package it does not need',
  async (entry) => {
    const probe = `
      const loaded = require(${JSON.stringify(entry)});
      const packages = new Set(Object.keys(require.cache)
        .map((f) => /node_modules[\\\\/]((?:@[^\\\\/]+[\\\\/])?[^\\\\/]+)/.exec(f.split('hornetq-js').pop())?.[1])
        .filter(Boolean));
      import(${JSON.stringify(entry)}).then((esm) => {
        const names = Object.keys(loaded).filter((n) => n !== '__esModule');
        const same = names.every((n) => esm[n] === loaded[n]);
        process.stdout.write(JSON.stringify({ names: names.length, same, packages: [...packages], reflect: typeof Reflect.getMetadata }));
      });`;
    // Where every package is installed, so that a stray load would show.
    const result = await run(process.execPath, ['-e', probe], { cwd: serverApp });
    const report = JSON.parse(result.stdout) as {
      names: number;
      same: boolean;
      packages: string[];
      reflect: string;
    };
    expect(report.names).toBeGreaterThan(0);
    expect(report.same).toBe(true);
    // The packages of this repository's dependencies it loads are the ones it checks for first.
    const direct = report.packages.filter((name) => Object.keys(ROOT_MANIFEST.dependencies!).includes(name));
    const checked =
      entry === 'hornetq-js/container'
        ? CONTAINER_ENTRY_PACKAGES
        : entry === 'hornetq-js'
          ? MAIN_ENTRY_PACKAGES
          : [];
    expect(direct.sort()).toEqual([...checked].sort());
    if (entry === 'hornetq-js/container') return;
    expect(report.packages.filter((p) => HEAVY.includes(p))).toEqual([]);
    expect(report.reflect).toBe('undefined');
    if (entry === 'hornetq-js/client') expect(report.packages).toEqual([]);
  },
  30_000,
);

test('in the client-only service, hornetq-js/client loads; the other entry points say what to install', async () => {
  const client = await run(
    process.execPath,
    ['-e', "process.stdout.write(typeof require('hornetq-js/client').HornetQConnectionFactory)"],
    { cwd: clientApp },
  );
  expect(client.stdout).toBe('function');
  for (const [entry, packages] of [
    ['hornetq-js', MAIN_ENTRY_PACKAGES],
    ['hornetq-js/container', CONTAINER_ENTRY_PACKAGES],
  ] as const) {
    await expect(
      run(process.execPath, ['-e', `require(${JSON.stringify(entry)})`], { cwd: clientApp }),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining(
        `'${entry}' loads ${packages.join(', ')}, which the hornetq-js package does not install: npm install hornetq-js-server`,
      ),
    });
  }
});

/** A strict tsconfig.json in `dir` that checks `files` (and every published .d.ts they reach). */
async function writeStrictTsconfig(dir: string, files: string[]): Promise<void> {
  await fs.writeFile(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2022', 'esnext.disposable'],
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [path.join(ROOT, 'node_modules', '@types')],
      },
      files,
    }),
  );
}

const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

test('strict TypeScript accepts the published declarations from ESM and CommonJS, and they name no private member', async () => {
  await writeStrictTsconfig(serverApp, ['typed.mts', 'typed.cts', 'jms-names.mts']);
  const usage = (importLine: string) => `${importLine}
export async function roundTrip(context: InitialContext): Promise<string | null> {
  const signal = AbortSignal.timeout(10_000);
  const factory = context.lookup('/ConnectionFactory', HornetQConnectionFactory);
  await using connection: HornetQConnection = await factory.createConnection('demo', 'demo', { signal });
  await using session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const queue = context.lookup('/queue/ExampleQueue', HornetQQueue);
  await using consumer = await session.createConsumer(queue);
  const message = await consumer.receive(1000, { signal });
  return isTextMessage(message) ? message.getText() : null;
}
export function codeOf(error: unknown): string | undefined {
  return NameNotFoundException.is(error) ? error.code : JMSException.is(error) ? error.getErrorCode() ?? undefined : undefined;
}
export const broker: typeof EmbeddedJMS = EmbeddedJMS;
`;
  const names =
    '{ EmbeddedJMS, HornetQConnectionFactory, HornetQQueue, InitialContext, JMSException, NameNotFoundException, Session, isTextMessage, type HornetQConnection }';
  await fs.writeFile(path.join(serverApp, 'typed.mts'), usage(`import ${names} from 'hornetq-js';`));
  await fs.writeFile(
    path.join(serverApp, 'typed.cts'),
    usage(
      `import ${names} from 'hornetq-js';\nimport { createContainer } from 'hornetq-js/container';\nexport const c = createContainer();`,
    ),
  );
  await fs.writeFile(path.join(serverApp, 'jms-names.mts'), JMS_NAMES_USAGE);
  await expect(
    run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: serverApp }),
  ).resolves.toBeDefined();

  const declarations = await declarationFiles(path.join(serverApp, 'node_modules', 'hornetq-js', 'dist'));
  const privateMembers: string[] = [];
  for (const file of declarations) {
    const text = await fs.readFile(file, 'utf8');
    for (const line of text.split('\n'))
      if (/^\s+private (?!constructor\(\))/.test(line)) privateMembers.push(`${file}: ${line.trim()}`);
  }
  expect(privateMembers).toEqual([]);
}, 60_000);

test("strict TypeScript accepts hornetq-js/client's declarations in the client-only service, without the broker's packages", async () => {
  await writeStrictTsconfig(clientApp, ['jms-names.mts']);
  await fs.writeFile(path.join(clientApp, 'jms-names.mts'), JMS_NAMES_USAGE);
  await expect(
    run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: clientApp }),
  ).resolves.toBeDefined();
}, 60_000);

test('every type a public signature uses can be imported from one of the entry points', async () => {
  const dist = path.join(serverApp, 'node_modules', 'hornetq-js', 'dist');
  const script = `
    import { forgottenTypes } from ${JSON.stringify(path.join(ROOT, 'scripts', 'public-types.mjs'))};
    const entries = ${JSON.stringify(['index.d.ts', 'client.d.ts', 'container.d.ts'].map((f) => path.join(dist, f)))};
    const found = forgottenTypes(entries).map((f) => f.type + ' used by ' + f.usedBy);
    process.stdout.write(JSON.stringify(found));`;
  const result = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: serverApp });
  expect(JSON.parse(result.stdout)).toEqual([]);
}, 60_000);

/**
 * Code typed with the javax.jms interface names only, imported from the client entry point
 * (issue 27: `import type { MessageConsumer } from 'hornetq-js/client'` was TS2305).
 */
const JMS_NAMES_USAGE = `import { JMSContext as Modes } from 'hornetq-js/client';
import type {
  BytesMessage, CompletionListener, Connection, ConnectionFactory, ConnectionMetaData, Destination,
  ExceptionListener, JMSConsumer, JMSContext, JMSProducer, MapMessage, Message, MessageConsumer,
  MessageListener, MessageProducer, ObjectMessage, Queue, QueueBrowser, Session, StreamMessage,
  TemporaryQueue, TemporaryTopic, TextMessage, Topic, TopicSubscriber,
} from 'hornetq-js/client';
export async function classic(factory: ConnectionFactory, queue: Queue): Promise<Message | null> {
  const connection: Connection = await factory.createConnection();
  const metaData: ConnectionMetaData = connection.getMetaData();
  const onError: ExceptionListener = () => undefined;
  connection.setExceptionListener(onError);
  const session: Session = await connection.createSession(false, 1);
  const producer: MessageProducer = await session.createProducer(queue);
  await producer.send(session.createTextMessage(metaData.getJMSVersion()));
  const browser: QueueBrowser = await session.createBrowser(queue);
  await browser.close();
  const consumer: MessageConsumer = await session.createConsumer(queue);
  const onMessage: MessageListener = () => undefined;
  consumer.setMessageListener(onMessage);
  const temporary: TemporaryQueue | TemporaryTopic = await session.createTemporaryQueue();
  void temporary;
  return consumer.receiveNoWait();
}
export async function simplified(factory: ConnectionFactory, topic: Topic, to: Destination): Promise<string | null> {
  await using context: JMSContext = await factory.createContext(Modes.SESSION_TRANSACTED);
  const listener: CompletionListener = { onCompletion: () => undefined, onException: () => undefined };
  const producer: JMSProducer = context.createProducer().setAsync(listener).setDeliveryDelay(10);
  await producer.send(to, new Map<string, unknown>([['k', 1]]));
  const consumer: JMSConsumer = await context.createSharedConsumer(topic, 'replicas');
  const body: string | null = await consumer.receiveBody(String, 1000);
  await context.commit();
  return body;
}
export type Bodies = [TextMessage, BytesMessage, MapMessage, ObjectMessage, StreamMessage, TopicSubscriber];
`;

/** The fenced block after the README's `<!-- quick-start:FLAVOUR ... -->` marker. */
async function quickStartBlock(flavour: 'esm' | 'cjs' | 'shared'): Promise<string> {
  const readme = await fs.readFile(path.join(ROOT, 'README.md'), 'utf8');
  const marker = readme.indexOf(`<!-- quick-start:${flavour}`);
  const block = /```js\n([\s\S]*?)```/.exec(readme.slice(marker));
  if (marker === -1 || block === null) throw new Error(`README.md has no quick-start:${flavour} block`);
  return block[1]!;
}

/** The lines of the README's ```sh block that holds `containing`, without their comments. */
async function readmeShellBlock(containing: string): Promise<string[]> {
  const readme = await fs.readFile(path.join(ROOT, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].find((b) => b[1]!.includes(containing));
  if (block === undefined) throw new Error(`README.md has no sh block with ${containing}`);
  return block[1]!
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

/** A command line's words, as a POSIX shell splits them when only single quotes are used. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

async function declarationFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && (e.name.endsWith('.d.ts') || e.name.endsWith('.d.mts')))
    .map((e) => path.join(e.parentPath, e.name));
}

// The CLI's demo login is what the quick start uses; keep the two in step.
test('the quick start logs in as the shipped demo user', async () => {
  const esm = await quickStartBlock('esm');
  expect(esm).toContain(`createConnection('${DEMO_LOGIN.HORNETQ_USER}', '${DEMO_LOGIN.HORNETQ_PASSWORD}')`);
});
