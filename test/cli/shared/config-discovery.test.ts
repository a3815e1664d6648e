import { promises as fs } from 'node:fs';
import path from 'node:path';
import { freePort, lines, ROOT, runCli, spawnCli, tempDir, useCli, writeConfig } from '../support';

useCli();

/** No HORNETQ_CONFIG from the environment the tests run in. */
const NO_ENV = { HORNETQ_CONFIG: undefined };

/** A folder with `config/` in it, holding a broker on `port` that binds `/queue/<queue>`. */
async function projectWithConfig(port: number, queue: string): Promise<string> {
  const project = await tempDir();
  const made = await writeConfig(port, [queue]);
  await fs.cp(made, path.join(project, 'config'), { recursive: true });
  return project;
}

describe('which configuration the commands read: --config, HORNETQ_CONFIG, ./config, the package', () => {
  test("after `config init`, `user add` writes ./config/hornetq-users.xml, not the package's", async () => {
    const project = await tempDir();
    const place = { cwd: project, env: NO_ENV };
    const init = await runCli(['config', 'init'], undefined, place);
    expect(init.code).toBe(0);
    expect(lines(init.stdout)).toContain(
      'next: hornetq config check && hornetq server (every command run here reads ./config)',
    );
    const added = await runCli(
      ['user', 'add', 'bob', '--password', 'pw', '--role', 'reader'],
      undefined,
      place,
    );
    expect(added.code).toBe(0);
    const local = path.join(await fs.realpath(project), 'config');
    expect(lines(added.stderr)).toContain(`configuration: ${local} (config/ in the working directory)`);
    expect(await fs.readFile(path.join(local, 'hornetq-users.xml'), 'utf8')).toContain('"bob"');
    expect(await fs.readFile(path.join(ROOT, 'config', 'hornetq-users.xml'), 'utf8')).not.toContain('"bob"');
  });

  test('a broker and a producer started beside ./config both use it: its queue is known', async () => {
    const port = await freePort();
    const project = await projectWithConfig(port, 'LocalOnly');
    const place = { cwd: project, env: NO_ENV };
    const server = spawnCli(['server', '--data-dir', project], place);
    await server.waitForOutput(new RegExp(`listening on tcp://127\\.0\\.0\\.1:${port}`));
    expect(server.stdout).toContain('config/ in the working directory');
    const sent = await runCli(
      ['producer', '--destination', '/queue/LocalOnly', '--count', '3'],
      undefined,
      place,
    );
    expect(sent).toMatchObject({ code: 0 });
    expect(sent.stdout).toMatch(/^sent 3 messages in .* to queue:\/\/LocalOnly$/m);
    const listed = await runCli(['jndi', 'list'], undefined, place);
    expect(listed.stdout).toContain('/queue/LocalOnly');
  });

  test('HORNETQ_CONFIG wins over ./config, and --config over both', async () => {
    const project = await projectWithConfig(await freePort(), 'LocalOnly');
    const fromEnv = await writeConfig(await freePort(), ['FromEnv']);
    const fromFlag = await writeConfig(await freePort(), ['FromFlag']);
    const place = { cwd: project, env: { HORNETQ_CONFIG: fromEnv } };

    const byEnv = await runCli(['jndi', 'list'], undefined, place);
    expect(byEnv.stdout).toContain('/queue/FromEnv');
    expect(byEnv.stdout).not.toContain('/queue/LocalOnly');
    expect(lines(byEnv.stderr)).toEqual([`configuration: ${fromEnv} (from HORNETQ_CONFIG)`]);

    const byFlag = await runCli(['jndi', 'list', '--config', fromFlag], undefined, place);
    expect(byFlag.stdout).toContain('/queue/FromFlag');
    expect(byFlag.stdout).not.toContain('/queue/FromEnv');
    // Named by the user: nothing to announce.
    expect(byFlag.stderr).toBe('');
  });

  test("without any of them, the package's own config/, said so; a ./config without the files is passed over", async () => {
    const project = await tempDir();
    await fs.mkdir(path.join(project, 'config'));
    await fs.writeFile(path.join(project, 'config', 'unrelated.txt'), 'not a broker configuration');
    const listed = await runCli(['jndi', 'list'], undefined, { cwd: project, env: NO_ENV });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('/queue/ExampleQueue');
    expect(lines(listed.stderr)).toEqual([
      `configuration: ${path.join(ROOT, 'config')} (the package's own: \`hornetq config init\` makes one to edit)`,
    ]);
  });

  test('a HORNETQ_CONFIG folder that does not exist is an error naming the variable', async () => {
    const missing = path.join(await tempDir(), 'nowhere');
    const result = await runCli(['jndi', 'list'], undefined, { env: { HORNETQ_CONFIG: missing } });
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      `error: configuration folder ${missing} (from HORNETQ_CONFIG) does not exist`,
    ]);
  });
});
