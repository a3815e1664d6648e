import { promises as fs } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { LinkProxy } from '../../../src/cli/demo-link-proxy';
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
} from '../support';
import { listen } from '../../support/listen';

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
      expect(result.code).toBe(0);
      // The cut is told as it happens, one line per event.
      expect(lines(result.stderr)).toEqual([
        expect.stringMatching(/^failover: FAILURE_DETECTED \(/),
        'failover: FAILOVER_COMPLETED (sessions reattached)',
      ]);
      expect(result.stdout).toMatch(/^received 2 messages in .* across 1 failover \(0 redelivered\)$/m);
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
      'error: --url: connection URL localhost:5445: no scheme: write tcp://localhost:5445 or tls://localhost:5445 (at position 0)',
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

  test('an HTTP server is named as not a HornetQ broker, in one line', async () => {
    const { port, close } = await listen(http.createServer((_request, response) => response.end('hello')));
    try {
      const result = await runCli(['producer', '--url', `tcp://127.0.0.1:${port}`]);
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(lines(result.stderr)).toEqual([
        `error: cannot connect to tcp://127.0.0.1:${port}: the peer at 127.0.0.1:${port} is not a HornetQ broker (it sent 'HTTP')`,
      ]);
    } finally {
      await close();
    }
  });

  test('a port that accepts and never answers: --connect-timeout bounds the wait and the line says what timed out', async () => {
    const { port, close } = await listen(net.createServer());
    try {
      const started = Date.now();
      const result = await runCli([
        'queue',
        'stat',
        '--url',
        `tcp://127.0.0.1:${port}`,
        '--connect-timeout',
        '500',
      ]);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(lines(result.stderr)).toEqual([
        `error: cannot connect to tcp://127.0.0.1:${port}: the broker's first answer did not come within 500 ms: something accepted the connection and said nothing (is it a HornetQ broker? give --connect-timeout MS to wait longer)`,
      ]);
      const bad = await runCli(['queue', 'stat', '--connect-timeout', 'soon']);
      expect(bad).toMatchObject({ code: 1, stdout: '' });
      expect(lines(bad.stderr)).toEqual([
        "error: option '--connect-timeout <ms>' argument 'soon' is invalid. It must be an integer from 1 to 2147483647.",
      ]);
    } finally {
      await close();
    }
  });
});
