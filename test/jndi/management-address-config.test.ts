import {
  ConfigurationException,
  InMemoryStorage,
  brokerConfigurationOf,
  parseJmsConfiguration,
  parseServerConfiguration,
} from '../../src';
import { silentLogger } from '../../src/core/remoting';

/** <management-address> in hornetq-configuration.xml: where management messages go (issue 29). */

const server = (body: string): ReturnType<typeof parseServerConfiguration> =>
  parseServerConfiguration(
    `<configuration xmlns="urn:hornetq">\n  <security-enabled>false</security-enabled>\n${body}\n</configuration>`,
    'hornetq-configuration.xml',
    { env: {} },
  );

function managementAddress(body: string): string {
  const config = server(body);
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
  ).managementAddress;
}

describe('<management-address> in hornetq-configuration.xml', () => {
  it('sets the management address, without a warning; absent, HornetQ’s default', () => {
    expect(managementAddress('')).toBe('jms.queue.hornetq.management');
    expect(managementAddress('  <management-address>ops.requests</management-address>')).toBe('ops.requests');
  });

  it('an empty one is refused, naming the element', () => {
    expect(() => server('  <management-address></management-address>')).toThrow(ConfigurationException);
    expect(() => server('  <management-address></management-address>')).toThrow(/management-address/);
  });
});
