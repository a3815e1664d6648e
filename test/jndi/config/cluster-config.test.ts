import { ConfigurationException } from '../../../src';
import { InMemoryStorage } from '../../../src/server/storage/in-memory-storage';
import { brokerConfigurationOf } from '../../../src/jndi/config/broker-configuration-from-xml';
import { parseJmsConfiguration } from '../../../src/jndi/config/jms-config-parser';
import { parseServerConfiguration } from '../../../src/jndi/config/server-config-parser';
import { silentLogger } from '../../../src/core/remoting';

/** <cluster-connections>, <cluster-user> and <cluster-password> of a live/backup pair. */

const SERVER_FILE = 'hornetq-configuration.xml';
const PASSWORD = 'pair-secret-c0ffee';

const CONNECTORS = `
  <connectors>
    <connector name="netty"><factory-class>org.hornetq.core.remoting.impl.netty.NettyConnectorFactory</factory-class>
      <param key="host" value="127.0.0.1"/><param key="port" value="5446"/></connector>
    <connector name="live"><factory-class>org.hornetq.core.remoting.impl.netty.NettyConnectorFactory</factory-class>
      <param key="host" value="127.0.0.1"/><param key="port" value="5445"/></connector>
  </connectors>`;

const server = (body: string): ReturnType<typeof parseServerConfiguration> =>
  parseServerConfiguration(`<configuration xmlns="urn:hornetq">\n${body}\n</configuration>`, SERVER_FILE, {
    env: {},
  });

function problemOf(body: string): string {
  try {
    server(body);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationException);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

const PAIR = `${CONNECTORS}
  <cluster-user>pair-user</cluster-user>
  <cluster-password>${PASSWORD}</cluster-password>
  <cluster-connections>
    <cluster-connection name="pair">
      <connector-ref>netty</connector-ref>
      <retry-interval>250</retry-interval>
      <static-connectors><connector-ref>live</connector-ref></static-connectors>
    </cluster-connection>
  </cluster-connections>`;

describe('the cluster connection of a live/backup pair in hornetq-configuration.xml', () => {
  it('reads the announced connector, the live in static-connectors, the retry interval and the cluster login into the broker’s options', () => {
    const config = server(PAIR);
    expect(config.warnings).toEqual([]);
    const jms = parseJmsConfiguration('<configuration xmlns="urn:hornetq"/>', 'hornetq-jms.xml', {
      env: {},
      server: config,
    });
    const broker = brokerConfigurationOf(
      config,
      jms,
      { storage: new InMemoryStorage(), dataDirectory: '.' },
      silentLogger,
    );
    expect(broker.cluster).toEqual({
      connection: {
        name: 'pair',
        connector: { name: 'netty', host: '127.0.0.1', port: 5446 },
        staticConnectors: [{ name: 'live', host: '127.0.0.1', port: 5445 }],
        retryInterval: 250,
        maxRetryInterval: 5000,
      },
      user: 'pair-user',
      password: PASSWORD,
    });
  });

  it('without <cluster-connections> the broker is not clustered; the cluster user defaults to HornetQ’s', () => {
    expect(server(CONNECTORS).cluster).toBeNull();
    expect(server(PAIR.replace('<cluster-user>pair-user</cluster-user>', '')).cluster?.user).toBe(
      'HORNETQ.CLUSTER.ADMIN.USER',
    );
  });

  it('a cluster of lives found by discovery (HornetQ’s clustered examples) is taken with a warning, and the broker runs on its own', () => {
    const config = server(
      PAIR.replace(
        '<static-connectors><connector-ref>live</connector-ref></static-connectors>',
        '<discovery-group-ref discovery-group-name="dg"/>',
      ),
    );
    expect(config.cluster).toBeNull();
    expect(config.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(
        /<cluster-connections> is not used here: clustering is not implemented beyond a live\/backup pair/,
      ),
    ]);
  });

  it('load-balancing elements of a cluster of lives are taken with a warning', () => {
    const config = server(PAIR.replace('<retry-interval>250</retry-interval>', '<max-hops>1</max-hops>'));
    expect(config.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/<max-hops>.*not used here: this broker forms no cluster of lives/),
    ]);
  });

  it.each([
    [
      'no cluster password',
      PAIR.replace(`<cluster-password>${PASSWORD}</cluster-password>`, ''),
      /needs <cluster-password>/,
    ],
    [
      'a connector-ref to nothing',
      PAIR.replace('<connector-ref>netty</connector-ref>', '<connector-ref>nety</connector-ref>'),
      /names connector 'nety', which <connectors> does not define \(defined: netty, live\)/,
    ],
    ['no connector-ref', PAIR.replace('<connector-ref>netty</connector-ref>', ''), /needs <connector-ref>/],
    [
      'a negative retry interval',
      PAIR.replace('<retry-interval>250</retry-interval>', '<retry-interval>-1</retry-interval>'),
      /retry-interval.*must be greater than 0/,
    ],
  ])('%s is refused, naming the element and its line, never the password', (_what, body, message) => {
    const problem = problemOf(body);
    expect(problem).toMatch(message);
    expect(problem).toMatch(/hornetq-configuration\.xml:\d+/);
    expect(problem).not.toContain(PASSWORD);
  });
});
