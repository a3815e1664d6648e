import { HornetQConnectionFactory, HornetQTopic, Session } from '../../../src';
import { DEMO_LOGIN, lines, runCli, startServer, useCli } from '../support';

/**
 * `queue browse|move|retry|pause|resume`, `connection list|close` and `subscription list|drop`
 * against our broker (`hornetq server` on the shipped configuration), through its management
 * address: what each prints, with and without --json, and its exit code.
 */
describe('hornetq management operations on our broker', () => {
  useCli();

  let port = 0;
  let url: string[] = [];
  beforeEach(async () => {
    ({ port } = await startServer());
    url = ['--url', `tcp://127.0.0.1:${port}`];
  });

  const send = (count: number, region: string) =>
    runCli([
      'producer',
      '--destination',
      'queue://ExampleQueue',
      '--count',
      String(count),
      '--message',
      `from ${region}`,
      '--property',
      `region=${region}`,
      ...url,
    ]);

  test('browse: a table with properties and bodies, --json lines, --filter and --limit', async () => {
    expect((await send(2, 'EU')).code).toBe(0);
    expect((await send(1, 'US')).code).toBe(0);
    const browsed = await runCli(['queue', 'browse', 'ExampleQueue', ...url]);
    expect(browsed).toMatchObject({ code: 0, stderr: '' });
    const [header, ...rows] = lines(browsed.stdout);
    expect(header).toMatch(/^ID\s+PRIORITY\s+DURABLE\s+TIMESTAMP\s+PROPERTIES\s+BODY$/);
    expect(rows.map((row) => /region="(\w+)".*text: "from (\w+)"$/.exec(row)?.slice(1))).toEqual([
      ['EU', 'EU'],
      ['EU', 'EU'],
      ['US', 'US'],
      undefined,
    ]);
    expect(rows[3]).toBe('3 messages in queue jms.queue.ExampleQueue; nothing was consumed');

    const json = await runCli([
      'queue',
      'browse',
      'jms.queue.ExampleQueue',
      '--json',
      '--filter',
      "region = 'US'",
      ...url,
    ]);
    expect(lines(json.stdout).map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({
        address: 'jms.queue.ExampleQueue',
        durable: true,
        properties: expect.objectContaining({ region: 'US' }) as unknown,
        body: 'text: "from US"',
      }),
    ]);
    const limited = await runCli(['queue', 'browse', 'ExampleQueue', '--limit', '1', ...url]);
    expect(lines(limited.stdout).at(-1)).toBe(
      '1 message in queue jms.queue.ExampleQueue (--limit 1 reached); nothing was consumed',
    );
  });

  test('move with a filter, then retry from the DLQ back to the original queue', async () => {
    expect((await send(2, 'EU')).code).toBe(0);
    expect((await send(3, 'US')).code).toBe(0);
    const moved = await runCli(['queue', 'move', 'ExampleQueue', 'DLQ', '--filter', "region = 'US'", ...url]);
    expect(moved).toMatchObject({
      code: 0,
      stdout: 'moved 3 messages from queue jms.queue.ExampleQueue to queue jms.queue.DLQ\n',
      stderr: '',
    });
    const dead = await runCli(['queue', 'browse', 'DLQ', '--json', ...url]);
    expect(lines(dead.stdout).map((line) => JSON.parse(line) as { originalQueue: string })).toEqual(
      Array(3).fill(expect.objectContaining({ originalQueue: 'jms.queue.ExampleQueue' })),
    );
    const retried = await runCli(['queue', 'retry', 'DLQ', '--json', ...url]);
    expect(retried).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(retried.stdout)).toEqual({ queue: 'jms.queue.DLQ', retried: 3, left: 0 });
    const back = await runCli(['queue', 'browse', 'ExampleQueue', '--json', ...url]);
    expect(lines(back.stdout)).toHaveLength(5);
  });

  test('pause and resume say what the queue is now; an unknown queue is refused in one line', async () => {
    const paused = await runCli(['queue', 'pause', 'ExampleQueue', '--json', ...url]);
    expect(JSON.parse(paused.stdout)).toEqual({ queue: 'jms.queue.ExampleQueue', paused: true });
    const resumed = await runCli(['queue', 'resume', 'ExampleQueue', ...url]);
    expect(resumed).toMatchObject({ code: 0, stdout: 'resumed queue jms.queue.ExampleQueue\n' });
    const unknown = await runCli(['queue', 'pause', 'Nope', ...url]);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(lines(unknown.stderr)).toEqual([
      expect.stringMatching(
        /^error: the broker at tcp:\/\/127\.0\.0\.1:\d+ could not pause queue jms\.queue\.Nope: core\.queue\.jms\.queue\.Nope pause: the server failed it: .*jms\.queue\.Nope/,
      ),
    ]);
  });

  test('connection list shows the command’s own connection; closing an unknown one is exit 1', async () => {
    const listed = await runCli(['connection', 'list', '--json', ...url]);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(lines(listed.stdout).map((line) => JSON.parse(line) as unknown)).toContainEqual(
      expect.objectContaining({
        user: 'demo',
        clientAddress: expect.stringContaining('127.0.0.1') as unknown,
      }),
    );
    const table = await runCli(['connection', 'list', ...url]);
    expect(lines(table.stdout)[0]).toMatch(/^ID\s+CLIENT ADDRESS\s+CREATED\s+CLIENT ID\s+USER\s+SESSIONS$/);
    const nope = await runCli(['connection', 'close', '10.255.255.1', ...url]);
    expect(nope).toMatchObject({ code: 1, stdout: '' });
    expect(lines(nope.stderr)).toEqual([
      expect.stringMatching(
        /^error: no connection 10\.255\.255\.1 on the broker at tcp:\/\/127\.0\.0\.1:\d+: /,
      ),
    ]);
  });

  test('subscription list and drop a durable subscription', async () => {
    const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port });
    const connection = await factory.createConnection(DEMO_LOGIN.HORNETQ_USER, DEMO_LOGIN.HORNETQ_PASSWORD);
    try {
      await connection.setClientID('billing');
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      await (await session.createDurableSubscriber(new HornetQTopic('ExampleTopic'), 'invoices')).close();
      const listed = await runCli(['subscription', 'list', 'ExampleTopic', ...url]);
      expect(listed).toMatchObject({ code: 0, stderr: '' });
      expect(lines(listed.stdout)[0]).toMatch(
        /^QUEUE\s+CLIENT ID\s+NAME\s+DURABLE\s+MESSAGES\s+DELIVERING\s+CONSUMERS\s+SELECTOR$/,
      );
      expect(listed.stdout).toMatch(/^billing\.invoices\s+billing\s+invoices\s+yes\s+0\s+0\s+0\s+-$/m);
      const dropped = await runCli(['subscription', 'drop', 'billing', 'invoices', ...url]);
      expect(dropped).toMatchObject({
        code: 0,
        stdout: 'dropped durable subscription invoices of client billing\n',
      });
      const json = await runCli(['subscription', 'list', 'topic://ExampleTopic', '--json', ...url]);
      expect(json.stdout).not.toMatch(/invoices/);
    } finally {
      await connection.close();
    }
  });
});
