import {
  HornetQConnectionFactory,
  HornetQException,
  JMSException,
  type Broker,
  type BrokerConfiguration,
  type ClientSessionFactory,
  type FailoverEvent,
  type HornetQConnection,
  type HornetQMessageConsumer,
  type HornetQSession,
  type Message,
  type QueueStatistics,
} from '../../../src';
import type { FaultProxy } from '../../support/fault-proxy';
import { useTestBrokers, waitFor } from '../../support/test-broker';

export { waitFor } from '../../support/test-broker';

/**
 * Shared set-up for the JMS-level reattach scenarios (hornetq-spec §7.5, §7.9), on
 * test/support/test-broker.ts: a real broker with the JMS queue and selectors, the fault proxy in
 * front of it, and HornetQConnectionFactory objects connected through the proxy. A broker can be
 * restarted on the same port with the same storage (durable state kept, sessions and non-durable
 * queues lost). Teardown (useTestBrokers) closes the proxy, then the factories, then the broker.
 */

export const WINDOW = 1024 * 1024;
export const QUEUE = 'Queue1';
export const CORE_QUEUE = `jms.queue.${QUEUE}`;

/** Reattach-friendly factory settings every scenario starts from; a test overrides what it needs. */
function reattachDefaults(factory: HornetQConnectionFactory): void {
  factory.setConfirmationWindowSize(WINDOW);
  factory.setReconnectAttempts(-1);
  factory.setRetryInterval(50);
  factory.setRetryJitter(0);
}

export interface JmsReattachRig {
  readonly broker: Broker;
  readonly proxy: FaultProxy;
  /** Starts the broker (JMS queue Queue1 plus `config`) and the proxy in front of it. */
  start(config?: Partial<BrokerConfiguration>): Promise<void>;
  /** A factory through the proxy with the reattach defaults, then `configure`; closed in teardown. */
  factory(configure?: (factory: HornetQConnectionFactory) => void): HornetQConnectionFactory;
  /** A connection through a new factory, with a recorder on its exception and failover listeners. */
  connect(
    configure?: (factory: HornetQConnectionFactory) => void,
  ): Promise<{ connection: HornetQConnection; heard: Heard }>;
  /** Stops the broker and starts a new one on the same port with the same storage. */
  restart(): Promise<Broker>;
  /** The broker's view of a core queue, or undefined. */
  coreQueue(name: string): QueueStatistics | undefined;
}

export function useJmsReattach(): JmsReattachRig {
  const kit = useTestBrokers();
  let broker: Broker | null = null;
  let proxy: FaultProxy | null = null;

  afterEach(() => {
    // useTestBrokers closes them (the proxy first); the next test starts its own.
    broker = null;
    proxy = null;
  });

  const required = <T>(value: T | null, what: string): T => {
    if (value === null) throw new Error(`the rig has no ${what}: call start() first`);
    return value;
  };

  const rig: JmsReattachRig = {
    get broker() {
      return required(broker, 'broker');
    },
    get proxy() {
      return required(proxy, 'proxy');
    },
    async start(config = {}) {
      broker = await kit.startBroker(
        {
          connectionTtlCheckInterval: 100,
          ...config,
          queues: [
            { name: CORE_QUEUE, address: CORE_QUEUE, filter: null, durable: true },
            ...(config.queues ?? []),
          ],
        },
        { selectors: true },
      );
      proxy = await kit.proxyFor(broker);
    },
    factory(configure) {
      const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: rig.proxy.port });
      reattachDefaults(factory);
      configure?.(factory);
      return kit.track(factory);
    },
    async connect(configure) {
      const connection = await rig.factory(configure).createConnection();
      return { connection, heard: new Heard(connection) };
    },
    async restart() {
      broker = await kit.restart(rig.broker);
      return broker;
    },
    coreQueue: (name) => rig.broker.listQueues().find((queue) => queue.name === name),
  };
  return rig;
}

/** What a JMS connection's ExceptionListener and failover listener heard, in order. */
export class Heard {
  readonly exceptions: JMSException[] = [];
  readonly events: FailoverEvent[] = [];

  constructor(connection: HornetQConnection) {
    connection.setExceptionListener((exception) => this.exceptions.push(exception));
    connection.setFailoverListener((event) => this.events.push(event));
  }

  /** The error codes the ExceptionListener got ('FAILOVER', 'DISCONNECT'), in order. */
  get codes(): Array<string | null> {
    return this.exceptions.map((exception) => exception.getErrorCode());
  }

  /** Resolves once the ExceptionListener has been called `n` times (or more). */
  async exceptionCount(n: number, timeoutMs = 15_000): Promise<void> {
    await waitFor(
      () => this.exceptions.length >= n,
      `${n} ExceptionListener call(s) (heard: ${this.codes.join(', ')})`,
      timeoutMs,
    );
  }

  /** The cause the factory reported with FAILURE_DETECTED number `index` (0-based). */
  failureCause(index = 0): unknown {
    return this.events.filter((event) => event.type === 'FAILURE_DETECTED')[index]?.cause;
  }
}

/** The core failure linked to a JMS exception, checked to be a HornetQException. */
export function linkedCore(exception: unknown): HornetQException {
  expect(JMSException.is(exception)).toBe(true);
  const linked = (exception as JMSException).getLinkedException();
  if (!HornetQException.is(linked))
    throw new Error(`linked exception is not a HornetQException: ${String(linked)}`);
  return linked;
}

/** Receives exactly `count` messages, each within `timeoutMs`; fails saying how many came. */
export async function receiveMessages(
  consumer: HornetQMessageConsumer,
  count: number,
  timeoutMs = 10_000,
): Promise<Message[]> {
  const messages: Message[] = [];
  while (messages.length < count) {
    const message = await consumer.receive(timeoutMs);
    if (message === null) throw new Error(`received ${messages.length} of ${count} messages; then none`);
    messages.push(message);
  }
  return messages;
}

/** A text message 'm<seq>' stamped with the 'seq' int property that seqOf reads. */
export function numbered(session: HornetQSession, seq: number): Message {
  const message = session.createTextMessage(`m${seq}`);
  message.setIntProperty('seq', seq);
  return message;
}

/** The 'seq' int property every scenario stamps on what it sends. */
export function seqOf(message: Message): number {
  return message.getIntProperty('seq');
}

/** A bounded negative check: what a listener recorded does not grow in the next `ms`. */
export async function staysAt(list: readonly unknown[], length: number, ms = 300): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  expect(list).toHaveLength(length);
}

/** The settled outcome of a promise, and how long it took. */
export async function settle<T>(
  promise: Promise<T>,
): Promise<{ ok: true; value: T; ms: number } | { ok: false; error: unknown; ms: number }> {
  const started = performance.now();
  try {
    const value = await promise;
    return { ok: true, value, ms: performance.now() - started };
  } catch (error) {
    return { ok: false, error, ms: performance.now() - started };
  }
}

/** The core session factory beneath a JMS connection (for listener counts only). */
export function coreFactoryOf(connection: HornetQConnection): ClientSessionFactory {
  return (connection as unknown as { factory: ClientSessionFactory }).factory;
}
