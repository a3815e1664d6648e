// Child processes of the benchmarks: spawned with JSON lines on stdout (results) and stdin
// (commands), tracked so that none outlives the run, and measured from /proc (CPU, peak RSS).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('..', import.meta.url));
const CLOCK_TICKS_PER_S = 100; // USER_HZ, 100 on every Linux this runs on (getconf CLK_TCK)
/**
 * Extra node flags for every child, e.g. BENCH_NODE_FLAGS='--cpu-prof --cpu-prof-dir=prof' to
 * profile broker and clients (node refuses --cpu-prof in NODE_OPTIONS).
 */
const extraNodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== '');

/** Every child still running, across groups: killed when this process ends however it ends. */
const live = new Set();
/** Every data directory made for a server and not yet removed: removed at exit too. */
const dataDirs = new Set();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    process.stderr.write(`bench: got ${signal}; stopping ${live.size} child process(es)\n`);
    process.exit(130); // the 'exit' handler kills them
  });
}

/**
 * The processes of one measurement. stopAll() ends them (SIGTERM, then SIGKILL after a grace
 * period), so a scenario that fails or times out leaves nothing behind.
 */
export class ProcessGroup {
  constructor() {
    this.children = [];
    this.dataDirs = [];
  }

  /**
   * Starts a server (broker.mjs, relay.mjs, ...) with a fresh data directory of its own in the
   * system's temporary folder, as BENCH_DATA_DIR: its journal (or the relay's log) lives there and
   * is fsynced for real; stopAll() removes it once the server has exited.
   */
  startServer(script, env = {}, nodeArgs = []) {
    const dataDir = this.createDataDir();
    const handle = this.start(script, { ...env, BENCH_DATA_DIR: dataDir }, nodeArgs);
    handle.dataDir = dataDir;
    return handle;
  }

  /** A fresh directory in the system's temporary folder, removed by stopAll() (or at exit). */
  createDataDir() {
    const dataDir = mkdtempSync(join(tmpdir(), 'hornetq-bench-'));
    dataDirs.add(dataDir);
    this.dataDirs.push(dataDir);
    return dataDir;
  }

  /** Starts `node [nodeArgs] bench/<script>` with `env` added to ours. */
  start(script, env = {}, nodeArgs = []) {
    return this.startCommand(
      script,
      process.execPath,
      [...extraNodeFlags, ...nodeArgs, `${benchDir}${script}`],
      env,
    );
  }

  /**
   * Starts any program that speaks the same JSON lines (a JVM, for the Artemis comparison), with
   * `env` added to ours; `name` labels its log lines and errors.
   */
  startCommand(name, command, args, env = {}) {
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    live.add(child);
    const handle = new ChildHandle(name, child);
    handle.exited.then(() => live.delete(child));
    this.children.push(handle);
    return handle;
  }

  async stopAll(graceMs = 3000) {
    await Promise.all(this.children.map((handle) => handle.stop(graceMs)));
    for (const dir of this.dataDirs.splice(0)) {
      await rm(dir, { recursive: true, force: true });
      dataDirs.delete(dir);
    }
  }
}

/** How much of a child's stderr is kept (the end), to say why it failed. */
const STDERR_TAIL_CHARS = 8192;
/** A thrown error as Node ("HornetQException: ...", "[cause]: ...") or Java prints it. */
const ERROR_LINE = /^\s*(\[cause\]: )?[\w.$]*(Error|Exception)\b[^:]*: /;

class ChildHandle {
  constructor(script, child) {
    this.script = script;
    this.child = child;
    this.pid = child.pid;
    this.lines = [];
    this.waiters = [];
    this.textWaiters = [];
    this.exitCode = undefined;
    this.stderrTail = '';
    child.stdin.on('error', () => undefined); // a child that exited first must not crash us
    createInterface({ input: child.stdout }).on('line', (text) => this.receive(text));
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exitCode = code ?? signal;
        resolve(this.exitCode);
      }),
    );
    // After 'close' (its output read to the end), so that the error can say why it ended.
    child.once('close', () => {
      for (const waiter of [...this.waiters.splice(0), ...this.textWaiters.splice(0)]) {
        waiter.reject(this.exitedEarlyError());
      }
    });
  }

  /** "X exited (1) before ...: <the error it printed>": the first error lines of its stderr. */
  exitedEarlyError() {
    const errors = this.stderrTail.split('\n').filter((line) => ERROR_LINE.test(line));
    const why = errors
      .slice(0, 2)
      .map((line) => line.trim())
      .join(' / ');
    return new Error(
      `${this.script} exited (${this.exitCode}) before printing the expected line${why === '' ? '' : `: ${why}`}`,
    );
  }

  receive(text) {
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.receiveText(text);
      return;
    }
    const index = this.waiters.findIndex((waiter) => waiter.matches(parsed));
    if (index >= 0) this.waiters.splice(index, 1)[0].resolve(parsed);
    else this.lines.push(parsed);
  }

  /**
   * A line that is not JSON (a program of the interop harness, such as its Artemis server, says
   * READY in words) goes to a text waiter it matches, or to our stderr; it is not kept for a
   * later waiter, so a chatty program holds no memory here.
   */
  receiveText(text) {
    const index = this.textWaiters.findIndex((waiter) => waiter.matches(text));
    if (index >= 0) this.textWaiters.splice(index, 1)[0].resolve(text);
    else process.stderr.write(`${this.script}: ${text}\n`);
  }

  /** The next line that is not JSON for which `matches` holds (call it before the line can come). */
  waitForText(matches) {
    if (this.exitCode !== undefined) return Promise.reject(this.exitedEarlyError());
    return new Promise((resolve, reject) => this.textWaiters.push({ matches, resolve, reject }));
  }

  /** The next JSON line (oldest first) for which `matches` holds. */
  waitFor(matches = () => true) {
    const index = this.lines.findIndex(matches);
    if (index >= 0) return Promise.resolve(this.lines.splice(index, 1)[0]);
    if (this.exitCode !== undefined) return Promise.reject(this.exitedEarlyError());
    return new Promise((resolve, reject) => this.waiters.push({ matches, resolve, reject }));
  }

  /** Sends one command as a JSON line on the child's stdin. */
  command(message) {
    if (this.exitCode === undefined) this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** kill -9: the process gets no chance to say goodbye; resolves once it has exited. */
  async kill() {
    if (this.exitCode !== undefined) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  async stop(graceMs) {
    if (this.exitCode !== undefined) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** CPU time a process has used so far: utime + stime, and stime alone, in seconds (/proc). */
export function processCpu(pid) {
  try {
    // Fields after the command name, which may itself hold spaces: utime is the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const user = Number(fields[11]);
    const system = Number(fields[12]);
    return { cpu_s: (user + system) / CLOCK_TICKS_PER_S, sys_s: system / CLOCK_TICKS_PER_S };
  } catch {
    return { cpu_s: null, sys_s: null };
  }
}

/**
 * Bytes the process has caused to be written to storage so far (/proc/<pid>/io write_bytes,
 * counted when pages are dirtied; sockets are not in it), or null once it is gone.
 */
export function diskWriteBytes(pid) {
  try {
    const match = /^write_bytes: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return match === null ? null : Number(match[1]);
  } catch {
    return null;
  }
}

/** The process's peak resident set size (VmHWM) in MiB, or null once it is gone. */
export function peakRssMb(pid) {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? null : Math.round(Number(match[1]) / 1024);
  } catch {
    return null;
  }
}

/** Rejects with a timeout error once `ms` have passed; calls onTimeout first (to stop processes). */
export function withTimeout(promise, ms, what, onTimeout = () => undefined) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => {
        onTimeout();
        reject(new Error(`${what} did not finish within ${ms / 1000} s`));
      }, ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
