import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/**
 * `npm start` as a user runs it: the compiled demo (dist/cli/demo.js, which global-setup.ts
 * compiles with the rest of dist/) in a child process, which must exit 0 by itself (no leftover
 * handles) and print a summary whose every check passed.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const DEMO = path.join(ROOT, 'dist', 'cli', 'demo.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the demo with the given broker port (never 5445: tests use ephemeral ports). */
function runDemo(port: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DEMO], {
      cwd: ROOT,
      env: { ...process.env, HORNETQ_REMOTING_NETTY_PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // A demo that does not exit by itself has left a handle open: fail with what it printed.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the demo did not exit within 55 s\n${stdout}\n${stderr}`));
    }, 55_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function expectPassed(run: Run): void {
  if (run.code !== 0) throw new Error(`the demo exited ${run.code}\n${run.stdout}\n${run.stderr}`);
  const out = run.stdout;
  expect(out).toMatch(
    /^ {2}ok +every message exactly once, in order +20,000 of 20,000 received .*0 missing, 0 duplicated, 0 out of order, 0 altered, 0 redelivered$/m,
  );
  expect(out).toMatch(
    /^ {2}ok +broker applied each send once +ExampleQueue: 20,000 added, 20,000 acknowledged, 0 left$/m,
  );
  expect(out).toMatch(/^ {2}ok +link cuts while messages flowed +5 cuts/m);
  expect(out).toMatch(
    /^ {2}ok +sessions reattached, not re-created +getStatistics\(\): producer 5 reattaches, 0 re-creations; consumer 5 reattaches, 0 re-creations$/m,
  );
  expect(out).toMatch(/^ {2}ok +same broker sessions throughout /m);
  expect(out).toMatch(/^ {2}ok +failover and exception listeners /m);
  expect(out).toMatch(/^ {2}ok +commands replayed after reattach +[\d,]+ by the clients to the broker/m);
  expect(out).toMatch(/^ {2}ok +resend buffer peak within its bound +[\d,]+ KiB \(\d+% of the 1 MiB window/m);
  expect(out).toMatch(/^ {2}ok +broker log clean, shutdown included +no warning or error$/m);
  expect(out).toMatch(/^cut 5 /m);
  expect(out).toMatch(/^PASS: 20,000 messages arrived exactly once and in order through 5 link cuts/m);
  expect(out).not.toMatch(/^( {2})?FAIL/m);
}

/** A port nobody else can take while `use` runs: held by a listener on the demo's host. */
async function withBusyPort<T>(use: (port: number) => Promise<T>): Promise<T> {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, 'localhost', resolve));
  try {
    return await use((blocker.address() as net.AddressInfo).port);
  } finally {
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
  }
}

test('npm start: every message exactly once and in order through five cuts, every session reattached, exit 0', async () => {
  const run = await runDemo(0);
  expectPassed(run);
  expect(run.stdout).toMatch(/^broker +started from config\/ .* on port \d+$/m);
}, 60_000);

test('a broker port already taken on the machine: the demo says so, takes a free port and still passes', async () => {
  await withBusyPort(async (busy) => {
    const run = await runDemo(busy);
    expectPassed(run);
    expect(run.stdout).toMatch(
      new RegExp(
        `^broker +port ${busy} is taken on this machine: started from config/ on free port \\d+ instead$`,
        'm',
      ),
    );
  });
}, 60_000);
