import {
  HornetQConnectionFactory,
  HornetQQueue,
  HornetQTopic,
  Session,
  type HornetQConnection,
} from '../../src';
import buildCliOnce from '../cli/global-setup';
import { lines, runCli, useCli } from '../cli/support';
import { InteropServer, type ServerKind } from './support/interop-server';

/**
 * The management commands of `hornetq` (queue browse|move|retry|pause|resume, connection
 * list|close, subscription list|drop) against a real HornetQ 2.4.7 and Artemis 2.40.0, run as a
 * user runs them (node dist/cli/hornetq.js), with --dialect for Artemis.
 */
const KINDS: readonly ServerKind[] = ['hornetq', 'artemis', 'ours'];

describe.each(KINDS)('hornetq management commands against %s', (kind) => {
  useCli();
  let server: InteropServer;
  let connection: HornetQConnection;
  let args: string[];

  /** A JMS queue as the server keeps it. */
  const queue = (name: string): string => (kind === 'artemis' ? name : `jms.queue.${name}`);

  beforeAll(async () => {
    buildCliOnce();
    server = await InteropServer.start(kind, {
      queues: ['orders', 'archive', 'jobs', 'DLQ'],
      topics: ['prices'],
      deadLetters: [{ queue: 'jobs', deadLetterQueue: 'DLQ', maxDeliveryAttempts: 1 }],
    });
    // No user: the harness's servers run without security.
    args = [
      '--url',
      `tcp://127.0.0.1:${server.port}`,
      '--dialect',
      kind === 'artemis' ? 'artemis' : 'hornetq',
    ];
    connection = await new HornetQConnectionFactory({
      host: '127.0.0.1',
      port: server.port,
    }).createConnection();
    await connection.setClientID('cli-test');
    await connection.start();
  });

  afterAll(async () => {
    await connection?.close();
    await server?.stop();
  });

  const env = { env: { HORNETQ_USER: undefined, HORNETQ_PASSWORD: undefined } };
  const cli = (...words: string[]) => runCli([...words, ...args], 60_000, env);

  async function send(name: string, regions: readonly string[]): Promise<void> {
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const producer = await session.createProducer(new HornetQQueue(name));
    for (const [index, region] of regions.entries()) {
      const message = session.createTextMessage(`order ${index}`);
      message.setStringProperty('region', region);
      await producer.send(message);
    }
    await session.close();
  }

  test('queue browse shows headers, properties and the start of the body; --json and --filter', async () => {
    await send('orders', ['EU', 'US', 'EU']);
    const table = await cli('queue', 'browse', 'orders');
    expect(table).toMatchObject({ code: 0, stderr: '' });
    const [header, ...rows] = lines(table.stdout);
    expect(header).toMatch(/^ID\s+PRIORITY\s+DURABLE\s+TIMESTAMP\s+PROPERTIES\s+BODY$/);
    expect(rows.slice(0, 3).map((row) => /region="(\w+)".*text: "order (\d)"/.exec(row)?.slice(1))).toEqual([
      ['EU', '0'],
      ['US', '1'],
      ['EU', '2'],
    ]);
    expect(rows[3]).toBe(`3 messages in queue ${queue('orders')}; nothing was consumed`);

    const json = await cli(
      'queue',
      'browse',
      'orders',
      '--json',
      '--filter',
      "region = 'US'",
      '--limit',
      '5',
    );
    expect(json.code).toBe(0);
    expect(lines(json.stdout).map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({
        properties: expect.objectContaining({ region: 'US' }) as unknown,
        body: 'text: "order 1"',
      }),
    ]);
  });

  test('queue move --filter, then retry from the DLQ', async () => {
    const moved = await cli('queue', 'move', 'orders', 'archive', '--filter', "region = 'EU'");
    expect(moved).toMatchObject({
      code: 0,
      stdout: `moved 2 messages from queue ${queue('orders')} to queue ${queue('archive')}\n`,
    });
    // A message that fails its one delivery attempt goes to the DLQ.
    await send('jobs', ['EU']);
    const session = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const consumer = await session.createConsumer(new HornetQQueue('jobs'));
    expect(await consumer.receive(10_000)).not.toBeNull();
    await session.rollback();
    await session.close();
    const retried = await cli('queue', 'retry', 'DLQ', '--json');
    expect(retried.code).toBe(0);
    expect(JSON.parse(retried.stdout)).toEqual({ queue: queue('DLQ'), retried: 1, left: 0 });
    const back = await cli('queue', 'browse', 'jobs', '--json');
    expect(lines(back.stdout)).toHaveLength(1);
  });

  test('queue pause and resume', async () => {
    expect(await cli('queue', 'pause', 'orders')).toMatchObject({
      code: 0,
      stdout: `paused queue ${queue('orders')}\n`,
    });
    const resumed = await cli('queue', 'resume', 'orders', '--json');
    expect(JSON.parse(resumed.stdout)).toEqual({ queue: queue('orders'), paused: false });
  });

  test('connection list and close', async () => {
    const victim = await new HornetQConnectionFactory({
      host: '127.0.0.1',
      port: server.port,
    }).createConnection();
    try {
      const before = await cli('connection', 'list', '--json');
      expect(before.code).toBe(0);
      const listed = lines(before.stdout).map((line) => JSON.parse(line) as { connectionId: string });
      expect(listed.length).toBeGreaterThanOrEqual(2);
      const table = await cli('connection', 'list');
      expect(lines(table.stdout)[0]).toMatch(/^ID\s+CLIENT ADDRESS\s+CREATED\s+CLIENT ID\s+USER\s+SESSIONS$/);
      const nope = await cli('connection', 'close', 'no-such-connection');
      expect(nope).toMatchObject({ code: 1, stdout: '' });
      expect(nope.stderr).toMatch(/^error: no connection no-such-connection on the broker at /);
    } finally {
      await victim.close();
    }
  });

  test('subscription list and drop', async () => {
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    await (await session.createDurableSubscriber(new HornetQTopic('prices'), 'ticker')).close();
    const listed = await cli('subscription', 'list', 'prices');
    expect(listed.code).toBe(0);
    expect(lines(listed.stdout)[0]).toMatch(/^QUEUE\s+CLIENT ID\s+NAME\s+DURABLE\s+MESSAGES/);
    expect(listed.stdout).toMatch(/\scli-test\s+ticker\s+yes\s+0\s/);
    const dropped = await cli('subscription', 'drop', 'cli-test', 'ticker');
    expect(dropped).toMatchObject({
      code: 0,
      stdout: 'dropped durable subscription ticker of client cli-test\n',
    });
    const again = await cli('subscription', 'drop', 'cli-test', 'ticker');
    expect(again).toMatchObject({ code: 1, stdout: '' });
    expect(lines(again.stderr)).toEqual([
      expect.stringMatching(
        /^error: the broker at .* could not drop the durable subscription ticker of client cli-test: /,
      ),
    ]);
    await session.close();
  });
});
