import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePorts } from './free-port';
import { HaServerProcess, type HaServerState } from './ha-server-process';
import type { JavaModule } from './java-harness';

/**
 * Which live/backup pair: HornetQ 2.4.7 on a shared store (FileLockNodeManager), or Artemis 2.40.0
 * with replication or on a shared store. Each server is a process of its own, so a kill is a kill -9.
 */
export type PairKind = 'hornetq-shared-store' | 'artemis-replication' | 'artemis-shared-store';

export const PAIR_KINDS: readonly PairKind[] = [
  'hornetq-shared-store',
  'artemis-replication',
  'artemis-shared-store',
];

export interface PairOptions {
  /** JMS queues on both servers (HornetQ: core queue jms.queue.NAME; Artemis: anycast NAME). */
  queues?: readonly string[];
  topics?: readonly string[];
  /** connection-ttl-override in ms, on both servers. */
  connectionTtlMs?: number;
  /** allow-failback of the backup (default true): the restarted live takes over again. */
  allowFailback?: boolean;
  /** failback-delay of a shared-store backup in ms (default 1000). */
  failbackDelayMs?: number;
  /** failover-on-shutdown (shared store; default false): a clean stop of the live hands over too. */
  failoverOnShutdown?: boolean;
}

/** How long each phase took, in ms, for the record of what the harness costs. */
export interface PairTimings {
  /** Spawn of the live to its acceptor open. */
  liveStartMs: number;
  /** Spawn of the backup to the live naming it in its topology (and, replicating, in sync). */
  backupAnnouncedMs: number;
  /** kill -9 of the live to the backup serving on its port; null before the first kill. */
  activationMs: number | null;
  /** Spawn of the restarted live to the live serving again and the backup back to waiting. */
  failbackMs: number | null;
}

/** A JVM start plus HornetQ's or Artemis' activation on a loaded 2-core machine. */
const START_TIMEOUT_MS = 120_000;
/** A backup notices a dead live by its lock (shared store) or its lost link (replication). */
const ACTIVATION_TIMEOUT_MS = 120_000;

interface Program {
  module: JavaModule;
  mainClass: string;
  /** The policy arguments of each role. */
  live: readonly string[];
  backup: readonly string[];
  /** Both servers name the same data directory. */
  sharedStore: boolean;
  name: string;
}

const PROGRAMS: Record<PairKind, Program> = {
  'hornetq-shared-store': {
    module: 'hornetq',
    mainClass: 'interop.hornetq.HqHaServer',
    live: ['--role', 'live'],
    backup: ['--role', 'backup'],
    sharedStore: true,
    name: 'HornetQ 2.4.7 shared-store',
  },
  'artemis-replication': {
    module: 'artemis',
    mainClass: 'interop.artemis.ArtemisHaServer',
    live: ['--ha', 'replication-primary'],
    backup: ['--ha', 'replication-backup'],
    sharedStore: false,
    name: 'Artemis 2.40.0 replication',
  },
  'artemis-shared-store': {
    module: 'artemis',
    mainClass: 'interop.artemis.ArtemisHaServer',
    live: ['--ha', 'shared-primary'],
    backup: ['--ha', 'shared-backup'],
    sharedStore: true,
    name: 'Artemis 2.40.0 shared-store',
  },
};

type Role = 'live' | 'backup';

const serving = (state: Readonly<HaServerState>): boolean => state.role === 'live';

/**
 * A live server and its backup on 127.0.0.1, on ports picked here, with their data in a temporary
 * directory removed by stop(). "live" and "backup" name the servers as configured: after a kill the
 * backup serves on backupPort, and restartLive() brings the live back on livePort (failback).
 */
export class HaPair {
  private readonly servers: Record<Role, HaServerProcess | null> = { live: null, backup: null };
  readonly timings: PairTimings = {
    liveStartMs: 0,
    backupAnnouncedMs: 0,
    activationMs: null,
    failbackMs: null,
  };

  private constructor(
    readonly kind: PairKind,
    readonly livePort: number,
    readonly backupPort: number,
    private readonly dataDir: string,
    private readonly options: PairOptions,
  ) {}

  /** Starts the live, waits until it serves, then the backup, and waits until the live announces it. */
  static async start(kind: PairKind, options: PairOptions = {}): Promise<HaPair> {
    const dataDir = await mkdtemp(path.join(tmpdir(), `ha-${kind}-`));
    const [livePort, backupPort] = await freePorts(2);
    const pair = new HaPair(kind, livePort!, backupPort!, dataDir, options);
    try {
      await pair.startLive();
      await pair.startBackup();
    } catch (error) {
      await pair.stop();
      throw error;
    }
    return pair;
  }

  get label(): string {
    return `${PROGRAMS[this.kind].name} pair (live 127.0.0.1:${this.livePort}, backup 127.0.0.1:${this.backupPort})`;
  }

  /** The live server's process (null once killed and not restarted). */
  get live(): HaServerProcess | null {
    return this.servers.live;
  }

  get backup(): HaServerProcess | null {
    return this.servers.backup;
  }

  /** kill -9 of the live server's process; resolves once it has exited. */
  async killLive(): Promise<void> {
    const live = this.require('live');
    this.servers.live = null;
    await live.kill();
  }

  /**
   * kill -9 of the live, then waits until the backup serves on backupPort. Resolves with the time
   * from the kill to the backup's acceptor open, also kept in timings.activationMs.
   */
  async killLiveAndAwaitBackup(): Promise<number> {
    const backup = this.require('backup');
    const killedAt = Date.now();
    await this.killLive();
    const servingAt = await backup.waitFor(
      serving,
      'the backup serving (after the live was killed)',
      ACTIVATION_TIMEOUT_MS,
    );
    this.timings.activationMs = servingAt - killedAt;
    return this.timings.activationMs;
  }

  /**
   * Starts the live again on livePort with its data. With allow-failback, resolves once it serves
   * and the backup is waiting again, announced to it (failback). Without it, once the restarted
   * process reports that it is up and not serving: a server reports that from its start, so this
   * says nothing about later (that the backup stays live is for the caller to watch). Resolves
   * with how long that took, also kept in timings.failbackMs.
   */
  async restartLive(): Promise<number> {
    if (this.servers.live !== null) throw new Error(`${this.label}: the live is running; kill it first`);
    const started = Date.now();
    const live = this.spawn('live');
    const backup = this.require('backup');
    if (this.options.allowFailback === false) {
      await live.waitFor((state) => state.role === 'backup', 'the restarted live waiting', START_TIMEOUT_MS);
    } else {
      await live.waitFor(serving, 'the restarted live serving (failback)', START_TIMEOUT_MS);
      await backup.waitFor(
        (state) => state.role === 'backup',
        'the backup waiting again after failback',
        START_TIMEOUT_MS,
      );
      await this.awaitBackupAnnounced(live, backup);
    }
    this.timings.failbackMs = Date.now() - started;
    return this.timings.failbackMs;
  }

  /** Stops both (the backup first, so that it does not take over), removes the data; never throws. */
  async stop(): Promise<void> {
    const { live, backup } = this.servers;
    this.servers.live = null;
    this.servers.backup = null;
    await backup?.stop();
    await live?.stop();
    await rm(this.dataDir, { recursive: true, force: true });
  }

  private async startLive(): Promise<void> {
    const started = Date.now();
    await this.spawn('live').waitFor(serving, 'the live serving', START_TIMEOUT_MS);
    this.timings.liveStartMs = Date.now() - started;
  }

  private async startBackup(): Promise<void> {
    const started = Date.now();
    const backup = this.spawn('backup');
    await this.awaitBackupAnnounced(this.require('live'), backup);
    this.timings.backupAnnouncedMs = Date.now() - started;
  }

  /** The live names the backup in its topology; a replicating backup also holds all of its data. */
  private async awaitBackupAnnounced(live: HaServerProcess, backup: HaServerProcess): Promise<void> {
    await live.waitFor((state) => state.backupAnnounced, 'the backup announced', START_TIMEOUT_MS);
    if (!PROGRAMS[this.kind].sharedStore) {
      await backup.waitFor((state) => state.replicaSynced, 'the backup in sync', START_TIMEOUT_MS);
    }
  }

  private spawn(role: Role): HaServerProcess {
    const program = PROGRAMS[this.kind];
    const port = role === 'live' ? this.livePort : this.backupPort;
    const peerPort = role === 'live' ? this.backupPort : this.livePort;
    const server = HaServerProcess.start({
      module: program.module,
      mainClass: program.mainClass,
      args: [
        ...program[role],
        '--port',
        String(port),
        '--peer-port',
        String(peerPort),
        '--data',
        program.sharedStore ? this.dataDir : path.join(this.dataDir, role),
        ...this.serverArguments(),
      ],
      label: `${program.name} ${role} on 127.0.0.1:${port}`,
    });
    this.servers[role] = server;
    return server;
  }

  private serverArguments(): string[] {
    const {
      queues = [],
      topics = [],
      connectionTtlMs,
      allowFailback = true,
      failbackDelayMs = 1000,
    } = this.options;
    const args = [
      '--allow-failback',
      String(allowFailback),
      '--failback-delay',
      String(failbackDelayMs),
      '--failover-on-shutdown',
      String(this.options.failoverOnShutdown ?? false),
    ];
    if (queues.length > 0) args.push('--queue', ...queues);
    if (topics.length > 0) args.push('--topic', ...topics);
    if (connectionTtlMs !== undefined) args.push('--connection-ttl', String(connectionTtlMs));
    return args;
  }

  private require(role: Role): HaServerProcess {
    const server = this.servers[role];
    if (server === null) throw new Error(`${this.label}: the ${role} is not running`);
    return server;
  }
}
