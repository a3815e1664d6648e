import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  freePort,
  isListening,
  lines,
  pollUntil,
  ROOT,
  runCli,
  spawnCli,
  statRow,
  tempDir,
  useCli,
  writeConfig,
} from '../support';

/** The shipped config/ as it is, placeholders and all, in a temporary folder. */
async function shippedConfig(): Promise<string> {
  const dir = await tempDir();
  for (const name of ['hornetq-configuration.xml', 'hornetq-jms.xml', 'hornetq-users.xml']) {
    await fs.copyFile(path.join(ROOT, 'config', name), path.join(dir, name));
  }
  return dir;
}

describe('hornetq server options', () => {
  useCli();

  test('--host and --port move the acceptor written with the netty placeholders', async () => {
    const port = await freePort();
    const configDir = await shippedConfig();
    const server = spawnCli([
      'server',
      '--config',
      configDir,
      '--data-dir',
      configDir,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ]);
    await server.waitForOutput(new RegExp(`listening on tcp://127\\.0\\.0\\.1:${port}"`));
    const stat = await runCli(['queue', 'stat', '--url', `tcp://127.0.0.1:${port}`]);
    expect(statRow(stat.stdout, 'jms.queue.ExampleQueue').MESSAGES).toBe(0);
    expect(await server.stop('SIGTERM')).toMatchObject({ code: 0 });
  });

  test('with several acceptors, --port moves only those written with ${hornetq.remoting.netty.port}', async () => {
    const [port, other] = [await freePort(), await freePort()];
    const configDir = await shippedConfig();
    const file = path.join(configDir, 'hornetq-configuration.xml');
    const xml = await fs.readFile(file, 'utf8');
    const second = [
      '<acceptor name="netty-batch">',
      '<factory-class>org.hornetq.core.remoting.impl.netty.NettyAcceptorFactory</factory-class>',
      '<param key="host" value="${hornetq.remoting.netty.host:localhost}"/>',
      `<param key="port" value="\${hornetq.remoting.netty.batch.port:${other}}"/>`,
      '</acceptor>',
    ].join('');
    await fs.writeFile(file, xml.replace('<acceptors>', `<acceptors>${second}`));
    const server = spawnCli([
      'server',
      '--config',
      configDir,
      '--data-dir',
      configDir,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ]);
    await server.waitForOutput(new RegExp(`listening on tcp://127\\.0\\.0\\.1:${port}"`));
    await server.waitForOutput(new RegExp(`listening on tcp://127\\.0\\.0\\.1:${other}"`));
    expect(await server.stop('SIGTERM')).toMatchObject({ code: 0 });
  });

  test('--port where no acceptor takes the placeholder is refused in one line, naming what to write', async () => {
    const configDir = await writeConfig(await freePort());
    const result = await runCli(['server', '--config', configDir, '--data-dir', configDir, '--port', '6001']);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    const file = path.join(configDir, 'hornetq-configuration.xml');
    expect(lines(result.stderr)).toEqual([
      `error: --port 6001 would change nothing: no acceptor in ${file} takes its port from \${hornetq.remoting.netty.port} (write <param key="port" value="\${hornetq.remoting.netty.port:5445}"/> in the acceptor to move, or edit its address there)`,
    ]);
  });

  test('a bad --port or an empty --host is one line', async () => {
    const configDir = await shippedConfig();
    const badPort = await runCli(['server', '--config', configDir, '--port', '70000']);
    expect(badPort).toMatchObject({ code: 1, stdout: '' });
    expect(lines(badPort.stderr)).toEqual([
      "error: option '--port <port>' argument '70000' is invalid. It must be an integer from 0 to 65535.",
    ]);
    const emptyHost = await runCli(['server', '--config', configDir, '--host', ' ']);
    expect(emptyHost).toMatchObject({ code: 1, stdout: '' });
    expect(lines(emptyHost.stderr)).toEqual(['error: --host must name a host or address (it is empty)']);
  });

  test('--log-level warn logs no info lines; debug logs more; a bad level is one line', async () => {
    const port = await freePort();
    const configDir = await writeConfig(port);
    const quiet = spawnCli(['server', '--config', configDir, '--data-dir', configDir, '--log-level', 'warn']);
    await pollUntil(
      () => isListening(port),
      (listening) => listening,
    );
    const quietResult = await quiet.stop('SIGTERM');
    expect(quietResult).toMatchObject({ code: 0, stdout: '', stderr: '' });

    const chatty = spawnCli([
      'server',
      '--config',
      configDir,
      '--data-dir',
      configDir,
      '--log-level',
      'debug',
    ]);
    await chatty.waitForOutput(/listening on/);
    expect((await runCli(['queue', 'stat', '--url', `tcp://127.0.0.1:${port}`])).code).toBe(0);
    const created = await chatty.waitForOutput(/session .* created/);
    // pino's levels: 20 is debug.
    expect(JSON.parse(created)).toMatchObject({ level: 20 });
    expect(await chatty.stop('SIGTERM')).toMatchObject({ code: 0 });

    const bad = await runCli(['server', '--config', configDir, '--log-level', 'loud']);
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(lines(bad.stderr)).toEqual([
      "error: option '--log-level <level>' argument 'loud' is invalid. Allowed choices are fatal, error, warn, info, debug, trace.",
    ]);
  });

  test('--watch: a queue added to hornetq-jms.xml while it runs is deployed', async () => {
    const port = await freePort();
    const configDir = await writeConfig(port);
    const server = spawnCli(['server', '--config', configDir, '--data-dir', configDir, '--watch']);
    await server.waitForOutput(/listening on/);
    // Each watched file and how: fs.watch on its folder (the journal beside it wakes nothing).
    for (const name of ['hornetq-jms.xml', 'hornetq-configuration.xml', 'hornetq-users.xml'])
      await server.waitForOutput(
        new RegExp(`watching .*${name.replace('.', '\\.')} for changes \\(fs\\.watch on `),
      );
    const file = path.join(configDir, 'hornetq-jms.xml');
    const xml = await fs.readFile(file, 'utf8');
    await fs.writeFile(
      file,
      xml.replace(
        '</configuration>',
        '<queue name="AddedQueue"><entry name="/queue/AddedQueue"/></queue></configuration>',
      ),
    );
    await server.waitForOutput(/deployed .*hornetq-jms\.xml/);
    const url = `tcp://127.0.0.1:${port}`;
    const stat = await pollUntil(
      async () => (await runCli(['queue', 'stat', '--url', url])).stdout,
      (output) => output.includes('jms.queue.AddedQueue'),
    );
    expect(statRow(stat, 'jms.queue.AddedQueue').MESSAGES).toBe(0);
    expect(await server.stop('SIGTERM')).toMatchObject({ code: 0 });
  });

  test('--watch: a user added to hornetq-users.xml while it runs can log in once it is redeployed', async () => {
    const port = await freePort();
    const configDir = await writeConfig(port);
    const server = spawnCli(['server', '--config', configDir, '--data-dir', configDir, '--watch']);
    await server.waitForOutput(/listening on/);
    const asAlice = [
      'queue',
      'stat',
      '--url',
      `tcp://127.0.0.1:${port}`,
      '--user',
      'alice',
      '--password',
      'pw',
    ];
    expect((await runCli(asAlice)).code).toBe(1);

    const added = await runCli([
      'user',
      'add',
      'alice',
      '--role',
      'demo',
      '--password',
      'pw',
      '--config',
      configDir,
    ]);
    expect(added.code).toBe(0);
    await server.waitForOutput(/redeployed .*hornetq-users\.xml: the next logins use its users/);
    expect(await runCli(asAlice)).toMatchObject({ code: 0, stderr: '' });
    expect(await server.stop('SIGTERM')).toMatchObject({ code: 0 });
  });
});
