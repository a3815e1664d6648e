import path from 'node:path';
import { makeDataDir, removeDir } from '../../integration/crash/child-broker';
import { PairMember } from '../../server/ha/pair-member';
import { freePorts } from './free-port';

/**
 * Our live/backup pair as two `hornetq server` processes on one data directory
 * (test/fixtures/ours-pair): each on a loopback port of its own, the backup's cluster connection
 * naming the live, so that the waiting backup announces itself and the live pushes {live, backup}
 * to its clients. A kill is a real kill -9 of the live's process.
 */

const CONFIG_DIR = path.resolve(__dirname, '..', '..', 'fixtures', 'ours-pair');
const CLUSTER_PASSWORD = 'ours-pair-interop-secret';
const WAITING = /waiting for its live server to go/;
const ANNOUNCED = /^backup announced to its live /;
const LISTENING = /^listening on /;
const START_TIMEOUT_MS = 60_000;
const TAKEOVER_TIMEOUT_MS = 120_000;

export interface Takeover {
  /** When the live's process was seen dead (ms since the epoch). */
  killedAt: number;
  /** When the backup logged that it listens (its clock: the same machine's). */
  servingAt: number;
}

export class OursPair {
  private constructor(
    private readonly directory: string,
    readonly live: PairMember,
    readonly backup: PairMember,
    readonly livePort: number,
    readonly backupPort: number,
  ) {}

  /** Starts the live, then the backup, and resolves once the backup has announced itself to the live. */
  static async start(): Promise<OursPair> {
    const directory = await makeDataDir('hornetq-ours-pair-');
    const [livePort, backupPort] = (await freePorts(2)) as [number, number];
    const env = { PAIR_LIVE_PORT: String(livePort), PAIR_CLUSTER_PASSWORD: CLUSTER_PASSWORD };
    const spawned: PairMember[] = [];
    try {
      const live = PairMember.spawn('live', directory, ['--port', String(livePort)], {
        configDir: CONFIG_DIR,
        env,
      });
      spawned.push(live);
      await live.listening({ timeoutMs: START_TIMEOUT_MS });
      const backup = PairMember.spawn('backup', directory, ['--backup', '--port', String(backupPort)], {
        configDir: CONFIG_DIR,
        env,
      });
      spawned.push(backup);
      await backup.waitFor(WAITING, { timeoutMs: START_TIMEOUT_MS });
      await backup.waitFor(ANNOUNCED, { timeoutMs: START_TIMEOUT_MS });
      return new OursPair(directory, live, backup, livePort, backupPort);
    } catch (error) {
      await Promise.all(spawned.map((member) => member.kill()));
      await removeDir(directory);
      throw error;
    }
  }

  get nodeId(): string {
    return this.live.nodeId;
  }

  /** kill -9 of the live; resolves once the backup serves on its port, with when each happened. */
  async killLive(): Promise<Takeover> {
    const mark = this.backup.mark;
    const killedAt = await this.live.kill();
    const serving = await this.backup.waitFor(LISTENING, { from: mark, timeoutMs: TAKEOVER_TIMEOUT_MS });
    return { killedAt, servingAt: serving.time };
  }

  /** Kills both processes and removes the data directory. */
  async stop(): Promise<void> {
    await Promise.all([this.live.kill(), this.backup.kill()]);
    await removeDir(this.directory);
  }
}
