import { lines, runCli, startServer, useCli } from '../support';

/**
 * The management commands' own behaviour against our broker (`hornetq server` on the shipped
 * configuration): help, options, a selector that does not parse, and a broker that does not
 * answer in the dialect asked for (our broker has no `activemq.management`, as a HornetQ server
 * has none): one error line and exit code 1, never a hang.
 */
describe('hornetq management commands', () => {
  useCli();

  let url: string[] = [];
  beforeEach(async () => {
    const { port } = await startServer();
    url = ['--url', `tcp://127.0.0.1:${port}`];
  });

  test('help lists the new commands and their options', async () => {
    const top = await runCli(['--help']);
    expect(top.stdout).toMatch(/^\s+connection\s+list and close the client connections/m);
    expect(top.stdout).toMatch(/^\s+subscription\s+list a topic's subscriptions/m);
    const queue = await runCli(['queue', '--help']);
    for (const command of ['browse', 'move', 'retry', 'pause', 'resume']) {
      expect(queue.stdout).toMatch(new RegExp(`^\\s+${command} `, 'm'));
    }
    const browse = await runCli(['queue', 'browse', '--help']);
    expect(browse.stdout).toMatch(/--limit <n>/);
    expect(browse.stdout).toMatch(/--filter <selector>/);
    expect(browse.stdout).toMatch(
      /--dialect <server>.*\(choices: "hornetq", "artemis", default: "hornetq"\)/s,
    );
    expect(browse.stdout).toMatch(/--json/);
  });

  test('a server that does not answer in that dialect: one error line after --timeout, exit 1', async () => {
    const started = Date.now();
    const result = await runCli([
      'queue',
      'pause',
      'ExampleQueue',
      '--dialect',
      'artemis',
      '--timeout',
      '300',
      ...url,
    ]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(
        /^error: the broker at tcp:\/\/127\.0\.0\.1:\d+ could not pause queue ExampleQueue: queue\.ExampleQueue pause: no answer from activemq\.management within 300 ms /,
      ),
    ]);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  test('a --filter that is not a JMS selector is refused before anything is sent', async () => {
    const result = await runCli(['queue', 'move', 'ExampleQueue', 'DLQ', '--filter', "region = 'EU", ...url]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(/^error: --filter 'region = 'EU' is not a valid JMS selector: /),
    ]);
  });

  test('an unknown dialect, a bad limit: commander says which option and value', async () => {
    const dialect = await runCli(['connection', 'list', '--dialect', 'qpid', ...url]);
    expect(dialect).toMatchObject({ code: 1, stdout: '' });
    expect(dialect.stderr).toMatch(/option '--dialect <server>' argument 'qpid' is invalid/);
    const limit = await runCli(['queue', 'browse', 'ExampleQueue', '--limit', '0', ...url]);
    expect(limit).toMatchObject({ code: 1, stdout: '' });
    expect(limit.stderr).toMatch(/option '--limit <n>' argument '0' is invalid/);
  });
});
