import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ConsoleClient } from '../../support/console-client';
import { httpRequest } from '../../support/http-request';
import { listen } from '../../support/listen';
import { DEMO_LOGIN, freePort, isListening, runCli, spawnCli, useCli, writeConfig } from '../support';

/** `hornetq server --console-port`: the management console beside the broker the command runs. */
describe('hornetq server --console-port', () => {
  useCli();

  test('port 0: the address is printed, the shipped demo user logs in and sees the queues, SIGTERM closes it', async () => {
    const port = await freePort();
    const configDir = await writeConfig(port);
    const server = spawnCli([
      'server',
      '--config',
      configDir,
      '--data-dir',
      configDir,
      '--console-port',
      '0',
    ]);
    const line = await server.waitForOutput(/console on http:\/\/127\.0\.0\.1:\d+\//);
    const consolePort = Number(/http:\/\/127\.0\.0\.1:(\d+)\//.exec(line)?.[1]);
    await server.waitForOutput(new RegExp(`listening on tcp://127\\.0\\.0\\.1:${port}`));
    expect((await runCli(['producer', '--url', `tcp://127.0.0.1:${port}`, '--count', '2'])).code).toBe(0);

    const page = await httpRequest(`http://127.0.0.1:${consolePort}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>HornetQ console</title>');
    const client = new ConsoleClient(`http://127.0.0.1:${consolePort}`);
    expect((await client.login(DEMO_LOGIN.HORNETQ_USER, DEMO_LOGIN.HORNETQ_PASSWORD)).json).toMatchObject({
      view: true,
      manage: true,
    });
    const queues = await client.get('queues?name=ExampleQueue');
    expect(queues.json).toMatchObject({ rows: [{ name: 'jms.queue.ExampleQueue', messageCount: 2 }] });

    expect(await server.stop('SIGTERM')).toMatchObject({ code: 0, signal: null });
    expect(await isListening(consolePort)).toBe(false);
  });

  test('<console-port> in hornetq-configuration.xml serves it without the option', async () => {
    const port = await freePort();
    const configDir = await writeConfig(port);
    const file = path.join(configDir, 'hornetq-configuration.xml');
    const xml = await fs.readFile(file, 'utf8');
    await fs.writeFile(
      file,
      xml.replace('</configuration>', '   <console-port>0</console-port>\n</configuration>'),
    );
    const server = spawnCli(['server', '--config', configDir, '--data-dir', configDir]);
    const line = await server.waitForOutput(/console on http:\/\/127\.0\.0\.1:\d+\//);
    const consolePort = Number(/http:\/\/127\.0\.0\.1:(\d+)\//.exec(line)?.[1]);
    expect((await httpRequest(`http://127.0.0.1:${consolePort}/`)).status).toBe(200);
    expect(await server.stop('SIGTERM')).toMatchObject({ code: 0, signal: null });
  });

  test('--console-host without --console-port is refused in one line', async () => {
    const configDir = await writeConfig(await freePort());
    const result = await runCli([
      'server',
      '--config',
      configDir,
      '--data-dir',
      configDir,
      '--console-host',
      '::1',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--console-host needs --console-port/);
  });

  test('a console port in use is refused in one line, and no broker is left running', async () => {
    const port = await freePort();
    const configDir = await writeConfig(port);
    const taken = await listen(net.createServer());
    try {
      const result = await runCli([
        'server',
        '--config',
        configDir,
        '--data-dir',
        configDir,
        '--console-port',
        String(taken.port),
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `cannot serve the console on 127.0.0.1:${taken.port}: the port is already in use`,
      );
      expect(await isListening(port)).toBe(false);
    } finally {
      await taken.close();
    }
  });
});
