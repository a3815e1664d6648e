import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * One broker of a live/backup pair in its own process, as a user runs it (`node
 * dist/cli/hornetq.js server --config DIR --data-dir DIR [--backup ...]`; jest's globalSetup
 * compiles dist/), so that SIGKILL is a real crash. It logs JSON lines (stdout is no TTY): each is
 * kept with its `time` and `msg`, and tests wait for a message to appear after a given line.
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli', 'hornetq.js');
export const HA_CONFIG_DIR = path.join(__dirname, 'fixtures');
/** Lines kept per process: far more than a test's broker prints, a bound still. */
const MAX_LINES = 20_000;
const LISTENING = /^listening on tcp:\/\/127\.0\.0\.1:(\d+)$/;
const NODE_ID = /^broker node id ([0-9a-f-]{36})$/;

export interface LogLine {
  /** When the broker logged it (its clock: the same machine's). */
  time: number;
  msg: string;
}

const running = new Set<PairMember>();

export class PairMember {
  readonly lines: LogLine[] = [];
  private partial = '';
  private readonly waiters = new Set<() => void>();
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; time: number }>;
  private hasExited = false;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.take(chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.take(chunk));
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.hasExited = true;
        running.delete(this);
        this.wake();
        resolve({ code, signal, time: Date.now() });
      }),
    );
  }

  /**
   * `hornetq server` on `dataDir` with the pair's configuration (or `configDir`'s) and `args` (e.g.
   * --backup); `env` adds environment variables (values of the configuration's placeholders).
   */
  static spawn(
    name: string,
    dataDir: string,
    args: readonly string[] = [],
    { configDir = HA_CONFIG_DIR, env = {} }: { configDir?: string; env?: Record<string, string> } = {},
  ): PairMember {
    const child = spawn(
      process.execPath,
      [CLI, 'server', '--config', configDir, '--data-dir', dataDir, '--log-level', 'info', ...args],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
    );
    const member = new PairMember(name, child);
    running.add(member);
    return member;
  }

  get running(): boolean {
    return !this.hasExited;
  }

  /** The port of the last "listening on" line (a backup listens anew each time it takes over). */
  get port(): number {
    for (let index = this.lines.length - 1; index >= 0; index--) {
      const match = LISTENING.exec(this.lines[index]?.msg ?? '');
      if (match !== null) return Number(match[1]);
    }
    throw new Error(`${this.name} has not listened yet`);
  }

  /** The node id it logged last. */
  get nodeId(): string {
    for (let index = this.lines.length - 1; index >= 0; index--) {
      const match = NODE_ID.exec(this.lines[index]?.msg ?? '');
      if (match !== null) return match[1] as string;
    }
    throw new Error(`${this.name} has not logged its node id`);
  }

  /** How many lines it has logged (a mark to wait for something after). */
  get mark(): number {
    return this.lines.length;
  }

  /**
   * The first line from `from` on whose message matches `pattern`; rejects when the process exits
   * first or `timeoutMs` passes, with what it printed.
   */
  async waitFor(pattern: RegExp, { from = 0, timeoutMs = 60_000 } = {}): Promise<LogLine> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.slice(from).find((line) => pattern.test(line.msg));
      if (found !== undefined) return found;
      if (this.hasExited || Date.now() >= deadline) {
        throw new Error(
          `${this.name} ${this.hasExited ? 'exited' : `did not log ${String(pattern)} within ${timeoutMs} ms`}; it logged:\n${this.transcript()}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.max(1, deadline - Date.now()));
        this.waiters.add(done);
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
      });
    }
  }

  /** Whether any line from `from` on matches. */
  logged(pattern: RegExp, from = 0): boolean {
    return this.lines.slice(from).some((line) => pattern.test(line.msg));
  }

  /** Waits until it listens, and returns the port. */
  async listening(options: { from?: number; timeoutMs?: number } = {}): Promise<number> {
    await this.waitFor(LISTENING, options);
    return this.port;
  }

  /** SIGKILL: the process ends wherever it was, with nothing written after. */
  async kill(): Promise<number> {
    if (!this.hasExited) this.child.kill('SIGKILL');
    return (await this.exited).time;
  }

  /** SIGTERM: a clean stop. */
  async stop(): Promise<void> {
    if (this.hasExited) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await this.exited;
    clearTimeout(timer);
  }

  transcript(): string {
    return this.lines.map((line) => line.msg).join('\n');
  }

  private take(chunk: string): void {
    const text = this.partial + chunk;
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    for (const part of parts) {
      if (part.trim() === '') continue;
      this.lines.push(parseLine(part));
      if (this.lines.length > MAX_LINES) this.lines.splice(0, this.lines.length - MAX_LINES);
    }
    this.wake();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) {
      this.waiters.delete(waiter);
      waiter();
    }
  }
}

function parseLine(text: string): LogLine {
  try {
    const value = JSON.parse(text) as { time?: unknown; msg?: unknown };
    if (typeof value.time === 'number' && typeof value.msg === 'string')
      return { time: value.time, msg: value.msg };
  } catch {
    // Not a log line (commander's or Node's own output): kept as it is.
  }
  return { time: Date.now(), msg: text };
}

/** Kills every member still running (teardown). */
export async function killPairMembers(): Promise<void> {
  await Promise.all([...running].map((member) => member.kill()));
}
