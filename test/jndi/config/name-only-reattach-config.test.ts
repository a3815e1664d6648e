import { ConfigurationException } from '../../../src';
import { InMemoryStorage } from '../../../src/server/storage/in-memory-storage';
import { brokerConfigurationOf } from '../../../src/jndi/config/broker-configuration-from-xml';
import { parseJmsConfiguration } from '../../../src/jndi/config/jms-config-parser';
import { parseServerConfiguration } from '../../../src/jndi/config/server-config-parser';
import { silentLogger } from '../../../src/core/remoting';

/** <name-only-reattach-enabled>, an element of our own in hornetq-configuration.xml. */

const SERVER_FILE = 'hornetq-configuration.xml';

const server = (body: string): ReturnType<typeof parseServerConfiguration> =>
  parseServerConfiguration(`<configuration xmlns="urn:hornetq">\n${body}\n</configuration>`, SERVER_FILE, {
    env: {},
  });

function brokerSetting(body: string): boolean {
  const config = server(`  <security-enabled>false</security-enabled>\n${body}`);
  expect(config.warnings).toEqual([]);
  const jms = parseJmsConfiguration('<configuration xmlns="urn:hornetq"/>', 'hornetq-jms.xml', {
    env: {},
    server: config,
  });
  return brokerConfigurationOf(
    config,
    jms,
    { storage: new InMemoryStorage(), dataDirectory: '.' },
    silentLogger,
  ).nameOnlyReattachEnabled;
}

describe('<name-only-reattach-enabled> in hornetq-configuration.xml', () => {
  it('sets nameOnlyReattachEnabled; absent, name-only reattach stays allowed (HornetQ’s behaviour)', () => {
    expect(brokerSetting('')).toBe(true);
    expect(brokerSetting('  <name-only-reattach-enabled>false</name-only-reattach-enabled>')).toBe(false);
    expect(brokerSetting('  <name-only-reattach-enabled>true</name-only-reattach-enabled>')).toBe(true);
  });

  it('without hornetq-configuration.xml the broker allows it too', () => {
    const jms = parseJmsConfiguration('<configuration xmlns="urn:hornetq"/>', 'hornetq-jms.xml', {
      env: {},
    });
    const config = brokerConfigurationOf(
      null,
      jms,
      { storage: new InMemoryStorage(), dataDirectory: '.' },
      silentLogger,
    );
    expect(config.nameOnlyReattachEnabled).toBe(true);
  });

  it.each([
    ['maybe', "must be true or false (actual value: 'maybe')"],
    ['', "must be true or false (actual value: '')"],
  ])('<name-only-reattach-enabled>%s</…> is refused at its line', (value, message) => {
    let error: unknown;
    try {
      server(`\n  <name-only-reattach-enabled>${value}</name-only-reattach-enabled>`);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigurationException);
    expect((error as ConfigurationException).problems).toEqual([
      {
        file: SERVER_FILE,
        line: 3,
        element: 'name-only-reattach-enabled',
        message: `<name-only-reattach-enabled> ${message}`,
      },
    ]);
    expect((error as Error).message).toContain(`${SERVER_FILE}:3`);
  });
});
