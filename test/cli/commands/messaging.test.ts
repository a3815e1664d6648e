import { existsSync } from 'node:fs';
import {
  CLI,
  freePort,
  lines,
  pollUntil,
  runCli,
  runProgram,
  spawnCli,
  startServer,
  statRow,
  useCli,
  writeConfig,
  type CliResult,
} from '../support';

/** Progress bars are for terminals: piped output must not carry their escape sequences. */
const ESCAPE = '\u001b';

describe('hornetq producer, consumer, queue stat, browse', () => {
  useCli();

  test('producer then consumer move 1000 messages; queue stat counts them before and after', async () => {
    const { configDir } = await startServer(['Moved']);
    const config = ['--config', configDir];

    const produced = await runCli([
      'producer',
      ...config,
      '--destination',
      '/queue/Moved',
      '--count',
      '1000',
    ]);
    expect(produced).toMatchObject({ code: 0, stderr: '' });
    expect(lines(produced.stdout)).toEqual([
      expect.stringMatching(/^sent 1000 messages in \d+\.\d\d s \(\d+ msg\/s\) to queue:\/\/Moved$/),
    ]);

    const before = await runCli(['queue', 'stat', ...config]);
    expect(before.code).toBe(0);
    expect(lines(before.stdout)[0]).toMatch(
      /^QUEUE\s+JMS NAME\s+ADDRESS\s+MESSAGES\s+CONSUMERS\s+DELIVERING\s+ADDED\s+ACKNOWLEDGED$/,
    );
    expect(statRow(before.stdout, 'jms.queue.Moved')).toEqual({
      MESSAGES: 1000,
      CONSUMERS: 0,
      DELIVERING: 0,
      ADDED: 1000,
      ACKNOWLEDGED: 0,
    });

    const consumed = await runCli([
      'consumer',
      ...config,
      '--destination',
      '/queue/Moved',
      '--count',
      '1000',
    ]);
    expect(consumed).toMatchObject({ code: 0, stderr: '' });
    expect(lines(consumed.stdout)).toEqual([
      expect.stringMatching(/^received 1000 messages in \d+\.\d\d s \(\d+ msg\/s\) from queue:\/\/Moved$/),
    ]);
    expect(produced.stdout + consumed.stdout).not.toContain(ESCAPE);

    const after = await runCli(['queue', 'stat', ...config]);
    expect(statRow(after.stdout, 'jms.queue.Moved')).toEqual({
      MESSAGES: 0,
      CONSUMERS: 0,
      DELIVERING: 0,
      ADDED: 1000,
      ACKNOWLEDGED: 1000,
    });
    // The other queues were not touched.
    expect(statRow(after.stdout, 'jms.queue.ExampleQueue')).toMatchObject({ MESSAGES: 0, ADDED: 0 });
  });

  test('--url and queue://NAME need no registry; transacted batches, non-persistent messages and a rate', async () => {
    const { port } = await startServer(['Batched']);
    const url = ['--url', `tcp://127.0.0.1:${port}`, '--config', '/nonexistent'];
    const produced = await runCli([
      'producer',
      ...url,
      '--destination',
      'queue://Batched',
      '--count',
      '20',
      '--tx-batch',
      '7',
      '--non-persistent',
      '--size',
      '10',
      '--rate',
      '100',
    ]);
    expect(produced).toMatchObject({ code: 0, stderr: '' });
    // 20 messages at 100 msg/s: the last is due 190 ms after the first.
    const seconds = Number(/in (\d+\.\d+) s/.exec(produced.stdout)?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(0.18);

    const browsed = await runCli(['browse', 'queue://Batched', ...url, '--count', '2']);
    expect(browsed).toMatchObject({ code: 0, stderr: '' });
    expect(lines(browsed.stdout)).toEqual([
      expect.stringMatching(
        /^1\. ID:\S+ {2}non-persistent {2}priority=4 {2}timestamp=\S+ {2}seq=0 {2}text: "message 0\."$/,
      ),
      expect.stringMatching(/^2\. ID:\S+ {2}non-persistent .* {2}seq=1 {2}text: "message 1\."$/),
      '2 messages in queue://Batched (--count 2 reached); nothing was consumed',
    ]);

    const consumed = await runCli([
      'consumer',
      ...url,
      '--destination',
      'queue://Batched',
      '--count',
      '0',
      '--tx-batch',
      '6',
      '--timeout',
      '500',
    ]);
    expect(consumed).toMatchObject({ code: 0, stderr: '' });
    expect(consumed.stdout).toMatch(/^received 20 messages in .* from queue:\/\/Batched$/m);
  });

  test('browse prints the waiting messages and consumes none', async () => {
    const { configDir } = await startServer(['Browsed']);
    const config = ['--config', configDir];
    await runCli(['producer', ...config, '--destination', '/queue/Browsed', '--count', '3', '--size', '9']);

    const browsed = await runCli(['browse', '/queue/Browsed', ...config]);
    expect(browsed).toMatchObject({ code: 0, stderr: '' });
    expect(lines(browsed.stdout)).toEqual([
      expect.stringMatching(
        /^1\. ID:\S+ {2}persistent {2}priority=4 {2}timestamp=\d{4}-.*Z {2}seq=0 {2}text: "message 0"$/,
      ),
      expect.stringMatching(/^2\. .* {2}seq=1 {2}text: "message 1"$/),
      expect.stringMatching(/^3\. .* {2}seq=2 {2}text: "message 2"$/),
      '3 messages in queue://Browsed; nothing was consumed',
    ]);
    const selected = await runCli(['browse', '/queue/Browsed', ...config, '--selector', 'seq >= 2']);
    expect(lines(selected.stdout)).toEqual([
      expect.stringMatching(/^1\. .* {2}seq=2 {2}text: "message 2"$/),
      '1 message in queue://Browsed; nothing was consumed',
    ]);

    expect(statRow((await runCli(['queue', 'stat', ...config])).stdout, 'jms.queue.Browsed')).toMatchObject({
      MESSAGES: 3,
      ACKNOWLEDGED: 0,
    });
    const consumed = await runCli(['consumer', ...config, '--destination', '/queue/Browsed', '--count', '3']);
    expect(consumed.code).toBe(0);
  });

  test('a topic consumer gets what is sent while it is subscribed; queue stat shows its subscription', async () => {
    const { configDir } = await startServer();
    const config = ['--config', configDir];
    const consumer = spawnCli([
      'consumer',
      ...config,
      '--destination',
      '/topic/ExampleTopic',
      '--count',
      '10',
    ]);
    const subscribed = await pollUntil(
      async () => (await runCli(['queue', 'stat', ...config])).stdout,
      (stat) =>
        / \(temporary\)\s+subscription of topic ExampleTopic\s+jms\.topic\.ExampleTopic\s+0\s+1\s/.test(stat),
    );
    expect(subscribed).toMatch(/jms\.topic\.ExampleTopic/);

    expect(
      (await runCli(['producer', ...config, '--destination', 'topic://ExampleTopic', '--count', '10'])).code,
    ).toBe(0);
    const result = await consumer.result;
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^received 10 messages in .* from topic:\/\/ExampleTopic$/m);
  });

  test('a consumer that gets fewer than --count before --timeout says so and exits 1', async () => {
    const { configDir } = await startServer();
    const config = ['--config', configDir];
    await runCli(['producer', ...config, '--count', '2']);
    const result = await runCli(['consumer', ...config, '--count', '5', '--timeout', '300']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^received 2 messages in .* from queue:\/\/ExampleQueue$/m);
    expect(lines(result.stderr)).toEqual(['error: received 2 of 5 messages: none arrived for 300 ms']);
  });

  test('Ctrl-C stops a producer cleanly: what was sent is reported and the exit code is 130', async () => {
    const { configDir } = await startServer();
    const config = ['--config', configDir];
    const producer = spawnCli(['producer', ...config, '--count', '1000', '--rate', '20']);
    await pollUntil(
      async () => (await runCli(['queue', 'stat', ...config])).stdout,
      (stat) => (statRow(stat, 'jms.queue.ExampleQueue').MESSAGES ?? 0) >= 3,
    );
    const result = await producer.stop('SIGINT');
    expect(result.code).toBe(130);
    const sent = Number(/^sent (\d+) messages in .* before the interruption$/m.exec(result.stdout)?.[1]);
    expect(lines(result.stderr)).toEqual(['error: interrupted by SIGINT']);
    // Every message it reports as sent is on the broker (it closed its connection after the last).
    expect(sent).toBeGreaterThanOrEqual(3);
    expect(
      statRow((await runCli(['queue', 'stat', ...config])).stdout, 'jms.queue.ExampleQueue').MESSAGES,
    ).toBe(sent);
  });

  test('a queue the broker does not have is one line and exit code 1', async () => {
    const { configDir } = await startServer();
    for (const command of [
      ['producer', '--destination', 'queue://Missing'],
      ['consumer', '--destination', 'queue://Missing'],
      ['browse', 'queue://Missing'],
    ]) {
      const result = await runCli([...command, '--config', configDir]);
      expect(result.code).toBe(1);
      expect(lines(result.stderr)).toEqual([
        expect.stringMatching(
          /^error: queue:\/\/Missing does not exist on the broker at tcp:\/\/127\.0\.0\.1:\d+$/,
        ),
      ]);
    }
  });

  test('perf --count runs a producer and a consumer and prints a summary with latency percentiles', async () => {
    const { configDir } = await startServer(['Perf']);
    const result = await runCli([
      'perf',
      '--config',
      configDir,
      '--destination',
      '/queue/Perf',
      '--count',
      '300',
      '--rate',
      '200',
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const output = lines(result.stdout);
    expect(output[0]).toMatch(
      /^perf: 100-byte non-persistent messages to queue:\/\/Perf on tcp:\/\/127\.0\.0\.1:\d+, 200 msg\/s, 300 messages$/,
    );
    // 300 messages at 200 msg/s take 1.5 s: at least one per-second line comes before the summary.
    expect(output).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^\s+1 s {2}sent\s+\d+ msg\/s {2}received\s+\d+ msg\/s {2}latency (p50 \S+ ms {2}p90 \S+ ms {2}p99 \S+ ms {2}p99\.9 \S+ ms|-)$/,
        ),
      ]),
    );
    expect(output.slice(-4)).toEqual([
      '--- summary',
      expect.stringMatching(/^sent {6}300 messages in \d+\.\d\d s \(\d+ msg\/s\)$/),
      expect.stringMatching(/^received {2}300 messages in \d+\.\d\d s \(\d+ msg\/s\)$/),
      expect.stringMatching(
        /^latency {3}mean \S+ ms {2}p50 \S+ ms {2}p90 \S+ ms {2}p99 \S+ ms {2}p99\.9 \S+ ms {2}max \S+ ms$/,
      ),
    ]);
  });
});

describe('on a terminal', () => {
  useCli();

  // util-linux's `script` gives the command a pseudo-terminal, as an interactive shell would.
  const withTerminal = existsSync('/usr/bin/script') ? test : test.skip;

  withTerminal(
    'producer and consumer draw a live progress bar on stderr; results stay plain lines',
    async () => {
      const { configDir } = await startServer();
      const run = (command: string): Promise<CliResult> =>
        runProgram('/usr/bin/script', [
          '-qefc',
          `${process.execPath} ${CLI} ${command} --config ${configDir}`,
          '/dev/null',
        ]);

      const produced = await run('producer --count 50 --rate 100');
      expect(produced.code).toBe(0);
      expect(produced.stdout).toContain('50/50');
      expect(produced.stdout).toMatch(/sending \[[^\]]+\]/);
      expect(produced.stdout).toMatch(/sent 50 messages in .* to queue:\/\/ExampleQueue/);

      const consumed = await run('consumer --count 50');
      expect(consumed.code).toBe(0);
      expect(consumed.stdout).toMatch(/received 50 messages in .* from queue:\/\/ExampleQueue/);
    },
  );
});

describe('hornetq jndi list', () => {
  useCli();

  test('lists what the configuration binds: name, class and target (no broker needed)', async () => {
    const port = await freePort();
    const configDir = await writeConfig(port, ['Listed']);
    const result = await runCli(['jndi', 'list', '--config', configDir]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(lines(result.stdout).map((line) => line.split(/\s{2,}/))).toEqual([
      ['NAME', 'CLASS', 'TARGET'],
      ['/ConnectionFactory', 'HornetQConnectionFactory', `tcp://127.0.0.1:${port}`],
      ['/InVMConnectionFactory', 'HornetQConnectionFactory', 'invm://0'],
      ['/queue/DLQ', 'HornetQQueue', 'queue://DLQ (address jms.queue.DLQ)'],
      ['/queue/ExampleQueue', 'HornetQQueue', 'queue://ExampleQueue (address jms.queue.ExampleQueue)'],
      ['/queue/ExpiryQueue', 'HornetQQueue', 'queue://ExpiryQueue (address jms.queue.ExpiryQueue)'],
      ['/queue/Listed', 'HornetQQueue', 'queue://Listed (address jms.queue.Listed)'],
      ['/topic/ExampleTopic', 'HornetQTopic', 'topic://ExampleTopic (address jms.topic.ExampleTopic)'],
    ]);
  });
});
