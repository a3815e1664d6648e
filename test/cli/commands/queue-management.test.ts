import { lines, runCli, spawnCli, startServer, useCli, writeConfig, freePort } from '../support';

/**
 * `hornetq queue stat NAME`, `--watch`, `queue create` and `queue delete` against a real broker:
 * names as the user writes them (ExampleQueue) or as the broker keeps them (jms.queue.ExampleQueue).
 */
describe('hornetq queue management', () => {
  useCli();

  let url: string[] = [];
  beforeEach(async () => {
    const { port } = await startServer();
    url = ['--url', `tcp://127.0.0.1:${port}`];
  });

  test('the listing shows the JMS name beside the core name', async () => {
    const result = await runCli(['queue', 'stat', ...url]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [header, ...rows] = lines(result.stdout);
    expect(header).toMatch(/^QUEUE\s+JMS NAME\s+ADDRESS\s+MESSAGES/);
    expect(rows.find((row) => row.startsWith('jms.queue.ExampleQueue '))).toMatch(
      /^jms\.queue\.ExampleQueue\s+ExampleQueue\s+jms\.queue\.ExampleQueue\s/,
    );
    // A configured topic's marker queue (it takes no message) is not a subscription.
    expect(rows.find((row) => row.startsWith('jms.topic.ExampleTopic '))).toMatch(
      /^jms\.topic\.ExampleTopic\s+topic ExampleTopic \(its marker\)\s+jms\.topic\.ExampleTopic\s/,
    );
  });

  test.each(['ExampleQueue', 'jms.queue.ExampleQueue', 'queue://ExampleQueue'])(
    'stat %s shows that queue alone',
    async (name) => {
      const result = await runCli(['queue', 'stat', name, ...url]);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const [, ...rows] = lines(result.stdout);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatch(/^jms\.queue\.ExampleQueue\s+ExampleQueue\s/);
    },
  );

  test('stat NAME --json adds the JMS name', async () => {
    const result = await runCli(['queue', 'stat', 'ExampleQueue', '--json', ...url]);
    expect(result.code).toBe(0);
    expect(lines(result.stdout).map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({ name: 'jms.queue.ExampleQueue', jmsName: 'ExampleQueue', messageCount: 0 }),
    ]);
  });

  test('an unknown queue is one error line', async () => {
    const result = await runCli(['queue', 'stat', 'Nope', ...url]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(
        /^error: no queue 'Nope' \(core name jms\.queue\.Nope\) on the broker at tcp:\/\/127\.0\.0\.1:\d+ /,
      ),
    ]);
  });

  test('--watch refreshes until SIGTERM, then exits 0', async () => {
    const watcher = spawnCli(['queue', 'stat', 'ExampleQueue', '--watch', '0.2', ...url]);
    await watcher.waitForOutput(/^jms\.queue\.ExampleQueue /);
    const sent = await runCli(['producer', '--destination', 'queue://ExampleQueue', '--count', '3', ...url]);
    expect(sent.code).toBe(0);
    // A later refresh sees the 3 messages: the numbers are fetched again each time.
    await watcher.waitForOutput(/^jms\.queue\.ExampleQueue\s+ExampleQueue\s+\S+\s+3\s/);
    const result = await watcher.stop();
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(lines(result.stdout).filter((line) => line.startsWith('QUEUE')).length).toBeGreaterThanOrEqual(2);
  });

  test('--watch refuses a number that is not positive', async () => {
    const result = await runCli(['queue', 'stat', '--watch', '0', ...url]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(/^error: option '--watch \[seconds\]' argument '0' is invalid/),
    ]);
  });

  test('create, use and delete a queue by its JMS name', async () => {
    const created = await runCli(['queue', 'create', 'orders', '--selector', "region = 'EU'", ...url]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toMatch(
      /^created durable queue jms\.queue\.orders \(JMS name orders\) on address jms\.queue\.orders$/m,
    );
    const json = await runCli(['queue', 'stat', 'orders', '--json', ...url]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      name: 'jms.queue.orders',
      durable: true,
      filter: "region = 'EU'",
    });

    const again = await runCli(['queue', 'create', 'jms.queue.orders', ...url]);
    expect(again).toMatchObject({ code: 1, stdout: '' });
    expect(lines(again.stderr)).toEqual([
      expect.stringMatching(
        /^error: the broker at tcp:\/\/127\.0\.0\.1:\d+ refused to create queue jms\.queue\.orders: .*already exists/,
      ),
    ]);

    const deleted = await runCli(['queue', 'delete', 'orders', ...url]);
    expect(deleted).toMatchObject({ code: 0, stdout: 'deleted queue jms.queue.orders\n', stderr: '' });
    expect((await runCli(['queue', 'stat', ...url])).stdout).not.toMatch(/^jms\.queue\.orders /m);
    const gone = await runCli(['queue', 'delete', 'orders', ...url]);
    expect(gone).toMatchObject({ code: 1, stdout: '' });
    expect(lines(gone.stderr)).toEqual([
      expect.stringMatching(/^error: .*refused to delete queue jms\.queue\.orders: .*does not exist/),
    ]);
  });

  test('create --non-durable on an address of its own', async () => {
    const created = await runCli([
      'queue',
      'create',
      'audit',
      '--non-durable',
      '--address',
      'jms.topic.ExampleTopic',
      ...url,
    ]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const json = await runCli(['queue', 'stat', 'audit', '--json', ...url]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      name: 'jms.queue.audit',
      address: 'jms.topic.ExampleTopic',
      durable: false,
    });
  });

  test('purge removes every message and says how many', async () => {
    const sent = await runCli(['producer', '--destination', 'queue://ExampleQueue', '--count', '7', ...url]);
    expect(sent.code).toBe(0);
    const purged = await runCli(['queue', 'purge', 'ExampleQueue', ...url]);
    expect(purged).toMatchObject({
      code: 0,
      stdout: 'removed 7 messages from queue jms.queue.ExampleQueue\n',
      stderr: '',
    });
    const json = await runCli(['queue', 'stat', 'ExampleQueue', '--json', ...url]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      messageCount: 0,
      messagesAcknowledged: 7,
      consumerCount: 0,
    });
    const empty = await runCli(['queue', 'purge', 'jms.queue.ExampleQueue', ...url]);
    expect(empty).toMatchObject({
      code: 0,
      stdout: 'removed 0 messages from queue jms.queue.ExampleQueue\n',
    });
  });

  test('purge of an unknown queue is one error line', async () => {
    const result = await runCli(['queue', 'purge', 'Nope', ...url]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(/^error: no queue 'Nope' \(core name jms\.queue\.Nope\) on the broker at /),
    ]);
  });

  test.each([
    [
      ['--durable', '--non-durable'],
      /^error: option '--durable' cannot be used with option '--non-durable'$/,
    ],
    [['--selector', 'a ==='], /^error: --selector 'a ===' is not a valid JMS selector: /],
  ])('create %j is one error line', async (options, message) => {
    const result = await runCli(['queue', 'create', 'x', ...options, ...url]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(lines(result.stderr)).toEqual([expect.stringMatching(message)]);
  });
});

describe('hornetq queue create without the permission', () => {
  useCli();

  test("is one line with the broker's message", async () => {
    const port = await freePort();
    const configDir = await writeConfig(port);
    // A user of a role no <security-setting> grants anything: it may log in, not create.
    const added = await runCli(['user', 'add', 'guest', '--role', 'guest', '--config', configDir]);
    expect(added.code).toBe(0);
    const server = spawnCli(['server', '--config', configDir, '--data-dir', configDir]);
    await server.waitForOutput(/listening on tcp:/);

    const result = await runCli([
      'queue',
      'create',
      'orders',
      '--user',
      'guest',
      '--url',
      `tcp://127.0.0.1:${port}`,
    ]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(
        /^error: the broker at tcp:\/\/127\.0\.0\.1:\d+ refused to create queue jms\.queue\.orders: .*guest/,
      ),
    ]);
  });
});
