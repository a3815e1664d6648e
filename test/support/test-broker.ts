import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  Broker,
  ClientSessionFactory,
  CoreMessage,
  PropertyKind,
  selectorFilterFactory,
  type BrokerConfiguration,
  type ClientConsumer,
  type ClientOptions,
  type Filter,
  type Logger,
  type ReceivedMessage,
  type TcpAcceptorTlsConfiguration,
} from '../../src';
import type { SecuritySetting } from '../../src/server/security/security-store';
import { FaultProxy } from './fault-proxy';
import { securedBrokerConfig, type TestUser } from './secured-broker';

/**
 * The one way tests start a broker of ours in their own process: on 127.0.0.1 with an ephemeral
 * port, with what a test asks for (selectors, security, a journal, TLS), client factories
 * connected to it, fault proxies in front of it, restarts on the same port with the durable state
 * kept, and a teardown that closes everything a test opened (proxies first, so that no close
 * waits out a call timeout on a black-holed link; then clients, anything else registered,
 * brokers, and last their journal directories) so jest finds no open handles.
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

/** What a test broker has beyond its configuration; every option is off when left out. */
export interface TestBrokerOptions {
  /** JMS selectors on queues and consumers (the selector filter factory); without, a filter is refused. */
  readonly selectors?: boolean;
  /** A filter factory of the test's own (one that fails on purpose, say), in place of `selectors`. */
  readonly filterFactory?: (expression: string) => Filter;
  /**
   * Security on (secured-broker.ts): these users plus ADMIN and GUEST, these settings, and a
   * login throttle that never slows a test. Off otherwise: security is tested where it is the
   * subject (test/server/security, test/integration/security*).
   */
  readonly security?: { readonly users?: readonly TestUser[]; readonly settings: readonly SecuritySetting[] };
  /**
   * A journal in a temporary directory of the broker's own (small files: a test journal need not
   * pre-create HornetQ's 2 × 10 MiB), removed in teardown; a restart reads it back. Without, the
   * broker keeps its state in memory.
   */
  readonly journal?: boolean;
  /** The acceptor (named 'tls') speaks TLS only, with this key store and whatever else is given. */
  readonly tls?: Partial<TcpAcceptorTlsConfiguration> & { readonly keyStorePath: string };
}

export interface TestBrokers {
  /**
   * Starts a broker with one TCP acceptor on 127.0.0.1:0, persistence and security disabled (plus
   * whatever `config` adds or overrides, and what `options` asks for).
   */
  startBroker(config?: Partial<BrokerConfiguration>, options?: TestBrokerOptions): Promise<Broker>;
  /** A factory connected straight to `broker` (or to `port`, e.g. a fault proxy in front of it). */
  connect(target: Broker | number, options?: Partial<ClientOptions>): Promise<ClientSessionFactory>;
  /** The fault proxy in front of `broker` (or of `port`), closed in teardown before anything else. */
  proxyFor(target: Broker | number): Promise<FaultProxy>;
  /**
   * Stops `broker` and starts a new one on the same port with the same configuration and options
   * (plus `config`), keeping its durable state: the same in-memory store, or its journal read back.
   */
  restart(broker: Broker, config?: Partial<BrokerConfiguration>): Promise<Broker>;
  /** Registers something else to close in teardown (raw sockets, JMS factories); returns it. */
  track<T extends Closeable>(resource: T): T;
  /** Closes everything now (teardown does this; tests that restart a broker may call it early). */
  closeAll(): Promise<void>;
}

/** Small journal files for a test's journal (HornetQ's default is 10 MiB each, two pre-created). */
const TEST_JOURNAL_FILE_SIZE = 128 * 1024;

/**
 * Call at the top level of a test file (or a describe block): what the tests open through the
 * returned object is closed after each test.
 */
export function useTestBrokers(): TestBrokers {
  const brokers: Broker[] = [];
  const factories: ClientSessionFactory[] = [];
  const proxies: FaultProxy[] = [];
  const others: Closeable[] = [];
  const journalDirectories: string[] = [];
  /** What each running broker was started with, for restart(). */
  const started = new WeakMap<Broker, TestBrokerOptions>();

  const closeAll = async (): Promise<void> => {
    const openProxies = proxies.splice(0);
    await Promise.allSettled(openProxies.map((proxy) => proxy.close()));
    const openFactories = factories.splice(0);
    await Promise.allSettled(openFactories.map((factory) => factory.close()));
    const openOthers = others.splice(0).reverse();
    await Promise.allSettled(openOthers.map(async (resource) => resource.close()));
    const openBrokers = brokers.splice(0);
    await Promise.allSettled(openBrokers.map((broker) => broker.stop()));
    const directories = journalDirectories.splice(0);
    await Promise.all(directories.map((dir) => fs.rm(dir, { recursive: true, force: true })));
  };

  afterEach(closeAll);

  const launch = async (
    config: Partial<BrokerConfiguration>,
    options: TestBrokerOptions,
  ): Promise<Broker> => {
    const filterFactory =
      options.filterFactory ?? (options.selectors === true ? selectorFilterFactory : undefined);
    const broker = new Broker(config, filterFactory);
    await broker.start();
    brokers.push(broker);
    started.set(broker, options);
    return broker;
  };

  const journalConfig = async (): Promise<Partial<BrokerConfiguration>> => {
    const dataDirectory = await fs.mkdtemp(path.join(os.tmpdir(), 'hornetq-test-journal-'));
    journalDirectories.push(dataDirectory);
    return { persistenceEnabled: true, dataDirectory, journalFileSize: TEST_JOURNAL_FILE_SIZE };
  };

  return {
    async startBroker(config = {}, options = {}) {
      const acceptor =
        options.tls === undefined
          ? { name: 'tcp' }
          : { name: 'tls', tls: { needClientAuth: false, handshakeTimeout: 10_000, ...options.tls } };
      const security =
        options.security === undefined
          ? {}
          : securedBrokerConfig(options.security.users ?? [], options.security.settings);
      return launch(
        {
          acceptors: [{ type: 'tcp', host: '127.0.0.1', port: 0, ...acceptor }],
          persistenceEnabled: false,
          securityEnabled: false,
          ...(options.journal === true ? await journalConfig() : {}),
          ...security,
          ...config,
        },
        options,
      );
    },
    async proxyFor(target) {
      const targetPort = typeof target === 'number' ? target : target.getPort();
      const proxy = await FaultProxy.start({ targetHost: '127.0.0.1', targetPort });
      proxies.push(proxy);
      return proxy;
    },
    async restart(broker, config = {}) {
      const options = started.get(broker) ?? {};
      const port = broker.getPort();
      await broker.stop();
      brokers.splice(brokers.indexOf(broker), 1);
      // A broker with a journal of its own reads it back; one without hands its store on.
      const ownJournal = broker.config.persistenceEnabled && broker.config.storage === undefined;
      const [acceptor] = broker.config.acceptors;
      const acceptors =
        acceptor?.type === 'tcp'
          ? [{ ...acceptor, port }, ...broker.config.acceptors.slice(1)]
          : broker.config.acceptors;
      return launch(
        { ...broker.config, acceptors, ...(ownJournal ? {} : { storage: broker.storage }), ...config },
        options,
      );
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
