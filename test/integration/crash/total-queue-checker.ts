/**
 * Jepsen's total-queue checker ("what goes in must come out"), extended with what a broker that
 * survives kill -9 must also keep: a snapshot taken after each restart holds, exactly once, every
 * send the client got an answer for unless it was consumed; nothing acknowledged comes back; a
 * transaction is all or nothing; each producer's order holds. It judges a history of events in
 * the order the clients observed them (all clients live in one process, so that order is real
 * time) and does no I/O.
 *
 * Outcomes: 'ok' = the client got the broker's answer; 'unknown' = the call failed because the
 * broker was killed, so it may or may not have taken effect; 'rolled-back' = the client rolled
 * the transaction back and got the answer.
 *
 * A consumer may be handed a message before the record that made it visible is on disk (the
 * broker delivers at once; only answers wait for the sync), so a receipt in the epoch a send or a
 * commit happened proves nothing durable. Durable evidence is a snapshot after the restart, or an
 * acknowledgement whose answer came back (the journal syncs in append order, so everything before
 * that acknowledgement was on disk too).
 */

/** One message in one queue: `producer` numbers its messages with `seq` (0, 1, 2, ...). */
export interface MessageKey {
  readonly queue: string;
  readonly producer: string;
  readonly seq: number;
}

export type Outcome = 'ok' | 'unknown';

export type HistoryEvent =
  /** A non-transacted blocking send finished. */
  | { readonly type: 'send'; readonly epoch: number; readonly key: MessageKey; readonly outcome: Outcome }
  /** A consumer was handed the message (recorded before it is acknowledged). */
  | { readonly type: 'receive'; readonly epoch: number; readonly key: MessageKey }
  /** A non-transacted acknowledgement of these messages finished. */
  | {
      readonly type: 'ack';
      readonly epoch: number;
      readonly keys: readonly MessageKey[];
      readonly outcome: Outcome;
    }
  /** A transaction's commit (or rollback) finished: its sends and the acknowledgements it made. */
  | {
      readonly type: 'transaction';
      readonly epoch: number;
      readonly name: string;
      readonly sends: readonly MessageKey[];
      readonly acks: readonly MessageKey[];
      readonly outcome: Outcome | 'rolled-back';
    }
  /** Everything a queue held, in queue order, browsed after a restart before any consumer ran. */
  | {
      readonly type: 'snapshot';
      readonly epoch: number;
      readonly queue: string;
      readonly keys: readonly MessageKey[];
    };

type SnapshotEvent = Extract<HistoryEvent, { type: 'snapshot' }>;
type TransactionEvent = Extract<HistoryEvent, { type: 'transaction' }>;

export interface CheckResult {
  /** Lost = 0, unexpected = 0 and no problem. */
  readonly valid: boolean;
  /** Distinct messages a send or a transaction tried to put in a queue. */
  readonly attempted: number;
  /** Of those, the ones whose send or commit was answered. */
  readonly acknowledged: number;
  /** Distinct messages seen (received or in a snapshot). */
  readonly seen: number;
  /** Sends and commits with an unknown outcome whose messages a snapshot showed (they took effect). */
  readonly recovered: number;
  /** Acknowledged sends never seen. */
  readonly lost: readonly string[];
  /** Messages seen that nothing tried to send. */
  readonly unexpected: readonly string[];
  /** Messages seen in two copies whose send outcome was unknown (Jepsen allows these). */
  readonly duplicated: readonly string[];
  /** Every other violation, one line each. */
  readonly problems: readonly string[];
}

export const keyOf = (key: MessageKey): string => `${key.queue}/${key.producer}:${key.seq}`;

/** What the history says about one message. */
interface MessageFacts {
  readonly key: MessageKey;
  attempted: boolean;
  acknowledgedSend: boolean;
  unknownSend: boolean;
  /** A rolled-back transaction had it (a mover may send the same message again later). */
  rolledBack: boolean;
  seen: boolean;
  inSnapshot: boolean;
  /** History index of the first snapshot that showed it, or null. */
  firstSnapshotAt: number | null;
  /** An acknowledgement of it was answered. */
  acknowledgedConsume: boolean;
  /** A consumer acknowledged it (any outcome): a snapshot may then lack it. */
  consumeAttempted: boolean;
  /** History indexes of its acknowledgements (any outcome), and of those answered. */
  readonly consumes: number[];
  readonly answeredConsumes: number[];
  /** Index of the event after which the message must never be seen again, or null. */
  goneAfter: number | null;
  duplicate: boolean;
}

/** Every transaction that had it was rolled back (or never committed), and nothing else sent it. */
const neverCommitted = (message: MessageFacts): boolean =>
  message.rolledBack && !message.acknowledgedSend && !message.unknownSend;

export function checkHistory(history: readonly HistoryEvent[]): CheckResult {
  return new HistoryChecker(history).check();
}

class HistoryChecker {
  private readonly facts = new Map<string, MessageFacts>();
  private readonly problems: string[] = [];
  /** Per queue: messages known to be in it (answered, or shown by a snapshot) and not yet consumed. */
  private readonly outstanding = new Map<string, Set<string>>();

  /** Every snapshot in history order, with its ids as a set. */
  private readonly snapshots: Array<{ index: number; queue: string; ids: Set<string> }>;

  constructor(private readonly history: readonly HistoryEvent[]) {
    this.snapshots = history.flatMap((event, index) =>
      event.type === 'snapshot' ? [{ index, queue: event.queue, ids: new Set(event.keys.map(keyOf)) }] : [],
    );
  }

  check(): CheckResult {
    this.recordAttempts();
    this.history.forEach((event, index) => this.apply(event, index));
    for (const [index, event] of this.history.entries()) {
      if (event.type === 'transaction' && event.outcome === 'unknown')
        this.judgeUnknownTransaction(event, index);
    }
    this.checkOrder();
    return this.summarize();
  }

  private factsOf(key: MessageKey): MessageFacts {
    const id = keyOf(key);
    let found = this.facts.get(id);
    if (found === undefined) {
      found = {
        key,
        attempted: false,
        acknowledgedSend: false,
        unknownSend: false,
        rolledBack: false,
        seen: false,
        inSnapshot: false,
        firstSnapshotAt: null,
        acknowledgedConsume: false,
        consumeAttempted: false,
        consumes: [],
        answeredConsumes: [],
        goneAfter: null,
        duplicate: false,
      };
      this.facts.set(id, found);
    }
    return found;
  }

  /** Pass 1: which messages anything tried to send, and how that ended. */
  private recordAttempts(): void {
    for (const event of this.history) {
      if (event.type === 'send') this.attempt(event.key, event.outcome);
      if (event.type === 'transaction') for (const key of event.sends) this.attempt(key, event.outcome);
    }
  }

  private attempt(key: MessageKey, outcome: Outcome | 'rolled-back'): void {
    const message = this.factsOf(key);
    message.attempted = true;
    if (outcome === 'ok') message.acknowledgedSend = true;
    else if (outcome === 'unknown') message.unknownSend = true;
    else message.rolledBack = true;
  }

  /** Pass 2, in history order: each sighting against what was acknowledged before it. */
  private apply(event: HistoryEvent, index: number): void {
    switch (event.type) {
      case 'send':
        if (event.outcome === 'ok') this.markOutstanding(event.key);
        return;
      case 'receive':
        this.sighted(event.key, `received in epoch ${event.epoch}`, index);
        return;
      case 'ack':
        for (const key of event.keys) this.consumed(key, index, event.outcome === 'ok');
        return;
      case 'transaction':
        if (event.outcome === 'ok') for (const key of event.sends) this.markOutstanding(key);
        if (event.outcome !== 'rolled-back') {
          for (const key of event.acks) this.consumed(key, index, event.outcome === 'ok');
        }
        return;
      case 'snapshot':
        this.checkSnapshot(event, index);
        return;
    }
  }

  private markOutstanding(key: MessageKey): void {
    const message = this.factsOf(key);
    if (message.goneAfter !== null) return;
    let queue = this.outstanding.get(key.queue);
    if (queue === undefined) {
      queue = new Set();
      this.outstanding.set(key.queue, queue);
    }
    queue.add(keyOf(key));
  }

  private consumed(key: MessageKey, index: number, answered: boolean): void {
    const message = this.factsOf(key);
    message.consumeAttempted = true;
    message.consumes.push(index);
    if (!answered) return;
    message.acknowledgedConsume = true;
    message.answeredConsumes.push(index);
    this.gone(message, index);
  }

  private gone(message: MessageFacts, after: number): void {
    if (message.goneAfter === null) message.goneAfter = after;
    this.outstanding.get(message.key.queue)?.delete(keyOf(message.key));
  }

  private sighted(key: MessageKey, where: string, index: number): void {
    const message = this.factsOf(key);
    message.seen = true;
    if (neverCommitted(message))
      this.problems.push(`${keyOf(key)} ${where}: its transaction was rolled back`);
    if (message.goneAfter !== null && index > message.goneAfter) {
      if (message.unknownSend) message.duplicate = true;
      else
        this.problems.push(
          `${keyOf(key)} ${where}, after it was consumed for good (event ${message.goneAfter})`,
        );
    }
  }

  /**
   * After a restart a queue holds, once each, every message known to be in it. One it lacks that a
   * consumer acknowledged was consumed for good: from here on it must never come back.
   */
  private checkSnapshot(event: SnapshotEvent, index: number): void {
    const present = new Set<string>();
    for (const key of event.keys) {
      const id = keyOf(key);
      if (present.has(id)) {
        const message = this.factsOf(key);
        if (message.unknownSend) message.duplicate = true;
        else this.problems.push(`${id} is twice in the snapshot of epoch ${event.epoch}`);
      }
      present.add(id);
      this.sighted(key, `in the snapshot of epoch ${event.epoch}`, index);
      const message = this.factsOf(key);
      message.inSnapshot = true;
      message.firstSnapshotAt ??= index;
      if (message.attempted && !neverCommitted(message)) this.markOutstanding(key);
    }
    for (const id of [...(this.outstanding.get(event.queue) ?? [])]) {
      if (present.has(id)) continue;
      const message = this.facts.get(id);
      if (message === undefined) continue;
      if (!message.consumeAttempted) {
        this.problems.push(
          `${id} is missing from the snapshot of epoch ${event.epoch}: it was there and nothing consumed it`,
        );
      }
      this.gone(message, index);
    }
  }

  /**
   * A commit whose answer never came took effect entirely or not at all: judged by the first
   * snapshot of each queue after it (the restart's), since a receipt before the crash proves nothing.
   */
  private judgeUnknownTransaction(event: TransactionEvent, index: number): void {
    const snapshotAfter = (key: MessageKey): { index: number; ids: Set<string> } | undefined =>
      this.snapshots.find((s) => s.index > index && s.queue === key.queue);
    const holds = (key: MessageKey): boolean | null => {
      const snapshot = snapshotAfter(key);
      return snapshot === undefined ? null : snapshot.ids.has(keyOf(key));
    };
    // Each send says applied (shown, or its consumption was answered), not applied (absent and
    // never consumed) or nothing (absent but a consumer may have taken it). Only what happened
    // before the restart's snapshot counts: a message the transaction did not move comes back and
    // may be moved (and consumed) again later.
    const sendVerdicts = event.sends.map((key) => {
      const message = this.factsOf(key);
      const until = snapshotAfter(key)?.index ?? Number.POSITIVE_INFINITY;
      const shown = holds(key);
      if (shown === true || message.answeredConsumes.some((i) => i < until)) return 'applied';
      if (shown === false && !message.consumes.some((i) => i < until)) return 'not applied';
      return null;
    });
    // Each acknowledged message comes back when the transaction did not apply; its absence says
    // the transaction applied only if the message was on disk before it (its send was answered, or
    // an earlier snapshot showed it): a consumer may take a message whose send never became durable.
    const ackVerdicts = event.acks.map((key) => {
      const shown = holds(key);
      if (shown === null) return null;
      if (shown) return 'not applied';
      const message = this.factsOf(key);
      const durable =
        message.acknowledgedSend || (message.firstSnapshotAt !== null && message.firstSnapshotAt < index);
      return durable ? 'applied' : null;
    });
    const verdicts = new Set([...sendVerdicts, ...ackVerdicts].filter((v) => v !== null));
    if (verdicts.size > 1) {
      const describe = (keys: readonly MessageKey[], marks: readonly (string | null)[]): string =>
        keys.map((key, i) => `${keyOf(key)}: ${marks[i] ?? '?'}`).join(', ');
      this.problems.push(
        `transaction ${event.name} (epoch ${event.epoch}) took effect in part: sends [${describe(event.sends, sendVerdicts)}], acks [${describe(event.acks, ackVerdicts)}]`,
      );
    }
  }

  /** Each producer's messages keep its order: in every snapshot, and first receipts per epoch. */
  private checkOrder(): void {
    const lastReceived = new Map<string, number>();
    const receivedInEpoch = new Set<string>();
    for (const event of this.history) {
      if (event.type === 'snapshot') this.checkSnapshotOrder(event);
      if (event.type !== 'receive') continue;
      // A redelivery in the same epoch (after a rollback) may come after later messages: only
      // first receipts must keep the order.
      const receipt = `${event.epoch}/${keyOf(event.key)}`;
      if (receivedInEpoch.has(receipt)) continue;
      receivedInEpoch.add(receipt);
      const stream = `${event.epoch}/${event.key.queue}/${event.key.producer}`;
      const before = lastReceived.get(stream);
      if (before !== undefined && event.key.seq < before) {
        this.problems.push(
          `epoch ${event.epoch}: ${keyOf(event.key)} received after ${event.key.producer}:${before}`,
        );
      }
      lastReceived.set(stream, Math.max(before ?? -1, event.key.seq));
    }
  }

  private checkSnapshotOrder(event: SnapshotEvent): void {
    const last = new Map<string, number>();
    for (const key of event.keys) {
      const before = last.get(key.producer);
      if (before !== undefined && key.seq < before) {
        this.problems.push(
          `snapshot of ${event.queue} in epoch ${event.epoch}: ${key.producer}:${key.seq} after ${key.producer}:${before}`,
        );
      }
      last.set(key.producer, Math.max(before ?? -1, key.seq));
    }
  }

  private summarize(): CheckResult {
    const all = [...this.facts.entries()];
    const ids = (predicate: (message: MessageFacts) => boolean): string[] =>
      all.filter(([, message]) => predicate(message)).map(([id]) => id);
    const lost = ids((m) => m.acknowledgedSend && !m.seen);
    const unexpected = ids((m) => m.seen && !m.attempted);
    return {
      valid: lost.length === 0 && unexpected.length === 0 && this.problems.length === 0,
      attempted: ids((m) => m.attempted).length,
      acknowledged: ids((m) => m.acknowledgedSend).length,
      seen: ids((m) => m.seen).length,
      recovered: ids((m) => m.unknownSend && m.inSnapshot).length,
      lost,
      unexpected,
      duplicated: ids((m) => m.duplicate),
      problems: this.problems,
    };
  }
}
