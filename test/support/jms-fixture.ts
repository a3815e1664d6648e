import {
  HornetQConnectionFactory,
  HornetQQueue,
  HornetQTopic,
  Session,
  type Broker,
  type BrokerConfiguration,
  type Destination,
  type HornetQConnection,
  type HornetQMessageConsumer,
  type HornetQSession,
  type Message,
  type QueueStatistics,
  type TextMessage,
} from '../../src';
import { useTestBrokers, waitFor, type TestBrokerOptions } from './test-broker';

export { waitFor } from './test-broker';

/**
 * A real broker for JMS conformance tests, started by test-broker.ts with selectors on and JMS
 * queues (core queue and address `jms.queue.<name>`) created at start. Every test gets a fresh
 * broker; what a test opens through the fixture (factories, connections, extra resources) is
 * closed after it, then the broker is stopped.
 */
export interface JmsFixtureOptions {
  /** JMS queue names to create (default: Queue1, Queue2, Queue3). */
  queues?: string[];
  /** Anything else for the broker (address settings, expiry scan period, id cache size…). */
  broker?: Partial<BrokerConfiguration>;
  /** Security on, with these users and settings (test-broker.ts' `security` option). */
  security?: TestBrokerOptions['security'];
}

export interface JmsFixture {
  readonly broker: Broker;
  /**
   * A new factory pointing at the broker (or at `port`, e.g. a fault proxy in front of it),
   * tracked for teardown.
   */
  factory(configure?: (factory: HornetQConnectionFactory) => void, port?: number): HornetQConnectionFactory;
  /** A new connection through a new factory; with `clientID` it is set first, with `start` started. */
  connect(options?: ConnectOptions): Promise<HornetQConnection>;
  /** A started connection and one session on it (non-transacted AUTO_ACKNOWLEDGE by default). */
  open(options?: OpenOptions): Promise<{ connection: HornetQConnection; session: HornetQSession }>;
  queue(name: string): HornetQQueue;
  topic(name: string): HornetQTopic;
  /** The broker's view of a core queue (JMS queue `Q1` is core queue `jms.queue.Q1`). */
  coreQueue(coreName: string): QueueStatistics | undefined;
  /** Messages the broker holds for JMS queue `name`, delivered-but-unacknowledged included. */
  messageCount(name: string): number;
  /** Waits until JMS queue `name` holds exactly `count` messages. */
  expectCount(name: string, count: number, timeoutMs?: number): Promise<void>;
  /** Core queues bound to an address (a topic's subscriptions). */
  queuesOn(address: string): QueueStatistics[];
  /** Registers something else to close in teardown; returns it. */
  track<T extends { close(): unknown }>(resource: T): T;
}

export interface ConnectOptions {
  clientID?: string;
  start?: boolean;
  configure?: (factory: HornetQConnectionFactory) => void;
}

export interface OpenOptions extends ConnectOptions {
  transacted?: boolean;
  ackMode?: number;
}

const DEFAULT_QUEUES = ['Queue1', 'Queue2', 'Queue3'];

/** Call at the top of a test file or describe block. */
export function useJmsFixture(options: JmsFixtureOptions = {}): JmsFixture {
  const kit = useTestBrokers();
  let broker: Broker | null = null;

  beforeEach(async () => {
    const queues = (options.queues ?? DEFAULT_QUEUES).map((name) => ({
      name: `jms.queue.${name}`,
      address: `jms.queue.${name}`,
      filter: null,
      durable: true,
    }));
    broker = await kit.startBroker(
      { ...options.broker, queues: [...queues, ...(options.broker?.queues ?? [])] },
      { selectors: true, ...(options.security === undefined ? {} : { security: options.security }) },
    );
  });

  afterEach(() => {
    // useTestBrokers closes what the test opened, then the broker.
    broker = null;
  });

  const requireBroker = (): Broker => {
    if (broker === null) throw new Error('the JMS fixture is used outside a test');
    return broker;
  };

  const fixture: JmsFixture = {
    get broker() {
      return requireBroker();
    },
    factory(configure, port) {
      const factory = new HornetQConnectionFactory({
        host: '127.0.0.1',
        port: port ?? requireBroker().getPort(),
      });
      configure?.(factory);
      return kit.track(factory);
    },
    async connect(connectOptions = {}) {
      const connection = await fixture.factory(connectOptions.configure).createConnection();
      if (connectOptions.clientID !== undefined) await connection.setClientID(connectOptions.clientID);
      if (connectOptions.start === true) await connection.start();
      return connection;
    },
    async open(openOptions = {}) {
      const connection = await fixture.connect({ start: true, ...openOptions });
      const session = await connection.createSession(
        openOptions.transacted ?? false,
        openOptions.ackMode ?? Session.AUTO_ACKNOWLEDGE,
      );
      return { connection, session };
    },
    queue: (name) => new HornetQQueue(name),
    topic: (name) => new HornetQTopic(name),
    coreQueue: (coreName) =>
      requireBroker()
        .listQueues()
        .find((queue) => queue.name === coreName),
    messageCount(name) {
      const queue = fixture.coreQueue(`jms.queue.${name}`);
      if (queue === undefined) throw new Error(`no JMS queue ${name} on the broker`);
      return queue.messageCount;
    },
    async expectCount(name, count, timeoutMs = 5000) {
      try {
        await waitFor(() => fixture.messageCount(name) === count, `${count} messages in ${name}`, timeoutMs);
      } catch {
        // The plain assertion reports the count actually there.
        expect(fixture.messageCount(name)).toBe(count);
      }
    },
    queuesOn: (address) =>
      requireBroker()
        .listQueues()
        .filter((queue) => queue.address === address),
    track: (resource) => kit.track(resource),
  };
  return fixture;
}

/** The text of a message that must be a TextMessage (fails the test otherwise). */
export function textOf(message: Message | null): string | null {
  if (message === null) throw new Error('expected a message, got null');
  const text = message as Partial<TextMessage>;
  if (typeof text.getText !== 'function') throw new Error('expected a TextMessage');
  return text.getText();
}

/** Receives exactly `count` messages, each within `timeoutMs`; fails saying how many came. */
export async function receiveTexts(
  consumer: HornetQMessageConsumer,
  count: number,
  timeoutMs = 5000,
): Promise<string[]> {
  const texts: string[] = [];
  while (texts.length < count) {
    const message = await consumer.receive(timeoutMs);
    if (message === null) {
      throw new Error(`received ${texts.length} of ${count} messages (${texts.join(', ')}); then none`);
    }
    texts.push(textOf(message) ?? '<null>');
  }
  return texts;
}

/** Sends one TextMessage per text through a new producer (closed afterwards). */
export async function sendTexts(
  session: HornetQSession,
  destination: HornetQQueue | HornetQTopic | { getQueueName(): string } | { getTopicName(): string },
  texts: readonly string[],
  configure?: (message: TextMessage, index: number) => void,
): Promise<Message[]> {
  const producer = await session.createProducer(destination);
  const sent: Message[] = [];
  for (const [index, text] of texts.entries()) {
    const message = session.createTextMessage(text);
    configure?.(message, index);
    await producer.send(message);
    sent.push(message);
  }
  await producer.close();
  return sent;
}

/** Asserts that nothing arrives within `ms` (a bounded negative check, never used for ordering). */
export async function expectNothing(consumer: HornetQMessageConsumer, ms = 200): Promise<void> {
  const message = await consumer.receive(ms);
  expect(message === null ? null : (textOf(message) ?? '<non-text>')).toBeNull();
}

/** Rejection of `promise` (or throw of `call`) as an error object; fails if it succeeds. */
export async function failureOf(call: Promise<unknown> | (() => unknown)): Promise<unknown> {
  try {
    await (typeof call === 'function' ? call() : call);
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure, but the call succeeded');
}

/** A deferred promise, resolved from outside (listeners hand results to the test through it). */
export function deferred<T = void>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A TextMessage of "another JMS provider": plain fields behind the contract's methods, no class
 * of ours. Headers start as a foreign provider might leave them.
 */
export function foreignTextMessage(text: string, properties: Record<string, unknown> = {}): TextMessage {
  const headers = {
    id: null as string | null,
    timestamp: 0,
    correlationId: null as string | null,
    replyTo: null as Destination | null,
    destination: null as Destination | null,
    mode: 2,
    redelivered: false,
    type: null as string | null,
    expiration: 0,
    priority: 4,
  };
  let body: string | null = text;
  const props = new Map<string, unknown>(Object.entries(properties));
  const get = (name: string): never => props.get(name) as never;
  const set = (name: string, value: unknown): void => void props.set(name, value);
  return {
    getJMSMessageID: () => headers.id,
    setJMSMessageID: (v) => void (headers.id = v),
    getJMSTimestamp: () => headers.timestamp,
    setJMSTimestamp: (v) => void (headers.timestamp = v),
    getJMSCorrelationID: () => headers.correlationId,
    setJMSCorrelationID: (v) => void (headers.correlationId = v),
    getJMSReplyTo: () => headers.replyTo,
    setJMSReplyTo: (v) => void (headers.replyTo = v),
    getJMSDestination: () => headers.destination,
    setJMSDestination: (v) => void (headers.destination = v),
    getJMSDeliveryMode: () => headers.mode,
    setJMSDeliveryMode: (v) => void (headers.mode = v),
    getJMSRedelivered: () => headers.redelivered,
    setJMSRedelivered: (v) => void (headers.redelivered = v),
    getJMSType: () => headers.type,
    setJMSType: (v) => void (headers.type = v),
    getJMSExpiration: () => headers.expiration,
    setJMSExpiration: (v) => void (headers.expiration = v),
    getJMSPriority: () => headers.priority,
    setJMSPriority: (v) => void (headers.priority = v),
    propertyExists: (name) => props.has(name),
    getPropertyNames: () => [...props.keys()],
    clearProperties: () => props.clear(),
    getBooleanProperty: get,
    setBooleanProperty: set,
    getByteProperty: get,
    setByteProperty: set,
    getShortProperty: get,
    setShortProperty: set,
    getIntProperty: get,
    setIntProperty: set,
    getLongProperty: get,
    setLongProperty: set,
    getFloatProperty: get,
    setFloatProperty: set,
    getDoubleProperty: get,
    setDoubleProperty: set,
    getStringProperty: get,
    setStringProperty: set,
    getObjectProperty: (name) => props.get(name) ?? null,
    setObjectProperty: set,
    acknowledge: () => Promise.resolve(),
    clearBody: () => void (body = null),
    getText: () => body,
    setText: (value) => void (body = value),
  };
}
