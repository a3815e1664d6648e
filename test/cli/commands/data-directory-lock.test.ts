import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CRASH_CONFIG_DIR } from '../../integration/crash/child-broker';
import { runCli, spawnCli, tempDir, useCli, type CliProcess } from '../support';

/**
 * `hornetq server --data-dir D` twice, as the review ran it (two processes, so one port each):
 * the second refuses in one line naming the directory and the first's pid, and exits 1. After a
 * kill -9 of the first, a new one starts at once (the OS let go of the lock with the process:
 * nothing stale to wait out) with the same node id.
 */

useCli();

const LISTENING = /listening on tcp:\/\/127\.0\.0\.1:\d+/;
const NODE_ID = /broker node id ([0-9a-f-]{36})/;

function serverArgs(dataDir: string): string[] {
  return ['server', '--config', CRASH_CONFIG_DIR, '--data-dir', dataDir, '--log-level', 'info'];
}

async function startServer(dataDir: string): Promise<{ server: CliProcess; nodeId: string }> {
  const server = spawnCli(serverArgs(dataDir));
  await server.waitForOutput(LISTENING);
  const nodeId = NODE_ID.exec(await server.waitForOutput(NODE_ID))?.[1];
  if (nodeId === undefined) throw new Error('no node id in the log');
  return { server, nodeId };
}

function stateByte(dataDir: string): string {
  return readFileSync(path.join(dataDir, 'data', 'journal', 'server.lock')).toString('latin1', 0, 1);
}

describe('hornetq server on a data directory another one holds', () => {
  it('refuses in one line naming the directory and the holder; after kill -9 of the holder a new one starts at once', async () => {
    const dataDir = await tempDir();
    const first = await startServer(dataDir);

    const second = await runCli(serverArgs(dataDir));
    expect(second.code).toBe(1);
    const journal = path.join(dataDir, 'data', 'journal');
    expect(second.stderr).toMatch(
      new RegExp(
        `^error: the data directory ${journal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by another broker \\(pid ${first.server.pid} on [^\\n]+\\): [^\\n]+\\n$`,
      ),
    );
    expect(second.stdout).not.toMatch(LISTENING);

    await first.server.stop('SIGKILL');
    // The holder died in the middle: server.lock still says LIVE (what a backup reads as a crash).
    expect(stateByte(dataDir)).toBe('L');
    const third = await startServer(dataDir);
    expect(third.nodeId).toBe(first.nodeId);

    expect(await third.server.stop('SIGTERM')).toMatchObject({ code: 0 });
    expect(stateByte(dataDir)).toBe('P');
  });
});
