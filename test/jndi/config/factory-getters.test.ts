import net from 'node:net';
import path from 'node:path';
import { HornetQConnectionFactory, IllegalStateException, InitialContext, JMSException } from '../../../src';
import { loadJmsConfiguration } from '../../../src/jndi/config/jms-config-parser';
import { captureLogger } from '../support';

const FILE = path.resolve(__dirname, '../../fixtures/every-factory-element-hornetq-jms.xml');

type Getter = (factory: HornetQConnectionFactory) => unknown;

/** Each value element of <connection-factory>, HornetQ's getter for it, and what the file sets. */
const GETTERS: ReadonlyArray<[element: string, get: Getter, value: unknown]> = [
  ['client-failure-check-period', (f) => f.getClientFailureCheckPeriod(), 1234],
  ['connection-ttl', (f) => f.getConnectionTTL(), 2345],
  ['call-timeout', (f) => f.getCallTimeout(), 3456],
  ['call-failover-timeout', (f) => f.getCallFailoverTimeout(), 4567],
  ['consumer-window-size', (f) => f.getConsumerWindowSize(), 12345],
  ['consumer-max-rate', (f) => f.getConsumerMaxRate(), 6789],
  ['confirmation-window-size', (f) => f.getConfirmationWindowSize(), 123456],
  ['producer-window-size', (f) => f.getProducerWindowSize(), 7712652],
  ['producer-max-rate', (f) => f.getProducerMaxRate(), 789],
  ['cache-large-message-client', (f) => f.isCacheLargeMessagesClient(), true],
  ['min-large-message-size', (f) => f.getMinLargeMessageSize(), 2048],
  ['compress-large-messages', (f) => f.isCompressLargeMessage(), true],
  ['client-id', (f) => f.getClientID(), 'EveryClientID'],
  ['dups-ok-batch-size', (f) => f.getDupsOKBatchSize(), 3456],
  ['transaction-batch-size', (f) => f.getTransactionBatchSize(), 4567],
  ['block-on-acknowledge', (f) => f.isBlockOnAcknowledge(), true],
  ['block-on-non-durable-send', (f) => f.isBlockOnNonDurableSend(), true],
  ['block-on-durable-send', (f) => f.isBlockOnDurableSend(), false],
  ['duplicate-id-on-durable-send', (f) => f.isDuplicateIdOnDurableSend(), true],
  ['auto-group', (f) => f.isAutoGroup(), true],
  ['pre-acknowledge', (f) => f.isPreAcknowledge(), true],
  ['retry-interval', (f) => f.getRetryInterval(), 5],
  ['retry-interval-multiplier', (f) => f.getRetryIntervalMultiplier(), 1.5],
  ['max-retry-interval', (f) => f.getMaxRetryInterval(), 300],
  ['reconnect-attempts', (f) => f.getReconnectAttempts(), 34],
  ['failover-on-initial-connection', (f) => f.isFailoverOnInitialConnection(), true],
  [
    'connection-load-balancing-policy-class-name',
    (f) => f.getConnectionLoadBalancingPolicyClassName(),
    'org.example.FirstConnectorFirst',
  ],
  ['use-global-pools', (f) => f.isUseGlobalPools(), false],
  ['scheduled-thread-pool-max-size', (f) => f.getScheduledThreadPoolMaxSize(), 7],
  ['thread-pool-max-size', (f) => f.getThreadPoolMaxSize(), 9],
  ['group-id', (f) => f.getGroupID(), 'EveryGroup'],
  ['ha', (f) => f.isHA(), true],
];

/**
 * HornetQ 2.4's factory has no getter for these: its parser ignores failover-on-server-shutdown,
 * and xa chooses the factory's class (an XA one), which this implementation does not have.
 */
const WITHOUT_GETTER = ['failover-on-server-shutdown', 'xa'];

const byElement = (values: ReadonlyArray<[string, unknown]>): Record<string, unknown> =>
  Object.fromEntries(values);

describe('a factory from hornetq-jms.xml: each getter returns what the file set', () => {
  test('the fixture sets every value element, and every one but those without a getter is checked', async () => {
    const config = await loadJmsConfiguration(FILE, { env: {} });
    const set = [...(config.factories[0]?.settings.keys() ?? [])].sort();
    expect(set).toEqual([...GETTERS.map(([element]) => element), ...WITHOUT_GETTER].sort());
  });

  test('each value set differs from the default, so a getter returning the default is caught', () => {
    const defaults = new HornetQConnectionFactory();
    for (const [element, get, value] of GETTERS)
      expect({ [element]: get(defaults) }).not.toEqual({ [element]: value });
  });

  test('every getter returns the value of its element', async () => {
    const context = await InitialContext.load({ jmsConfig: FILE, env: {}, logger: captureLogger() });
    try {
      const factory = context.lookup<HornetQConnectionFactory>('EveryElement');
      expect(byElement(GETTERS.map(([element, get]) => [element, get(factory)]))).toEqual(
        byElement(GETTERS.map(([element, , value]) => [element, value])),
      );
    } finally {
      await context.close();
    }
  });

  test('<ha>true</ha> in a file HornetQ ships: isHA() is true', async () => {
    const context = await InitialContext.load({
      jmsConfig: path.resolve(
        __dirname,
        '../../fixtures/hornetq-examples/non-transaction-failover-hornetq-jms.xml',
      ),
      env: {},
      logger: captureLogger(),
    });
    try {
      expect(context.lookup<HornetQConnectionFactory>('ConnectionFactory').isHA()).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe('the attributes kept only for their getters', () => {
  test('have HornetQ defaults, refuse what hornetq-jms.xsd refuses, and follow the used-rule', async () => {
    const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: await closedPort() });
    expect([
      factory.getConnectionLoadBalancingPolicyClassName(),
      factory.isUseGlobalPools(),
      factory.getScheduledThreadPoolMaxSize(),
      factory.getThreadPoolMaxSize(),
      factory.isHA(),
    ]).toEqual([
      'org.hornetq.api.core.client.loadbalance.RoundRobinConnectionLoadBalancingPolicy',
      true,
      5,
      -1,
      false,
    ]);
    expect(new HornetQConnectionFactory(true).isHA()).toBe(true);
    expect(() => factory.setThreadPoolMaxSize(0)).toThrow(
      new JMSException('threadPoolMaxSize must be -1 or an integer from 1 to 2147483647 (actual value: 0)'),
    );
    expect(() => factory.setScheduledThreadPoolMaxSize(1.5)).toThrow(
      'scheduledThreadPoolMaxSize must be -1 or an integer from 1 to 2147483647 (actual value: 1.5)',
    );
    expect(() => factory.setConnectionLoadBalancingPolicyClassName(' ')).toThrow(
      'connectionLoadBalancingPolicyClassName must be a non-empty string',
    );
    factory.setThreadPoolMaxSize(-1);
    factory.setScheduledThreadPoolMaxSize(2);
    expect([factory.getThreadPoolMaxSize(), factory.getScheduledThreadPoolMaxSize()]).toEqual([-1, 2]);
    await expect(factory.createConnection()).rejects.toThrow();
    expect(() => factory.setUseGlobalPools(false)).toThrow(IllegalStateException);
    expect(factory.isUseGlobalPools()).toBe(true);
  });
});

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
