import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  CLI,
  freePort,
  lines,
  runProgram,
  spawnCli,
  statRow,
  useCli,
  writeConfig,
  type CliResult,
} from '../support';

/**
 * The shipped config/ runs with security on: the commands log in (--user/--password, or
 * HORNETQ_USER/HORNETQ_PASSWORD), a refused login or operation is one line saying what to do,
 * and the broker's log names who failed from where, never the password.
 */

/** Runs `hornetq ...args` with exactly these login variables (none when empty). */
function runAs(login: Record<string, string>, args: string[]): Promise<CliResult> {
  const assignments = Object.entries(login).map(([name, value]) => `${name}=${value}`);
  return runProgram('/usr/bin/env', [
    ...['-u', 'HORNETQ_USER', '-u', 'HORNETQ_PASSWORD'],
    ...assignments,
    process.execPath,
    CLI,
    ...args,
  ]);
}

const READER_SETTING = `
      <security-setting match="jms.queue.ExampleQueue">
         <permission type="consume" roles="demo, reader"/>
         <permission type="send" roles="demo"/>
         <permission type="createNonDurableQueue" roles="demo"/>
         <permission type="deleteNonDurableQueue" roles="demo"/>
      </security-setting>
`;

/** The shipped config/ plus a user "reader" (password "r3ader") who may only consume ExampleQueue. */
async function configWithReader(port: number): Promise<string> {
  const dir = await writeConfig(port);
  const server = path.join(dir, 'hornetq-configuration.xml');
  const xml = await fs.readFile(server, 'utf8');
  await fs.writeFile(server, xml.replace('</security-settings>', `${READER_SETTING}</security-settings>`));
  const added = await runAs({ HORNETQ_PASSWORD: 'r3ader' }, [
    ...['user', 'add', 'reader', '--role', 'reader', '--config', dir],
  ]);
  expect(added.code).toBe(0);
  return dir;
}

describe('hornetq with security on (the shipped config/)', () => {
  useCli();

  test('logins: none, a wrong password, the demo user; a refused operation is one line; the log names who and where, never the password', async () => {
    const port = await freePort();
    const dir = await configWithReader(port);
    const server = spawnCli(['server', '--config', dir, '--data-dir', dir]);
    await server.waitForOutput(new RegExp(`listening on tcp://127\\.0\\.0\\.1:${port}`));
    const url = `tcp://127.0.0.1:${port}`;

    const anonymous = await runAs({}, ['producer', '--url', url, '--count', '1']);
    expect(anonymous.code).toBe(1);
    expect(lines(anonymous.stderr)).toEqual([
      `error: cannot connect to ${url}: Unable to validate user: (none) (the broker has security enabled: give --user and --password, or set HORNETQ_USER and HORNETQ_PASSWORD)`,
    ]);

    const wrong = await runAs({}, [
      'producer',
      '--url',
      url,
      '--user',
      'demo',
      '--password',
      'n0t-it',
      '--count',
      '1',
    ]);
    expect(wrong.code).toBe(1);
    expect(lines(wrong.stderr)).toEqual([
      `error: cannot connect to ${url}: Unable to validate user: demo (check the password of user demo: --password or HORNETQ_PASSWORD)`,
    ]);

    const sent = await runAs({ HORNETQ_USER: 'demo', HORNETQ_PASSWORD: 'demo' }, [
      ...['producer', '--url', url, '--count', '3'],
    ]);
    expect(sent.code).toBe(0);

    const reader = { HORNETQ_USER: 'reader', HORNETQ_PASSWORD: 'r3ader' };
    const refusedSend = await runAs(reader, ['producer', '--url', url, '--count', '1']);
    expect(refusedSend.code).toBe(1);
    expect(refusedSend.stderr).toContain(
      "User: reader doesn't have permission='send' on address jms.queue.ExampleQueue",
    );
    const refusedStat = await runAs(reader, ['queue', 'stat', '--url', url]);
    expect(refusedStat.code).toBe(1);
    expect(refusedStat.stderr).toContain(
      "User: reader doesn't have permission='manage' on address jms.queue.hornetq.management",
    );
    const consumed = await runAs(reader, ['consumer', '--url', url, '--count', '3']);
    expect(consumed).toMatchObject({ code: 0, stderr: '' });

    const stat = await runAs({ HORNETQ_USER: 'demo', HORNETQ_PASSWORD: 'demo' }, [
      'queue',
      'stat',
      '--url',
      url,
    ]);
    expect(stat.code).toBe(0);
    expect(statRow(stat.stdout, 'jms.queue.ExampleQueue')).toMatchObject({ MESSAGES: 0, ADDED: 3 });

    const log = (await server.stop('SIGTERM')).stdout;
    expect(log).toMatch(/login refused for user \(none: the default user\) from tcp:\/\/127\.0\.0\.1:\d+/);
    expect(log).toMatch(/login refused for user \\"demo\\" from tcp:\/\/127\.0\.0\.1:\d+/);
    expect(log).not.toContain('n0t-it');
    expect(log).not.toContain('r3ader');
  });
});
