import {
  HornetQException,
  type Broker,
  type BrokerConfiguration,
  type ClientConsumer,
  type ClientOptions,
  type ClientProducer,
  type ClientSessionFactory,
  type ErrorCodeName,
  type ReceivedMessage,
} from '../../../src';
import type { FailoverEvent } from '../../../src/core/client';
import type { FaultProxy } from '../../support/fault-proxy';
import { seqOf, sequenced, useTestBrokers, waitFor, type TestBrokers } from '../../support/test-broker';

/**
 * Shared set-up for the reattach tests, on test/support/test-broker.ts: a broker with a fast TTL
 * check, the fault proxy in front of it, and a factory connected through the proxy with a 1 MiB
 * confirmation window, unlimited reconnect attempts, a short retry interval and no jitter.
 * Everything is closed after each test by useTestBrokers.
 */

export const WINDOW = 1024 * 1024;

export const REATTACH_CLIENT: Partial<ClientOptions> = {
  confirmationWindowSize: WINDOW,
  reconnectAttempts: -1,
  retryInterval: 50,
  retryJitter: 0,
  callTimeout: 20_000,
};

/**
 * For calls held across a black-holed link: call-timeout well below the time the pings need to
 * find the black hole, so that a call outlives its call-timeout before the failover decides it.
 */
export const HELD_CALL_CLIENT: Partial<ClientOptions> = {
  callTimeout: 300,
  connectionTTL: 1_000,
  clientFailureCheckPeriod: 250,
  callFailoverTimeout: 10_000,
};

export const QUEUE = 'q';

export const REATTACH_BROKER: Partial<BrokerConfiguration> = {
  connectionTtlCheckInterval: 100,
  queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: true }],
};

/** Records what a factory reports about failures, in order, with the time of each report. */
export class FailoverRecorder {
  readonly events: Array<FailoverEvent & { at: number }> = [];
  readonly failures: Array<{ error: HornetQException; failedOver: boolean; at: number }> = [];

  constructor(factory: ClientSessionFactory) {
    factory.addFailoverListener((event) => this.events.push({ ...event, at: Date.now() }));
    factory.addFailureListener((error, failedOver) =>
      this.failures.push({ error, failedOver, at: Date.now() }),
    );
  }

  /** 'FAILURE_DETECTED', 'FAILOVER_COMPLETED:true', … in the order they came. */
  get trace(): string[] {
    return this.events.map((e) => (e.reattached === undefined ? e.type : `${e.type}:${e.reattached}`));
  }

  count(type: FailoverEvent['type']): number {
    return this.events.filter((e) => e.type === type).length;
  }

  /** Resolves once `n` failovers have ended (completed or failed), counting from the start. */
  async ended(n: number, timeoutMs = 15_000): Promise<void> {
    await waitFor(
      () => this.count('FAILOVER_COMPLETED') + this.count('FAILOVER_FAILED') >= n,
      `${n} failover(s) to end (seen: ${this.trace.join(', ')})`,
      timeoutMs,
    );
  }

  last(type: FailoverEvent['type']): (FailoverEvent & { at: number }) | undefined {
    return [...this.events].reverse().find((e) => e.type === type);
  }
}

export interface Rig {
  broker: Broker;
  proxy: FaultProxy;
  factory: ClientSessionFactory;
  recorder: FailoverRecorder;
}

export interface ReattachTestKit extends TestBrokers {
  /** Broker (REATTACH_BROKER + `broker`), proxy in front of it, factory (REATTACH_CLIENT + `client`) through it. */
  rig(options?: { broker?: Partial<BrokerConfiguration>; client?: Partial<ClientOptions> }): Promise<Rig>;
}

export function useReattachKit(): ReattachTestKit {
  const kit = useTestBrokers();
  return {
    ...kit,
    async rig(options = {}) {
      const broker = await kit.startBroker({ ...REATTACH_BROKER, ...options.broker });
      const proxy = await kit.proxyFor(broker);
      const factory = await kit.connect(proxy.port, { ...REATTACH_CLIENT, ...options.client });
      return { broker, proxy, factory, recorder: new FailoverRecorder(factory) };
    },
  };
}

/** Sends sequenced messages `from` .. `to - 1`, one after the other. */
export async function sendRange(
  producer: ClientProducer,
  from: number,
  to: number,
  options: { durable?: boolean; body?: Buffer } = {},
): Promise<void> {
  for (let seq = from; seq < to; seq++) await producer.send(sequenced(seq, options));
}

/**
 * Gives every message the consumer gets to a handler that records its seq and acknowledges it;
 * returns the list, which grows as messages arrive.
 */
export function collect(
  consumer: ClientConsumer,
  onMessage?: (message: ReceivedMessage, index: number) => void,
): number[] {
  const seqs: number[] = [];
  consumer.setMessageHandler(async (message) => {
    seqs.push(seqOf(message));
    onMessage?.(message, seqs.length - 1);
    await message.acknowledge();
  });
  return seqs;
}

/** Waits until `list` has `n` entries (or more, which the caller's equality check then reports). */
export function waitForLength(
  list: readonly unknown[],
  n: number,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  return waitFor(() => list.length >= n, `${what}: ${n} (have ${list.length})`, timeoutMs);
}

/** The settled outcome of a promise: its value, or the error code it rejected with. */
export async function outcome<T>(
  promise: Promise<T>,
): Promise<
  { ok: true; value: T } | { ok: false; code: ErrorCodeName | 'not a HornetQException'; error: unknown }
> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, code: HornetQException.is(error) ? error.code : 'not a HornetQException', error };
  }
}

export { sleep } from '../../support/wait';
