import { promises as fs } from 'node:fs';
import path from 'node:path';
import { freePort, lines, runCli, tempDir, useCli, writeConfig } from './support';

/**
 * Every mistake a user can make is one line on stderr starting with "error: ", a non-zero exit
 * code, nothing on stdout and no stack trace.
 */
async function expectOneLineError(args: string[], expected: string | RegExp): Promise<void> {
  const result = await runCli(args);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(lines(result.stderr)).toEqual([
    typeof expected === 'string' ? expected : expect.stringMatching(expected),
  ]);
}

describe('hornetq errors', () => {
  useCli();

  test.each([
    ['producer'],
    ['consumer'],
    ['browse', '/queue/ExampleQueue'],
    ['queue', 'stat'],
    ['perf', '--count', '1'],
  ])('no broker on that port: %s', async (...command) => {
    const port = await freePort();
    await expectOneLineError(
      [...command, '--url', `tcp://127.0.0.1:${port}`],
      `error: cannot connect to tcp://127.0.0.1:${port}: connection refused: no broker is listening there (start one with \`hornetq server\`)`,
    );
  });

  test('no broker where the registry factory points', async () => {
    const port = await freePort();
    await expectOneLineError(
      ['producer', '--config', await writeConfig(port)],
      new RegExp(`^error: cannot connect to tcp://127\\.0\\.0\\.1:${port}: connection refused`),
    );
  });

  test('unknown registry names: a destination, a connection factory, and names bound to the wrong kind', async () => {
    const configDir = await writeConfig(await freePort());
    const file = path.join(configDir, 'hornetq-jms.xml');
    await expectOneLineError(
      ['producer', '--config', configDir, '--destination', '/queue/Nope'],
      `error: unknown destination '/queue/Nope' in ${file}: it binds /queue/DLQ, /queue/ExampleQueue, /queue/ExpiryQueue, /topic/ExampleTopic (or give queue://NAME or topic://NAME)`,
    );
    await expectOneLineError(
      ['consumer', '--config', configDir, '--factory', '/NoFactory'],
      `error: unknown connection factory '/NoFactory' in ${file}: it binds /ConnectionFactory, /InVMConnectionFactory`,
    );
    await expectOneLineError(
      ['browse', '/ConnectionFactory', '--config', configDir],
      `error: /ConnectionFactory in ${file} is a HornetQConnectionFactory, not a queue or topic`,
    );
    await expectOneLineError(
      ['browse', '/topic/ExampleTopic', '--config', configDir],
      'error: /topic/ExampleTopic is a topic: only queues can be browsed (a topic keeps no messages of its own)',
    );
  });

  test.each([
    [
      ['producer', '--count', 'abc'],
      "error: option '--count <n>' argument 'abc' is invalid. It must be an integer from 1 to 2147483647.",
    ],
    [
      ['producer', '--count', '0'],
      "error: option '--count <n>' argument '0' is invalid. It must be an integer from 1 to 2147483647.",
    ],
    [
      ['consumer', '--timeout', '-5'],
      "error: option '--timeout <ms>' argument '-5' is invalid. It must be an integer from 1 to 2147483647.",
    ],
    [
      ['producer', '--rate', '0'],
      "error: option '--rate <msgs/s>' argument '0' is invalid. It must be a number greater than 0.",
    ],
    [
      ['producer', '--size', '1.5'],
      /^error: option '--size <bytes>' argument '1\.5' is invalid\. It must be an integer from 0 to \d+\.$/,
    ],
    [
      ['producer', '--port', '70000'],
      "error: option '--port <port>' argument '70000' is invalid. It must be an integer from 1 to 65535.",
    ],
    [
      ['producer', '--url', 'http://localhost:5445'],
      "error: --url: connection URL http://localhost:5445: scheme 'http' is not tcp or tls (at position 0)",
    ],
    [
      ['producer', '--url', 'localhost'],
      'error: --url: connection URL localhost: no scheme: write tcp://localhost or tls://localhost (at position 0)',
    ],
    [
      ['producer', '--url', 'tcp://localhost:5445', '--port', '5446'],
      "error: option '--url <url>' cannot be used with option '--port <port>'",
    ],
    [
      ['producer', '--persistent', '--non-persistent'],
      "error: option '--persistent' cannot be used with option '--non-persistent'",
    ],
    [
      ['perf', '--count', '10', '--duration', '5'],
      "error: option '--count <n>' cannot be used with option '--duration <seconds>'",
    ],
    [
      ['server', '--log-level', 'loud'],
      "error: option '--log-level <level>' argument 'loud' is invalid. Allowed choices are fatal, error, warn, info, debug, trace.",
    ],
    [['producer', '--cont', '5'], /^error: unknown option '--cont'/],
    [['browse'], "error: missing required argument 'queue'"],
    [['produce'], /^error: unknown command 'produce'/],
    [['producer', '--destination', 'queue://'], "error: 'queue://' names no queue: write queue://NAME"],
  ])('bad option: %j', async (args, expected) => {
    await expectOneLineError(args, expected);
  });

  test('bad configuration files: broken XML, a bad value, a missing file', async () => {
    const configDir = await writeConfig(await freePort());
    const file = path.join(configDir, 'hornetq-jms.xml');
    const xml = await fs.readFile(file, 'utf8');

    await fs.writeFile(
      file,
      xml.replace('<reconnect-attempts>-1</reconnect-attempts>', '<reconnect-attempts>-1</reconnect>'),
    );
    await expectOneLineError(
      ['jndi', 'list', '--config', configDir],
      new RegExp(`^error: ${escape(file)}:\\d+: `),
    );

    await fs.writeFile(
      file,
      xml.replace('<retry-interval>1000</retry-interval>', '<retry-interval>soon</retry-interval>'),
    );
    await expectOneLineError(
      ['producer', '--config', configDir],
      new RegExp(`^error: ${escape(file)}:\\d+: <retry-interval> requires a valid Long value`),
    );

    await fs.rm(file);
    await expectOneLineError(
      ['jndi', 'list', '--config', configDir],
      `error: configuration folder ${configDir} has no hornetq-jms.xml`,
    );
  });

  test('server -v with a bad hornetq-configuration.xml: each problem once, with file:line', async () => {
    const configDir = await writeConfig(await freePort());
    const file = path.join(configDir, 'hornetq-configuration.xml');
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(
      file,
      text.replace(
        '<security-enabled>true</security-enabled>',
        '<security-enabled>maybe</security-enabled>\n   <persistence-enabled>often</persistence-enabled>',
      ),
    );
    const result = await runCli(['-v', 'server', '--config', configDir, '--data-dir', await tempDir()]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    const said = lines(result.stderr).filter((line) => !/^\s+at /.test(line));
    expect(said).toEqual([
      expect.stringMatching(
        new RegExp(
          `^error: ${escape(file)}:\\d+: <security-enabled> must be true or false \\(actual value: 'maybe'\\)$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^error: ${escape(file)}:\\d+: <persistence-enabled> must be true or false \\(actual value: 'often'\\)$`,
        ),
      ),
      'ConfigurationException: 2 problems, listed above',
    ]);
    expect(result.stderr).toMatch(/\n {4}at /);
  });

  test('--verbose adds the details and the stack after the one line', async () => {
    const port = await freePort();
    const result = await runCli(['queue', 'stat', '--url', `tcp://127.0.0.1:${port}`, '--verbose']);
    expect(result.code).toBe(1);
    const [first, ...rest] = lines(result.stderr);
    expect(first).toMatch(/^error: cannot connect to /);
    expect(rest.join('\n')).toMatch(
      /CliError: cannot connect[\s\S]*\n\s+at [\s\S]*caused by:[\s\S]*ECONNREFUSED/,
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
