import { promises as fs } from 'node:fs';
import path from 'node:path';
import { lines, runCli, startServer, tempDir, useCli } from '../support';

/** What `consumer --json` prints of each message (the fields these tests look at). */
interface ReceivedJson {
  priority: number;
  expiration: number;
  timestamp: number;
  correlationId: string | null;
  replyTo: string | null;
  properties: Record<string, { type: string; value: unknown }>;
  body: { kind: string; text?: string; base64?: string; entries?: Record<string, unknown> };
}

/** Receives every message waiting in /queue/ExampleQueue, as JSON. */
async function receiveAll(config: string[]): Promise<ReceivedJson[]> {
  const result = await runCli(['consumer', ...config, '--count', '0', '--timeout', '500', '--json']);
  expect(result.code).toBe(0);
  return lines(result.stdout).map((line) => JSON.parse(line) as ReceivedJson);
}

async function expectOneLineError(args: string[], expected: string): Promise<void> {
  const result = await runCli(args);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(lines(result.stderr)).toEqual([expected]);
}

describe('hornetq producer: what each message carries', () => {
  useCli();

  test('--message, typed --property, --priority, --ttl, --correlation-id and --reply-to arrive as given', async () => {
    const { configDir } = await startServer();
    const config = ['--config', configDir];
    const sent = await runCli([
      'producer',
      ...config,
      '--count',
      '2',
      '--message',
      'hello',
      '--property',
      'name=x',
      '--property',
      'n:int=7',
      '--property',
      'big:long=9007199254740993',
      '--property',
      'd:double=2',
      '--property',
      'f:float=1.1',
      '--property',
      'ok:boolean=true',
      '--property',
      's:short=3',
      '--property',
      'b:byte=-1',
      '--priority',
      '7',
      '--ttl',
      '600000',
      '--correlation-id',
      'order-1',
      '--reply-to',
      '/topic/ExampleTopic',
    ]);
    expect(sent).toMatchObject({ code: 0, stderr: '' });

    const received = await receiveAll(config);
    expect(received).toHaveLength(2);
    for (const [seq, message] of received.entries()) {
      expect(message).toMatchObject({
        priority: 7,
        correlationId: 'order-1',
        replyTo: 'topic://ExampleTopic',
        body: { kind: 'text', text: 'hello' },
        properties: {
          seq: { type: 'int', value: seq },
          name: { type: 'string', value: 'x' },
          n: { type: 'int', value: 7 },
          big: { type: 'long', value: '9007199254740993' },
          d: { type: 'double', value: 2 },
          f: { type: 'float', value: 1.1 },
          ok: { type: 'boolean', value: true },
          s: { type: 'short', value: 3 },
          b: { type: 'byte', value: -1 },
        },
      });
      expect(message.expiration - message.timestamp).toBe(600000);
    }
  });

  test('--file sends the bytes as a BytesMessage, or text with --type text; --type map takes --map-entry; --size 0 is empty', async () => {
    const { configDir } = await startServer();
    const config = ['--config', configDir];
    const file = path.join(await tempDir(), 'body.bin');
    await fs.writeFile(file, Buffer.from([0, 1, 0xff, 0x68, 0x69]));
    const textFile = path.join(await tempDir(), 'body.txt');
    await fs.writeFile(textFile, 'from a file\n');
    for (const args of [
      ['--file', file],
      ['--file', textFile, '--type', 'text'],
      ['--message', 'as bytes', '--type', 'bytes'],
      ['--type', 'map', '--map-entry', 'k:long=5', '--map-entry', 'name=v'],
      ['--size', '0'],
    ]) {
      expect(await runCli(['producer', ...config, '--count', '1', ...args])).toMatchObject({ code: 0 });
    }

    expect((await receiveAll(config)).map((message) => message.body)).toEqual([
      { kind: 'bytes', base64: Buffer.from([0, 1, 0xff, 0x68, 0x69]).toString('base64') },
      { kind: 'text', text: 'from a file\n' },
      { kind: 'bytes', base64: Buffer.from('as bytes').toString('base64') },
      { kind: 'map', entries: { k: { type: 'long', value: 5 }, name: { type: 'string', value: 'v' } } },
      { kind: 'text', text: '' },
    ]);
  });

  test('each mistake is one line', async () => {
    const { configDir } = await startServer();
    const config = ['--config', configDir];
    const producer = ['producer', ...config, '--count', '1'];
    await expectOneLineError(
      [...producer, '--message', 'a', '--file', 'x'],
      "error: option '--message <text>' cannot be used with option '--file <path>'",
    );
    await expectOneLineError(
      [...producer, '--message', 'a', '--size', '10'],
      "error: option '--message <text>' cannot be used with option '--size <bytes>'",
    );
    await expectOneLineError(
      [...producer, '--file', path.join(configDir, 'missing.bin')],
      `error: cannot read --file ${path.join(configDir, 'missing.bin')}: no such file`,
    );
    await expectOneLineError(
      [...producer, '--priority', '10'],
      "error: option '--priority <0-9>' argument '10' is invalid. It must be an integer from 0 to 9.",
    );
    await expectOneLineError(
      [...producer, '--property', 'n:int=seven'],
      "error: option '--property <entry>' argument 'n:int=seven' is invalid. It must be an integer from -2147483648 to 2147483647 (an int).",
    );
    await expectOneLineError(
      [...producer, '--property', 'n:integer=7'],
      "error: option '--property <entry>' argument 'n:integer=7' is invalid. Unknown type 'integer': use one of string, boolean, byte, short, int, long, float, double.",
    );
    await expectOneLineError(
      [...producer, '--property', 'novalue'],
      "error: option '--property <entry>' argument 'novalue' is invalid. It must be name=value or name:TYPE=value.",
    );
    await expectOneLineError(
      [...producer, '--property', '1x=3'],
      "error: --property 1x: property name '1x' is not a valid identifier (a letter, '_' or '$', then letters, digits, '_' or '$')",
    );
    await expectOneLineError(
      [...producer, '--type', 'map', '--message', 'x'],
      'error: --type map takes its body from --map-entry name=value, not --message or --file',
    );
    await expectOneLineError([...producer, '--map-entry', 'a=1'], 'error: --map-entry needs --type map');
    await expectOneLineError(
      [...producer, '--type', 'xml'],
      "error: option '--type <kind>' argument 'xml' is invalid. Allowed choices are text, bytes, map.",
    );
    await expectOneLineError(
      [...producer, '--reply-to', 'queue://'],
      "error: 'queue://' names no queue: write queue://NAME",
    );
    // Nothing was sent by any of them.
    expect(await receiveAll(config)).toEqual([]);
  });
});
