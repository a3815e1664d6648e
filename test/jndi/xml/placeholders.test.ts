import { ConfigurationException } from '../../../src';
import { parseJmsConfiguration } from '../../../src/jndi/config/jms-config-parser';
import { parseServerConfiguration } from '../../../src/jndi/config/server-config-parser';
import { parseUsersConfiguration } from '../../../src/jndi/config/users-xml-reader';

/** The message of the ConfigurationException `parse` throws. */
function errorOf(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    if (ConfigurationException.is(error)) return error.message;
    throw error;
  }
  throw new Error('no ConfigurationException');
}

const connector = (port: string): string => `<configuration xmlns="urn:hornetq">
  <security-enabled>false</security-enabled>
  <connectors>
    <connector name="netty">
      <factory-class>org.hornetq.core.remoting.impl.netty.NettyConnectorFactory</factory-class>
      <param key="host" value="\${my.host:localhost}"/>
      <param key="port" value="${port}"/>
    </connector>
  </connectors>
</configuration>`;

const port = (source: string, env: Record<string, string>): number | undefined =>
  parseServerConfiguration(source, 'c.xml', { env }).connectors.get('netty')?.transport.port;

describe('${name} and ${name:default} placeholders', () => {
  test('the name as written wins, then the upper-cased name with . and - as _, then the default', () => {
    const source = connector('${hornetq.remoting.netty-port:5445}');
    expect(port(source, {})).toBe(5445);
    expect(port(source, { HORNETQ_REMOTING_NETTY_PORT: '6001' })).toBe(6001);
    expect(port(source, { HORNETQ_REMOTING_NETTY_PORT: '6001', 'hornetq.remoting.netty-port': '6002' })).toBe(
      6002,
    );
    expect(
      parseServerConfiguration(source, 'c.xml', { env: { MY_HOST: 'broker.example' } }).connectors.get(
        'netty',
      )?.transport.host,
    ).toBe('broker.example');
  });

  test('a placeholder with no value and no default is an error naming it, its line and the variable to set; the empty value it leaves is not reported again', () => {
    const source = (password: string): string => `<configuration xmlns="urn:hornetq">
<security-enabled>false</security-enabled>
<acceptors>
  <acceptor name="netty-ssl">
    <factory-class>org.hornetq.core.remoting.impl.netty.NettyAcceptorFactory</factory-class>
    <param key="ssl-enabled" value="true"/>
    <param key="key-store-path" value="server.p12"/>
    <param key="key-store-password"
           value="${password}"/>
  </acceptor>
</acceptors>
</configuration>`;
    // Before: "c.xml:8: <param> attribute 'value' must not be empty", which named neither the placeholder nor the variable.
    expect(errorOf(() => parseServerConfiguration(source('${store.password}'), 'c.xml', { env: {} }))).toBe(
      'c.xml:9: ${store.password} is not set: set the environment variable STORE_PASSWORD (or store.password), or give a default in the file as ${store.password:value} (${store.password:} for an empty value)',
    );
    const config = parseServerConfiguration(source('${store.password}'), 'c.xml', {
      env: { STORE_PASSWORD: 'secret' },
    });
    expect(config.acceptors[0]?.config).toMatchObject({ tls: { keyStorePassword: 'secret' } });
    // A name that is already a variable's is said once.
    expect(
      errorOf(() => parseServerConfiguration(source('${HORNETQ_STORE_PASSWORD}'), 'c.xml', { env: {} })),
    ).toMatch(
      /^c\.xml:9: \$\{HORNETQ_STORE_PASSWORD\} is not set: set the environment variable HORNETQ_STORE_PASSWORD, or/,
    );
  });

  test("every problem at once: the placeholder's and the rest of the file's", () => {
    const source = `<configuration xmlns="urn:hornetq">
<security-enabled>maybe</security-enabled>
<journal-directory>\${build.directory}/journal</journal-directory>
</configuration>`;
    expect(errorOf(() => parseServerConfiguration(source, 'c.xml', { env: {} })).split('\n')).toEqual([
      expect.stringMatching(
        /^c\.xml:3: \$\{build\.directory\} is not set: set the environment variable BUILD_DIRECTORY/,
      ),
      "c.xml:2: <security-enabled> must be true or false (actual value: 'maybe')",
    ]);
  });

  test("only the placeholder's own element is spared its follow-on errors, not another on the same line", () => {
    const source = `<configuration xmlns="urn:hornetq">
<security-enabled>false</security-enabled>
<journal-directory>\${data.dir}</journal-directory><journal-min-files>none</journal-min-files>
</configuration>`;
    expect(errorOf(() => parseServerConfiguration(source, 'c.xml', { env: {} })).split('\n')).toEqual([
      expect.stringMatching(/^c\.xml:3: \$\{data\.dir\} is not set: set the environment variable DATA_DIR/),
      expect.stringMatching(/^c\.xml:3: <journal-min-files> /),
    ]);
  });

  test('${name:} is an empty value on purpose; a placeholder in a comment is left as written', () => {
    const config = parseServerConfiguration(
      `<configuration xmlns="urn:hornetq">
<!-- \${not.a.value} and \${x} are only mentioned here -->
<security-enabled>false</security-enabled>
<journal-directory>\${build.directory:}journal</journal-directory>
</configuration>`,
      'c.xml',
      { env: { x: '-- ends a comment' } },
    );
    expect(config.persistence.journalDirectory).toBe('journal');
    expect(config.warnings).toEqual([]);
  });

  test('an unset password placeholder in hornetq-users.xml is an error, not an empty password that lets anyone in', () => {
    const users = `<configuration xmlns="urn:hornetq">
  <user name="guest" password="\${GUEST_PASSWORD}"><role name="guest"/></user>
</configuration>`;
    expect(errorOf(() => parseUsersConfiguration(users, 'u.xml', { env: {} }))).toBe(
      'u.xml:2: ${GUEST_PASSWORD} is not set: set the environment variable GUEST_PASSWORD, or give a default in the file as ${GUEST_PASSWORD:value} (${GUEST_PASSWORD:} for an empty value)',
    );
  });

  test('a value from the environment is text: it cannot add elements, and a bad one is reported where it lands', () => {
    const error = (() => {
      try {
        parseServerConfiguration(connector('${port}'), 'c.xml', {
          env: { port: '1"/><param key="ssl-enabled" value="true' },
        });
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(error?.message).toBe(
      `c.xml:7: <param> key 'port' requires a valid Integer value, but '1"/><param key="ssl-enabled" value="true' cannot be parsed as an Integer`,
    );
    const jms = parseJmsConfiguration(
      '<configuration xmlns="urn:hornetq">\n<queue name="${q}"><entry name="${e:/queue/default}"/></queue>\n</configuration>',
      'j.xml',
      { env: { q: 'a<b>&c\nd' } },
    );
    expect(jms.queues[0]).toMatchObject({
      name: 'a<b>&c\nd',
      entries: [{ name: '/queue/default', line: 2 }],
    });
  });
});
