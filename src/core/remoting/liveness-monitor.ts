/** What a liveness monitor needs from the link it watches; a RemotingConnection is one. */
export interface MonitoredLink {
  /** Whether anything arrived since the last call (any data counts, not only pings); resets it. */
  takeDataReceived(): boolean;
  /** Writes a ping carrying this end's connection TTL (the peer adopts it, or answers it). */
  writePing(connectionTtl: number): void;
  /**
   * Sends the confirmations a quiet link owes its peer: each check that finds the link alive
   * calls it, so that a peer's resend buffer empties even when nothing else flows back.
   */
  flushConfirmations(): void;
}

/** The time and the timer a monitor runs on: the system's, or a test's. */
export interface LivenessClock {
  now(): number;
  /** Calls `tick` every `periodMs` until the returned function is called. */
  every(periodMs: number, tick: () => void): () => void;
}

export const SYSTEM_LIVENESS_CLOCK: LivenessClock = {
  now: () => Date.now(),
  every(periodMs, tick) {
    const timer = setInterval(tick, periodMs);
    // The socket keeps the process alive while the connection is open; the timer need not.
    timer.unref();
    return () => clearInterval(timer);
  },
};

export interface LivenessOptions {
  /** Ms without data after which the link is dead; -1 never. */
  ttl: number;
  /**
   * Whether this end pings: once on start (which tells the peer our TTL), then at every check.
   * HornetQ's client pings; its broker only answers pings, and reaps on silence.
   */
  pinging: boolean;
  /** Nothing arrived within `ttl` ms: the owner fails the link. Called once; the checks stop. */
  onSilent(ttl: number): void;
  clock?: LivenessClock;
}

/**
 * HornetQ's ping-and-TTL rule, for both ends of a connection. A check that finds data arrived
 * since the one before marks the link alive; a check that finds none, connection-ttl or more
 * after the last check that saw data, finds it dead (a black hole: no RST, no FIN, only silence).
 * The client checks every client-failure-check-period from its own timer and pings each time;
 * the broker sweeps all its connections from one timer (see `check`), and its TTL is the one the
 * client's pings ask for unless it overrides them. Counting checks rather than stamping every
 * chunk keeps the read path to one flag, as HornetQ's checkDataReceived does; it is also why a
 * dead link may go unnoticed for up to two check periods beyond the TTL.
 */
export class LivenessMonitor {
  /** Ms without data after which the link is dead; -1 never. The broker adopts its client's. */
  ttl: number;
  private lastAliveAt: number;
  private stopTimer: (() => void) | null = null;
  private dead = false;
  private readonly clock: LivenessClock;

  constructor(
    private readonly link: MonitoredLink,
    private readonly options: LivenessOptions,
  ) {
    this.ttl = options.ttl;
    this.clock = options.clock ?? SYSTEM_LIVENESS_CLOCK;
    this.lastAliveAt = this.clock.now();
  }

  /** Pings first if this end pings, then checks every `checkPeriod` ms (-1: never). */
  start(checkPeriod: number): void {
    if (this.options.pinging) this.ping();
    if (checkPeriod === -1 || this.dead) return;
    this.stopTimer?.();
    this.stopTimer = this.clock.every(checkPeriod, () => this.check());
  }

  stop(): void {
    this.stopTimer?.();
    this.stopTimer = null;
  }

  /** Pings now, out of turn (a large frame's parts are acknowledged at once: see RemotingConnection). */
  ping(): void {
    this.link.writePing(this.ttl);
  }

  /**
   * One check, at `now`: returns false when the link was found dead (reported once through
   * onSilent), true when it is alive or still within its TTL; an alive link is pinged (if this
   * end pings) and its confirmations flushed.
   */
  check(now: number = this.clock.now()): boolean {
    if (this.dead) return false;
    if (this.link.takeDataReceived()) {
      this.lastAliveAt = now;
    } else if (this.ttl !== -1 && now - this.lastAliveAt >= this.ttl) {
      this.dead = true;
      this.stop();
      this.options.onSilent(this.ttl);
      return false;
    }
    if (this.options.pinging) this.ping();
    this.link.flushConfirmations();
    return true;
  }
}
