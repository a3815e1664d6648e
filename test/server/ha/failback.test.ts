import { makeDataDir, removeDir } from '../../integration/crash/child-broker';
import { killPairMembers, PairMember } from './pair-member';
import { deliveryProblems, drain, Producers } from './pair-traffic';

/**
 * Fail-back, as HornetQ's FailBackAutoTest and FailBackManualTest: after the live was killed and
 * its backup took over, the live comes back. With allow-failback (the fixture's, failback-delay
 * 500 ms) the backup stops serving and waits again, and the live serves what was sent to the
 * backup; then it can fail over again. Without it the returning live waits until the backup is
 * gone.
 */

const WAITING = /waiting for its live server to go/;
const ASKING = /a backup serves .* in this broker's place .*asking for it back in 500 ms/;
const directories: string[] = [];

afterEach(async () => {
  await killPairMembers();
  await Promise.all(directories.splice(0).map(removeDir));
});

/** A pair on a new directory whose live has been killed and whose backup now serves. */
async function failedOver(
  backupArgs: string[],
): Promise<{ directory: string; backup: PairMember; nodeId: string }> {
  const directory = await makeDataDir('hornetq-failback-');
  directories.push(directory);
  const live = PairMember.spawn('live', directory);
  await live.listening();
  const backup = PairMember.spawn('backup', directory, ['--backup', ...backupArgs]);
  await backup.waitFor(WAITING);
  await live.kill();
  await backup.listening();
  return { directory, backup, nodeId: live.nodeId };
}

async function sendSome(port: number, prefix: string, count: number) {
  const producers = new Producers(port, 1, prefix);
  await producers.confirmedAtLeast(count);
  return producers.stop();
}

describe('fail-back', () => {
  it('is automatic with allow-failback: the backup hands back and waits again, the live serves what the backup stored, and can fail over again', async () => {
    const { directory, backup, nodeId } = await failedOver([]);
    const sentToBackup = await sendSome(backup.port, 'b', 100);

    const mark = backup.mark;
    const returning = PairMember.spawn('returning live', directory);
    await returning.waitFor(ASKING);
    await backup.waitFor(/asks for its store \(fail-back\): this backup stops serving and waits again/, {
      from: mark,
    });
    await backup.waitFor(WAITING, { from: mark });
    await returning.listening();
    expect(returning.nodeId).toBe(nodeId);
    expect(backup.running).toBe(true);
    const sentToLive = await sendSome(returning.port, 'l', 100);

    // testAutoFailbackThenFailover: the backup, waiting again, takes over from the next crash.
    const again = backup.mark;
    await returning.kill();
    await backup.listening({ from: again });
    expect(deliveryProblems([sentToBackup, sentToLive], await drain(backup.port))).toEqual([]);
  }, 120_000);

  it('waits for the backup to go without allow-failback (manual): the returning live serves only once the backup is killed', async () => {
    const { directory, backup, nodeId } = await failedOver(['--no-allow-failback']);
    const sentToBackup = await sendSome(backup.port, 'm', 100);

    const returning = PairMember.spawn('returning live', directory);
    await returning.waitFor(ASKING);
    // Well past failback-delay and several lock tries: the backup still serves, the live waits.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(returning.logged(/^listening on /)).toBe(false);
    expect(backup.logged(/fail-back/)).toBe(false);
    const stillServed = await sendSome(backup.port, 'n', 20);

    await backup.kill();
    await returning.listening();
    expect(returning.nodeId).toBe(nodeId);
    expect(deliveryProblems([sentToBackup, stillServed], await drain(returning.port))).toEqual([]);
  }, 120_000);
});
