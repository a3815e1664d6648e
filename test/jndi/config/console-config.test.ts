import { ConfigurationException } from '../../../src';
import { parseServerConfiguration } from '../../../src/jndi/config/server-config-parser';

/** <console-port> and <console-host> (ours) in hornetq-configuration.xml: where `hornetq server` serves the console. */

const server = (body: string): ReturnType<typeof parseServerConfiguration> =>
  parseServerConfiguration(
    `<configuration xmlns="urn:hornetq">\n  <security-enabled>false</security-enabled>\n${body}\n</configuration>`,
    'hornetq-configuration.xml',
    { env: {} },
  );

describe('<console-port> and <console-host>', () => {
  it('give the console listener, on 127.0.0.1 unless a host is given; absent, no console', () => {
    expect(server('').console).toBeNull();
    const loopback = server('  <console-port>8161</console-port>');
    expect(loopback.warnings).toEqual([]);
    expect(loopback.console).toEqual({ host: '127.0.0.1', port: 8161 });
    expect(server('  <console-port>0</console-port>\n  <console-host>::1</console-host>').console).toEqual({
      host: '::1',
      port: 0,
    });
  });

  it('refuse a port out of range and a host without a port, naming the element', () => {
    expect(() => server('  <console-port>70000</console-port>')).toThrow(ConfigurationException);
    expect(() => server('  <console-port>70000</console-port>')).toThrow(/console-port.*65535/s);
    expect(() => server('  <console-host>127.0.0.1</console-host>')).toThrow(
      /console-host.*needs <console-port>/s,
    );
    expect(() => server('  <console-port>8161</console-port>\n  <console-host></console-host>')).toThrow(
      /console-host/,
    );
  });
});
