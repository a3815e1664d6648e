import { FailoverEventType, type FailoverEvent } from '../../core/client';
import { HornetQException, type ErrorCodeName } from '../../core/protocol';
import { JMSException } from '../../jms';
import { CliError, errorLine } from './cli-error';

/** `hornetq producer`'s and `consumer`'s exit code when the broker was lost and reconnecting gave up. */
export const CONNECTION_LOST_EXIT_CODE = 3;

/** What a failover does to a call in flight: it may be made again once the failover is over. */
const FAILOVER_CODES: ReadonlySet<string> = new Set<ErrorCodeName>([
  'NOT_CONNECTED',
  'CONNECTION_TIMEDOUT',
  'DISCONNECTED',
  'UNBLOCKED',
  'TRANSACTION_ROLLED_BACK',
  'TRANSACTION_OUTCOME_UNKNOWN',
  'CALL_OUTCOME_UNKNOWN',
]);

/** The part of a connection this watch needs: where failover events go. */
export interface FailoverSource {
  setFailoverListener(listener: ((event: FailoverEvent) => void) | null): void;
}

/**
 * Follows a connection's failovers for a command: prints each event as one line, counts them, and
 * lets the command wait until one is over before it repeats a call the failover interrupted.
 */
export class FailoverWatch {
  /** Failures detected so far. */
  failures = 0;
  private inProgress = false;
  private failedWith: unknown = null;
  private waiters: Array<() => void> = [];

  constructor(
    source: FailoverSource,
    private readonly say: (line: string) => void,
  ) {
    source.setFailoverListener((event) => this.onEvent(event));
  }

  /** Whether a failure has been detected and its failover is not over. */
  get failingOver(): boolean {
    return this.inProgress;
  }

  /** The reason reconnecting gave up, as a CliError with CONNECTION_LOST_EXIT_CODE; null while it has not. */
  get lost(): CliError | null {
    if (this.failedWith === null) return null;
    return new CliError(
      `the connection was lost and reconnecting gave up: ${errorLine(this.failedWith)}`,
      CONNECTION_LOST_EXIT_CODE,
      { cause: this.failedWith },
    );
  }

  /**
   * Why the command stopped: the lost connection when reconnecting gave up, else `error`. A call
   * may fail (its session closed) just before the failover's outcome is told: that is waited for.
   */
  async reasonFor(error: unknown, signal: AbortSignal): Promise<unknown> {
    if (this.inProgress) await this.settled(signal).catch(() => undefined);
    return this.lost ?? error;
  }

  /** Resolves when no failover is under way (at once if none is); rejects when `signal` aborts. */
  settled(signal: AbortSignal): Promise<void> {
    if (!this.inProgress) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  private onEvent(event: FailoverEvent): void {
    switch (event.type) {
      case FailoverEventType.FAILURE_DETECTED:
        this.failures++;
        this.inProgress = true;
        this.say(`failover: ${event.type}${reasonOf(event.cause)}`);
        return;
      case FailoverEventType.FAILOVER_COMPLETED:
        this.say(
          `failover: ${event.type} (${event.reattached === true ? 'sessions reattached' : 'sessions re-created'})`,
        );
        break;
      case FailoverEventType.FAILOVER_FAILED:
        this.failedWith = event.cause ?? new Error('reconnect attempts exhausted');
        this.say(`failover: ${event.type}${reasonOf(event.cause)}`);
        break;
    }
    this.inProgress = false;
    for (const wake of this.waiters.splice(0)) wake();
  }
}

function reasonOf(cause: unknown): string {
  return cause === undefined || cause === null ? '' : ` (${errorLine(cause)})`;
}

/** Whether `error` is a call cut off by a failover (anywhere in its cause chain), which may be made again. */
export function isFailoverError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    if (HornetQException.is(current) && FAILOVER_CODES.has(current.code)) return true;
    if (JMSException.is(current) && current.errorCode !== null && FAILOVER_CODES.has(current.errorCode)) {
      return true;
    }
    current = current.cause;
  }
  return false;
}
