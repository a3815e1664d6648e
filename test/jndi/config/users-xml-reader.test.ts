import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigurationException } from '../../../src/jndi';
import { loadUsersConfiguration, parseUsersConfiguration } from '../../../src/jndi/config/users-xml-reader';
import { formatUsersFile, writeUsersFile } from '../../../src/jndi/config/users-xml-writer';
import { FileSecurityManager } from '../../../src/server/security/file-security-manager';
import { hashPassword } from '../../../src/server/security/password-hash';

const FILE = '/etc/hornetq/hornetq-users.xml';
const SECRET = 'Tr0ub4dor&3';

const parse = (
  source: string,
  env: Record<string, string> = {},
): ReturnType<typeof parseUsersConfiguration> => parseUsersConfiguration(source, FILE, { env });

/** The problems parsing `source` reports, as `file:line: message` lines. */
function problems(source: string): string[] {
  try {
    parse(source);
  } catch (error) {
    if (error instanceof ConfigurationException) return error.message.split('\n');
    throw error;
  }
  throw new Error('expected a ConfigurationException');
}

/** `users` on lines 2.. of a file. */
const file = (users: string): string => `<configuration xmlns="urn:hornetq">\n${users}\n</configuration>`;

describe('hornetq-users.xml', () => {
  test("reads HornetQ 2.4's shipped file: the default user guest/guest", () => {
    const users =
      parse(`<configuration xmlns="urn:hornetq" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
            xsi:schemaLocation="urn:hornetq /schema/hornetq-users.xsd">
   <!-- the default user.  this is used where username is null-->
   <defaultuser name="guest" password="guest">
      <role name="guest"/>
   </defaultuser>
</configuration>`);
    expect(users.defaultUser).toEqual({ name: 'guest', password: 'guest', roles: ['guest'], line: 4 });
    expect(users.users).toEqual([]);
    // The default user has a password, which clients giving no name must now give.
    expect(users.warnings.map((w) => `${w.line}: ${w.message}`)).toEqual([
      `4: <defaultuser> has a password: clients that give no user name log in as 'guest' only with that password (HornetQ let them in without one when it was the user's name); password="" lets them in without one`,
    ]);
  });

  test('reads users with hashed and plain-text passwords, roles in order, placeholders filled', async () => {
    const hash = await hashPassword(SECRET, { N: 1024 });
    const users = parse(
      file(`  <defaultuser name="anon" password=""><role name="guest"/></defaultuser>
  <user name="bob" password="${hash}">
    <role name="admin"/>
    <role name="guest"/>
    <role name="admin"/>
  </user>
  <user name="carol" password="\${CAROL_PASSWORD}"><role name="reader"/></user>`),
      { CAROL_PASSWORD: 'from-env' },
    );
    expect(users.warnings).toEqual([]);
    expect(users.defaultUser).toEqual({ name: 'anon', password: '', roles: ['guest'], line: 2 });
    expect(users.users).toEqual([
      { name: 'bob', password: hash, roles: ['admin', 'guest'], line: 3 },
      { name: 'carol', password: 'from-env', roles: ['reader'], line: 8 },
    ]);
    const manager = new FileSecurityManager(users);
    expect(await manager.authenticate('bob', SECRET, 'test')).toEqual({
      user: 'bob',
      roles: new Set(['admin', 'guest']),
    });
    expect(await manager.authenticate('carol', 'from-env', 'test')).not.toBeNull();
    expect(await manager.authenticate(null, null, 'test')).toEqual({
      user: 'anon',
      roles: new Set(['guest']),
    });
  });

  test('an empty file has no users', () => {
    expect(parse('<configuration xmlns="urn:hornetq"/>')).toMatchObject({ defaultUser: null, users: [] });
  });

  test('every mistake is reported with file:line, all at once', () => {
    expect(
      problems(
        file(`  <user name="bob" password="a"><role name="admin"/></user>
  <user name="bob" password="b"><role name="admin"/></user>
  <user password="c"><role name="x"/></user>
  <user name="" password="c"><role name="x"/></user>
  <user name="dan" password="d"/>
  <user name="erin" password="e"><role/><role name=""/></user>
  <user name="frank" password="f" group="g"><role name="x"/><group name="y"/></user>
  <users/>
  <defaultuser name="bob" password="g"><role name="guest"/></defaultuser>`),
      ),
    ).toEqual([
      `${FILE}:9: <users> is not allowed in <configuration>: did you mean <user>?`,
      `${FILE}:3: <user> user 'bob' is already defined at line 2`,
      `${FILE}:4: <user> requires the attribute 'name'`,
      `${FILE}:5: <user> attribute 'name' must not be empty`,
      `${FILE}:6: <user> needs at least one <role name="..."/>`,
      `${FILE}:7: <role> requires the attribute 'name'`,
      `${FILE}:7: <role> attribute 'name' must not be empty`,
      `${FILE}:8: <user> has an unknown attribute 'group' (expected: name, password)`,
      `${FILE}:8: <group> is not allowed in <user> (expected one of: role)`,
      `${FILE}:10: <defaultuser> user 'bob' is already defined at line 2`,
    ]);
  });

  test('the default user counts among the users: its name cannot be used again', () => {
    expect(
      problems(
        file(`  <defaultuser name="guest" password=""><role name="guest"/></defaultuser>
  <user name="guest" password="x"><role name="admin"/></user>
  <defaultuser name="other" password=""><role name="guest"/></defaultuser>`),
      ),
    ).toEqual([
      `${FILE}:4: <defaultuser> may appear only once in <configuration> (first at line 2)`,
      `${FILE}:3: <user> user 'guest' is already defined at line 2`,
    ]);
  });

  test('a missing password is an error, not "no password"; the message says how to ask for none', () => {
    expect(problems(file(`  <user name="bob"><role name="admin"/></user>`))).toEqual([
      `${FILE}:2: <user> requires the attribute 'password' (password="" for none)`,
    ]);
  });

  test('passwords never appear in a message: a malformed hash, a bad root, bad XML', () => {
    const bad = `scrypt:N=1024,r=8,p=1:${SECRET}`;
    const messages = [
      ...problems(file(`  <user name="bob" password="${bad}"><role name="admin"/></user>`)),
      ...problems(
        file(`  <user name="bob" password="${SECRET}" password="${SECRET}"><role name="a"/></user>`),
      ),
      ...problems(file(`  <user name="bob" password="${SECRET}"><role name="a"/></usr>`)),
      ...problems(
        `<configuration xmlns="urn:hornetq"><user name="bob"password="${SECRET}"><role name="a"/></user></configuration>`,
      ),
    ];
    expect(messages[0]).toBe(
      `${FILE}:2: <user> attribute 'password' begins with 'scrypt:' but is not a hash of the form scrypt:N=<n>,r=<r>,p=<p>:<salt base64>:<key base64>`,
    );
    expect(messages.length).toBe(4);
    for (const message of messages) {
      expect(message).toMatch(/^\/etc\/hornetq\/hornetq-users\.xml:\d+: /);
      expect(message).not.toContain(SECRET);
    }
  });

  test("HornetQ's reversible masking is refused; password-codec without it is ignored with a warning", () => {
    expect(problems(file(`  <mask-password>true</mask-password>`))).toEqual([
      `${FILE}:2: <mask-password> true is not supported: HornetQ's masked passwords are reversible by anyone; store scrypt hashes instead (hornetq user add writes them)`,
    ]);
    expect(problems(file(`  <mask-password>maybe</mask-password>`))).toEqual([
      `${FILE}:2: <mask-password> must be true or false (actual value: 'maybe')`,
    ]);
    const users = parse(
      file(`  <mask-password>false</mask-password>\n  <password-codec>x.Codec</password-codec>`),
    );
    expect(users.warnings.map((w) => w.message)).toEqual([
      '<password-codec> is not used: mask-password is not true',
    ]);
  });

  test('the root must be HornetQ configuration', () => {
    expect(problems('<users xmlns="urn:hornetq"/>')).toEqual([
      `${FILE}:1: <users> is not a HornetQ configuration file: its root element must be <configuration>`,
    ]);
    expect(problems('<configuration xmlns="urn:other"/>')).toEqual([
      `${FILE}:1: <configuration> must be in namespace urn:hornetq (actual: urn:other)`,
    ]);
  });

  test('written files read back as the same users; loading from disk names the file', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hornetq-users-'));
    try {
      const target = path.join(dir, 'hornetq-users.xml');
      const accounts = {
        defaultUser: { name: 'guest', password: '', roles: ['guest'] },
        users: [
          { name: 'bob', password: await hashPassword(SECRET, { N: 1024 }), roles: ['admin', 'ops-team'] },
          { name: 'q"<&>\'', password: 'p"<&>\'\n', roles: ['r&d'] },
        ],
      };
      await writeUsersFile(target, accounts);
      expect(await fs.readFile(target, 'utf8')).toBe(formatUsersFile(accounts));
      expect((await fs.stat(target)).mode & 0o777).toBe(0o600);
      expect(await fs.readdir(dir)).toEqual(['hornetq-users.xml']);
      const read = await loadUsersConfiguration(target, { env: {} });
      expect(read.file).toBe(target);
      expect(read.warnings).toEqual([]);
      expect({ defaultUser: strip(read.defaultUser), users: read.users.map(strip) }).toEqual(accounts);

      await fs.writeFile(target, file(`  <user name="x"><role name="r"/></user>`));
      await expect(loadUsersConfiguration(target, { env: {} })).rejects.toThrow(
        `${target}:2: <user> requires the attribute 'password'`,
      );
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

function strip<T extends { line: number }>(user: T | null): Omit<T, 'line'> | null {
  if (user === null) return null;
  const { line: _line, ...rest } = user;
  return rest;
}
