import { promises as fs } from 'node:fs';
import path from 'node:path';
import { makeTestCertificates, type TestCertificates } from '../../support/test-certificates';
import { freePort, lines, runCli, spawnCli, useCli, writeConfig } from '../support';

useCli();

let certs: TestCertificates;
beforeAll(() => {
  certs = makeTestCertificates();
});
afterAll(() => certs.remove());

/**
 * TLS on the netty acceptor and connector of a written config; `connectorParams` added to the
 * connector, `acceptorParams` to the acceptor.
 */
async function tlsConfig(port: number, connectorParams = '', acceptorParams = ''): Promise<string> {
  const dir = await writeConfig(port);
  const file = path.join(dir, 'hornetq-configuration.xml');
  const tls = `<param key="ssl-enabled" value="true"/>`;
  const xml = (await fs.readFile(file, 'utf8'))
    .replace(
      /(<acceptor name="netty">[\s\S]*?)(<\/acceptor>)/,
      `$1   ${tls}<param key="key-store-path" value="${certs.serverPem}"/>${acceptorParams}\n      $2`,
    )
    .replace(/(<connector name="netty">[\s\S]*?)(<\/connector>)/, `$1   ${tls}${connectorParams}\n      $2`);
  await fs.writeFile(file, xml);
  return dir;
}

async function tlsBroker(
  connectorParams = '',
  acceptorParams = '',
): Promise<{ port: number; configDir: string }> {
  const port = await freePort();
  const configDir = await tlsConfig(port, connectorParams, acceptorParams);
  const server = spawnCli(['server', '--config', configDir, '--data-dir', configDir]);
  await server.waitForOutput(new RegExp(`listening on tls://127\\.0\\.0\\.1:${port}`));
  return { port, configDir };
}

describe('the CLI over TLS', () => {
  test('--url tls:// with --ca sends and receives; without the CA the certificate is not trusted', async () => {
    const { port } = await tlsBroker();
    const url = `tls://127.0.0.1:${port}`;
    const sent = await runCli(['producer', '--url', url, '--ca', certs.caPem, '--count', '5']);
    expect(sent).toMatchObject({ code: 0 });
    expect(sent.stdout).toMatch(/^sent 5 messages in .* to queue:\/\/ExampleQueue$/m);
    const received = await runCli(['consumer', '--url', url, '--ca', certs.caPem, '--count', '5']);
    expect(received).toMatchObject({ code: 0 });
    expect(received.stdout).toMatch(/^received 5 messages in .* from queue:\/\/ExampleQueue$/m);

    const untrusted = await runCli(['producer', '--url', url, '--count', '1', '--reconnect-attempts', '0']);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toMatch(/cannot connect to tls:\/\/127\.0\.0\.1:\d+: .*certificate/i);
  });

  test('--cert and --key for a broker that needs a client certificate; without them it refuses', async () => {
    const { port } = await tlsBroker(
      '',
      `<param key="need-client-auth" value="true"/><param key="trust-store-path" value="${certs.caPem}"/>`,
    );
    const url = `tls://127.0.0.1:${port}`;
    const crt = path.join(certs.dir, 'client.crt');
    const key = path.join(certs.dir, 'client.key');
    const sent = await runCli([
      'producer',
      '--url',
      url,
      '--ca',
      certs.caPem,
      '--cert',
      crt,
      '--key',
      key,
      '--count',
      '2',
    ]);
    expect(sent).toMatchObject({ code: 0 });
    expect(sent.stdout).toMatch(/^sent 2 messages in .* to queue:\/\/ExampleQueue$/m);
    const anonymous = await runCli([
      'producer',
      '--url',
      url,
      '--ca',
      certs.caPem,
      '--count',
      '1',
      '--reconnect-attempts',
      '0',
    ]);
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toMatch(/^error: cannot connect to tls:\/\/127\.0\.0\.1:\d+: /m);
    const keyAlone = await runCli(['producer', '--url', url, '--key', key]);
    expect(lines(keyAlone.stderr)).toEqual([
      'error: --key is the private key of --cert: give --cert FILE too',
    ]);
  });

  test("Artemis' spelling in the URL: tcp://...?sslEnabled=true&trustStorePath=...", async () => {
    const { port } = await tlsBroker();
    const url = `tcp://127.0.0.1:${port}?sslEnabled=true&trustStorePath=${encodeURIComponent(certs.caPem)}&reconnectAttempts=0`;
    const sent = await runCli(['producer', '--url', url, '--count', '2']);
    expect(sent).toMatchObject({ code: 0 });
    expect(sent.stdout).toMatch(/^sent 2 messages in .* to queue:\/\/ExampleQueue$/m);
  });

  test("a PEM trust-store-path on the configuration's connector is used, without the registry's warning", async () => {
    const { configDir } = await tlsBroker(`<param key="trust-store-path" value="${certs.caPem}"/>`);
    const sent = await runCli(['producer', '--config', configDir, '--count', '3']);
    expect(sent).toMatchObject({ code: 0 });
    expect(sent.stderr).not.toContain('not copied');
    expect(sent.stdout).toMatch(/^sent 3 messages/m);
  });

  test('a JKS trust store is refused, saying to give PEM; a URL password is never printed', async () => {
    const { port } = await tlsBroker();
    const url = `tls://127.0.0.1:${port}?trustStorePath=${encodeURIComponent(certs.fakeJks)}&trustStorePassword=hunter2`;
    const result = await runCli(['producer', '--url', url, '--count', '1', '--reconnect-attempts', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is a Java JKS keystore, which Node cannot read; give a PEM bundle');
    const bad = await runCli(['producer', '--url', `${url}&bogus=1`]);
    expect(lines(bad.stderr)).toEqual([expect.stringContaining("unknown parameter 'bogus'")]);
    expect(result.stderr + result.stdout + bad.stderr + bad.stdout).not.toContain('hunter2');
  });
});
