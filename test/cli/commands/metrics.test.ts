import { httpRequest, parseExposition } from '../../support/http-request';
import { listen } from '../../support/listen';
import net from 'node:net';
import { freePort, isListening, runCli, spawnCli, useCli, writeConfig } from '../support';

/** `hornetq server --metrics-port`: the endpoint a Prometheus server and a Kubernetes probe use. */
describe('hornetq server --metrics-port', () => {
  useCli();

  test('port 0: the address is printed, the queues are scraped, /health is up, and SIGTERM closes it', async () => {
    const port = await freePort();
    const configDir = await writeConfig(port);
    const server = spawnCli([
      'server',
      '--config',
      configDir,
      '--data-dir',
      configDir,
      '--metrics-port',
      '0',
    ]);
    const line = await server.waitForOutput(/metrics on http:\/\/127\.0\.0\.1:\d+\/metrics/);
    const url = /(http:\/\/127\.0\.0\.1:(\d+)\/metrics)/.exec(line);
    const metricsPort = Number(url?.[2]);
    await server.waitForOutput(new RegExp(`listening on tcp://127\\.0\\.0\\.1:${port}`));

    expect((await runCli(['producer', '--url', `tcp://127.0.0.1:${port}`, '--count', '3'])).code).toBe(0);
    const scrape = await httpRequest(String(url?.[1]));
    expect(scrape.status).toBe(200);
    const samples = parseExposition(scrape.body);
    const example =
      '{queue="jms.queue.ExampleQueue",address="jms.queue.ExampleQueue",jms_name="ExampleQueue"}';
    expect(samples.get(`hornetq_queue_messages${example}`)).toBe(3);
    expect(samples.get(`hornetq_queue_messages_added_total${example}`)).toBe(3);
    // The shipped config keeps a journal: its syncs are timed.
    expect(samples.get('hornetq_journal_sync_seconds_count{journal="messages"}')).toBeGreaterThan(0);

    const health = await httpRequest(`http://127.0.0.1:${metricsPort}/health`);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: 'up', state: 'started' });

    expect(await server.stop('SIGTERM')).toMatchObject({ code: 0, signal: null });
    expect(await isListening(metricsPort)).toBe(false);
  });

  test('--metrics-host without --metrics-port is refused in one line', async () => {
    const configDir = await writeConfig(await freePort());
    const result = await runCli([
      'server',
      '--config',
      configDir,
      '--data-dir',
      configDir,
      '--metrics-host',
      '127.0.0.1',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--metrics-host needs --metrics-port/);
  });

  test('a metrics port in use is refused in one line, and no broker is left running', async () => {
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
        '--metrics-port',
        String(taken.port),
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `cannot serve metrics on 127.0.0.1:${taken.port}: the port is already in use`,
      );
      expect(await isListening(port)).toBe(false);
    } finally {
      await taken.close();
    }
  });
});
