import { parseJmsConfiguration, parseServerConfiguration } from '../../src';

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

  test('a placeholder with no value and no default becomes empty, with a warning naming it and its line', () => {
    const config = parseServerConfiguration(
      `<configuration xmlns="urn:hornetq">\n<security-enabled>false</security-enabled>\n<journal-directory>\${build.directory}/journal</journal-directory>\n</configuration>`,
      'c.xml',
      { env: {} },
    );
    expect(config.persistence.journalDirectory).toBe('/journal');
    expect(config.warnings[0]).toEqual({
      file: 'c.xml',
      line: 3,
      element: null,
      message:
        "placeholder ${build.directory} has no value (no environment variable build.directory or BUILD_DIRECTORY) and no default: replaced by ''",
    });
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
