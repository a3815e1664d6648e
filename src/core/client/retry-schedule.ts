import { HornetQException, type ErrorCodeName } from '../protocol';
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

/**
 * A sleep that `cancel()` ends early (the factory closing during a reconnect loop), and a wait's
 * own signal too (its abort ends that wait only).
 */
export class CancellableDelay {
  private timer: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;
  private cancelled = false;

  get isCancelled(): boolean {
    return this.cancelled;
  }

  wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.cancelled || signal?.aborted === true) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        if (this.timer !== null) clearTimeout(this.timer);
        this.timer = null;
        this.wake = null;
        signal?.removeEventListener('abort', wake);
        resolve();
      };
      this.wake = wake;
      this.timer = setTimeout(wake, ms);
      signal?.addEventListener('abort', wake, { once: true });
    });
  }

  cancel(): void {
    this.cancelled = true;
    this.wake?.();
  }
}

/**
 * Tries every connector in turn, `policy.attempts` rounds, pausing between rounds; "N attempts"
 * means exactly N rounds and N - 1 pauses. Rejects with NOT_CONNECTED naming the brokers tried and
 * the last error, with OBJECT_CLOSED when cancelled, or with the reason of `signal` when it aborts:
 * the attempt under way is cut off (its socket destroyed) and no other is made.
 */
export async function connectWithRetry(
  connectors: readonly TransportConfiguration[],
  policy: RetryPolicy,
  options: Pick<ClientOptions, 'callTimeout' | 'tls'>,
  delay: CancellableDelay,
  signal?: AbortSignal,
): Promise<{ transport: Transport; connector: TransportConfiguration }> {
  const rounds = Math.max(policy.attempts, 1);
  let lastError: unknown = null;
  for (let round = 1; policy.attempts === -1 || round <= rounds; round++) {
    for (const connector of connectors) {
      signal?.throwIfAborted();
      if (delay.isCancelled) throw new HornetQException('OBJECT_CLOSED', 'The session factory is closed');
      try {
        const timeoutMs = connectTimeoutOf(connector, options.callTimeout);
        return { transport: await connectTransport(connector, timeoutMs, signal, options.tls), connector };
      } catch (error) {
        lastError = error;
      }
    }
    if (round === rounds && policy.attempts !== -1) break;
    await delay.wait(retryDelay(policy, round), signal);
  }
  signal?.throwIfAborted();
  if (delay.isCancelled) throw new HornetQException('OBJECT_CLOSED', 'The session factory is closed');
  const tried = connectors.map(describeConnector).join(', ');
  const reason = lastError instanceof Error ? lastError.message : String(lastError);
  throw new HornetQException(
    connectFailureCode(lastError),
    `Cannot connect to server(s) ${tried}: ${reason}`,
    {
      cause: lastError,
    },
  );
}

/**
 * The codes a failed connect may carry: NOT_CONNECTED, or one that says the cause is not a broker
 * that is away (its certificate refused, a TLS port dialled in plain text).
 */
export const CONNECT_FAILURE_CODES: ReadonlySet<ErrorCodeName> = new Set<ErrorCodeName>([
  'NOT_CONNECTED',
  'TLS_VERIFICATION_FAILED',
  'TLS_REQUIRED',
]);

/** The code of a connect that failed with `error`: its own when it has one of those, else NOT_CONNECTED. */
export function connectFailureCode(error: unknown): ErrorCodeName {
  return HornetQException.is(error) && CONNECT_FAILURE_CODES.has(error.code) ? error.code : 'NOT_CONNECTED';
}
