import { promises as fs } from 'node:fs';
import path from 'node:path';
import { freePort, lines, runCli, spawnCli, tempDir, useCli, writeConfig } from '../support';
import { useTestBrokers } from '../../support/test-broker';

/** --url's query carries the HTTP upgrade params, for a broker behind a web port (WildFly's http-acceptor). */
describe('--url with http-upgrade-enabled', () => {
  useCli();
  const env = useTestBrokers();

  const upgradeBroker = () =>
    env.startBroker({
      acceptors: [{ name: 'web', type: 'tcp', host: '127.0.0.1', port: 0, httpUpgrade: {} }],
    });

  test('the query makes the command upgrade, naming the endpoint; without it the acceptor refuses', async () => {
    const broker = await upgradeBroker();
    // An empty configuration directory: the default factory's settings are HornetQ's defaults.
    const configDir = await tempDir();
    const base = `tcp://127.0.0.1:${broker.getPort()}`;
    const upgraded = await runCli([
      'queue',
      'stat',
      '--url',
      `${base}?http-upgrade-enabled=true&http-upgrade-endpoint=web`,
      '--config',
      configDir,
    ]);
    expect(upgraded).toMatchObject({ code: 0, stderr: '' });

    const elsewhere = await runCli([
      'queue',
      'stat',
      '--url',
      `${base}?httpUpgradeEnabled=true&httpUpgradeEndpoint=other`,
      '--config',
      configDir,
    ]);
    expect(elsewhere.code).toBe(1);
    expect(lines(elsewhere.stderr).join('\n')).toContain(
      `HTTP upgrade at ${base} (http-upgrade-endpoint 'other') failed: it refused the HTTP upgrade to hornetq-remoting: "HTTP/1.1 404 Not Found"`,
    );

    const plain = await runCli(['queue', 'stat', '--url', base, '--config', configDir]);
    expect(plain.code).toBe(1);
  });

  test('an unknown query key, or a value that is not true or false, is refused in one line', async () => {
    const other = await runCli(['producer', '--url', 'tcp://localhost:5445?upgrade=true']);
    expect(lines(other.stderr)).toEqual([
      expect.stringMatching(
        /^error: --url: connection URL tcp:\/\/localhost:5445\?upgrade=true: unknown parameter 'upgrade' \(known: .*\) \(at position 21\)$/,
      ),
    ]);
    const yes = await runCli(['producer', '--url', 'tcp://localhost:5445?http-upgrade-enabled=yes']);
    expect(lines(yes.stderr)).toEqual([
      "error: --url: connection URL tcp://localhost:5445?http-upgrade-enabled=yes: parameter 'http-upgrade-enabled' must be true or false, not 'yes' (at position 21)",
    ]);
  });

  test('`hornetq server` with http-upgrade-enabled on its acceptor and connector: the line it prints is the --url that reaches it', async () => {
    const port = await freePort();
    const configDir = await writeConfig(port);
    const file = path.join(configDir, 'hornetq-configuration.xml');
    const upgrade = '<param key="http-upgrade-enabled" value="true"/>';
    const xml = (await fs.readFile(file, 'utf8')).replaceAll(
      `<param key="port" value="${port}"/>`,
      `<param key="port" value="${port}"/>${upgrade}`,
    );
    await fs.writeFile(file, xml);
    const server = spawnCli(['server', '--config', configDir, '--data-dir', configDir]);
    const url = `tcp://127.0.0.1:${port}?http-upgrade-enabled=true`;
    await server.waitForOutput(new RegExp(`listening on ${url.replace(/[.?]/g, '\\$&')}`));
    // Through the registry's /ConnectionFactory (its connector upgrades), and through the printed URL.
    expect(await runCli(['queue', 'stat', '--config', configDir])).toMatchObject({ code: 0, stderr: '' });
    expect(await runCli(['queue', 'stat', '--url', url, '--config', configDir])).toMatchObject({ code: 0 });
  });
});
