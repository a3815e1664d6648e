import { promises as fs } from 'node:fs';
import path from 'node:path';
import { LinkProxy } from '../../src/cli/demo-link-proxy';
import {
  freePort,
  lines,
  pollUntil,
  runCli,
  spawnCli,
  startServer,
  statRow,
  useCli,
  writeConfig,
} from './support';

describe('connecting: --url, --host and --port with a registry factory', () => {
  useCli();

  test("--url keeps /ConnectionFactory's settings: a consumer whose link is cut reattaches and gets its messages", async () => {
    const { port } = await startServer();
    const proxy = await LinkProxy.start('127.0.0.1', port);
    try {
      const direct = `tcp://127.0.0.1:${port}`;
      const consumer = spawnCli([
        'consumer',
        '--url',
        `tcp://127.0.0.1:${proxy.port}`,
        '--count',
        '2',
        '--timeout',
        '20000',
      ]);
      await pollUntil(
        async () => (await runCli(['queue', 'stat', '--url', direct])).stdout,
        (stat) => statRow(stat, 'jms.queue.ExampleQueue').CONSUMERS === 1,
      );
      expect(proxy.cut()).toBe(1);
      expect((await runCli(['producer', '--url', direct, '--count', '2'])).code).toBe(0);
      const result = await consumer.result;
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^received 2 messages/m);
    } finally {
      await proxy.close();
    }
  });

  test("--host alone keeps the factory's port; --url with an in-vm factory connects over TCP", async () => {
    const { port, configDir } = await startServer();
    const hostOnly = await runCli(['queue', 'stat', '--config', configDir, '--host', '127.0.0.1']);
    expect(hostOnly).toMatchObject({ code: 0, stderr: '' });
    const inVm = await runCli([
      'queue',
      'stat',
      '--url',
      `tcp://127.0.0.1:${port}`,
      '--factory',
      '/InVMConnectionFactory',
    ]);
    expect(inVm).toMatchObject({ code: 0, stderr: '' });
  });

  test('an explicit --factory the registry does not bind is refused in one line, nothing sent', async () => {
    const { port, configDir } = await startServer();
    const url = `tcp://127.0.0.1:${port}`;
    const result = await runCli([
      'producer',
      '--url',
      url,
      '--config',
      configDir,
      '--factory',
      '/NoSuchFactory',
    ]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(lines(result.stderr)).toEqual([
      `error: unknown connection factory '/NoSuchFactory' in ${path.join(configDir, 'hornetq-jms.xml')}: it binds /ConnectionFactory, /InVMConnectionFactory`,
    ]);
    const stat = (await runCli(['queue', 'stat', '--url', url])).stdout;
    expect(statRow(stat, 'jms.queue.ExampleQueue').MESSAGES).toBe(0);
  });

  test("without /ConnectionFactory in the registry, --url says it uses HornetQ's defaults", async () => {
    const { port } = await startServer();
    const configDir = await writeConfig(port);
    const file = path.join(configDir, 'hornetq-jms.xml');
    const xml = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, xml.replace('<entry name="/ConnectionFactory"/>', '<entry name="/Other"/>'));
    const result = await runCli(['queue', 'stat', '--url', `tcp://127.0.0.1:${port}`, '--config', configDir]);
    expect(result.code).toBe(0);
    expect(lines(result.stderr)).toEqual([
      `warning: unknown connection factory '/ConnectionFactory' in ${file}: it binds /InVMConnectionFactory, /Other; connecting with HornetQ's defaults (no reattachment)`,
    ]);
  });

  test('--url without a scheme suggests tcp://', async () => {
    const result = await runCli(['producer', '--url', 'localhost:5445']);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(lines(result.stderr)).toEqual([
      "error: option '--url <url>' argument 'localhost:5445' is invalid. It has no scheme: did you mean tcp://localhost:5445?",
    ]);
  });

  test('a free port is still "connection refused"', async () => {
    const port = await freePort();
    const result = await runCli(['queue', 'stat', '--host', '127.0.0.1', '--port', String(port)]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(lines(result.stderr)).toEqual([
      `error: cannot connect to tcp://127.0.0.1:${port}: connection refused: no broker is listening there (start one with \`hornetq server\`)`,
    ]);
  });
});
