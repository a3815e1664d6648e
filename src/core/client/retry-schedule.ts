import { HornetQException } from '../protocol';
import type { Transport } from '../remoting';
import type { ClientOptions } from './client-options';
import {
  connectTimeoutOf,
  connectTransport,
  describeConnector,
  type TransportConfiguration,
} from './connector';

export interface RetryPolicy {
  /** Connection attempts: -1 forever; 0 and 1 both mean one. */
  attempts: number;
  retryInterval: number;
  retryIntervalMultiplier: number;
  maxRetryInterval: number;
  retryJitter: number;
}

/**
 * The pause before the n-th retry (n from 1): retry-interval × multiplier^(n-1), capped at
 * max-retry-interval, then varied by up to ± jitter of itself.
 */
export function retryDelay(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const base = Math.min(
    policy.retryInterval * Math.pow(policy.retryIntervalMultiplier, retry - 1),
    policy.maxRetryInterval,
  );
  return policy.retryJitter === 0 ? base : base * (1 + policy.retryJitter * (2 * random() - 1));
}

/** A sleep that `cancel()` ends early (the factory closing during a reconnect loop). */
export class CancellableDelay {
  private timer: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;
  private cancelled = false;

  get isCancelled(): boolean {
    return this.cancelled;
  }

  wait(ms: number): Promise<void> {
    if (this.cancelled) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(() => {
        this.timer = null;
        this.wake = null;
        resolve();
      }, ms);
    });
  }

  cancel(): void {
    this.cancelled = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.wake?.();
    this.wake = null;
  }
}

/**
 * Tries every connector in turn, `policy.attempts` rounds, pausing between rounds; "N attempts"
 * means exactly N rounds and N - 1 pauses. Rejects with NOT_CONNECTED naming the brokers tried and
 * the last error, or with OBJECT_CLOSED when cancelled.
 */
export async function connectWithRetry(
  connectors: readonly TransportConfiguration[],
  policy: RetryPolicy,
  options: Pick<ClientOptions, 'callTimeout'>,
  delay: CancellableDelay,
): Promise<{ transport: Transport; connector: TransportConfiguration }> {
  const rounds = Math.max(policy.attempts, 1);
  let lastError: unknown = null;
  for (let round = 1; policy.attempts === -1 || round <= rounds; round++) {
    for (const connector of connectors) {
      if (delay.isCancelled) throw new HornetQException('OBJECT_CLOSED', 'The session factory is closed');
      try {
        const timeoutMs = connectTimeoutOf(connector, options.callTimeout);
        return { transport: await connectTransport(connector, timeoutMs), connector };
      } catch (error) {
        lastError = error;
      }
    }
    if (round === rounds && policy.attempts !== -1) break;
    await delay.wait(retryDelay(policy, round));
  }
  if (delay.isCancelled) throw new HornetQException('OBJECT_CLOSED', 'The session factory is closed');
  const tried = connectors.map(describeConnector).join(', ');
  const reason = lastError instanceof Error ? lastError.message : String(lastError);
  throw new HornetQException('NOT_CONNECTED', `Cannot connect to server(s) ${tried}: ${reason}`, {
    cause: lastError,
  });
}
