import { copyFileSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { makeDataDir, removeDir } from '../../integration/crash/child-broker';
import { killPairMembers, PairMember } from './pair-member';
import { deliveryProblems, drain, HA_QUEUE, LARGE, PAGED_QUEUE, Producers } from './pair-traffic';

/**
 * A live and a backup `hornetq server` on one data directory, each its own process: the backup
 * waits with its acceptors closed; kill -9 of the live under durable sends makes it take over
 * with the pair's node id and every confirmed send; a clean stop hands over only with
 * failover-on-shutdown; a live whose server.lock is taken from under it stops at once, before the
 * backup takes over.
 */

const WAITING = /waiting for its live server to go/;
const LISTENING = /^listening on /;
const directories: string[] = [];

async function dataDir(): Promise<string> {
  const directory = await makeDataDir('hornetq-ha-');
  directories.push(directory);
  return directory;
}

function stateByte(directory: string): string {
  return readFileSync(path.join(directory, 'data', 'journal', 'server.lock')).toString('latin1', 0, 1);
}

afterEach(async () => {
  await killPairMembers();
  await Promise.all(directories.splice(0).map(removeDir));
});

/** A live that listens and a backup that waits, on `directory`. */
async function startPair(
  directory: string,
  liveArgs: string[] = [],
): Promise<{ live: PairMember; backup: PairMember }> {
  const live = PairMember.spawn('live', directory, liveArgs);
  await live.listening();
  const backup = PairMember.spawn('backup', directory, ['--backup']);
  await backup.waitFor(WAITING);
  return { live, backup };
}

describe('a shared-store backup', () => {
  it('waits with its acceptors closed, and takes over on kill -9 of the live with the pair node id and every confirmed durable send exactly once', async () => {
    const directory = await dataDir();
    const { live, backup } = await startPair(directory);
    expect(backup.logged(LISTENING)).toBe(false);
    expect(backup.logged(new RegExp(`backup of node ${live.nodeId}`))).toBe(true);

    const producers = new Producers(live.port, 3, 'p');
    await producers.confirmedAtLeast(300);
    const killedAt = await live.kill();
    const sent = await producers.stop();

    const mark = backup.mark;
    await backup.listening({ from: mark });
    const serving = backup.lines.find((line, index) => index >= mark && LISTENING.test(line.msg));
    console.log(
      `kill -9 of the live to the backup listening: ${(serving?.time ?? NaN) - killedAt} ms (${sent.confirmed.size} confirmed sends in the journal)`,
    );
    expect(backup.nodeId).toBe(live.nodeId);
    const received = await drain(backup.port);
    expect(deliveryProblems([sent], received)).toEqual([]);
    expect(sent.confirmed.size).toBeGreaterThanOrEqual(300);
  }, 120_000);

  it('takes over page files and large messages on kill -9 of the live: every confirmed send once, each body intact', async () => {
    const directory = await dataDir();
    const { live, backup } = await startPair(directory);
    const paged = new Producers(live.port, 2, 'g', PAGED_QUEUE);
    const large = new Producers(live.port, [LARGE], '', HA_QUEUE);
    // 64 KiB makes the address page: far more than that is confirmed before the kill.
    await paged.confirmedAtLeast(300);
    await large.confirmedAtLeast(5);
    await live.kill();
    // The address paged: the backup has page files to take over, not only the journal.
    const pageFiles = readdirSync(path.join(directory, 'data', 'paging'), { recursive: true }).filter(
      (name) => String(name).endsWith('.page'),
    );
    expect(pageFiles.length).toBeGreaterThan(0);
    const sentPaged = await paged.stop();
    const sentLarge = await large.stop();
    await backup.listening();
    expect(deliveryProblems([sentPaged], await drain(backup.port, PAGED_QUEUE))).toEqual([]);
    expect(deliveryProblems([sentLarge], await drain(backup.port, HA_QUEUE))).toEqual([]);
  }, 120_000);

  it('keeps waiting after a clean stop of the live (PAUSED), and takes over after one with --failover-on-shutdown', async () => {
    const directory = await dataDir();
    const first = await startPair(directory);
    const producers = new Producers(first.live.port, 1, 'a');
    await producers.confirmedAtLeast(50);
    await first.live.stop();
    const sentFirst = await producers.stop();
    expect(stateByte(directory)).toBe('P');
    // Several of the backup's lock tries (200 ms apart) have read PAUSED by now.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(first.backup.logged(LISTENING)).toBe(false);

    const live = PairMember.spawn('live again', directory, ['--failover-on-shutdown']);
    await live.listening();
    expect(live.nodeId).toBe(first.live.nodeId);
    const more = new Producers(live.port, 1, 'b');
    await more.confirmedAtLeast(50);
    const mark = first.backup.mark;
    await live.stop();
    const sentSecond = await more.stop();
    await first.backup.listening({ from: mark });
    expect(first.backup.nodeId).toBe(first.live.nodeId);
    expect(deliveryProblems([sentFirst, sentSecond], await drain(first.backup.port))).toEqual([]);
  }, 120_000);

  it('stops a live whose server.lock is replaced under load, before the backup takes over, and loses no confirmed send', async () => {
    const directory = await dataDir();
    const { live, backup } = await startPair(directory);
    const producers = new Producers(live.port, 3, 's');
    await producers.confirmedAtLeast(200);
    // Someone restores server.lock from a copy: the new file is free for anyone to lock.
    const file = path.join(directory, 'data', 'journal', 'server.lock');
    copyFileSync(file, `${file}.copy`);
    renameSync(`${file}.copy`, file);
    const liveExit = await live.exited;
    const sent = await producers.stop();
    expect(liveExit.code).not.toBe(0);
    const lost = await live.waitFor(
      /the data directory lock is lost: .* is no longer the file this broker locked/,
    );
    const stopped = await live.waitFor(/^broker stopped$/);
    expect(live.logged(/the broker stopped itself: the data directory lock is lost/)).toBe(true);

    const mark = backup.mark;
    const takeover = await backup.waitFor(/is gone: taking over its store/, { from: 0 });
    await backup.listening({ from: mark });
    const loading = await backup.waitFor(/^message store at /);
    // The backup may see the new file free before the live sees it is not its own (the backup
    // polls every 200 ms, the live checks every 100): that is why it waits before it loads. What
    // matters: it loads (and may write) the store only once the live has noticed and closed it.
    expect(loading.time).toBeGreaterThan(lost.time);
    expect(loading.time).toBeGreaterThan(stopped.time);
    expect(loading.time - takeover.time).toBeGreaterThanOrEqual(400); // the takeover delay, 500 ms
    expect(deliveryProblems([sent], await drain(backup.port))).toEqual([]);
  }, 120_000);
});
