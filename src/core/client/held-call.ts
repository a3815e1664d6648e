import { HornetQException } from '../protocol';
import { FailoverEventType, type FailoverEvent } from './failover-events';

/** What a held call needs to know about its factory's failover handling. */
export interface FailoverWatch {
  readonly failingOver: boolean;
  /** Resolves once no failover is in progress; rejects after call-failover-timeout. */
  failoverEnded(): Promise<void>;
  addFailoverListener(listener: (event: FailoverEvent) => void): void;
  removeFailoverListener(listener: (event: FailoverEvent) => void): void;
}

/** The settings that bound a held call, in ms. */
export interface HeldCallTimes {
  callTimeout: number;
  /** The longest a dead link goes unnoticed (-1: never, the client does not ping). */
  deadLinkNoticedWithin: number;
  /** -1: a failover is waited for as long as it takes. */
  callFailoverTimeout: number;
}

/**
 * The longest a dead link goes unnoticed: the pinger fails a connection at the first check that
 * finds connection-ttl of silence since the last check that saw data, so up to two check periods
 * more. -1 when the client does not ping (a silent link is never found dead).
 */
export function deadLinkNoticedWithin(connectionTTL: number, checkPeriod: number): number {
  if (connectionTTL === -1 || checkPeriod === -1) return -1;
  return connectionTTL + 2 * checkPeriod;
}

/** Node fires a timer longer than this after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * How long the channel must keep the call's entry so that an answer replayed by the longest held
 * wait still finds it: call-timeout, the link found dead, the failover, call-timeout again.
 */
export function heldCallChannelTimeout(times: HeldCallTimes): number {
  if (times.callFailoverTimeout === -1) return MAX_TIMER_MS;
  const total = 2 * times.callTimeout + Math.max(times.deadLinkNoticedWithin, 0) + times.callFailoverTimeout;
  return Math.min(total, MAX_TIMER_MS);
}

/**
 * Waits for the answer to a blocking call whose request is held for replay (a channel with a
 * resend buffer), and settles it only once its outcome is known, or once waiting longer cannot
 * tell.
 *
 * Why not fail it at call-timeout, as HornetQ does: the request stays in the resend buffer, so if
 * the link was dead the reattach replays it and the broker applies it; an application told
 * "timed out" that tries again gets the message twice, or consumes one it was told it did not. The
 * outcome is decided by the failover, so the call waits for it: past call-timeout it waits until
 * the link is found dead (connection-ttl plus two check periods) and then for the failover
 * (call-failover-timeout). A reattach replays the request or its answer, and the call completes
 * with it (applied exactly once); a re-creation drops the request and releases the call with
 * UNBLOCKED (the old broker session may or may not have applied it). Only when no failover
 * decides in time does the call reject with CALL_OUTCOME_UNKNOWN: the request may still be
 * applied. Every wait is bounded except one the settings ask for: a failover with
 * call-failover-timeout -1.
 */
export function awaitHeldAnswer<T>(
  answer: Promise<T>,
  what: string,
  times: HeldCallTimes,
  watch: FailoverWatch,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    new HeldCall(answer, what, times, watch, resolve, reject).start();
  });
}

class HeldCall<T> {
  private timer: NodeJS.Timeout | null = null;
  private settled = false;
  private readonly onFailover = (event: FailoverEvent): void => {
    // Heard while the factory is starting the failover: it counts as failing over a moment later.
    if (event.type === FailoverEventType.FAILURE_DETECTED) queueMicrotask(() => this.waitForFailover());
  };

  constructor(
    private readonly answer: Promise<T>,
    private readonly what: string,
    private readonly times: HeldCallTimes,
    private readonly watch: FailoverWatch,
    private readonly resolve: (value: T) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  start(): void {
    this.answer.then(
      (value) => this.finish(() => this.resolve(value)),
      (error: unknown) => this.finish(() => this.reject(error)),
    );
    this.after(this.times.callTimeout, () => this.callTimedOut());
  }

  /** No answer within call-timeout: the link may be dead, or the broker slow. */
  private callTimedOut(): void {
    if (this.watch.failingOver) {
      this.waitForFailover();
      return;
    }
    const within = this.times.deadLinkNoticedWithin;
    if (within === -1) {
      this.giveUp(
        `within call-timeout (${this.times.callTimeout} ms); the client does not ping, so a dead link is never found`,
      );
      return;
    }
    this.watch.addFailoverListener(this.onFailover);
    this.after(within, () =>
      this.giveUp(
        `within call-timeout (${this.times.callTimeout} ms), and the link was not found dead within a further ${within} ms`,
      ),
    );
  }

  private waitForFailover(): void {
    this.stopWatching();
    this.watch.failoverEnded().then(
      // Reattached: the request or its answer is replayed now. Re-created: the call was released.
      () => {
        if (!this.settled) {
          this.after(this.times.callTimeout, () =>
            this.giveUp(`within call-timeout (${this.times.callTimeout} ms) after the failover ended`),
          );
        }
      },
      () =>
        this.giveUp(
          `and the failover did not end within call-failover-timeout (${this.times.callFailoverTimeout} ms)`,
        ),
    );
  }

  private giveUp(why: string): void {
    this.finish(() =>
      this.reject(
        new HornetQException(
          'CALL_OUTCOME_UNKNOWN',
          `No answer to ${this.what} ${why}: it is held for replay, so the broker may still apply it. ` +
            'Whether it did is not known: repeat it only where doing it twice is harmless ' +
            '(a send with the same duplicate id is)',
        ),
      ),
    );
  }

  private after(ms: number, action: () => void): void {
    if (this.settled) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      action();
    }, ms);
  }

  private finish(settle: () => void): void {
    if (this.settled) return;
    this.settled = true;
    this.stopWatching();
    settle();
  }

  private stopWatching(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.watch.removeFailoverListener(this.onFailover);
  }
}
