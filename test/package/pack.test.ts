import { execFile, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CliProcess, DEMO_LOGIN, freePort, ROOT } from '../cli/support';
import { sleep, waitFor } from '../support/wait';

/**
 * The package as a user gets it: `npm pack`, the tarball installed into an application of its own
 * (a temporary folder outside this repository; only the registry's packages come from the
 * network, and npm's cache usually has them), its `hornetq` command started from a copy of the
 * shipped config/, and the README's quick start run against it from ESM and from CommonJS. Then
 * what loading each entry point pulls in, and whether strict TypeScript accepts the published
 * declarations (skipLibCheck off, so every published .d.ts is checked).
 *
 * dist/ is built by the jest global set-up (test/cli/global-setup.ts) as `npm run build` makes it;
 * the pack skips the prepare script, so that this test never rebuilds dist/ under the CLI tests
 * running beside it.
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

let workDir: string;
let appDir: string;
let tarball: string;

beforeAll(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'hornetq-pack-'));
  appDir = path.join(workDir, 'app');
  await fs.mkdir(appDir);
  const packed = await run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', workDir], {
    cwd: ROOT,
  });
  tarball = path.join(workDir, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);
  await fs.writeFile(
    path.join(appDir, 'package.json'),
    JSON.stringify({ name: 'quick-start-app', private: true }),
  );
  await run(NPM, ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock'], {
    cwd: appDir,
    timeout: 180_000,
  });
}, 240_000);

afterAll(async () => {
  if (workDir !== undefined) await fs.rm(workDir, { recursive: true, force: true });
});

test('the tarball holds the build, its declarations, the config and the licence; no sources, tests or maps', async () => {
  const listed = await run('tar', ['-tzf', tarball]);
  const files = listed.stdout.split('\n').filter(Boolean);
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
  expect(files.filter((f) => /^package\/(src|test|bench|scripts)\//.test(f) || f.endsWith('.map'))).toEqual(
    [],
  );
});

test("the README's quick start runs from ESM and from CommonJS against the installed command's broker", async () => {
  const bin = path.join(appDir, 'node_modules', '.bin', 'hornetq');
  await run(bin, ['config', 'init', 'config'], { cwd: appDir });
  const port = await freePort();
  const server = new CliProcess(
    spawn(bin, ['server', '--config', 'config', '--data-dir', '.', '--port', String(port)], {
      cwd: appDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  try {
    await server.waitForOutput(new RegExp(`listening on tcp://localhost:${port}`), 60_000);
    for (const [flavour, file, text] of [
      ['esm', 'send-receive.mjs', 'received: hello from my application'],
      ['cjs', 'send-receive.cjs', 'received: hello from CommonJS'],
    ] as const) {
      const code = (await quickStartBlock(flavour)).replaceAll('5445', String(port));
      await fs.writeFile(path.join(appDir, file), code);
      const result = await run(process.execPath, [file], { cwd: appDir, timeout: 60_000 });
      expect(result.stdout.trim()).toBe(text);
    }
  } finally {
    await server.stop();
  }
  expect(server.stderr).not.toMatch(/"level":(50|60)/);
}, 120_000);

test("the README's shared subscription splits a topic between two worker processes", async () => {
  const bin = path.join(appDir, 'node_modules', '.bin', 'hornetq');
  await run(bin, ['config', 'init', 'shared-config'], { cwd: appDir });
  const port = await freePort();
  const server = new CliProcess(
    spawn(bin, ['server', '--config', 'shared-config', '--data-dir', 'shared-data', '--port', String(port)], {
      cwd: appDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const workers: CliProcess[] = [];
  try {
    await server.waitForOutput(new RegExp(`listening on tcp://localhost:${port}`), 60_000);
    const code = (await quickStartBlock('shared')).replaceAll('5445', String(port));
    await fs.writeFile(path.join(appDir, 'worker.mjs'), code);
    for (let i = 0; i < 2; i++) {
      workers.push(
        new CliProcess(
          spawn(process.execPath, ['worker.mjs'], { cwd: appDir, stdio: ['ignore', 'pipe', 'pipe'] }),
        ),
      );
    }
    for (const worker of workers) await worker.waitForOutput(/^worker \d+ ready$/, 60_000);
    const env = { ...process.env, ...DEMO_LOGIN };
    await run(
      bin,
      ['producer', '--destination', '/topic/ExampleTopic', '--count', '10', '--port', String(port)],
      {
        cwd: appDir,
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
    const result = await run(process.execPath, ['-e', probe], { cwd: appDir });
    const report = JSON.parse(result.stdout) as {
      names: number;
      same: boolean;
      packages: string[];
      reflect: string;
    };
    expect(report.names).toBeGreaterThan(0);
    expect(report.same).toBe(true);
    if (entry === 'hornetq-js/container') {
      expect(report.packages).toEqual(expect.arrayContaining(['inversify', 'reflect-metadata']));
      return;
    }
    expect(report.packages.filter((p) => HEAVY.includes(p))).toEqual([]);
    expect(report.reflect).toBe('undefined');
    if (entry === 'hornetq-js/client') expect(report.packages).toEqual([]);
  },
  30_000,
);

test('strict TypeScript accepts the published declarations from ESM and CommonJS, and they name no private member', async () => {
  await fs.writeFile(
    path.join(appDir, 'tsconfig.json'),
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
      files: ['typed.mts', 'typed.cts', 'jms-names.mts'],
    }),
  );
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
  await fs.writeFile(path.join(appDir, 'typed.mts'), usage(`import ${names} from 'hornetq-js';`));
  await fs.writeFile(
    path.join(appDir, 'typed.cts'),
    usage(
      `import ${names} from 'hornetq-js';\nimport { createContainer } from 'hornetq-js/container';\nexport const c = createContainer();`,
    ),
  );
  await fs.writeFile(path.join(appDir, 'jms-names.mts'), JMS_NAMES_USAGE);
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  await expect(run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: appDir })).resolves.toBeDefined();

  const declarations = await declarationFiles(path.join(appDir, 'node_modules', 'hornetq-js', 'dist'));
  const privateMembers: string[] = [];
  for (const file of declarations) {
    const text = await fs.readFile(file, 'utf8');
    for (const line of text.split('\n'))
      if (/^\s+private (?!constructor\(\))/.test(line)) privateMembers.push(`${file}: ${line.trim()}`);
  }
  expect(privateMembers).toEqual([]);
}, 60_000);

test('every type a public signature uses can be imported from one of the entry points', async () => {
  const dist = path.join(appDir, 'node_modules', 'hornetq-js', 'dist');
  const script = `
    import { forgottenTypes } from ${JSON.stringify(path.join(ROOT, 'scripts', 'public-types.mjs'))};
    const entries = ${JSON.stringify(['index.d.ts', 'client.d.ts', 'container.d.ts'].map((f) => path.join(dist, f)))};
    const found = forgottenTypes(entries).map((f) => f.type + ' used by ' + f.usedBy);
    process.stdout.write(JSON.stringify(found));`;
  const result = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: appDir });
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
