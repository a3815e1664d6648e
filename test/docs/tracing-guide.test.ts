import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  Broker,
  HornetQConnectionFactory,
  selectorFilterFactory,
  Session,
  type HornetQConnection,
} from '../../src';

/**
 * The OpenTelemetry block of docs/guide/tracing.md, run as it is written (only the broker's URL
 * changed to this test's broker), in a child process that resolves `hornetq-js/client` and the
 * OpenTelemetry packages as an application would (jest's globalSetup has built dist/). Before it
 * runs, a message without a trace context is queued, as HornetQ's Java client sends them.
 */

const ROOT = path.resolve(__dirname, '../..');
const QUEUE = 'jms.queue.ExampleQueue';

interface PrintedSpan {
  name: string;
  kind: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
}

async function tracingBlock(): Promise<string> {
  const page = await fs.readFile(path.join(ROOT, 'docs/guide/tracing.md'), 'utf8');
  const block = /<!-- runs -->\s*```js\n([\s\S]*?)```/.exec(page);
  if (block === null) throw new Error('docs/guide/tracing.md has no <!-- runs --> js block');
  return block[1] as string;
}

/**
 * A folder outside the tree whose node_modules holds the project's OpenTelemetry packages and the
 * project itself as `hornetq-js`: the block imports them by their published names.
 */
async function applicationDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hornetq-tracing-'));
  await fs.mkdir(path.join(dir, 'node_modules'));
  await fs.symlink(
    path.join(ROOT, 'node_modules/@opentelemetry'),
    path.join(dir, 'node_modules/@opentelemetry'),
  );
  await fs.symlink(ROOT, path.join(dir, 'node_modules/hornetq-js'));
  return { dir, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

function runNode(file: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`${error.message}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

let broker: Broker | null = null;
let app: { dir: string; remove: () => Promise<void> } | null = null;

afterEach(async () => {
  await broker?.stop();
  broker = null;
  await app?.remove();
  app = null;
});

async function sendUntraced(port: number): Promise<void> {
  const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port });
  const connection: HornetQConnection = await factory.createConnection();
  try {
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const producer = await session.createProducer(session.createQueue('ExampleQueue'));
    await producer.send(session.createTextMessage('from a client that does not trace'));
  } finally {
    await connection.close();
  }
}

test("the guide's OpenTelemetry block: one trace from producer to consumer; an untraced message starts its own", async () => {
  broker = new Broker(
    {
      acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port: 0 }],
      persistenceEnabled: false,
      securityEnabled: false,
      queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: true }],
    },
    selectorFilterFactory,
  );
  await broker.start();
  await sendUntraced(broker.getPort());

  const block = await tracingBlock();
  expect(block).toContain("'tcp://localhost:5445'");
  app = await applicationDir();
  const file = path.join(app.dir, 'tracing.mjs');
  await fs.writeFile(file, block.replace("'tcp://localhost:5445'", `'tcp://127.0.0.1:${broker.getPort()}'`));
  const { stdout, stderr } = await runNode(file);
  expect(stderr).toBe('');

  const lines = stdout.trim().split('\n');
  const received = lines.filter((line) => line.startsWith('received'));
  const spans = lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as PrintedSpan);
  expect(received).toEqual([
    "received 'from a client that does not trace', traceparent null",
    expect.stringMatching(/^received 'traced', traceparent 00-[0-9a-f]{32}-[0-9a-f]{16}-01$/),
  ]);

  const producers = spans.filter((span) => span.kind === 'PRODUCER');
  const consumers = spans.filter((span) => span.kind === 'CONSUMER');
  expect(producers).toHaveLength(1);
  expect(consumers).toHaveLength(2);
  const [producer] = producers as [PrintedSpan];
  const [untraced, traced] = consumers as [PrintedSpan, PrintedSpan];
  expect(producer).toMatchObject({ name: `send ${QUEUE}`, parentSpanId: null });
  // The property the consumer read is the producer span's context.
  expect(received[1]).toContain(`00-${producer.traceId}-${producer.spanId}-01`);
  expect(traced).toMatchObject({
    name: `process ${QUEUE}`,
    traceId: producer.traceId,
    parentSpanId: producer.spanId,
  });
  expect(untraced).toMatchObject({ name: `process ${QUEUE}`, parentSpanId: null });
  expect(untraced.traceId).not.toBe(producer.traceId);
});
