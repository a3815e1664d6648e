import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NodeManager } from '../../../src/server/ha/node-manager';
import { ROOT } from '../../cli/support';

/**
 * HornetQ's NodeManagerTest and RealNodeManagerTest, table-driven: each row is a set of action
 * lists, each list run by its own process (the compiled node manager, over the real locks on one
 * directory), all at once. A list fails when an action's check fails (this process holds, or
 * does not hold, the live or the backup lock) or it does not finish in time. Beyond HornetQ's
 * checks, every process logs when it takes and lets go of each lock, and the log must show at
 * most one holder of each lock at any moment, and every process must end up with the same node id.
 */

const NODE_MANAGER_JS = path.join(ROOT, 'dist', 'server', 'ha', 'node-manager.js');
/** Lock tries and state reads this far apart (HornetQ's 500 ms and 2 s would make the table slow). */
const POLL_MS = 25;
const SCENARIO_TIMEOUT_MS = 45_000;

type Action =
  | 'START_LIVE'
  | 'START_BACKUP'
  | 'CRASH_LIVE'
  | 'PAUSE_LIVE'
  | 'STOP_BACKUP'
  | 'AWAIT_LIVE'
  | 'RELEASE_BACKUP'
  | 'HAS_LIVE'
  | 'HAS_BACKUP'
  | 'DOESNT_HAVE_LIVE'
  | 'DOESNT_HAVE_BACKUP';

/**
 * One process: runs its actions in order on a NodeManager of the directory, logging each lock it
 * takes (after) and lets go of (before) to the shared log; prints its node id; exits 9 with the
 * failed step on stderr (RealNodeManagerTest's exit code).
 */
const RUNNER = `
const fs = require('node:fs');
const [modulePath, directory, logFile, pollMs, ...work] = process.argv.slice(1);
const { NodeManager } = require(modulePath);
const log = (event) => fs.appendFileSync(logFile, event + ' ' + process.pid + '\\n');
const expect = (condition, what) => { if (!condition) throw new Error(what); };
(async () => {
  const manager = await NodeManager.open(directory, { createDirectory: true, pollMs: Number(pollMs) });
  for (const [step, action] of work.entries()) {
    try {
      switch (action) {
        case 'START_LIVE': await manager.startLive(); log('live+'); break;
        case 'AWAIT_LIVE': await manager.awaitLiveNode(); log('live+'); break;
        case 'CRASH_LIVE': log('live-'); await manager.crashLiveServer(); break;
        case 'PAUSE_LIVE': log('live-'); await manager.pauseLiveServer(); break;
        case 'START_BACKUP': await manager.startBackup(); log('backup+'); break;
        case 'RELEASE_BACKUP': case 'STOP_BACKUP': log('backup-'); await manager.releaseBackup(); break;
        case 'HAS_LIVE': expect(manager.holdsLive, 'live lock not held'); break;
        case 'HAS_BACKUP': expect(manager.holdsBackup, 'backup lock not held'); break;
        case 'DOESNT_HAVE_LIVE': expect(!manager.holdsLive, 'live lock held'); break;
        case 'DOESNT_HAVE_BACKUP': expect(!manager.holdsBackup, 'backup lock held'); break;
        default: throw new Error('unknown action');
      }
    } catch (error) {
      throw new Error('step ' + (step + 1) + ' ' + action + ': ' + error.message);
    }
  }
  process.stdout.write(JSON.stringify({ nodeId: manager.nodeId }) + '\\n');
  await manager.close();
})().catch((error) => {
  process.stderr.write(error.message + '\\n');
  process.exit(9);
});
`;

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

const directories: string[] = [];

function scratch(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'node-manager-'));
  directories.push(directory);
  return directory;
}

afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function runActions(directory: string, logFile: string, work: readonly Action[]): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['-e', RUNNER, NODE_MANAGER_JS, directory, logFile, String(POLL_MS), ...work],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // A list that cannot finish (a lock never free) is killed, and its outcome says so.
    const timer = setTimeout(() => child.kill('SIGKILL'), SCENARIO_TIMEOUT_MS - 5_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Most holders of `lock` at one moment, replaying the log. */
function mostHolders(log: string, lock: 'live' | 'backup'): number {
  let holders = 0;
  let most = 0;
  for (const line of log.split('\n')) {
    const [event] = line.split(' ');
    if (event === `${lock}+`) most = Math.max(most, ++holders);
    if (event === `${lock}-`) holders--;
  }
  return most;
}

async function performWork(...lists: Action[][]): Promise<void> {
  const directory = scratch();
  const logFile = path.join(directory, 'locks.log');
  const outcomes = await Promise.all(lists.map((work) => runActions(directory, logFile, work)));
  const failures = outcomes
    .map((outcome, index) => ({ ...outcome, index }))
    .filter((outcome) => outcome.code !== 0)
    .map(({ index, code, stderr }) => `list ${index + 1} exited with ${code}: ${stderr.trim()}`);
  expect(failures).toEqual([]);
  const log = readFileSync(logFile, 'utf8');
  expect(mostHolders(log, 'live')).toBeLessThanOrEqual(1);
  expect(mostHolders(log, 'backup')).toBeLessThanOrEqual(1);
  const ids = new Set(outcomes.map((outcome) => (JSON.parse(outcome.stdout) as { nodeId: string }).nodeId));
  expect(ids.size).toBe(1);
  expect([...ids][0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
}

const LIVE_CRASHES: Action[] = [
  'START_LIVE',
  'HAS_LIVE',
  'DOESNT_HAVE_BACKUP',
  'CRASH_LIVE',
  'DOESNT_HAVE_BACKUP',
  'DOESNT_HAVE_LIVE',
];
const BACKUP_TAKES_OVER_THEN_PAUSES: Action[] = [
  'DOESNT_HAVE_BACKUP',
  'DOESNT_HAVE_LIVE',
  'START_BACKUP',
  'HAS_BACKUP',
  'AWAIT_LIVE',
  'RELEASE_BACKUP',
  'HAS_LIVE',
  'PAUSE_LIVE',
  'DOESNT_HAVE_BACKUP',
  'DOESNT_HAVE_LIVE',
];
const BACKUP_TAKES_OVER_THEN_CRASHES: Action[] = [
  'DOESNT_HAVE_BACKUP',
  'DOESNT_HAVE_LIVE',
  'START_BACKUP',
  'HAS_BACKUP',
  'AWAIT_LIVE',
  'RELEASE_BACKUP',
  'HAS_LIVE',
  'CRASH_LIVE',
  'DOESNT_HAVE_BACKUP',
  'DOESNT_HAVE_LIVE',
];
const BACKUP_PAUSES_AND_RESTARTS_LIVE: Action[] = [
  'DOESNT_HAVE_BACKUP',
  'DOESNT_HAVE_LIVE',
  'START_BACKUP',
  'HAS_BACKUP',
  'AWAIT_LIVE',
  'RELEASE_BACKUP',
  'HAS_LIVE',
  'PAUSE_LIVE',
  'START_LIVE',
  'HAS_LIVE',
  'DOESNT_HAVE_BACKUP',
  'CRASH_LIVE',
  'DOESNT_HAVE_BACKUP',
  'DOESNT_HAVE_LIVE',
];
const BACKUP_ONLY: Action[] = [
  'DOESNT_HAVE_BACKUP',
  'DOESNT_HAVE_LIVE',
  'START_BACKUP',
  'HAS_BACKUP',
  'STOP_BACKUP',
  'DOESNT_HAVE_BACKUP',
  'DOESNT_HAVE_LIVE',
];
const LIVE_RETURNS: Action[] = [
  ...LIVE_CRASHES,
  'START_LIVE',
  'HAS_LIVE',
  'DOESNT_HAVE_BACKUP',
  'CRASH_LIVE',
];
const BACKUP_SERVES_AGAIN_AFTER_FAILBACK: Action[] = [
  ...BACKUP_TAKES_OVER_THEN_CRASHES,
  'AWAIT_LIVE',
  'HAS_LIVE',
  'PAUSE_LIVE',
];
const BACKUP_SERVES_TWICE: Action[] = [
  ...BACKUP_TAKES_OVER_THEN_CRASHES,
  'AWAIT_LIVE',
  'RELEASE_BACKUP',
  'HAS_LIVE',
  'CRASH_LIVE',
];

describe("NodeManager, as HornetQ's NodeManagerTest, one process per action list over the real locks", () => {
  it.each<[string, Action[][]]>([
    ['testLive', [[...LIVE_CRASHES, ...LIVE_CRASHES]]],
    ['testSimpleLiveAndBackup', [LIVE_CRASHES, BACKUP_TAKES_OVER_THEN_PAUSES]],
    ['testSimpleBackupAndLive', [BACKUP_TAKES_OVER_THEN_PAUSES, LIVE_CRASHES]],
    [
      'testSimpleLiveAnd2Backups',
      [LIVE_CRASHES, BACKUP_TAKES_OVER_THEN_CRASHES, BACKUP_TAKES_OVER_THEN_CRASHES],
    ],
    [
      'testSimple2BackupsAndLive',
      [BACKUP_TAKES_OVER_THEN_CRASHES, BACKUP_TAKES_OVER_THEN_CRASHES, LIVE_CRASHES],
    ],
    [
      'testSimpleLiveAnd2BackupsPaused',
      [LIVE_CRASHES, BACKUP_PAUSES_AND_RESTARTS_LIVE, BACKUP_PAUSES_AND_RESTARTS_LIVE],
    ],
    [
      'testSimple2BackupsPausedAndLive',
      [BACKUP_PAUSES_AND_RESTARTS_LIVE, BACKUP_PAUSES_AND_RESTARTS_LIVE, LIVE_CRASHES],
    ],
    ['testBackupsOnly', Array.from({ length: 11 }, () => BACKUP_ONLY)],
    ['testLiveAndBackupLiveForcesFailback', [LIVE_RETURNS, BACKUP_SERVES_AGAIN_AFTER_FAILBACK]],
    ['testLiveAnd2BackupsLiveForcesFailback', [LIVE_RETURNS, BACKUP_SERVES_TWICE, BACKUP_SERVES_TWICE]],
  ])('%s', async (_name, lists) => performWork(...lists), SCENARIO_TIMEOUT_MS);
});

describe('NodeManager in one process', () => {
  const open: NodeManager[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((manager) => manager.close()));
  });
  async function manager(directory: string): Promise<NodeManager> {
    const made = await NodeManager.open(directory, { createDirectory: true, pollMs: POLL_MS });
    open.push(made);
    return made;
  }

  it('keeps the node id across opens (RealNodeManagerTest.testId), and a backup has the id before any live started', async () => {
    const directory = scratch();
    const backup = await manager(directory);
    await backup.startBackup();
    const id = backup.nodeId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await backup.readState()).toBe('0');
    const live = await manager(directory);
    expect(await live.tryStartLive()).toBe(true);
    expect(live.nodeId).toBe(id);
    expect((await manager(directory)).nodeId).toBe(id);
  });

  it('keeps a backup waiting while the live is paused or failing back, and lets it take over from a live that crashed', async () => {
    const directory = scratch();
    const live = await manager(directory);
    await live.startLive();
    const backup = await manager(directory);
    await backup.startBackup();
    let tookOver = false;
    const waiting = backup.awaitLiveNode().then(() => (tookOver = true));
    await live.pauseLiveServer();
    await new Promise((resolve) => setTimeout(resolve, 20 * POLL_MS));
    expect(tookOver).toBe(false);
    expect(await backup.readState()).toBe('P');
    await live.startLive();
    await live.crashLiveServer();
    await waiting;
    expect(backup.holdsLive).toBe(true);
    expect(await backup.readHolder()).toMatchObject({ pid: process.pid, role: 'backup' });
  });

  it('stops waiting when its signal is aborted, with the reason', async () => {
    const directory = scratch();
    const backup = await manager(directory);
    const controller = new AbortController();
    const waiting = backup.awaitLiveNode(controller.signal);
    controller.abort(new Error('the broker is stopping'));
    await expect(waiting).rejects.toThrow('the broker is stopping');
    expect(backup.holdsLive).toBe(false);
  });

  it('says when the live lock no longer keeps others out: server.lock replaced or removed', async () => {
    const directory = scratch();
    const live = await manager(directory);
    await live.startLive();
    expect(await live.liveLockProblem()).toBeNull();
    const file = path.join(directory, 'server.lock');
    const copy = `${file}.copy`;
    copyFileSync(file, copy);
    renameSync(copy, file);
    expect(await live.liveLockProblem()).toMatch(/is no longer the file this broker locked/);
    // The replacement is free to lock: exactly the split brain the check is there to stop.
    const other = await manager(directory);
    expect(await other.tryStartLive()).toBe(true);
    rmSync(directory, { recursive: true, force: true });
    expect(await other.liveLockProblem()).toMatch(/was removed/);
  });
});
