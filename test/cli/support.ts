import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The `hornetq` command run as a user runs it: `node dist/cli/hornetq.js ...` in child processes
 * (test/cli/global-setup.ts compiles dist/ first), against brokers it starts itself. Every process
 * and folder a test makes is killed or removed after it (useCli registers the afterEach).
 */

export { isListening } from '../support/listen';

export const ROOT = path.resolve(__dirname, '..', '..');
export const CLI = path.join(ROOT, 'dist', 'cli', 'hornetq.js');

/** Long enough for a slow shared machine; a command that takes this long is broken anyway. */
const COMMAND_TIMEOUT_MS = 30_000;

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A running `hornetq` process: its output so far, and its result once it has exited. */
export class CliProcess {
  stdout = '';
  stderr = '';
  readonly result: Promise<CliResult>;
  private exited = false;

  constructor(readonly child: ChildProcess) {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.result = new Promise((resolve, reject) => {
      child.once('error', reject);
      // 'close' comes after the streams have ended, so the output is complete.
      child.once('close', (code, signal) => {
        this.exited = true;
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exited;
  }

  /** Resolves when stdout has a line matching `pattern`; rejects if the process exits first or after `timeoutMs`. */
  async waitForOutput(pattern: RegExp, timeoutMs = COMMAND_TIMEOUT_MS): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.stdout.split('\n').find((candidate) => pattern.test(candidate));
      if (line !== undefined) return line;
      if (this.exited || Date.now() > deadline) {
        throw new Error(
          `no line matching ${pattern} (${this.exited ? 'the process exited' : 'timed out'})\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Sends `signal` (by PID) and waits for the exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<CliResult> {
    if (!this.exited) this.child.kill(signal);
    return this.result;
  }
}

const live = new Set<CliProcess>();
const folders: string[] = [];

/** Where a command runs: the repository and the test's environment unless a test says otherwise. */
export interface RunPlace {
  cwd?: string;
  /** Added to (or, with undefined, removed from) the test process's environment. */
  env?: Record<string, string | undefined>;
}

/** Starts `hornetq ...args` without waiting for it. */
export function spawnCli(args: string[], place: RunPlace = {}): CliProcess {
  return spawnProgram(process.execPath, [CLI, ...args], place);
}

/**
 * The shipped config/ has security on: every command logs in as its demo user (config/
 * hornetq-users.xml), as the README tells a user to, through the variables that keep a password
 * off the command line. A test that is about credentials passes its own (through env(1)).
 */
export const DEMO_LOGIN = Object.freeze({ HORNETQ_USER: 'demo', HORNETQ_PASSWORD: 'demo' });

function spawnProgram(program: string, args: string[], place: RunPlace = {}): CliProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, ...DEMO_LOGIN };
  for (const [name, value] of Object.entries(place.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const child = spawn(program, args, { cwd: place.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
  const cli = new CliProcess(child);
  live.add(cli);
  void cli.result.finally(() => live.delete(cli)).catch(() => undefined);
  return cli;
}

/** Runs `hornetq ...args` to its end; a process still running after the timeout is killed and fails the test. */
export function runCli(
  args: string[],
  timeoutMs = COMMAND_TIMEOUT_MS,
  place: RunPlace = {},
): Promise<CliResult> {
  return runProgram(process.execPath, [CLI, ...args], timeoutMs, place);
}

/** Runs any program to its end, as runCli does. */
export async function runProgram(
  program: string,
  args: string[],
  timeoutMs = COMMAND_TIMEOUT_MS,
  place: RunPlace = {},
): Promise<CliResult> {
  const cli = spawnProgram(program, args, place);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      cli.child.kill('SIGKILL');
      reject(
        new Error(
          `hornetq ${args.join(' ')} still ran after ${timeoutMs} ms\nstdout:\n${cli.stdout}\nstderr:\n${cli.stderr}`,
        ),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([cli.result, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Registers the cleanup: every process still running is killed (by PID), every temporary folder removed. */
export function useCli(): void {
  afterEach(async () => {
    const running = [...live];
    for (const cli of running) cli.child.kill('SIGKILL');
    await Promise.allSettled(running.map((cli) => cli.result));
    await Promise.all(folders.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
  });
}

/** A port nobody listens on right now: bound to port 0 by the system, then released. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A temporary folder removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hornetq-cli-'));
  folders.push(dir);
  return dir;
}

/**
 * The default config/ copied to a temporary folder with the broker on 127.0.0.1:`port` (the
 * placeholders replaced), plus the queues named in `extraQueues` (bound as /queue/NAME).
 */
export async function writeConfig(port: number, extraQueues: readonly string[] = []): Promise<string> {
  const dir = await tempDir();
  const server = (await fs.readFile(path.join(ROOT, 'config', 'hornetq-configuration.xml'), 'utf8'))
    .replaceAll('${hornetq.remoting.netty.host:localhost}', '127.0.0.1')
    .replaceAll('${hornetq.remoting.netty.port:5445}', String(port));
  const queues = extraQueues
    .map((name) => `   <queue name="${name}">\n      <entry name="/queue/${name}"/>\n   </queue>\n`)
    .join('');
  const jms = (await fs.readFile(path.join(ROOT, 'config', 'hornetq-jms.xml'), 'utf8')).replace(
    '</configuration>',
    `${queues}</configuration>`,
  );
  await fs.writeFile(path.join(dir, 'hornetq-configuration.xml'), server);
  await fs.writeFile(path.join(dir, 'hornetq-jms.xml'), jms);
  await fs.copyFile(path.join(ROOT, 'config', 'hornetq-users.xml'), path.join(dir, 'hornetq-users.xml'));
  return dir;
}

/** A broker run by `hornetq server --config <dir>` on a free port, ready once it says where it listens. */
export async function startServer(extraQueues: readonly string[] = []): Promise<{
  server: CliProcess;
  port: number;
  configDir: string;
}> {
  const port = await freePort();
  const configDir = await writeConfig(port, extraQueues);
  // The journal goes in the temporary folder too, not in the working directory (the repository).
  const server = spawnCli(['server', '--config', configDir, '--data-dir', configDir]);
  await server.waitForOutput(new RegExp(`listening on tcp://127\\.0\\.0\\.1:${port}`));
  return { server, port, configDir };
}

/** stdout's lines, without the empty last one. */
export function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.length > 0);
}

/** The row of `hornetq queue stat` for a queue, as numbers by column name. */
export function statRow(output: string, queue: string): Record<string, number> {
  const [header, ...rows] = lines(output);
  const columns = (header ?? '').split(/\s{2,}/);
  const row = rows.find((candidate) => candidate.startsWith(`${queue} `));
  if (row === undefined) throw new Error(`no row for ${queue} in:\n${output}`);
  const cells = row.split(/\s{2,}/);
  const result: Record<string, number> = {};
  columns.forEach((column, index) => {
    const value = Number(cells[index]);
    if (!Number.isNaN(value)) result[column] = value;
  });
  return result;
}

/** Calls `probe` until `done` accepts its value (returned) or `timeoutMs` passes (the last value is in the error). */
export async function pollUntil<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = COMMAND_TIMEOUT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
