import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { JVM_OPTIONS, moduleClasspath, type JavaModule } from './java-harness';

/** What one stdout line may hold (a driver answer with a 20 MiB body in hex is ~40 MiB). */
const MAX_LINE_CHARS = 64 * 1024 * 1024;
/** How much of stderr is kept for error messages (the JVM's logging can be long). */
const STDERR_TAIL_CHARS = 16 * 1024;
/** How long a program gets to stop after its stdin closes, then after SIGTERM. */
const STOP_AFTER_EOF_MS = 15_000;
const STOP_AFTER_TERM_MS = 5_000;

export interface JavaProgram {
  module: JavaModule;
  mainClass: string;
  args: readonly string[];
  /** JVM options beyond the harness's own (jvm-options.json), e.g. a -D system property. */
  jvmOptions?: readonly string[];
  /** For messages: 'HornetQ server on 40123'. */
  label: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * One harness JVM: stdout as lines, the tail of stderr for diagnostics, and a stop that is always
 * bounded and only ever signals this process's own pid: close stdin (every harness program exits
 * on EOF), then SIGTERM, then SIGKILL.
 */
export class JavaProcess {
  readonly exited: Promise<Exit>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lineListeners = new Set<(line: string) => void>();
  private partial = '';
  private stderr = '';
  private exit: Exit | null = null;

  private constructor(readonly program: JavaProgram) {
    this.child = spawn(
      'java',
      [
        ...JVM_OPTIONS,
        ...(program.jvmOptions ?? []),
        '-cp',
        moduleClasspath(program.module),
        program.mainClass,
        ...program.args,
      ],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.takeStdout(chunk));
    this.child.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    // A program that died has closed its end: writing to it must not throw out of the test.
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      });
      this.child.once('error', (error) => {
        this.stderr += `\n${error.message}`;
        this.exit = { code: null, signal: null };
        resolve(this.exit);
      });
    });
  }

  static start(program: JavaProgram): JavaProcess {
    return new JavaProcess(program);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.exit === null;
  }

  /** The last lines the program wrote to stderr, for a failure message. */
  stderrTail(): string {
    return this.stderr;
  }

  onLine(listener: (line: string) => void): () => void {
    this.lineListeners.add(listener);
    return () => this.lineListeners.delete(listener);
  }

  writeLine(line: string): void {
    if (!this.running)
      throw new Error(`${this.program.label} has exited (${describeExit(this.exit)}): ${this.stderrTail()}`);
    this.child.stdin.write(`${line}\n`);
  }

  /** The first stdout line `matches` accepts, within `timeoutMs`; fails early if the program exits. */
  waitForLine(matches: (line: string) => boolean, what: string, timeoutMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        unsubscribe();
        settle();
      };
      const unsubscribe = this.onLine((line) => {
        if (matches(line)) finish(() => resolve(line));
      });
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(
              new Error(
                `${this.program.label}: no ${what} within ${timeoutMs} ms; stderr: ${this.stderrTail()}`,
              ),
            ),
          ),
        timeoutMs,
      );
      void this.exited.then((exit) =>
        finish(() =>
          reject(
            new Error(
              `${this.program.label} exited (${describeExit(exit)}) before ${what}; stderr: ${this.stderrTail()}`,
            ),
          ),
        ),
      );
    });
  }

  /** Stops the program (bounded, by its own pid only); resolves once it has exited. */
  async stop(): Promise<Exit> {
    if (this.exit !== null) return this.exit;
    this.child.stdin.end();
    if (await this.exitsWithin(STOP_AFTER_EOF_MS)) return this.exited;
    this.child.kill('SIGTERM');
    if (await this.exitsWithin(STOP_AFTER_TERM_MS)) return this.exited;
    this.child.kill('SIGKILL');
    return this.exited;
  }

  /** Kills the program at once (a crash, for restart scenarios). */
  async kill(): Promise<Exit> {
    if (this.exit === null) this.child.kill('SIGKILL');
    return this.exited;
  }

  private async exitsWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const exited = await Promise.race([this.exited.then(() => true), timeout]);
    clearTimeout(timer);
    return exited;
  }

  private takeStdout(chunk: string): void {
    this.partial += chunk;
    if (this.partial.length > MAX_LINE_CHARS) {
      this.partial = '';
      this.stderr += `\n[harness] ${this.program.label} wrote a stdout line over ${MAX_LINE_CHARS} chars: dropped`;
      return;
    }
    let newline = this.partial.indexOf('\n');
    while (newline >= 0) {
      const line = this.partial.slice(0, newline).replace(/\r$/, '');
      this.partial = this.partial.slice(newline + 1);
      for (const listener of [...this.lineListeners]) listener(line);
      newline = this.partial.indexOf('\n');
    }
  }
}

function describeExit(exit: Exit | null): string {
  if (exit === null) return 'running';
  return exit.signal !== null ? `signal ${exit.signal}` : `code ${exit.code}`;
}
