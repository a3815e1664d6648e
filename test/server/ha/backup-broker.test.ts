import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Broker, DataDirectoryLockedError, type BrokerConfiguration, type BrokerState } from '../../../src';
import { parseServerConfiguration } from '../../../src/jndi/config/server-config-parser';
import { brokerHealth } from '../../../src/server/metrics/broker-health';

/**
 * The backup broker's life in one process (the kill -9 cases are in shared-store-failover.test.ts):
 * its settings, waiting with acceptors closed, the pair's node id, a clean hand-over, stop while
 * waiting, and a live that loses its directory stopping itself.
 */

const directories: string[] = [];
const brokers: Broker[] = [];

async function dataDirectory(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'hornetq-backup-broker-'));
  directories.push(directory);
  return directory;
}

function broker(dataDirectory: string, extra: Partial<BrokerConfiguration> = {}): Broker {
  const made = new Broker({
    acceptors: [{ name: 'netty', type: 'tcp', host: '127.0.0.1', port: 0 }],
    securityEnabled: false,
    dataDirectory,
    journalFileSize: 128 * 1024,
    haLockPollPeriod: 20,
    liveLockCheckPeriod: 20,
    ...extra,
  });
  brokers.push(made);
  return made;
}

function states(of: Broker): BrokerState[] {
  const seen: BrokerState[] = [];
  of.onStateChange((state) => seen.push(state));
  return seen;
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

afterEach(async () => {
  await Promise.all(brokers.splice(0).map((each) => each.stop()));
  await Promise.all(
    directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })),
  );
});

describe('the HA settings', () => {
  it('are read from hornetq-configuration.xml as HornetQ 2.4 spells them', () => {
    const config = parseServerConfiguration(
      `<configuration xmlns="urn:hornetq">
         <shared-store>true</shared-store>
         <backup>true</backup>
         <allow-failback>false</allow-failback>
         <failback-delay>750</failback-delay>
         <failover-on-shutdown>true</failover-on-shutdown>
       </configuration>`,
      'hornetq-configuration.xml',
    );
    expect(config.ha).toEqual({
      sharedStore: true,
      backup: true,
      allowFailback: false,
      failbackDelay: 750,
      failoverOnShutdown: true,
    });
    expect(config.warnings).toEqual([]);
  });

  it('refuse a backup that would replicate, or that has no journal to take over', async () => {
    const directory = await dataDirectory();
    expect(() => broker(directory, { backup: true, sharedStore: false })).toThrow(
      /backup with shared-store false is a replicating backup, which is not implemented/,
    );
    expect(() => broker(directory, { backup: true, persistenceEnabled: false })).toThrow(
      /a backup needs persistence-enabled and the journals in its data directory/,
    );
    expect(() => broker(directory, { failbackDelay: -1 })).toThrow(
      /failbackDelay \(failback-delay\) must be an integer in 0\.\.2147483647 ms \(actual value: -1\)/,
    );
  });
});

describe('a backup broker', () => {
  it('waits with its acceptors closed and the pair node id, keeps waiting after a clean stop, and serves after a stop that hands over', async () => {
    const directory = await dataDirectory();
    const live = broker(directory);
    await live.start();
    const backup = broker(directory, { backup: true });
    const seen = states(backup);
    await backup.start();
    expect(backup.status).toBe('waiting');
    expect(backup.started).toBe(false);
    expect(backup.acceptorAddresses).toEqual([]);
    expect(() => backup.getPort()).toThrow(/no started TCP acceptor/);
    expect(backup.nodeId).toBe(live.nodeId);
    expect(brokerHealth(backup)).toMatchObject({ httpStatus: 503, body: { state: 'waiting' } });

    await live.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(backup.status).toBe('waiting');

    const handsOver = broker(directory, { failoverOnShutdown: true });
    await handsOver.start();
    expect(handsOver.nodeId).toBe(live.nodeId);
    await handsOver.stop();
    await until(() => backup.started);
    expect(backup.servingAsBackup).toBe(true);
    expect(backup.getPort()).toBeGreaterThan(0);
    expect(backup.nodeId).toBe(live.nodeId);
    expect(seen).toEqual(['starting', 'waiting', 'starting', 'started']);
  });

  it('stops at once while it waits, and lets a live start on the directory meanwhile', async () => {
    const directory = await dataDirectory();
    const backup = broker(directory, { backup: true });
    await backup.start();
    const live = broker(directory);
    await live.start();
    expect(live.started).toBe(true);
    const stopping = Date.now();
    await backup.stop();
    expect(Date.now() - stopping).toBeLessThan(1_000);
    expect(backup.status).toBe('stopped');
    expect(live.started).toBe(true);
  });

  it('is refused like any broker when it is not a backup and a live holds the directory', async () => {
    const directory = await dataDirectory();
    await broker(directory).start();
    const second = broker(directory);
    await expect(second.start()).rejects.toThrow(DataDirectoryLockedError);
    expect(second.status).toBe('stopped');
  });
});

describe('a live that loses its data directory', () => {
  it('stops itself at once and says why when its journal directory is removed', async () => {
    const directory = await dataDirectory();
    const live = broker(directory);
    const failures: Error[] = [];
    live.onFailure((error) => failures.push(error));
    await live.start();
    await rm(path.join(directory, 'data'), { recursive: true, force: true });
    await until(() => failures.length > 0);
    expect(failures[0]?.message).toMatch(/^the data directory lock is lost: .*server\.lock was removed/);
    expect(live.status).toBe('stopped');
    expect(live.failure).toBe(failures[0]);
  });

  it('leaves LIVE in server.lock after the store failed under it, so that a waiting backup takes over', async () => {
    const directory = await dataDirectory();
    const live = broker(directory);
    await live.start();
    const backup = broker(directory, { backup: true });
    await backup.start();
    live.storageFailed(new Error('disk gone'));
    await until(() => backup.started);
    expect(
      readFileSync(path.join(directory, 'data', 'journal', 'server.lock')).toString('latin1', 0, 1),
    ).toBe('L');
    expect(backup.nodeId).toBe(live.nodeId);
  });
});
