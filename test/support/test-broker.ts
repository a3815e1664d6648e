import {
  Broker,
  ClientSessionFactory,
  CoreMessage,
  PropertyKind,
  type BrokerConfiguration,
  type ClientConsumer,
  type ClientOptions,
  type Filter,
  type Logger,
  type ReceivedMessage,
} from '../../src';

/**
 * Real brokers and clients for integration tests: a broker on 127.0.0.1 with an ephemeral port,
 * client factories connected to it, and a teardown that closes everything a test opened (clients
 * first, then anything else registered, then brokers) so jest finds no open handles.
 */

/** One log call as the broker made it, with the bindings of the child logger it went through. */
export interface LogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly bindings: Readonly<Record<string, unknown>>;
  readonly object: object;
  readonly message: string;
}

/** A Logger that keeps every line in memory (shared by all its children) for assertions. */
export class CapturingLogger implements Logger {
  constructor(
    readonly lines: LogLine[] = [],
    private readonly bindings: Readonly<Record<string, unknown>> = {},
  ) {}

  debug(object: object, message?: string): void {
    this.record('debug', object, message);
  }
  info(object: object, message?: string): void {
    this.record('info', object, message);
  }
  warn(object: object, message?: string): void {
    this.record('warn', object, message);
  }
  error(object: object, message?: string): void {
    this.record('error', object, message);
  }
  child(bindings: Record<string, unknown>): Logger {
    return new CapturingLogger(this.lines, { ...this.bindings, ...bindings });
  }

  /** Lines whose message or fields match `pattern`. */
  find(pattern: RegExp, levels: readonly LogLine['level'][] = ['debug', 'info', 'warn', 'error']): LogLine[] {
    return this.lines.filter(
      (line) => levels.includes(line.level) && pattern.test(`${line.message} ${safeJson(line.object)}`),
    );
  }

  /** Every line, one per row, for failure messages. */
  dump(): string {
    return this.lines.map((line) => `${line.level} ${line.message} ${safeJson(line.object)}`).join('\n');
  }

  private record(level: LogLine['level'], object: object, message: string | undefined): void {
    this.lines.push({ level, bindings: this.bindings, object, message: message ?? '' });
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v: unknown) => (v instanceof Error ? v.message : v));
  } catch {
    return String(value);
  }
}

/** Anything a test opens that must be released in teardown. */
export interface Closeable {
  close(): unknown;
}

export interface TestBrokers {
  /**
   * Starts a broker with one TCP acceptor on 127.0.0.1:0 and persistence disabled (plus whatever
   * `config` adds or overrides).
   */
  startBroker(
    config?: Partial<BrokerConfiguration>,
    filterFactory?: (expression: string) => Filter,
  ): Promise<Broker>;
  /** A factory connected straight to `broker` (or to `port`, e.g. a fault proxy in front of it). */
  connect(target: Broker | number, options?: Partial<ClientOptions>): Promise<ClientSessionFactory>;
  /** Registers something else to close in teardown (proxies, raw sockets); returns it. */
  track<T extends Closeable>(resource: T): T;
  /** Closes everything now (teardown does this; tests that restart a broker may call it early). */
  closeAll(): Promise<void>;
}

/**
 * Call at the top level of a test file (or a describe block): what the tests open through the
 * returned object is closed after each test.
 */
export function useTestBrokers(): TestBrokers {
  const brokers: Broker[] = [];
  const factories: ClientSessionFactory[] = [];
  const others: Closeable[] = [];

  const closeAll = async (): Promise<void> => {
    const openFactories = factories.splice(0);
    await Promise.allSettled(openFactories.map((factory) => factory.close()));
    const openOthers = others.splice(0).reverse();
    await Promise.allSettled(openOthers.map(async (resource) => resource.close()));
    const openBrokers = brokers.splice(0);
    await Promise.allSettled(openBrokers.map((broker) => broker.stop()));
  };

  afterEach(closeAll);

  return {
    async startBroker(config = {}, filterFactory) {
      const broker = new Broker(
        {
          acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port: 0 }],
          // No journal unless the test asks for one (in a temporary directory of its own).
          persistenceEnabled: false,
          // Security is tested where it is the subject (test/server/security, test/integration/security*).
          securityEnabled: false,
          ...config,
        },
        filterFactory,
      );
      await broker.start();
      brokers.push(broker);
      return broker;
    },
    async connect(target, options = {}) {
      const port = typeof target === 'number' ? target : target.getPort();
      const factory = await ClientSessionFactory.connect({
        connectors: [{ host: '127.0.0.1', port }],
        ...options,
      });
      factories.push(factory);
      return factory;
    },
    track(resource) {
      others.push(resource);
      return resource;
    },
    closeAll,
  };
}

export { waitFor } from './wait';

/** A message carrying sequence number `seq` as the INT property 'seq' and as its body ('m<seq>'). */
export function sequenced(
  seq: number,
  options: { durable?: boolean; priority?: number; body?: Buffer } = {},
): CoreMessage {
  const message = new CoreMessage();
  message.durable = options.durable ?? false;
  if (options.priority !== undefined) message.priority = options.priority;
  message.properties.set('seq', { kind: PropertyKind.INT, value: seq });
  message.body = options.body ?? Buffer.from(`m${seq}`);
  return message;
}

/** The 'seq' property of a message made by sequenced(); throws when it is missing. */
export function seqOf(received: ReceivedMessage | CoreMessage): number {
  const message = 'message' in received ? received.message : received;
  const value = message.properties.get('seq');
  if (value === undefined || value.kind !== PropertyKind.INT)
    throw new Error('message has no INT property seq');
  return value.value;
}

/**
 * Receives exactly `count` messages, each within `timeoutMs`; fails naming how many arrived.
 * Messages are not acknowledged: the caller decides.
 */
export async function receiveCount(
  consumer: ClientConsumer,
  count: number,
  timeoutMs = 10_000,
): Promise<ReceivedMessage[]> {
  const received: ReceivedMessage[] = [];
  while (received.length < count) {
    const message = await consumer.receive(timeoutMs);
    if (message === null) {
      throw new Error(`received ${received.length} of ${count} messages; none came within ${timeoutMs} ms`);
    }
    received.push(message);
  }
  return received;
}

/** 0, 1, …, n-1: the sequence a test expects back. */
export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
