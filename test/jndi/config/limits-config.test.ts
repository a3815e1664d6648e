import { ConfigurationException } from '../../../src';
import { InMemoryStorage } from '../../../src/server/storage/in-memory-storage';
import { brokerConfigurationOf } from '../../../src/jndi/config/broker-configuration-from-xml';
import { parseJmsConfiguration } from '../../../src/jndi/config/jms-config-parser';
import { parseServerConfiguration } from '../../../src/jndi/config/server-config-parser';
import { silentLogger } from '../../../src/core/remoting';

/** The broker's resource limits are elements of our own in hornetq-configuration.xml. */

const SERVER_FILE = 'hornetq-configuration.xml';
const JMS_FILE = 'hornetq-jms.xml';

const server = (body: string): ReturnType<typeof parseServerConfiguration> =>
  parseServerConfiguration(`<configuration xmlns="urn:hornetq">\n${body}\n</configuration>`, SERVER_FILE, {
    env: {},
  });

function failure(parse: () => unknown): ConfigurationException {
  try {
    parse();
  } catch (error) {
    if (error instanceof ConfigurationException) return error;
    throw error;
  }
  throw new Error('expected a ConfigurationException');
}

describe('resource limits in hornetq-configuration.xml', () => {
  it('each element sets its broker setting; absent ones keep their defaults', () => {
    const config = server(`  <security-enabled>false</security-enabled>
  <connection-output-high-water-mark>1048576</connection-output-high-water-mark>
  <connection-output-stall-timeout>45000</connection-output-stall-timeout>
  <max-client-connection-ttl>120000</max-client-connection-ttl>
  <sessionless-connection-timeout>5000</sessionless-connection-timeout>
  <max-sessions-per-connection>50</max-sessions-per-connection>
  <max-consumers-per-connection>500</max-consumers-per-connection>
  <max-producers-per-connection>700</max-producers-per-connection>
  <max-large-message-bytes-per-connection>52428800</max-large-message-bytes-per-connection>
  <max-queues>2000</max-queues>
  <max-duplicate-id-length>64</max-duplicate-id-length>
  <max-unfinished-frame-bytes>33554432</max-unfinished-frame-bytes>`);
    const broker = brokerConfigurationOf(
      config,
      parseJmsConfiguration('<configuration xmlns="urn:hornetq"/>', JMS_FILE, { env: {}, server: config }),
      { storage: new InMemoryStorage(), dataDirectory: '.' },
      silentLogger,
    );
    expect(broker).toMatchObject({
      connectionOutputHighWaterMark: 1_048_576,
      connectionOutputStallTimeout: 45_000,
      maxClientConnectionTtl: 120_000,
      sessionlessConnectionTimeout: 5_000,
      maxSessionsPerConnection: 50,
      maxConsumersPerConnection: 500,
      maxProducersPerConnection: 700,
      maxLargeMessageBytesPerConnection: 52_428_800,
      maxQueues: 2_000,
      maxNameLength: 4_096,
      maxDuplicateIdLength: 64,
      maxUnfinishedFrameBytes: 33_554_432,
    });
    expect(config.warnings).toEqual([]);
  });

  it('an acceptor param connections-allowed (or Artemis spelling connectionsAllowed) sets its limit; -1 is none; absent is the default', () => {
    const acceptor = (name: string, param: string): string => `    <acceptor name="${name}">
      <factory-class>org.hornetq.core.remoting.impl.netty.NettyAcceptorFactory</factory-class>
      <param key="port" value="0"/>${param}
    </acceptor>`;
    const config = server(`  <acceptors>
${acceptor('dashed', '<param key="connections-allowed" value="100"/>')}
${acceptor('artemis', '<param key="connectionsAllowed" value="-1"/>')}
${acceptor('plain', '')}
  </acceptors>`);
    const broker = brokerConfigurationOf(
      config,
      parseJmsConfiguration('<configuration xmlns="urn:hornetq"/>', JMS_FILE, { env: {}, server: config }),
      { storage: new InMemoryStorage(), dataDirectory: '.' },
      silentLogger,
    );
    expect(broker.acceptors).toMatchObject([
      { name: 'dashed', connectionsAllowed: 100 },
      { name: 'artemis', connectionsAllowed: -1 },
      { name: 'plain' },
    ]);
    expect(broker.acceptors[2]).not.toHaveProperty('connectionsAllowed');
    expect(broker.maxUnfinishedFrameBytes).toBe(64 * 1024 * 1024);
    expect(config.warnings).toEqual([]);
    const error = failure(() =>
      server(`  <acceptors>
${acceptor('zero', '<param key="connections-allowed" value="0"/>')}
  </acceptors>`),
    );
    expect(error.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/connections-allowed.*must be -1 or greater than 0 \(actual value: 0\)/),
    ]);
  });

  it.each([
    [
      'connection-output-high-water-mark',
      '1000',
      'must be an integer from 65536 to 9007199254740991 (actual value: 1000)',
    ],
    ['max-client-connection-ttl', '-1', 'must be an integer from 1 to 2147483647 (actual value: -1)'],
    ['max-queues', 'many', "requires a valid Integer value, but 'many' cannot be parsed as an Integer"],
    ['max-name-length', '2000000', 'must be an integer from 1 to 1048576 (actual value: 2000000)'],
    ['max-duplicate-id-length', '0', 'must be an integer from 1 to 1048576 (actual value: 0)'],
    ['max-unfinished-frame-bytes', '0', 'must be an integer from 1 to 9007199254740991 (actual value: 0)'],
  ])('<%s>%s</…> is refused at its line', (element, value, message) => {
    const error = failure(() => server(`  <${element}>${value}</${element}>`));
    expect(error.problems).toEqual([
      { file: SERVER_FILE, line: 2, element, message: `<${element}> ${message}` },
    ]);
  });

  it('a core queue whose name or address is longer than max-name-length is refused at its line', () => {
    const long = 'q'.repeat(65);
    const error = failure(() =>
      server(`  <max-name-length>64</max-name-length>
  <queues>
    <queue name="ok"><address>ok</address></queue>
    <queue name="${long}"><address>a</address></queue>
    <queue name="b"><address>${long}</address></queue>
  </queues>`),
    );
    expect(error.problems).toEqual([
      {
        file: SERVER_FILE,
        line: 5,
        element: 'queue',
        message: '<queue> has a name longer than max-name-length (64 characters)',
      },
      {
        file: SERVER_FILE,
        line: 6,
        element: 'queue',
        message: '<queue> has an address longer than max-name-length (64 characters)',
      },
    ]);
  });

  it('a JMS queue or topic whose core name would be longer than max-name-length is refused at its line in hornetq-jms.xml', () => {
    const config = server('  <max-name-length>64</max-name-length>');
    const jms = parseJmsConfiguration(
      `<configuration xmlns="urn:hornetq">
  <queue name="${'x'.repeat(60)}"><entry name="/queue/long"/></queue>
  <topic name="fine"><entry name="/topic/fine"/></topic>
  <topic name="${'y'.repeat(60)}"><entry name="/topic/long"/></topic>
</configuration>`,
      JMS_FILE,
      { env: {}, server: config },
    );
    const error = failure(() =>
      brokerConfigurationOf(
        config,
        jms,
        { storage: new InMemoryStorage(), dataDirectory: '.' },
        silentLogger,
      ),
    );
    expect(error.problems).toEqual([
      {
        file: JMS_FILE,
        line: 2,
        element: 'queue',
        message: '<queue> has a name (as jms.queue.<name>) longer than max-name-length (64 characters)',
      },
      {
        file: JMS_FILE,
        line: 4,
        element: 'topic',
        message: '<topic> has a name (as jms.topic.<name>) longer than max-name-length (64 characters)',
      },
    ]);
  });
});
