import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Broker, DataDirectoryLockedError, EmbeddedJMS, type BrokerConfiguration } from '../../../src';
import { silentLogger } from '../../../src/core/remoting';
import { runProgram, ROOT } from '../../cli/support';
import { CRASH_CONFIG_DIR } from '../../integration/crash/child-broker';

/**
 * One live broker per data directory, within one process: a second Broker or EmbeddedJMS on a
 * directory another holds refuses to start with DataDirectoryLockedError naming the directory and
 * the holder, and starts once the first has stopped; node:cluster workers (which share one port,
 * so no EADDRINUSE ever stops the second) likewise. Across `hornetq server` processes and kill -9:
 * test/cli/commands/data-directory-lock.test.ts.
 */

const directories: string[] = [];
const running: Array<{ stop(): Promise<void> }> = [];

async function dataDirectory(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'hornetq-one-broker-'));
  directories.push(directory);
  return directory;
}

function persistentBroker(dataDirectory: string, extra: Partial<BrokerConfiguration> = {}): Broker {
  const broker = new Broker({
    acceptors: [],
    securityEnabled: false,
    persistenceEnabled: true,
    dataDirectory,
    journalFileSize: 128 * 1024,
    ...extra,
  });
  running.push(broker);
  return broker;
}

function stateByte(journalDirectory: string): string {
  return readFileSync(path.join(journalDirectory, 'server.lock')).toString('latin1', 0, 1);
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
  await Promise.all(
    directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })),
  );
});

describe('one live broker per data directory, in one process', () => {
  it('refuses a second Broker on the directory in one line naming it and the holder, and lets it start after the first stops', async () => {
    const directory = await dataDirectory();
    const journal = path.join(directory, 'data', 'journal');
    const first = persistentBroker(directory);
    await first.start();
    expect(stateByte(journal)).toBe('L');

    const second = persistentBroker(directory);
    const refusal = await second.start().then(
      () => null,
      (error: unknown) => error,
    );
    expect(DataDirectoryLockedError.is(refusal)).toBe(true);
    const error = refusal as DataDirectoryLockedError;
    expect(error.directory).toBe(journal);
    expect(error.holder).toMatchObject({ pid: process.pid });
    expect(error.message).not.toContain('\n');
    expect(error.message).toContain(
      `the data directory ${journal} is in use by another broker (pid ${process.pid} on `,
    );
    expect(second.status).toBe('stopped');
    // The refused broker wrote nothing: the holder still holds and still says LIVE.
    expect(stateByte(journal)).toBe('L');
    expect(first.started).toBe(true);

    const nodeId = first.nodeId;
    await first.stop();
    expect(stateByte(journal)).toBe('P');
    await second.start();
    expect(second.nodeId).toBe(nodeId);
  });

  it('refuses a second EmbeddedJMS on the directory', async () => {
    const directory = await dataDirectory();
    const first = new EmbeddedJMS({
      configDir: CRASH_CONFIG_DIR,
      dataDirectory: directory,
      logger: silentLogger,
    });
    running.push(first);
    await first.start();
    const second = new EmbeddedJMS({
      configDir: CRASH_CONFIG_DIR,
      dataDirectory: directory,
      logger: silentLogger,
    });
    running.push(second);
    const refusal = await second.start().then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toMatchObject({ code: 'ERR_DATA_DIRECTORY_LOCKED' });
    expect(second.getBroker()).toBeNull();
    expect(first.getBroker()?.started).toBe(true);
  });

  it('takes no lock when persistence is disabled (nothing on disk to share)', async () => {
    const directory = await dataDirectory();
    const brokers = [0, 1].map(() => persistentBroker(directory, { persistenceEnabled: false }));
    for (const broker of brokers) await broker.start();
    expect(brokers.every((broker) => broker.started)).toBe(true);
    expect(await readdir(directory)).toEqual([]);
  });

  it("tells a persistent broker's node id only once it has read server.lock", async () => {
    const broker = persistentBroker(await dataDirectory());
    expect(() => broker.nodeId).toThrow(/read from server\.lock/);
    await broker.start();
    expect(broker.nodeId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

/**
 * Two node:cluster workers, each an EmbeddedJMS on one data directory (jest's globalSetup has
 * compiled dist/). Each says whether it started; the primary prints both answers and stops them.
 */
const CLUSTER_SCRIPT = `
const cluster = require('node:cluster');
const [dist, configDir, dataDirectory] = process.argv.slice(1);
if (cluster.isPrimary) {
  const answers = [];
  for (let i = 0; i < 2; i++) cluster.fork();
  cluster.on('message', (worker, answer) => {
    answers.push(answer);
    if (answers.length < 2) return;
    process.stdout.write(JSON.stringify(answers) + '\\n');
    for (const each of Object.values(cluster.workers)) each.send('stop');
  });
} else {
  const { EmbeddedJMS } = require(dist);
  const server = new EmbeddedJMS({ configDir, dataDirectory });
  server.start().then(
    () => {
      process.send({ started: true, pid: process.pid });
      process.once('message', () => server.stop().then(() => process.exit(0)));
    },
    (error) => {
      process.send({ started: false, pid: process.pid, code: error.code, message: error.message });
      process.once('message', () => process.exit(0));
    },
  );
}
`;

interface WorkerAnswer {
  started: boolean;
  pid: number;
  code?: string;
  message?: string;
}

describe('one live broker per data directory, under node:cluster', () => {
  it('starts exactly one of two workers on one directory; the other names the directory and the one that holds it', async () => {
    const directory = await dataDirectory();
    const result = await runProgram(process.execPath, [
      '-e',
      CLUSTER_SCRIPT,
      path.join(ROOT, 'dist', 'index.js'),
      CRASH_CONFIG_DIR,
      directory,
    ]);
    expect(result).toMatchObject({ code: 0 });
    const answers = JSON.parse(result.stdout.trim()) as WorkerAnswer[];
    const started = answers.filter((answer) => answer.started);
    const refused = answers.filter((answer) => !answer.started);
    expect(started).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ code: 'ERR_DATA_DIRECTORY_LOCKED' });
    expect(refused[0]?.message).toContain(path.join(directory, 'data', 'journal'));
    expect(refused[0]?.message).toContain(`pid ${started[0]?.pid} on `);
  });
});
