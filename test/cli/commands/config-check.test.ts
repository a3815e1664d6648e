import { promises as fs } from 'node:fs';
import path from 'node:path';
import { freePort, lines, ROOT, runCli, tempDir, useCli, writeConfig } from '../support';

/**
 * `hornetq config check [DIR]`: the three files of a folder read as the broker reads them, without
 * starting one; every problem as `error: file:line: ...`, warnings as `warning: ...`.
 */
describe('hornetq config check', () => {
  useCli();

  /** The shipped config/ copied, each file changed by its edit. */
  async function configWith(edits: Partial<Record<string, (text: string) => string>>): Promise<string> {
    const dir = await tempDir();
    for (const name of ['hornetq-configuration.xml', 'hornetq-jms.xml', 'hornetq-users.xml']) {
      const text = await fs.readFile(path.join(ROOT, 'config', name), 'utf8');
      await fs.writeFile(path.join(dir, name), (edits[name] ?? ((same: string) => same))(text));
    }
    return dir;
  }

  test("the package's config/ is ok, one line per file", async () => {
    const result = await runCli(['config', 'check']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const dir = path.join(ROOT, 'config');
    expect(lines(result.stdout)).toEqual([
      `ok: ${path.join(dir, 'hornetq-configuration.xml')}`,
      `ok: ${path.join(dir, 'hornetq-jms.xml')}`,
      `ok: ${path.join(dir, 'hornetq-users.xml')}`,
    ]);
  });

  test('the folder a test broker runs from is ok too', async () => {
    const dir = await writeConfig(await freePort(), ['orders']);
    const result = await runCli(['config', 'check', dir]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(lines(result.stdout)).toHaveLength(3);
  });

  test('every problem of every file, with file:line, and a misspelt element gets "did you mean"', async () => {
    const dir = await configWith({
      'hornetq-configuration.xml': (text) =>
        text.replace(
          '<security-enabled>true</security-enabled>',
          '<security-enabled>maybe</security-enabled>',
        ),
      'hornetq-jms.xml': (text) => text.replaceAll('confirmation-window-size>', 'confirmation-window-sze>'),
      'hornetq-users.xml': (text) => text.replace('<role name="demo"/>', '<rol name="demo"/>'),
    });
    const result = await runCli(['-v', 'config', 'check', dir]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    const file = (name: string): string => path.join(dir, name).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    // -v adds nothing: each problem is said once, with no stack.
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^error: ${file('hornetq-configuration.xml')}:\\d+: <security-enabled> must be true or false`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^error: ${file('hornetq-jms.xml')}:\\d+: <confirmation-window-sze> is not allowed in <connection-factory>: did you mean <confirmation-window-size>\\?$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^error: ${file('hornetq-users.xml')}:\\d+: <rol> is not allowed in <user>: did you mean <role>\\?$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(`^error: ${file('hornetq-users.xml')}:\\d+: <user> needs at least one <role`),
      ),
    ]);
  });

  test('a misspelt attribute gets "did you mean" in either file (and is one mistake, not two)', async () => {
    const dir = await configWith({
      'hornetq-configuration.xml': (text) =>
        text.replace('<permission type="send" roles="demo"/>', '<permission type="send" role="demo"/>'),
      'hornetq-jms.xml': (text) => text.replace('<queue name="DLQ">', '<queue nme="DLQ">'),
    });
    const result = await runCli(['config', 'check', dir]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    const at = (name: string): string =>
      `^error: ${path.join(dir, name).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+: `;
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `${at('hornetq-configuration.xml')}<permission> has an unknown attribute 'role': did you mean 'roles'\\?$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(`${at('hornetq-jms.xml')}<queue> has an unknown attribute 'nme': did you mean 'name'\\?$`),
      ),
    ]);
  });

  test('malformed XML is an error at its line', async () => {
    const dir = await configWith({ 'hornetq-jms.xml': (text) => text.replace('</configuration>', '') });
    const result = await runCli(['config', 'check', dir]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(lines(result.stderr)).toEqual([expect.stringMatching(/^error: .*hornetq-jms\.xml(:\d+)?: /)]);
  });

  test('warnings go to stderr, the files are still ok', async () => {
    const dir = await configWith({
      'hornetq-configuration.xml': (text) =>
        text.replace('</configuration>', '   <journal-type>ASYNCIO</journal-type>\n</configuration>'),
    });
    const result = await runCli(['config', 'check', dir]);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toHaveLength(3);
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(/^warning: .*hornetq-configuration\.xml:\d+: <journal-type> is not used here/),
    ]);
  });

  test('a folder without the files is one error line', async () => {
    const missing = await runCli(['config', 'check', '/no/such/folder']);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(lines(missing.stderr)).toEqual(['error: configuration folder /no/such/folder does not exist']);
    const empty = await tempDir();
    const none = await runCli(['config', 'check', empty]);
    expect(none).toMatchObject({ code: 1, stdout: '' });
    expect(lines(none.stderr)).toEqual([`error: configuration folder ${empty} has no hornetq-jms.xml`]);
  });
  /** A regular expression for `error: FILE:LINE: ` (LINE any) of `name` in `dir`. */
  const errorIn = (dir: string, name: string): string =>
    `^error: ${path.join(dir, name).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+: `;

  test("two broken files are reported at once: the server file's errors hide neither the JMS file's nor make up a missing file", async () => {
    const dir = await configWith({
      // An acceptor whose password comes from a variable nobody set ...
      'hornetq-configuration.xml': (text) =>
        text.replace(
          '<param key="port" value="${hornetq.remoting.netty.port:5445}"/>\n      </acceptor>',
          '<param key="port" value="${hornetq.remoting.netty.port:5445}"/>\n         <param key="ssl-enabled" value="true"/>\n         <param key="key-store-path" value="server.p12"/>\n         <param key="key-store-password" value="${store.password}"/>\n      </acceptor>',
        ),
      // ... and a connector-ref to a connector the server file does not define.
      'hornetq-jms.xml': (text) =>
        text.replace('<connector-ref connector-name="netty"/>', '<connector-ref connector-name="nety"/>'),
    });
    const result = await runCli(['config', 'check', dir]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    // Before: only "<param> attribute 'value' must not be empty" and the warning "no hornetq-configuration.xml was given".
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `${errorIn(dir, 'hornetq-configuration.xml')}\\$\\{store\\.password\\} is not set: set the environment variable STORE_PASSWORD \\(or store\\.password\\), or give a default in the file as \\$\\{store\\.password:value\\}`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `${errorIn(dir, 'hornetq-jms.xml')}<connector-ref> Connector 'nety' not found on the main configuration file`,
        ),
      ),
    ]);
  });

  test("a connector-ref to a connector in error is left to the server file's error", async () => {
    const dir = await configWith({
      'hornetq-configuration.xml': (text) =>
        text.replace(
          '<param key="port" value="${hornetq.remoting.netty.port:5445}"/>\n      </connector>',
          '<param key="port" value="fifty-four"/>\n      </connector>',
        ),
    });
    const result = await runCli(['config', 'check', dir]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(`${errorIn(dir, 'hornetq-configuration.xml')}<param> key 'port' requires a valid Integer`),
      ),
    ]);
  });

  test('roles separated by a blank no longer pass as one role: the error says how to write them', async () => {
    const dir = await configWith({
      'hornetq-configuration.xml': (text) =>
        text.replace(
          '<permission type="send" roles="demo"/>',
          '<permission type="send" roles="admin demo"/>',
        ),
    });
    const result = await runCli(['config', 'check', dir]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    // Before: "ok" for all three files, and a broker that let nobody send.
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `${errorIn(dir, 'hornetq-configuration.xml')}<permission> roles="admin demo": roles are separated by commas: did you mean roles="admin, demo"\\?$`,
        ),
      ),
    ]);
  });
});
