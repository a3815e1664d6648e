import type { Durability } from '../storage/storage-manager';

interface HeldAnswer {
  /** Sends the packet's confirmation and its answer (and whatever must follow them). */
  release: () => void;
  /** What the packet stored is on disk (or it stored nothing that had to be). */
  synced: boolean;
}

/**
 * Lets a session's confirmations and answers out in the order their packets arrived, each only
 * once what its packet stored is on disk (DESIGN.md's reattach contract, item 1: the broker
 * confirms a command only once it is processed and durable).
 *
 * Why a queue: a packet that stored nothing needing a sync (a non-durable send, a queue query)
 * is answered at once, unless an earlier packet's answer is still waiting for its sync: then it
 * waits behind it. The client numbers what it sent and the broker confirms "everything up to
 * command N"; an answer that overtook an earlier one would confirm that earlier command before
 * its records were on disk, and a reattach would report it as handled.
 *
 * What it holds is bounded by what a session's client sends between two syncs: every sync
 * releases everything appended before it, and a client that keeps the protocol stops sending when
 * its unconfirmed commands fill its resend buffer (2 × confirmation-window-size).
 */
export class AnswerQueue {
  private held: HeldAnswer[] = [];
  /** Index of the oldest answer still held in `held` (released ones before it are dropped in batches). */
  private head = 0;
  private readonly drainedWaiters: Array<(error: Error | null) => void> = [];
  private failure: Error | null = null;

  constructor(
    private readonly durability: Durability,
    /** The store failed: nothing more may be answered; the broker stops. */
    private readonly storageFailed: (error: Error) => void,
  ) {}

  /** Answers held (waiting for a sync, or behind one that is). */
  get size(): number {
    return this.held.length - this.head;
  }

  /** What `settle` compares with: read before a packet is handled. */
  mark(): number {
    return this.durability.syncRequests;
  }

  /**
   * A packet was handled; `release` sends its confirmation and answer. Runs it now when the
   * packet stored nothing that must be synced and nothing earlier waits; otherwise it runs once
   * the store's sync covers the packet and every earlier answer has gone out.
   */
  settle(mark: number, release: () => void): void {
    if (this.failure !== null) return;
    const needsSync = this.durability.syncRequests !== mark;
    if (!needsSync && this.size === 0) {
      release();
      return;
    }
    const answer: HeldAnswer = { release, synced: !needsSync };
    this.held.push(answer);
    if (needsSync) this.durability.afterSync((error) => this.synced(answer, error));
  }

  /**
   * Calls `done` once every answer held now (and any held after it meanwhile) has gone out: at
   * once when none is held. A reattach waits for it, so that the last command it reports as
   * confirmed includes everything the session handled. `done` gets the store's error when the
   * answers will never go.
   */
  whenAnswered(done: (error: Error | null) => void): void {
    if (this.failure !== null) done(this.failure);
    else if (this.size === 0) done(null);
    else this.drainedWaiters.push(done);
  }

  private synced(answer: HeldAnswer, error: Error | null): void {
    if (this.failure !== null) return;
    if (error !== null) {
      this.fail(error);
      return;
    }
    answer.synced = true;
    this.releaseSynced();
  }

  /** Sends the answers at the head that may go, oldest first, stopping at the first still waiting. */
  private releaseSynced(): void {
    while (this.size > 0) {
      const oldest = this.held[this.head] as HeldAnswer;
      if (!oldest.synced) return;
      this.head++;
      if (this.head === this.held.length || this.head >= 1024) this.compact();
      oldest.release();
      if (this.failure !== null) return;
    }
    this.notifyDrained(null);
  }

  private compact(): void {
    this.held = this.held.slice(this.head);
    this.head = 0;
  }

  /** Nothing held is ever answered: it may not be on disk. */
  private fail(error: Error): void {
    this.failure = error;
    this.held = [];
    this.head = 0;
    this.notifyDrained(error);
    this.storageFailed(error);
  }

  private notifyDrained(error: Error | null): void {
    const waiters = this.drainedWaiters.splice(0);
    for (const waiter of waiters) waiter(error);
  }
}
