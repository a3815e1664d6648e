import { promises as fs } from 'node:fs';
import path from 'node:path';
import { freePort, lines, ROOT, runCli, spawnCli, tempDir, useCli } from '../support';

/** `hornetq config init [DIR]`: the shipped configuration copied for an application to edit. */
describe('hornetq config init', () => {
  useCli();
  const FILES = ['hornetq-configuration.xml', 'hornetq-jms.xml', 'hornetq-users.xml'];

  test('writes the three shipped files, says what to run next and warns of the demo user; the copy checks ok and runs', async () => {
    const dir = path.join(await tempDir(), 'my-config');
    const result = await runCli(['config', 'init', dir]);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual([
      `wrote ${FILES.join(', ')} to ${dir}`,
      `next: hornetq config check ${dir} && hornetq server --config ${dir} (or set HORNETQ_CONFIG=${dir})`,
    ]);
    expect(result.stderr).toMatch(
      /^warning: .*hornetq-users\.xml has the demo user .*hornetq user remove demo/,
    );
    for (const file of FILES) {
      expect(await fs.readFile(path.join(dir, file), 'utf8')).toBe(
        await fs.readFile(path.join(ROOT, 'config', file), 'utf8'),
      );
    }
    // Passwords get added to the users file: readable by its owner only, unlike the package's copy.
    expect((await fs.stat(path.join(dir, 'hornetq-users.xml'))).mode & 0o777).toBe(0o600);
    expect((await runCli(['config', 'check', dir])).code).toBe(0);
    const port = await freePort();
    const server = spawnCli(['server', '--config', dir, '--data-dir', dir, '--port', String(port)]);
    await server.waitForOutput(new RegExp(`listening on tcp://localhost:${port}`));
    expect((await runCli(['queue', 'stat', 'ExampleQueue', '--port', String(port)])).code).toBe(0);
  });

  test('refuses to overwrite, naming the files, and changes nothing; --force overwrites', async () => {
    const dir = await tempDir();
    const edited = path.join(dir, 'hornetq-jms.xml');
    await fs.writeFile(edited, '<configuration xmlns="urn:hornetq"/>\n');
    const refused = await runCli(['config', 'init', dir]);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toBe(`error: ${edited} already exists (--force overwrites)\n`);
    expect(await fs.readFile(edited, 'utf8')).toBe('<configuration xmlns="urn:hornetq"/>\n');
    expect(await fs.readdir(dir)).toEqual(['hornetq-jms.xml']);

    const users = path.join(dir, 'hornetq-users.xml');
    await fs.writeFile(users, '<configuration xmlns="urn:hornetq"/>\n');
    await fs.chmod(users, 0o644);
    expect((await runCli(['config', 'init', dir, '--force'])).code).toBe(0);
    expect(await fs.readFile(edited, 'utf8')).toBe(
      await fs.readFile(path.join(ROOT, 'config', 'hornetq-jms.xml'), 'utf8'),
    );
    expect((await fs.stat(users)).mode & 0o777).toBe(0o600);
  });

  test("refuses the package's own config/ as the target", async () => {
    const result = await runCli(['config', 'init', path.join(ROOT, 'config'), '--force']);
    expect(result).toMatchObject({ code: 1 });
    expect(result.stderr).toBe(
      `error: ${path.join(ROOT, 'config')} is the package's own config/: name another folder\n`,
    );
  });
});
