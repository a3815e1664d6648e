import path from 'node:path';
import { HornetQConnectionFactory, HornetQQueue, HornetQTopic, InitialContext } from '../../../src';
import { loadServerConfiguration } from '../../../src/jndi/config/server-config-parser';
import { captureLogger } from '../support';

const EXAMPLES = path.resolve(__dirname, '../../fixtures/hornetq-examples');
const example = (name: string): string => path.join(EXAMPLES, name);
/** HornetQ's examples run under Maven, which gives them build.directory (unset, it is an error here). */
const MAVEN_ENV = { 'build.directory': 'target' };

type Expected =
  { factory: { host: string; port: number; ssl?: boolean } } | { queue: string } | { topic: string };

interface Case {
  name: string;
  withConfiguration: boolean;
  bindings: Record<string, Expected>;
}

const CF = (port = 5445, host = 'localhost', ssl = false): Expected => ({
  factory: { host, port, ...(ssl ? { ssl } : {}) },
});
const exampleQueue = { 'queue/exampleQueue': { queue: 'exampleQueue' } };

const CASES: Case[] = [
  {
    name: 'client-side-failoverlistener',
    withConfiguration: true,
    bindings: { ConnectionFactory: CF(), ...exampleQueue },
  },
  {
    name: 'client-side-load-balancing',
    withConfiguration: true,
    bindings: { ConnectionFactory: CF(), ...exampleQueue },
  },
  {
    name: 'consumer-rate-limit',
    withConfiguration: false,
    bindings: { ConnectionFactory: CF(), ...exampleQueue },
  },
  {
    name: 'http-transport',
    withConfiguration: true,
    bindings: { ConnectionFactory: CF(8080), ...exampleQueue },
  },
  {
    name: 'message-group2',
    withConfiguration: false,
    bindings: { ConnectionFactory: CF(), ...exampleQueue },
  },
  {
    name: 'no-consumer-buffering',
    withConfiguration: false,
    bindings: { ConnectionFactory: CF(), ...exampleQueue },
  },
  {
    name: 'non-transaction-failover',
    withConfiguration: false,
    bindings: { ConnectionFactory: CF(), ...exampleQueue },
  },
  { name: 'queue', withConfiguration: true, bindings: { ConnectionFactory: CF(), ...exampleQueue } },
  {
    name: 'reattach-node',
    withConfiguration: true,
    bindings: { ConnectionFactory: CF(5445), ConnectionFactory2: CF(5446), ...exampleQueue },
  },
  {
    name: 'security',
    withConfiguration: false,
    bindings: {
      ConnectionFactory: CF(),
      'topic/genericTopic': { topic: 'genericTopic' },
      'topic/europeTopic': { topic: 'news.europe.europeTopic' },
      'topic/usTopic': { topic: 'news.us.usTopic' },
    },
  },
  {
    name: 'send-acknowledgements',
    withConfiguration: true,
    bindings: { ConnectionFactory: CF(), ...exampleQueue },
  },
  {
    name: 'soak-normal',
    withConfiguration: false,
    bindings: { ConnectionFactory: CF(), soakQueue: { queue: 'soakQueue' } },
  },
  {
    name: 'ssl-enabled',
    withConfiguration: true,
    bindings: { ConnectionFactory: CF(5500, 'localhost', true), ...exampleQueue },
  },
  {
    name: 'standalone-non-clustered',
    withConfiguration: true,
    bindings: {
      XAConnectionFactory: CF(5445),
      ConnectionFactory: CF(5445),
      XAThroughputConnectionFactory: CF(5455),
      ThroughputConnectionFactory: CF(5455),
      'queue/DLQ': { queue: 'DLQ' },
      'queue/ExpiryQueue': { queue: 'ExpiryQueue' },
    },
  },
  {
    name: 'static-selector-jms',
    withConfiguration: false,
    bindings: { ConnectionFactory: CF(), 'queue/selectorQueue': { queue: 'selectorQueue' } },
  },
  {
    name: 'transaction-failover',
    withConfiguration: false,
    bindings: { ConnectionFactory: CF(), ...exampleQueue },
  },
  { name: 'xa-send', withConfiguration: false, bindings: { XAConnectionFactory: CF(), ...exampleQueue } },
];

const FULL_BINDINGS = [
  'acme/fullConfigurationConnectionFactory',
  'fullConfigurationConnectionFactory',
  'fullConfigurationQueue',
  'fullConfigurationTopic',
  'java:/connectionfactories/acme/fullConfigurationConnectionFactory',
  'java:/xyz/tfullConfigurationConnectionFactory',
  'queue/fullConfigurationQueue',
  'topic/fullConfigurationTopic',
];

async function load(
  name: string,
  withConfiguration: boolean,
): Promise<{ context: InitialContext; warnings: string[] }> {
  const logger = captureLogger();
  const context = await InitialContext.load({
    jmsConfig: example(`${name}-hornetq-jms.xml`),
    ...(withConfiguration ? { serverConfig: example(`${name}-hornetq-configuration.xml`) } : {}),
    env: MAVEN_ENV,
    logger,
  });
  return { context, warnings: logger.warnings };
}

describe('every example hornetq-jms.xml loads with the expected bindings', () => {
  test.each(CASES)('$name', async ({ name, withConfiguration, bindings }) => {
    const { context, warnings } = await load(name, withConfiguration);
    expect(context.list().map((pair) => pair.name)).toEqual(Object.keys(bindings).sort());
    for (const [binding, expected] of Object.entries(bindings)) {
      const object = context.lookup(binding);
      if ('factory' in expected) {
        expect(object).toBeInstanceOf(HornetQConnectionFactory);
        const [connector] = (object as HornetQConnectionFactory).getStaticConnectors();
        expect(connector?.host).toBe(expected.factory.host);
        expect(connector?.port).toBe(expected.factory.port);
        expect(connector?.['ssl-enabled']).toBe(expected.factory.ssl);
      } else if ('queue' in expected) {
        expect(object).toBeInstanceOf(HornetQQueue);
        expect((object as HornetQQueue).getQueueName()).toBe(expected.queue);
      } else {
        expect(object).toBeInstanceOf(HornetQTopic);
        expect((object as HornetQTopic).getTopicName()).toBe(expected.topic);
      }
    }
    if (!withConfiguration)
      expect(warnings.join('\n')).toContain('resolves to the netty default localhost:5445');
    await context.close();
  });

  test('files that set more than the defaults reach the factory setters', async () => {
    const cases: Array<[string, boolean, (f: HornetQConnectionFactory) => void]> = [
      ['consumer-rate-limit', false, (f) => expect(f.getConsumerMaxRate()).toBe(10)],
      ['no-consumer-buffering', false, (f) => expect(f.getConsumerWindowSize()).toBe(0)],
      ['message-group2', false, (f) => expect(f.getGroupID()).toBe('Group-0')],
      ['send-acknowledgements', true, (f) => expect(f.getConfirmationWindowSize()).toBe(1048576)],
      [
        'soak-normal',
        false,
        (f) =>
          expect([f.getCallTimeout(), f.getReconnectAttempts(), f.getRetryInterval()]).toEqual([
            5000, -1, 1000,
          ]),
      ],
      [
        'security',
        false,
        (f) => expect([f.isBlockOnDurableSend(), f.isBlockOnNonDurableSend()]).toEqual([true, true]),
      ],
      [
        'reattach-node',
        true,
        (f) =>
          expect([
            f.getConfirmationWindowSize(),
            f.getReconnectAttempts(),
            f.getRetryInterval(),
            f.getRetryIntervalMultiplier(),
          ]).toEqual([1048576, -1, 1000, 1]),
      ],
    ];
    for (const [name, withConfiguration, check] of cases) {
      const { context } = await load(name, withConfiguration);
      check(context.lookup<HornetQConnectionFactory>('ConnectionFactory'));
      await context.close();
    }
  });

  test("two factories with one name share the first one's object, as in HornetQ", async () => {
    const { context, warnings } = await load('standalone-non-clustered', true);
    expect(context.lookup('XAThroughputConnectionFactory')).toBe(
      context.lookup('ThroughputConnectionFactory'),
    );
    expect(context.lookup('XAConnectionFactory')).not.toBe(context.lookup('ConnectionFactory'));
    expect(warnings.join('\n')).toContain(
      "connection-factory 'NettyThroughputConnectionFactory' is already defined at line 25",
    );
    expect(warnings.join('\n')).toContain('<xa> XA is not implemented');
    await context.close();
  });

  test.each(['jmsserverdeployertest-full', 'jmsserverdeployertest2-full-discovery'])(
    '%s gives the values of JMSServerDeployerTest and JMSServerConfigParserTest',
    async (name) => {
      const { context, warnings } = await load(name, false);
      expect(context.list().map((pair) => pair.name)).toEqual(FULL_BINDINGS);
      const factory = context.lookup<HornetQConnectionFactory>('/fullConfigurationConnectionFactory');
      for (const other of FULL_BINDINGS.filter((n) => n.includes('ConnectionFactory')))
        expect(context.lookup(other)).toBe(factory);
      expect({
        clientFailureCheckPeriod: factory.getClientFailureCheckPeriod(),
        callTimeout: factory.getCallTimeout(),
        consumerWindowSize: factory.getConsumerWindowSize(),
        consumerMaxRate: factory.getConsumerMaxRate(),
        confirmationWindowSize: factory.getConfirmationWindowSize(),
        producerWindowSize: factory.getProducerWindowSize(),
        producerMaxRate: factory.getProducerMaxRate(),
        minLargeMessageSize: factory.getMinLargeMessageSize(),
        compressLargeMessage: factory.isCompressLargeMessage(),
        clientID: factory.getClientID(),
        dupsOKBatchSize: factory.getDupsOKBatchSize(),
        transactionBatchSize: factory.getTransactionBatchSize(),
        blockOnAcknowledge: factory.isBlockOnAcknowledge(),
        blockOnNonDurableSend: factory.isBlockOnNonDurableSend(),
        blockOnDurableSend: factory.isBlockOnDurableSend(),
        autoGroup: factory.isAutoGroup(),
        preAcknowledge: factory.isPreAcknowledge(),
        connectionTTL: factory.getConnectionTTL(),
        failoverOnInitialConnection: factory.isFailoverOnInitialConnection(),
        reconnectAttempts: factory.getReconnectAttempts(),
        retryInterval: factory.getRetryInterval(),
        retryIntervalMultiplier: factory.getRetryIntervalMultiplier(),
        maxRetryInterval: factory.getMaxRetryInterval(),
        cacheLargeMessagesClient: factory.isCacheLargeMessagesClient(),
      }).toEqual({
        clientFailureCheckPeriod: 1234,
        callTimeout: 5678,
        consumerWindowSize: 12345,
        consumerMaxRate: 6789,
        confirmationWindowSize: 123456,
        producerWindowSize: 7712652,
        producerMaxRate: 789,
        minLargeMessageSize: 12,
        compressLargeMessage: name === 'jmsserverdeployertest-full',
        clientID: 'TestClientID',
        dupsOKBatchSize: 3456,
        transactionBatchSize: 4567,
        blockOnAcknowledge: true,
        blockOnNonDurableSend: false,
        blockOnDurableSend: true,
        autoGroup: false,
        preAcknowledge: true,
        connectionTTL: 2345,
        failoverOnInitialConnection: true,
        reconnectAttempts: 34,
        retryInterval: 5,
        retryIntervalMultiplier: 6,
        maxRetryInterval: 300,
        cacheLargeMessagesClient: true,
      });
      expect(context.lookup<HornetQQueue>('queue/fullConfigurationQueue').getQueueName()).toBe(
        'fullConfigurationQueue',
      );
      expect(context.lookup<HornetQTopic>('/topic/fullConfigurationTopic').getTopicName()).toBe(
        'fullConfigurationTopic',
      );
      const text = warnings.join('\n');
      expect(text).toContain('<connection-load-balancing-policy-class-name> is not a policy this client has');
      expect(text).toContain('<failover-on-server-shutdown> ignored, as HornetQ 2.2+ ignores it');
      if (name.includes('discovery'))
        expect(text).toContain("uses its <connectors> instead of discovery group 'mygroup'");
      await context.close();
    },
  );
});

describe('every example hornetq-configuration.xml loads', () => {
  const CONFIGS: Array<[string, Array<[string, number]>, string[]]> = [
    [
      'client-side-failoverlistener',
      [['netty-acceptor', 5445]],
      ['<broadcast-groups> is not used here: UDP and JGroups broadcast is not implemented'],
    ],
    [
      'client-side-load-balancing',
      [['netty-acceptor', 5445]],
      [
        '<cluster-connections> is not used here: clustering is not implemented',
        '<discovery-groups> is not used here',
      ],
    ],
    [
      'http-transport',
      [['netty-acceptor', 8080]],
      ["key 'http-enabled': the HTTP transport is not implemented"],
    ],
    ['queue', [['netty-acceptor', 5445]], []],
    [
      'reattach-node',
      [
        ['netty-acceptor', 5445],
        ['netty-acceptor2', 5446],
      ],
      [],
    ],
    ['send-acknowledgements', [['netty-acceptor', 5445]], []],
    [
      'ssl-enabled',
      [['netty-ssl-acceptor', 5500]],
      [
        "connector 'netty-ssl-connector': trust-store-path, trust-store-password not copied into the factories a registry hands out",
      ],
    ],
    [
      'standalone-non-clustered',
      [
        ['netty', 5445],
        ['netty-throughput', 5455],
      ],
      ["key 'batch-delay'", "key 'direct-deliver'"],
    ],
  ];

  test.each(CONFIGS)('%s', async (name, acceptors, expectedWarnings) => {
    const config = await loadServerConfiguration(example(`${name}-hornetq-configuration.xml`), {
      env: MAVEN_ENV,
    });
    expect(
      config.acceptors.map((a) => [a.config.name, a.config.type === 'tcp' ? a.config.port : -1]),
    ).toEqual(acceptors);
    const warnings = config.warnings.map((w) => w.message).join('\n');
    for (const expected of expectedWarnings) expect(warnings).toContain(expected);
    expect(config.securityEnabled).toBe(true);
    expect(config.securitySettings.length).toBeGreaterThan(0);
  });

  test('the stand-alone configuration: placeholders, address settings and security settings', async () => {
    const config = await loadServerConfiguration(
      example('standalone-non-clustered-hornetq-configuration.xml'),
      {
        env: { HORNETQ_REMOTING_NETTY_PORT: '6000', 'data.dir': '/var/data' },
      },
    );
    expect(config.connectors.get('netty')?.transport).toEqual({ host: 'localhost', port: 6000 });
    expect(config.connectors.get('netty-throughput')?.transport).toEqual({ host: 'localhost', port: 5455 });
    expect(config.persistence.journalDirectory).toBe('/var/data/journal');
    expect(config.persistence.journalMinFiles).toBe(10);
    expect(config.addressSettings.get('#')).toEqual({
      deadLetterAddress: 'jms.queue.DLQ',
      expiryAddress: 'jms.queue.ExpiryQueue',
      redeliveryDelay: 0,
      maxSizeBytes: 10485760,
      addressFullPolicy: 'BLOCK',
    });
    expect([...(config.securitySettings[0]?.permissions ?? [])]).toEqual([
      ['createNonDurableQueue', ['guest']],
      ['deleteNonDurableQueue', ['guest']],
      ['consume', ['guest']],
      ['send', ['guest']],
    ]);
    expect(config.warnings.map((w) => w.message).join('\n')).toContain(
      'message counters are not implemented',
    );
  });
});
