import {
  freePort,
  lines,
  pollUntil,
  runCli,
  spawnCli,
  statRow,
  useCli,
  writeConfig,
  type CliProcess,
} from '../support';

useCli();

/** Generous: the machine is shared, and a restart waits for the client's next retry (1 s). */
jest.setTimeout(120_000);

const COUNT = 200;

/** `hornetq server` on `port` with its journal in `dir`, once it listens. */
async function startBroker(dir: string, port: number): Promise<CliProcess> {
  const server = spawnCli(['server', '--config', dir, '--data-dir', dir]);
  await server.waitForOutput(new RegExp(`listening on tcp://127\\.0\\.0\\.1:${port}`));
  return server;
}

/** Waits until the broker has taken `count` messages into `queue` (and, with `consumers`, has that many). */
async function untilAdded(dir: string, queue: string, count: number, consumers = 0): Promise<void> {
  await pollUntil(
    async () => statRow((await runCli(['queue', 'stat', '--config', dir])).stdout, queue),
    (row) => (row.ADDED ?? 0) >= count && (row.CONSUMERS ?? 0) >= consumers,
    60_000,
  );
}

/** The `seq` of each message a `consumer --json` printed. */
function sequences(stdout: string): number[] {
  return lines(stdout).map(
    (line) => (JSON.parse(line) as { properties: { seq: { value: number } } }).properties.seq.value,
  );
}

describe('producer and consumer across a broker restart (same port, same data directory)', () => {
  test('nothing is lost, the broker drops the repeated sends, the counts and failover events are printed', async () => {
    const port = await freePort();
    const dir = await writeConfig(port, ['Restarted']);
    const config = ['--config', dir, '--destination', '/queue/Restarted'];
    let server = await startBroker(dir, port);

    const producer = spawnCli(['producer', ...config, '--count', String(COUNT), '--rate', '50']);
    const consumer = spawnCli(['consumer', ...config, '--count', '0', '--timeout', '8000', '--json']);
    // Some sent and received before the broker goes.
    await untilAdded(dir, 'jms.queue.Restarted', 20, 1);
    await server.stop('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 500));
    server = await startBroker(dir, port);

    const sent = await producer.result;
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(
      new RegExp(
        `^sent ${COUNT} messages in .* to queue://Restarted across 1 failover \\(\\d+ retried with the same duplicate id\\)$`,
        'm',
      ),
    );
    expect(lines(sent.stderr)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^failover: FAILURE_DETECTED/),
        'failover: FAILOVER_COMPLETED (sessions re-created)',
      ]),
    );

    const received = await consumer.result;
    expect(received.code).toBe(0);
    const seqs = sequences(received.stdout);
    // Every message arrived; one whose acknowledgement the restart lost may come twice, marked redelivered.
    expect(new Set(seqs)).toEqual(new Set(Array.from({ length: COUNT }, (_, seq) => seq)));
    expect(lines(received.stderr)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^failover: FAILURE_DETECTED/),
        'failover: FAILOVER_COMPLETED (sessions re-created)',
        expect.stringMatching(
          new RegExp(
            `^received ${seqs.length} messages in .* from queue://Restarted across 1 failover \\(\\d+ redelivered\\)$`,
          ),
        ),
      ]),
    );

    // The broker kept each message once: nothing is left, so no repeated send got through.
    const left = await runCli(['consumer', ...config, '--count', '0', '--timeout', '1000']);
    expect(left.stdout).toMatch(/^received 0 messages/m);
    await server.stop();
  });

  test('a producer whose broker does not come back gives up after --reconnect-attempts, saying what it sent (exit 3)', async () => {
    const port = await freePort();
    const dir = await writeConfig(port);
    const server = await startBroker(dir, port);
    const producer = spawnCli([
      'producer',
      '--config',
      dir,
      '--count',
      '1000',
      '--rate',
      '50',
      '--reconnect-attempts',
      '2',
    ]);
    await untilAdded(dir, 'jms.queue.ExampleQueue', 5);
    await server.stop('SIGKILL');
    const result = await producer.result;
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(
      /^sent \d+ messages? in .* to queue:\/\/ExampleQueue across 1 failover .* before the connection was lost$/m,
    );
    expect(lines(result.stderr)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^failover: FAILURE_DETECTED/),
        expect.stringMatching(/^failover: FAILOVER_FAILED/),
        expect.stringMatching(/^error: the connection was lost and reconnecting gave up: /),
      ]),
    );
  });
});
