import { ClientSessionFactory } from '../../../src/core/client';
import { PropertyKind, type CoreMessage } from '../../../src/core/protocol';
import {
  HornetQMapMessage,
  HornetQStreamMessage,
  HornetQTextMessage,
  type HornetQMessage,
} from '../../../src/jms/message';
import { DEMO_LOGIN, lines, pollUntil, runCli, spawnCli, startServer, useCli } from '../support';

async function expectOneLineError(args: string[], expected: string): Promise<void> {
  const result = await runCli(args);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(lines(result.stderr)).toEqual([expected]);
}

/** `message` as it travels, its body cut to `bodyBytes` bytes: a body that no longer decodes. */
function truncated(message: HornetQMessage, bodyBytes: number): CoreMessage {
  const core = message.toCoreMessage();
  core.body = core.body.subarray(0, bodyBytes);
  return core;
}

/**
 * Two good text messages with three bad bodies between them (a stream, a map and a text each cut
 * short), sent through the core API, which sends a body as it is given.
 */
async function sendCorruptBetweenGood(port: number): Promise<void> {
  const stream = new HornetQStreamMessage();
  stream.writeString('a string longer than its body');
  const map = new HornetQMapMessage();
  map.setString('k', 'a value longer than its body');
  const messages = [
    new HornetQTextMessage('first').toCoreMessage(),
    truncated(stream, 6),
    truncated(map, 7),
    truncated(new HornetQTextMessage('a text longer than its body'), 7),
    new HornetQTextMessage('last').toCoreMessage(),
  ];
  messages.forEach((message, seq) => message.properties.set('seq', { kind: PropertyKind.INT, value: seq }));
  const factory = await ClientSessionFactory.connect({ connectors: [{ host: '127.0.0.1', port }] });
  try {
    const session = await factory.createSession({
      username: DEMO_LOGIN.HORNETQ_USER,
      password: DEMO_LOGIN.HORNETQ_PASSWORD,
    });
    const producer = session.createProducer('jms.queue.ExampleQueue');
    for (const message of messages) await producer.send(message);
    await session.close();
  } finally {
    await factory.close();
  }
}

describe('hornetq consumer: --verbose, --json, the rate, --durable', () => {
  useCli();

  test('--verbose prints each message as browse does; the rate leaves out the wait for more', async () => {
    const { configDir } = await startServer();
    const config = ['--config', configDir];
    const send = ['producer', ...config, '--count', '3', '--message', 'hi', '--property', 'n:long=5'];
    expect((await runCli(send)).code).toBe(0);
    const browsed = lines((await runCli(['browse', ...config, '/queue/ExampleQueue'])).stdout).slice(0, 3);
    expect(browsed).toHaveLength(3);

    const result = await runCli(['consumer', ...config, '--count', '0', '--timeout', '3000', '--verbose']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const printed = lines(result.stdout);
    expect(printed.slice(0, 3)).toEqual(browsed);
    expect(printed[0]).toMatch(/^1\. ID:\S+ {2}persistent {2}priority=4 .* n=5L {2}seq=0 {2}text: "hi"$/);
    // The 3 s of waiting for a fourth message is not in the time the rate is computed over.
    const summary = /^received 3 messages in (\d+\.\d\d) s \(\d+ msg\/s\) from queue:\/\/ExampleQueue$/.exec(
      printed[3] ?? '',
    );
    expect(summary).not.toBeNull();
    expect(Number(summary?.[1])).toBeLessThan(3);
  });

  test('--json prints one JSON line per message on stdout, the summary on stderr', async () => {
    const { configDir } = await startServer();
    const config = ['--config', configDir];
    expect(
      (
        await runCli([
          'producer',
          ...config,
          '--count',
          '1',
          '--type',
          'bytes',
          '--message',
          'ab',
          '--property',
          'x:double=1.5',
          '--non-persistent',
        ])
      ).code,
    ).toBe(0);
    const result = await runCli(['consumer', ...config, '--count', '1', '--json']);
    expect(result.code).toBe(0);
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(/^received 1 message in \d+\.\d\d s \(\d+ msg\/s\) from queue:\/\/ExampleQueue$/),
    ]);
    const [line, ...more] = lines(result.stdout);
    expect(more).toEqual([]);
    expect(JSON.parse(line ?? '')).toEqual({
      id: expect.stringMatching(/^ID:/),
      destination: 'queue://ExampleQueue',
      deliveryMode: 'non-persistent',
      priority: 4,
      timestamp: expect.any(Number),
      expiration: 0,
      correlationId: null,
      replyTo: null,
      type: null,
      redelivered: false,
      properties: { seq: { type: 'int', value: 0 }, x: { type: 'double', value: 1.5 } },
      body: { kind: 'bytes', base64: Buffer.from('ab').toString('base64') },
    });
  });

  test("a body that does not decode is that message's error, and the next messages still come", async () => {
    const { configDir, port } = await startServer();
    const config = ['--config', configDir];
    await sendCorruptBetweenGood(port);
    const json = await runCli(['consumer', ...config, '--count', '5', '--json']);
    expect(json.code).toBe(0);
    expect(lines(json.stderr)).toEqual([expect.stringMatching(/^received 5 messages in /)]);
    const parsed = lines(json.stdout).map(
      (line) => JSON.parse(line) as { destination: string; properties: unknown; body: unknown },
    );
    expect(parsed.map(({ properties }) => properties)).toEqual(
      [0, 1, 2, 3, 4].map((seq) => ({ seq: { type: 'int', value: seq } })),
    );
    const cannot = expect.stringMatching(/^the body does not decode: .+/);
    expect(parsed.map(({ body }) => body)).toEqual([
      { kind: 'text', text: 'first' },
      { kind: 'stream', error: cannot },
      { kind: 'map', error: cannot },
      { kind: 'text', error: expect.stringMatching(/^the body does not decode: corrupt text body: /) },
      { kind: 'text', text: 'last' },
    ]);
    expect(parsed.map(({ destination }) => destination)).toEqual(Array(5).fill('queue://ExampleQueue'));

    await sendCorruptBetweenGood(port);
    const verbose = await runCli(['consumer', ...config, '--count', '5', '--verbose']);
    expect(verbose).toMatchObject({ code: 0, stderr: '' });
    expect(lines(verbose.stdout)).toEqual([
      expect.stringMatching(/^1\. \(no id\) {2}persistent .* seq=0 {2}text: "first"$/),
      expect.stringMatching(/^2\. \(no id\) {2}persistent .* seq=1 {2}stream: unreadable \(.+\)$/),
      expect.stringMatching(/^3\. \(no id\) {2}persistent .* seq=2 {2}map: unreadable \(.+\)$/),
      expect.stringMatching(
        /^4\. \(no id\) {2}persistent .* seq=3 {2}text: unreadable \(corrupt text body: .+\)$/,
      ),
      expect.stringMatching(/^5\. \(no id\) {2}persistent .* seq=4 {2}text: "last"$/),
      expect.stringMatching(/^received 5 messages in /),
    ]);
  });

  test('--durable keeps what is sent to the topic while the subscriber is away', async () => {
    const { configDir } = await startServer();
    const config = ['--config', configDir];
    const durable = ['--destination', '/topic/ExampleTopic', '--durable', 'audit', '--client-id', 'cli-test'];
    // Subscribes, and leaves at once: the subscription stays.
    const first = await runCli(['consumer', ...config, ...durable, '--count', '0', '--timeout', '200']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const stat = await pollUntil(
      async () => (await runCli(['queue', 'stat', ...config])).stdout,
      (output) => output.includes('cli-test.audit'),
    );
    expect(stat).toMatch(/cli-test\.audit\s+subscription of topic ExampleTopic\s+jms\.topic\.ExampleTopic/);

    const sent = ['producer', ...config, '--destination', 'topic://ExampleTopic', '--count', '2'];
    expect((await runCli(sent)).code).toBe(0);
    const second = await runCli(['consumer', ...config, ...durable, '--count', '2', '--json']);
    expect(second.code).toBe(0);
    expect(
      lines(second.stdout).map((line) => (JSON.parse(line) as { destination: string }).destination),
    ).toEqual(['topic://ExampleTopic', 'topic://ExampleTopic']);
  });

  test('--durable mistakes are one line each', async () => {
    const { configDir } = await startServer();
    const consumer = ['consumer', '--config', configDir, '--count', '1'];
    await expectOneLineError(
      [...consumer, '--destination', '/topic/ExampleTopic', '--durable', 'audit'],
      'error: --durable needs --client-id: a durable subscription belongs to a client ID',
    );
    await expectOneLineError(
      [...consumer, '--destination', '/topic/ExampleTopic', '--client-id', 'me'],
      'error: --client-id is for a durable subscription: give --durable NAME too',
    );
    await expectOneLineError(
      [...consumer, '--durable', 'audit', '--client-id', 'me'],
      'error: --durable needs a topic, and /queue/ExampleQueue is a queue',
    );
    const topic = ['--destination', '/topic/ExampleTopic', '--durable', 'audit', '--client-id', 'me'];
    const holder = spawnCli([...consumer, ...topic, '--timeout', '60000']);
    await pollUntil(
      async () => (await runCli(['queue', 'stat', '--config', configDir])).stdout,
      (stat) =>
        /me\.audit\s+subscription of topic ExampleTopic\s+jms\.topic\.ExampleTopic\s+0\s+1\s/.test(stat),
    );
    await expectOneLineError(
      [...consumer, ...topic],
      'error: client ID me is in use by another connection: stop that consumer, or give another --client-id',
    );
    await holder.stop('SIGINT');
  });
});
