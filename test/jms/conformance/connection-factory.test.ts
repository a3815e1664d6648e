import net from 'node:net';
import {
  DeliveryMode,
  HornetQConnectionFactory,
  IllegalStateException,
  JMSException,
  type HornetQConnection,
} from '../../../src';
import {
  failureOf,
  receiveTexts,
  sendTexts,
  textOf,
  useJmsFixture,
  waitFor,
} from '../../support/jms-fixture';

/**
 * HornetQConnectionFactory (research/hornetq-spec.md §5): every getter reports HornetQ 2.4's
 * default, every setter round-trips and validates, and once createConnection has been called, even
 * if that call failed, every setter throws IllegalStateException with HornetQ's exact message.
 * Then the settings that change JMS-visible behaviour, over the real broker.
 */

const fx = useJmsFixture();
const USED = 'Cannot set attribute on HornetQConnectionFactory after it has been used';

type Factory = HornetQConnectionFactory;

/** Each attribute: its getter, its setter, HornetQ's default, and a valid non-default value. */
interface Attribute {
  name: string;
  get(cf: Factory): unknown;
  set(cf: Factory, value: never): void;
  default: unknown;
  other: unknown;
}

function attribute<T>(
  name: string,
  get: (cf: Factory) => T,
  set: (cf: Factory, value: T) => void,
  defaultValue: T,
  other: T,
): Attribute {
  return { name, get, set: set as (cf: Factory, value: never) => void, default: defaultValue, other };
}

const ATTRIBUTES: Attribute[] = [
  attribute(
    'ConfirmationWindowSize',
    (cf) => cf.getConfirmationWindowSize(),
    (cf, v) => cf.setConfirmationWindowSize(v),
    -1,
    1024 * 1024,
  ),
  attribute(
    'ReconnectAttempts',
    (cf) => cf.getReconnectAttempts(),
    (cf, v) => cf.setReconnectAttempts(v),
    0,
    -1,
  ),
  attribute(
    'RetryInterval',
    (cf) => cf.getRetryInterval(),
    (cf, v) => cf.setRetryInterval(v),
    2000,
    100,
  ),
  attribute(
    'RetryIntervalMultiplier',
    (cf) => cf.getRetryIntervalMultiplier(),
    (cf, v) => cf.setRetryIntervalMultiplier(v),
    1,
    2.5,
  ),
  attribute(
    'MaxRetryInterval',
    (cf) => cf.getMaxRetryInterval(),
    (cf, v) => cf.setMaxRetryInterval(v),
    2000,
    60_000,
  ),
  attribute(
    'RetryJitter',
    (cf) => cf.getRetryJitter(),
    (cf, v) => cf.setRetryJitter(v),
    0.1,
    0,
  ),
  attribute(
    'InitialConnectAttempts',
    (cf) => cf.getInitialConnectAttempts(),
    (cf, v) => cf.setInitialConnectAttempts(v),
    1,
    3,
  ),
  attribute(
    'FailoverOnInitialConnection',
    (cf) => cf.isFailoverOnInitialConnection(),
    (cf, v) => cf.setFailoverOnInitialConnection(v),
    false,
    true,
  ),
  attribute(
    'ClientFailureCheckPeriod',
    (cf) => cf.getClientFailureCheckPeriod(),
    (cf, v) => cf.setClientFailureCheckPeriod(v),
    30_000,
    500,
  ),
  attribute(
    'ConnectionTTL',
    (cf) => cf.getConnectionTTL(),
    (cf, v) => cf.setConnectionTTL(v),
    60_000,
    1000,
  ),
  attribute(
    'CallTimeout',
    (cf) => cf.getCallTimeout(),
    (cf, v) => cf.setCallTimeout(v),
    30_000,
    5000,
  ),
  attribute(
    'CallFailoverTimeout',
    (cf) => cf.getCallFailoverTimeout(),
    (cf, v) => cf.setCallFailoverTimeout(v),
    -1,
    10_000,
  ),
  attribute(
    'ConsumerWindowSize',
    (cf) => cf.getConsumerWindowSize(),
    (cf, v) => cf.setConsumerWindowSize(v),
    1024 * 1024,
    0,
  ),
  attribute(
    'ConsumerMaxRate',
    (cf) => cf.getConsumerMaxRate(),
    (cf, v) => cf.setConsumerMaxRate(v),
    -1,
    100,
  ),
  attribute(
    'ProducerWindowSize',
    (cf) => cf.getProducerWindowSize(),
    (cf, v) => cf.setProducerWindowSize(v),
    64 * 1024,
    1024,
  ),
  attribute(
    'ProducerMaxRate',
    (cf) => cf.getProducerMaxRate(),
    (cf, v) => cf.setProducerMaxRate(v),
    -1,
    100,
  ),
  attribute(
    'MinLargeMessageSize',
    (cf) => cf.getMinLargeMessageSize(),
    (cf, v) => cf.setMinLargeMessageSize(v),
    100 * 1024,
    4096,
  ),
  attribute(
    'CompressLargeMessage',
    (cf) => cf.isCompressLargeMessage(),
    (cf, v) => cf.setCompressLargeMessage(v),
    false,
    true,
  ),
  attribute(
    'CacheLargeMessagesClient',
    (cf) => cf.isCacheLargeMessagesClient(),
    (cf, v) => cf.setCacheLargeMessagesClient(v),
    false,
    true,
  ),
  attribute(
    'BlockOnAcknowledge',
    (cf) => cf.isBlockOnAcknowledge(),
    (cf, v) => cf.setBlockOnAcknowledge(v),
    false,
    true,
  ),
  attribute(
    'BlockOnDurableSend',
    (cf) => cf.isBlockOnDurableSend(),
    (cf, v) => cf.setBlockOnDurableSend(v),
    true,
    false,
  ),
  attribute(
    'BlockOnNonDurableSend',
    (cf) => cf.isBlockOnNonDurableSend(),
    (cf, v) => cf.setBlockOnNonDurableSend(v),
    false,
    true,
  ),
  attribute(
    'AutoGroup',
    (cf) => cf.isAutoGroup(),
    (cf, v) => cf.setAutoGroup(v),
    false,
    true,
  ),
  attribute<string | null>(
    'GroupID',
    (cf) => cf.getGroupID(),
    (cf, v) => cf.setGroupID(v),
    null,
    'group-1',
  ),
  attribute(
    'PreAcknowledge',
    (cf) => cf.isPreAcknowledge(),
    (cf, v) => cf.setPreAcknowledge(v),
    false,
    true,
  ),
  attribute(
    'DupsOKBatchSize',
    (cf) => cf.getDupsOKBatchSize(),
    (cf, v) => cf.setDupsOKBatchSize(v),
    1024 * 1024,
    4096,
  ),
  attribute(
    'TransactionBatchSize',
    (cf) => cf.getTransactionBatchSize(),
    (cf, v) => cf.setTransactionBatchSize(v),
    1024 * 1024,
    4096,
  ),
  attribute<string | null>(
    'ClientID',
    (cf) => cf.getClientID(),
    (cf, v) => cf.setClientID(v),
    null,
    'cf-client',
  ),
];

/** A loopback port with nothing listening: connecting to it is refused at once. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('defaults (HornetQ 2.4, hornetq-spec.md §5)', () => {
  test.each(ATTRIBUTES.map((a) => [a.name, a] as const))('%s', (_name, a) => {
    expect(a.get(new HornetQConnectionFactory())).toEqual(a.default);
  });

  test('isHA is false; with no connector the factory targets localhost:5445', () => {
    const cf = new HornetQConnectionFactory();
    expect(cf.isHA()).toBe(false);
    expect(cf.getStaticConnectors()).toEqual([{ host: 'localhost', port: 5445 }]);
  });

  test('getStaticConnectors lists the connectors in order, as copies', () => {
    const cf = new HornetQConnectionFactory({ host: 'a', port: 1 }, { host: 'b', port: 2 });
    const connectors = cf.getStaticConnectors();
    expect(connectors).toEqual([
      { host: 'a', port: 1 },
      { host: 'b', port: 2 },
    ]);
    (connectors[0] as { host: string }).host = 'changed';
    expect(cf.getStaticConnectors()[0]).toEqual({ host: 'a', port: 1 });
  });
});

describe('setters round-trip before use', () => {
  test.each(ATTRIBUTES.map((a) => [a.name, a] as const))('set%s', (_name, a) => {
    const cf = new HornetQConnectionFactory();
    a.set(cf, a.other as never);
    expect(a.get(cf)).toEqual(a.other);
    a.set(cf, a.default as never);
    expect(a.get(cf)).toEqual(a.default);
  });

  test.each([
    [
      'ConfirmationWindowSize',
      (cf: Factory) => cf.setConfirmationWindowSize(-2),
      (cf: Factory) => cf.getConfirmationWindowSize(),
    ],
    [
      'ReconnectAttempts',
      (cf: Factory) => cf.setReconnectAttempts(-2),
      (cf: Factory) => cf.getReconnectAttempts(),
    ],
    ['RetryInterval', (cf: Factory) => cf.setRetryInterval(0), (cf: Factory) => cf.getRetryInterval()],
    [
      'RetryIntervalMultiplier',
      (cf: Factory) => cf.setRetryIntervalMultiplier(0),
      (cf: Factory) => cf.getRetryIntervalMultiplier(),
    ],
    ['RetryJitter', (cf: Factory) => cf.setRetryJitter(1.5), (cf: Factory) => cf.getRetryJitter()],
    [
      'ConsumerWindowSize',
      (cf: Factory) => cf.setConsumerWindowSize(-2),
      (cf: Factory) => cf.getConsumerWindowSize(),
    ],
    [
      'ProducerWindowSize',
      (cf: Factory) => cf.setProducerWindowSize(0),
      (cf: Factory) => cf.getProducerWindowSize(),
    ],
    ['CallTimeout', (cf: Factory) => cf.setCallTimeout(-1), (cf: Factory) => cf.getCallTimeout()],
    ['ConnectionTTL', (cf: Factory) => cf.setConnectionTTL(0), (cf: Factory) => cf.getConnectionTTL()],
    [
      'MinLargeMessageSize',
      (cf: Factory) => cf.setMinLargeMessageSize(0),
      (cf: Factory) => cf.getMinLargeMessageSize(),
    ],
    ['DupsOKBatchSize', (cf: Factory) => cf.setDupsOKBatchSize(-1), (cf: Factory) => cf.getDupsOKBatchSize()],
    [
      'TransactionBatchSize',
      (cf: Factory) => cf.setTransactionBatchSize(1.5),
      (cf: Factory) => cf.getTransactionBatchSize(),
    ],
  ])('set%s rejects an out-of-range value, naming it, and keeps the old value', (name, set, get) => {
    const cf = new HornetQConnectionFactory();
    const before = get(cf);
    let error: unknown = null;
    try {
      set(cf);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JMSException);
    expect(error).not.toBeInstanceOf(IllegalStateException);
    expect((error as JMSException).getErrorCode()).toBe('INVALID_CONFIGURATION');
    expect((error as Error).message).toContain(name.charAt(0).toLowerCase() + name.slice(1));
    expect((error as Error).message).toContain('actual value');
    expect(get(cf)).toEqual(before);
  });

  test('a rejected value does not count as use', () => {
    const cf = new HornetQConnectionFactory();
    expect(() => cf.setRetryInterval(0)).toThrow(JMSException);
    cf.setRetryInterval(10);
    expect(cf.getRetryInterval()).toBe(10);
  });
});

describe('the used-rule', () => {
  function expectAllSettersLocked(cf: Factory): void {
    for (const a of ATTRIBUTES) {
      let error: unknown = null;
      try {
        a.set(cf, a.other as never);
      } catch (e) {
        error = e;
      }
      expect({ setter: a.name, error }).toEqual({ setter: a.name, error: expect.any(IllegalStateException) });
      expect((error as Error).message).toBe(USED);
      expect(a.get(cf)).not.toEqual(a.other);
    }
  }

  test('after a successful createConnection every setter throws IllegalStateException with the exact message', async () => {
    const cf = fx.factory();
    await cf.createConnection();
    expectAllSettersLocked(cf);
  });

  test('after a failed createConnection every setter throws too', async () => {
    const cf = new HornetQConnectionFactory({ host: '127.0.0.1', port: await deadPort() });
    fx.track(cf);
    const error = await failureOf(cf.createConnection());
    expect(error).toBeInstanceOf(JMSException);
    expect((error as Error).message).toMatch(/^Failed to create session factory/);
    expect((error as JMSException).getLinkedException()).toBeDefined();
    expectAllSettersLocked(cf);
  });

  test('getters keep working after use and report the values in force', async () => {
    const cf = fx.factory((f) => f.setRetryInterval(123));
    await cf.createConnection();
    expect(cf.getRetryInterval()).toBe(123);
    expect(cf.getInitialConnectAttempts()).toBe(1);
    expect(cf.getStaticConnectors()).toHaveLength(1);
  });

  test('a factory can create many connections after use', async () => {
    const cf = fx.factory();
    const connections: HornetQConnection[] = [];
    for (let i = 0; i < 3; i++) connections.push(await cf.createConnection());
    expect(new Set(connections).size).toBe(3);
  });
});

describe('close', () => {
  test('closes every connection the factory made', async () => {
    const cf = fx.factory();
    const a = await cf.createConnection();
    const b = await cf.createConnection();
    await cf.close();
    expect(() => a.getMetaData()).toThrow(IllegalStateException);
    expect(() => b.getMetaData()).toThrow(IllegalStateException);
    await waitFor(() => fx.broker.getConnectionCount() === 0, 'the broker to see both connections go');
  });
});

describe('settings that change what JMS does', () => {
  test('ClientID: connections carry it', async () => {
    const connection = await fx.connect({ configure: (cf) => cf.setClientID('from-cf') });
    expect(connection.getClientID()).toBe('from-cf');
  });

  test('ConsumerWindowSize 0: a consumer holds no buffer, so a competing consumer gets the rest (testSlowConsumers)', async () => {
    const { session } = await fx.open({ configure: (cf) => cf.setConsumerWindowSize(0) });
    const slow = await session.createConsumer(fx.queue('Queue1'));
    const fast = await session.createConsumer(fx.queue('Queue1'));
    const texts = Array.from({ length: 10 }, (_, i) => `m${i}`);
    await sendTexts(session, fx.queue('Queue1'), texts);
    const first = textOf(await slow.receive(5000));
    const rest = await receiveTexts(fast, 9);
    expect([first, ...rest].sort()).toEqual([...texts].sort());
    expect(await fast.receive(100)).toBeNull();
  });

  test('BlockOnNonDurableSend: a non-persistent send resolves only once the broker has the message', async () => {
    const { session } = await fx.open({ configure: (cf) => cf.setBlockOnNonDurableSend(true) });
    const producer = await session.createProducer(fx.queue('Queue1'));
    producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
    for (let i = 1; i <= 100; i++) {
      await producer.send(session.createTextMessage(`np${i}`));
      expect(fx.messageCount('Queue1')).toBe(i);
    }
  });

  test('BlockOnDurableSend (default): a persistent send resolves once the broker has the message', async () => {
    const { session } = await fx.open();
    const producer = await session.createProducer(fx.queue('Queue1'));
    for (let i = 1; i <= 20; i++) {
      await producer.send(session.createTextMessage(`p${i}`));
      expect(fx.messageCount('Queue1')).toBe(i);
    }
  });

  test('GroupID: every message sent through the factory carries that JMSXGroupID', async () => {
    const { session } = await fx.open({ configure: (cf) => cf.setGroupID('cf-group') });
    await sendTexts(session, fx.queue('Queue1'), ['a', 'b']);
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    for (let i = 0; i < 2; i++) {
      const message = await consumer.receive(5000);
      expect(message?.getStringProperty('JMSXGroupID')).toBe('cf-group');
    }
  });

  test('AutoGroup: each producer picks its own group id, the same for all its messages', async () => {
    const { session } = await fx.open({ configure: (cf) => cf.setAutoGroup(true) });
    await sendTexts(session, fx.queue('Queue1'), ['a1', 'a2']);
    await sendTexts(session, fx.queue('Queue1'), ['b1']);
    const consumer = await session.createConsumer(fx.queue('Queue1'));
    const groups: Array<string | null> = [];
    for (let i = 0; i < 3; i++)
      groups.push((await consumer.receive(5000))?.getStringProperty('JMSXGroupID') ?? null);
    expect(groups[0]).toEqual(expect.any(String));
    expect(groups[1]).toBe(groups[0]);
    expect(groups[2]).toEqual(expect.any(String));
    expect(groups[2]).not.toBe(groups[0]);
  });
});
