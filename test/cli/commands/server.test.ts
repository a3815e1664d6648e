import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PacketType } from '../../../src/core/protocol';
import { RAW_SESSION_CHANNEL, RawClient } from '../../support/raw-client';
import {
  DEMO_LOGIN,
  freePort,
  isListening,
  lines,
  pollUntil,
  runCli,
  spawnCli,
  startServer,
  statRow,
  tempDir,
  useCli,
  writeConfig,
} from '../support';

describe('hornetq server', () => {
  useCli();

  test('says where it listens, logs JSON lines when stdout is not a terminal, and stops on SIGTERM with exit 0', async () => {
    const { server, port } = await startServer();
    expect(await isListening(port)).toBe(true);

    const result = await server.stop('SIGTERM');
    expect(result).toMatchObject({ code: 0, signal: null, stderr: '' });
    const logged = lines(result.stdout).map((line) => JSON.parse(line) as { msg: string; level: number });
    expect(logged.map((entry) => entry.msg)).toEqual(
      expect.arrayContaining([
        `listening on tcp://127.0.0.1:${port}`,
        'SIGTERM received: stopping',
        'broker stopped',
      ]),
    );
    // The port is released: nothing answers there, and it can be bound again.
    expect(await isListening(port)).toBe(false);
    const again = net.createServer();
    await new Promise<void>((resolve, reject) => {
      again.once('error', reject);
      again.listen(port, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => again.close(() => resolve()));
  });

  test('stops on SIGINT (Ctrl-C) with exit 0, closing the connections of its clients', async () => {
    const { server, port } = await startServer();
    const consumer = spawnCli([
      'consumer',
      '--url',
      `tcp://127.0.0.1:${port}`,
      '--count',
      '1',
      '--timeout',
      '20000',
    ]);
    // The consumer is connected once the broker counts it on the queue.
    await pollUntil(
      async () => (await runCli(['queue', 'stat', '--host', '127.0.0.1', '--port', String(port)])).stdout,
      (stat) => statRow(stat, 'jms.queue.ExampleQueue').CONSUMERS === 1,
    );

    expect(await server.stop('SIGINT')).toMatchObject({ code: 0, signal: null });
    expect(await isListening(port)).toBe(false);
    await consumer.stop('SIGKILL');
  });

  test('--data-dir: persistent messages survive SIGKILL; the restarted broker logs where its journal is and what it loaded', async () => {
    const port = await freePort();
    const configDir = await writeConfig(port);
    const dataDir = await tempDir();
    const start = async (): Promise<ReturnType<typeof spawnCli>> => {
      const server = spawnCli(['server', '--config', configDir, '--data-dir', dataDir]);
      await server.waitForOutput(new RegExp(`listening on tcp://127\\.0\\.0\\.1:${port}`));
      return server;
    };
    const first = await start();
    const url = `tcp://127.0.0.1:${port}`;
    expect((await runCli(['producer', '--url', url, '--count', '100'])).code).toBe(0);
    await first.stop('SIGKILL');

    const second = await start();
    const loaded = await second.waitForOutput(/message store at/);
    expect(loaded).toContain(path.join(dataDir, 'data', 'journal'));
    expect(loaded).toMatch(/loaded \d+ durable queues and 100 messages/);
    const stat = (await runCli(['queue', 'stat', '--host', '127.0.0.1', '--port', String(port)])).stdout;
    expect(statRow(stat, 'jms.queue.ExampleQueue').MESSAGES).toBe(100);
    expect(await fs.readdir(path.join(dataDir, 'data'))).toEqual(
      expect.arrayContaining(['bindings', 'journal', 'largemessages']),
    );
    expect(await second.stop('SIGTERM')).toMatchObject({ code: 0 });
  });

  test('a port already in use is one line on stderr and exit code 1', async () => {
    const port = await freePort();
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const result = await runCli([
        'server',
        '--config',
        await writeConfig(port),
        '--data-dir',
        await tempDir(),
      ]);
      expect(result.code).toBe(1);
      expect(lines(result.stderr)).toEqual([
        `error: cannot listen on 127.0.0.1:${port}: the port is already in use`,
      ]);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  test('a bad configuration file is one line naming the file and line, and exit code 1', async () => {
    const configDir = await writeConfig(await freePort());
    const file = path.join(configDir, 'hornetq-jms.xml');
    const xml = await fs.readFile(file, 'utf8');
    await fs.writeFile(
      file,
      xml.replace('<retry-interval>1000</retry-interval>', '<retry-interval>soon</retry-interval>'),
    );
    const line = xml.split('\n').findIndex((text) => text.includes('<retry-interval>')) + 1;

    const result = await runCli(['server', '--config', configDir, '--data-dir', configDir]);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      `error: ${file}:${line}: <retry-interval> requires a valid Long value, but 'soon' cannot be parsed as a Long`,
    ]);
  });

  test('passes <name-only-reattach-enabled>false</…> to its broker: a plain session is not reattached by its name, and the log says why', async () => {
    const port = await freePort();
    const configDir = await writeConfig(port);
    const file = path.join(configDir, 'hornetq-configuration.xml');
    const xml = await fs.readFile(file, 'utf8');
    const off = '<name-only-reattach-enabled>false</name-only-reattach-enabled>';
    const on = '<name-only-reattach-enabled>true</name-only-reattach-enabled>';
    expect(xml).toContain(on);
    await fs.writeFile(file, xml.replace(on, off));
    const server = spawnCli(['server', '--config', configDir, '--data-dir', configDir]);
    await server.waitForOutput(new RegExp(`listening on tcp://127\\.0\\.0\\.1:${port}`));

    const owner = await RawClient.connect(port);
    const reattacher = await RawClient.connect(port);
    try {
      await owner.createSession(RAW_SESSION_CHANNEL, {
        name: 'java-session',
        windowSize: 64 * 1024,
        // The shipped config/'s demo user (security is on there).
        username: DEMO_LOGIN.HORNETQ_USER,
        password: DEMO_LOGIN.HORNETQ_PASSWORD,
      });
      await owner.close();
      // The broker keeps the detached session until the TTL; it answers "not reattached" all the same.
      const answer = await reattacher.request(1, {
        type: PacketType.REATTACH_SESSION,
        name: 'java-session',
        lastConfirmedCommandId: -1,
        extension: null,
      });
      expect(answer).toEqual({
        type: PacketType.REATTACH_SESSION_RESP,
        lastConfirmedCommandId: -1,
        reattached: false,
      });
      await server.waitForOutput(
        /reattach of session java-session refused: .*name-only-reattach-enabled is false/,
      );
    } finally {
      await Promise.all([owner.close(), reattacher.close()]);
    }
    expect(await server.stop('SIGTERM')).toMatchObject({ code: 0 });
  });

  test('a configuration folder that does not exist is one line and exit code 1', async () => {
    const result = await runCli(['server', '--config', '/nonexistent/hornetq-config']);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      'error: configuration folder /nonexistent/hornetq-config does not exist',
    ]);
  });
});
