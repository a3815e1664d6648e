import { JavaProcess, type Exit, type JavaProgram } from './java-process';

/**
 * What one server of a pair or cluster last reported through interop.common.HaWatch's lines:
 * whether it serves clients (and as which node), whether its node's topology names a backup, how
 * many live members its cluster connection sees, and whether it is a backup in sync with its live.
 */
export interface HaServerState {
  role: 'live' | 'backup' | null;
  /** The node id it serves as (set while live). */
  nodeId: string | null;
  backupAnnounced: boolean;
  liveMembers: number;
  replicaSynced: boolean;
}

/** The most HaWatch lines kept, for a failure message (a flapping server prints many). */
const MAX_HISTORY = 200;

/**
 * One HA server program (HqHaServer, ArtemisHaServer) as a process: its reported state, a bounded
 * wait for a state, and a stop or a real kill -9, both by its own pid only.
 */
export class HaServerProcess {
  private readonly process: JavaProcess;
  private readonly current: HaServerState = {
    role: null,
    nodeId: null,
    backupAnnounced: false,
    liveMembers: 0,
    replicaSynced: false,
  };
  private readonly history: string[] = [];
  private readonly changeListeners = new Set<() => void>();
  /** When the last line arrived: the moment the state it reports was seen. */
  private lastChangeAt = Date.now();

  private constructor(program: JavaProgram) {
    this.process = JavaProcess.start(program);
    this.process.onLine((line) => this.take(line));
  }

  static start(program: JavaProgram): HaServerProcess {
    return new HaServerProcess(program);
  }

  get label(): string {
    return this.process.program.label;
  }

  get state(): Readonly<HaServerState> {
    return { ...this.current };
  }

  get running(): boolean {
    return this.process.running;
  }

  get exited(): Promise<Exit> {
    return this.process.exited;
  }

  /**
   * Resolves with the time (Date.now()) at which the server first reported a state `matches`
   * accepts: at once if it does already. Rejects after `timeoutMs`, or when the process exits,
   * with what it reported and the tail of its stderr.
   */
  waitFor(
    matches: (state: Readonly<HaServerState>) => boolean,
    what: string,
    timeoutMs: number,
  ): Promise<number> {
    if (matches(this.current)) return Promise.resolve(this.lastChangeAt);
    return new Promise((resolve, reject) => {
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        this.changeListeners.delete(check);
        settle();
      };
      const check = (): void => {
        if (matches(this.current)) finish(() => resolve(this.lastChangeAt));
      };
      const fail = (why: string): void =>
        finish(() =>
          reject(
            new Error(
              `${this.label}: ${why} before ${what}; it reported [${this.history.join(' | ')}]; stderr: ${this.process.stderrTail()}`,
            ),
          ),
        );
      const timer = setTimeout(() => fail(`nothing within ${timeoutMs} ms`), timeoutMs);
      this.changeListeners.add(check);
      void this.process.exited.then((exit) => {
        if (this.changeListeners.has(check)) fail(`exited (${JSON.stringify(exit)})`);
      });
    });
  }

  /** kill -9: the server gets no chance to say goodbye (its file lock goes with the process). */
  async kill(): Promise<void> {
    await this.process.kill();
  }

  /** A clean stop (stdin closed, then SIGTERM, then SIGKILL; bounded). */
  async stop(): Promise<void> {
    await this.process.stop();
  }

  private take(line: string): void {
    const [word, ...rest] = line.split(' ');
    switch (word) {
      case 'ROLE':
        this.current.role = rest[0] === 'live' ? 'live' : 'backup';
        this.current.nodeId = rest[0] === 'live' ? (rest[2] ?? null) : null;
        break;
      case 'BACKUP':
        this.current.backupAnnounced = rest[0] === 'announced';
        break;
      case 'MEMBERS':
        this.current.liveMembers = Number(rest[0]);
        break;
      case 'REPLICA':
        this.current.replicaSynced = rest[0] === 'synced';
        break;
      default:
        return; // Not a HaWatch line (a JVM warning on stdout).
    }
    this.lastChangeAt = Date.now();
    if (this.history.length >= MAX_HISTORY) this.history.shift();
    this.history.push(line);
    for (const check of [...this.changeListeners]) check();
  }
}
