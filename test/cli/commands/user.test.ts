import { promises as fs } from 'node:fs';
import path from 'node:path';
import { loadUsersConfiguration } from '../../../src/jndi/config/users-xml-reader';
import { FileSecurityManager } from '../../../src/server/security/file-security-manager';
import { CLI, lines, runCli, runProgram, tempDir, useCli } from '../support';

const SECRET = 'correct horse battery staple';

/** The users file of `dir`, read as the broker would. */
async function managerOf(dir: string): Promise<FileSecurityManager> {
  return new FileSecurityManager(
    await loadUsersConfiguration(path.join(dir, 'hornetq-users.xml'), { env: {} }),
  );
}

describe('hornetq user', () => {
  useCli();

  test('add creates hornetq-users.xml with an scrypt hash; the password logs in, a wrong one does not', async () => {
    const dir = await tempDir();
    const result = await runCli([
      'user',
      'add',
      'bob',
      '--role',
      'admin',
      '--role',
      'guest',
      '--password',
      SECRET,
      '--config',
      dir,
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      `user 'bob' added to ${path.join(dir, 'hornetq-users.xml')} with roles admin, guest\n`,
    );
    const text = await fs.readFile(path.join(dir, 'hornetq-users.xml'), 'utf8');
    expect(text).toMatch(/<user name="bob" password="scrypt:N=16384,r=8,p=1:[^"]+">/);
    expect(text).not.toContain(SECRET);
    expect((await fs.stat(path.join(dir, 'hornetq-users.xml'))).mode & 0o777).toBe(0o600);
    const manager = await managerOf(dir);
    expect(await manager.authenticate('bob', SECRET, 'test')).toEqual({
      user: 'bob',
      roles: new Set(['admin', 'guest']),
    });
    expect(await manager.authenticate('bob', 'wrong', 'test')).toBeNull();
  });

  test('the password may come from HORNETQ_PASSWORD; with neither, add refuses', async () => {
    const dir = await tempDir();
    const refused = await runProgram('/usr/bin/env', [
      '-u',
      'HORNETQ_PASSWORD',
      process.execPath,
      CLI,
      ...['user', 'add', 'bob', '--role', 'admin', '--config', dir],
    ]);
    expect(refused).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'error: no password: give --password PASSWORD or set HORNETQ_PASSWORD\n',
    });
    await expect(fs.access(path.join(dir, 'hornetq-users.xml'))).rejects.toThrow();

    // Through env(1): jest gives each test file a copy of process.env, which children do not see.
    const args = [
      `HORNETQ_PASSWORD=${SECRET}`,
      process.execPath,
      CLI,
      'user',
      'add',
      'bob',
      '--role',
      'admin',
    ];
    expect(await runProgram('/usr/bin/env', [...args, '--config', dir])).toMatchObject({
      code: 0,
    });
    expect(await (await managerOf(dir)).authenticate('bob', SECRET, 'test')).not.toBeNull();
  });

  test('add keeps the other users and the default user, and refuses a name already there', async () => {
    const dir = await tempDir();
    await fs.writeFile(
      path.join(dir, 'hornetq-users.xml'),
      `<configuration xmlns="urn:hornetq">
   <!-- the default user.  this is used where username is null-->
   <defaultuser name="guest" password="guest"><role name="guest"/></defaultuser>
   <user name="carol" password="plain"><role name="reader"/></user>
</configuration>`,
    );
    const added = await runCli([
      'user',
      'add',
      'bob',
      '--role',
      'admin',
      '--password',
      SECRET,
      '--config',
      dir,
    ]);
    expect(added.code).toBe(0);
    // The file's warning (the default user has a password) is passed on, naming file and line.
    expect(added.stderr).toMatch(/^warning: .*hornetq-users\.xml:3: <defaultuser> has a password/);
    const manager = await managerOf(dir);
    expect(await manager.authenticate('guest', 'guest', 'test')).not.toBeNull();
    expect(await manager.authenticate('carol', 'plain', 'test')).not.toBeNull();
    expect(await manager.authenticate('bob', SECRET, 'test')).not.toBeNull();
    expect(await fs.readdir(dir)).toEqual(['hornetq-users.xml']);

    for (const name of ['bob', 'guest']) {
      const again = await runCli([
        'user',
        'add',
        name,
        '--role',
        'x',
        '--password',
        'other',
        '--config',
        dir,
      ]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(
        new RegExp(`error: user '${name}' already exists in .* \\(remove it first`),
      );
    }
    expect(await manager.authenticate('bob', SECRET, 'test')).not.toBeNull();
  });

  test('rewriting a file that every account could read takes that away and says so; its group keeps its bits', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'hornetq-users.xml');
    await fs.writeFile(
      file,
      '<configuration xmlns="urn:hornetq"><user name="carol" password="plain"><role name="r"/></user></configuration>',
    );
    await fs.chmod(file, 0o664);
    const added = await runCli(['user', 'add', 'bob', '--role', 'a', '--password', SECRET, '--config', dir]);
    expect(added).toMatchObject({ code: 0 });
    expect(added.stderr).toBe(
      `note: ${file} was readable by every user of this machine (mode 0664); it is 0660 now\n`,
    );
    expect((await fs.stat(file)).mode & 0o777).toBe(0o660);
    const removed = await runCli(['user', 'remove', 'bob', '--config', dir]);
    expect(removed).toMatchObject({ code: 0, stderr: '' });
    expect((await fs.stat(file)).mode & 0o777).toBe(0o660);
  });

  test('list prints names and roles, never passwords or hashes', async () => {
    const dir = await tempDir();
    await fs.writeFile(
      path.join(dir, 'hornetq-users.xml'),
      `<configuration xmlns="urn:hornetq">
   <defaultuser name="guest" password=""><role name="guest"/></defaultuser>
   <user name="carol" password="plain-secret"><role name="reader"/><role name="ops"/></user>
</configuration>`,
    );
    expect(
      await runCli(['user', 'add', 'bob', '--role', 'admin', '--password', SECRET, '--config', dir]),
    ).toMatchObject({ code: 0 });
    const listed = await runCli(['user', 'list', '--config', dir]);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(lines(listed.stdout).map((line) => line.trimEnd())).toEqual([
      'USER             ROLES',
      'guest (default)  guest',
      'carol            reader, ops',
      'bob              admin',
    ]);
    expect(listed.stdout).not.toMatch(/plain-secret|scrypt|correct horse/);
    const empty = await tempDir();
    expect(lines((await runCli(['user', 'list', '--config', empty])).stdout)).toEqual(['USER  ROLES']);
  });

  test('remove takes out a user or the default user, and says when there is none', async () => {
    const dir = await tempDir();
    for (const name of ['bob', 'dave']) {
      expect(
        await runCli(['user', 'add', name, '--role', 'admin', '--password', SECRET, '--config', dir]),
      ).toMatchObject({ code: 0 });
    }
    const removed = await runCli(['user', 'remove', 'bob', '--config', dir]);
    expect(removed).toMatchObject({ code: 0, stderr: '' });
    expect(removed.stdout).toBe(`user 'bob' removed from ${path.join(dir, 'hornetq-users.xml')}\n`);
    const manager = await managerOf(dir);
    expect(await manager.authenticate('bob', SECRET, 'test')).toBeNull();
    expect(await manager.authenticate('dave', SECRET, 'test')).not.toBeNull();

    const missing = await runCli(['user', 'remove', 'bob', '--config', dir]);
    expect(missing).toMatchObject({
      code: 1,
      stderr: `error: ${path.join(dir, 'hornetq-users.xml')} has no user 'bob'\n`,
    });

    await fs.writeFile(
      path.join(dir, 'hornetq-users.xml'),
      `<configuration xmlns="urn:hornetq"><defaultuser name="guest" password=""><role name="guest"/></defaultuser></configuration>`,
    );
    expect((await runCli(['user', 'remove', 'guest', '--config', dir])).stdout).toMatch(
      /^default user 'guest' removed/,
    );
    expect(
      (await loadUsersConfiguration(path.join(dir, 'hornetq-users.xml'), { env: {} })).defaultUser,
    ).toBeNull();
  });

  test('mistakes are one line each: no role, bad names, no folder, a broken file (left as it was), placeholders', async () => {
    const dir = await tempDir();
    const run = (args: string[]): Promise<{ code: number | null; stderr: string }> =>
      runCli(['user', ...args, '--config', dir]);
    expect(await run(['add', 'bob', '--password', SECRET])).toMatchObject({
      code: 1,
      stderr: 'error: a user needs at least one role: give --role ROLE\n',
    });
    expect((await run(['add', ' bob', '--role', 'a', '--password', SECRET])).stderr).toBe(
      'error: the user name " bob" must be non-empty, without blanks around it or control characters\n',
    );
    expect((await run(['add', 'bob', '--role', '', '--password', SECRET])).stderr).toMatch(
      /the role "" must be non-empty/,
    );
    // HornetQ splits a permission's roles on commas: "admin demo" would be one role nobody is granted.
    expect((await run(['add', 'bob', '--role', 'admin demo', '--password', SECRET])).stderr).toBe(
      'error: the role "admin demo" has a blank or comma inside: give each role its own --role (--role admin --role demo)\n',
    );
    expect((await run(['add', 'bob', '--role', 'a', '--password', ''])).stderr).toBe(
      'error: the password is empty\n',
    );
    const nowhere = path.join(dir, 'nowhere');
    expect((await runCli(['user', 'list', '--config', nowhere])).stderr).toBe(
      `error: configuration folder ${nowhere} does not exist\n`,
    );

    const file = path.join(dir, 'hornetq-users.xml');
    const broken = `<configuration xmlns="urn:hornetq">\n  <user name="x" password="${SECRET}"/>\n</configuration>`;
    await fs.writeFile(file, broken);
    const refused = await run(['add', 'bob', '--role', 'a', '--password', 'pw']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`error: ${file}:2: <user> needs at least one <role name="..."/>\n`);
    expect(refused.stderr).not.toContain(SECRET);
    expect(await fs.readFile(file, 'utf8')).toBe(broken);

    await fs.writeFile(
      file,
      `<configuration xmlns="urn:hornetq"><user name="x" password="\${P}"><role name="r"/></user></configuration>`,
    );
    expect((await run(['remove', 'x'])).stderr).toBe(
      `error: ${file} has \${...} placeholders, which rewriting it would lose: edit it by hand\n`,
    );
  });
});
