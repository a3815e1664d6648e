import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A broker in its own process, as a user runs it (`node dist/cli/hornetq.js server --config DIR
 * --data-dir DIR`; jest's globalSetup compiles dist/), so that SIGKILL is a real crash: no stop,
 * no flush, no exit handler. The configuration is test/integration/crash/fixtures (one TCP acceptor
 * on 127.0.0.1 port 0; the broker logs the port it got).
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli', 'hornetq.js');
export const CRASH_CONFIG_DIR = path.join(__dirname, 'fixtures');
/** Output kept for error messages: the end of what the broker printed, bounded. */
const OUTPUT_TAIL_BYTES = 16 * 1024;
const LISTENING = /listening on tcp:\/\/127\.0\.0\.1:(\d+)/;

const live = new Set<ChildBroker>();

export class ChildBroker {
  private output = '';
  private portFound: number | null = null;
  private readonly exited: Promise<void>;
  private hasExited = false;
  private readonly portWaiters: Array<() => void> = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly dataDir: string,
  ) {
    const keep = (chunk: string): void => {
      this.output = (this.output + chunk).slice(-OUTPUT_TAIL_BYTES);
      const match = this.portFound === null ? LISTENING.exec(this.output) : null;
      if (match !== null) {
        this.portFound = Number(match[1]);
        for (const wake of this.portWaiters.splice(0)) wake();
      }
    };
    child.stdout?.setEncoding('utf8').on('data', keep);
    child.stderr?.setEncoding('utf8').on('data', keep);
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        this.hasExited = true;
        live.delete(this);
        for (const wake of this.portWaiters.splice(0)) wake();
        resolve();
      }),
    );
  }

  /** Starts `hornetq server` on `dataDir` without waiting for it (see ready()). */
  static spawn(dataDir: string, configDir = CRASH_CONFIG_DIR): ChildBroker {
    const child = spawn(
      process.execPath,
      [CLI, 'server', '--config', configDir, '--data-dir', dataDir, '--log-level', 'info'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const broker = new ChildBroker(child, dataDir);
    live.add(broker);
    return broker;
  }

  /** Starts a broker and waits until it listens (it has loaded its journal by then). */
  static async start(
    dataDir: string,
    configDir = CRASH_CONFIG_DIR,
    timeoutMs = 60_000,
  ): Promise<ChildBroker> {
    const broker = ChildBroker.spawn(dataDir, configDir);
    await broker.ready(timeoutMs);
    return broker;
  }

  get port(): number {
    if (this.portFound === null) throw new Error('the broker is not listening yet');
    return this.portFound;
  }

  get running(): boolean {
    return !this.hasExited;
  }

  /** The end of what it printed (for failure messages). */
  get outputTail(): string {
    return this.output;
  }

  /** Resolves once it says where it listens; rejects when it exits first or after `timeoutMs`. */
  async ready(timeoutMs = 60_000): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      this.portWaiters.push(resolve);
      timer = setTimeout(resolve, timeoutMs);
    });
    if (this.portFound === null && !this.hasExited) await waited;
    clearTimeout(timer);
    if (this.portFound !== null && !this.hasExited) return this.portFound;
    throw new Error(
      `the broker on ${this.dataDir} ${this.hasExited ? 'exited' : `did not listen within ${timeoutMs} ms`} before it listened; its output ended:\n${this.output}`,
    );
  }

  /** SIGKILL: the process ends wherever it was, with nothing written after. */
  async kill(): Promise<void> {
    if (!this.hasExited) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM: a clean stop (the broker syncs and closes its journal). */
  async stop(timeoutMs = 30_000): Promise<void> {
    if (this.hasExited) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Kills every child broker still running (teardown). */
export async function killChildBrokers(): Promise<void> {
  await Promise.all([...live].map((broker) => broker.kill()));
}

/** A fresh data directory under the system's temporary folder. */
export function makeDataDir(prefix = 'hornetq-crash-'): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir: string): Promise<void> {
  return fs.rm(dir, { recursive: true, force: true });
}
