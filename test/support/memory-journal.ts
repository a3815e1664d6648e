import type {
  Journal,
  JournalLoadReport,
  JournalRecordVisitor,
  JournalTransactionRecord,
} from '../../src/server/storage/journal/journal';

/** One append, as it was made (bodies copied: the caller may reuse its buffers). */
export type MemoryJournalEntry =
  | { kind: 'add' | 'update'; id: number; userType: number; body: Buffer; sync: boolean }
  | { kind: 'delete'; id: number; sync: boolean }
  | { kind: 'transaction'; records: JournalTransactionRecord[]; sync: boolean };

/** Fills a body the visitor was handed once the call returns: keeping it without a copy shows. */
const STALE_BYTE = 0xee;

/** What the file journal's frame and ids add to a record's body (a transaction's records: the most). */
const FRAME_BYTES = 42;

/**
 * A Journal in memory for unit tests, as strict as HornetQ's about ids (an update or delete of a
 * record that is not live, or a second add of a live one, throws). A sync makes everything
 * appended before it "durable"; `crash()` keeps only that, as a power cut would. Syncs complete at
 * once unless `syncPending` is set, in which case they wait for `completeSyncs()`, so that a test
 * decides when afterSync calls back. As the file journal, nothing appended after a
 * holdAppendsUntil becomes durable before its promise resolves. Loadable again after `close()` or
 * `crash()`.
 */
export class MemoryJournal implements Journal {
  readonly entries: MemoryJournalEntry[] = [];
  /** While true, a requested sync waits for completeSyncs(). */
  syncPending = false;
  private requests = 0;
  /** Entries on "disk". */
  private durable = 0;
  private waiters: Array<{ entries: number; done: (error: Error | null) => void }> = [];
  /** holdAppendsUntil calls: the entries from `at` on wait until `ready`. */
  private holds: Array<{ at: number; ready: boolean; settled: Promise<unknown> }> = [];
  private readonly failureListeners: Array<(error: Error) => void> = [];
  private failure: Error | null = null;
  private loaded = false;
  private live = new Set<number>();
  /** What the next load reports about the last crash. */
  private lostInCrash = { entries: 0, transactions: 0, at: 0 };
  private refusal: Error | null = null;

  constructor(
    readonly name = 'memory',
    /** The largest record taken (as the file journal; a transaction may hold any number of them). */
    readonly maxRecordBytes = Number.MAX_SAFE_INTEGER,
  ) {}

  get syncRequests(): number {
    return this.requests;
  }

  /** The next append throws `error` and writes nothing (a journal refusing one write). */
  refuseNext(error: Error): void {
    this.refusal = error;
  }

  /** Records appended so far (a transaction counts its records), for "nothing was appended" checks. */
  get appendedRecords(): number {
    return this.entries.reduce(
      (sum, entry) => sum + (entry.kind === 'transaction' ? entry.records.length : 1),
      0,
    );
  }

  async load(visitor: JournalRecordVisitor): Promise<JournalLoadReport> {
    if (this.loaded) throw new Error(`${this.name}: load called twice`);
    let records = 0;
    let bytes = 0;
    this.live = new Set();
    for (const entry of this.entries) {
      const replayed = entry.kind === 'transaction' ? entry.records : [entry];
      for (const record of replayed) {
        records++;
        if (record.kind !== 'delete') bytes += record.body.length;
        replay(record, visitor);
        this.track(this.live, record);
      }
    }
    const lost = this.lostInCrash;
    this.lostInCrash = { entries: 0, transactions: 0, at: 0 };
    this.loaded = true;
    return {
      files: 1,
      records,
      bytes,
      milliseconds: 0,
      truncatedAt: lost.entries > 0 ? { file: this.name, offset: lost.at } : null,
      skipped: [],
      rolledBackTransactions: lost.transactions,
    };
  }

  /** Reading is all a load does here: nothing is written at open. */
  read(visitor: JournalRecordVisitor): Promise<JournalLoadReport> {
    return this.load(visitor);
  }

  async open(): Promise<void> {}

  appendAdd(id: number, userType: number, body: Buffer, sync: boolean): void {
    this.append({ kind: 'add', id, userType, body: Buffer.from(body), sync });
  }

  appendUpdate(id: number, userType: number, body: Buffer, sync: boolean): void {
    this.append({ kind: 'update', id, userType, body: Buffer.from(body), sync });
  }

  appendDelete(id: number, sync: boolean): void {
    this.append({ kind: 'delete', id, sync });
  }

  appendTransaction(records: readonly JournalTransactionRecord[], sync: boolean): void {
    const copies = records.map((record) =>
      record.kind === 'delete' ? { ...record } : { ...record, body: Buffer.from(record.body) },
    );
    this.append({ kind: 'transaction', records: copies, sync });
  }

  holdAppendsUntil(ready: Promise<unknown>): void {
    if (this.failure !== null) throw this.failure;
    const hold = { at: this.entries.length, ready: false, settled: Promise.resolve() as Promise<unknown> };
    hold.settled = ready.then(
      () => {
        hold.ready = true;
        // A hold from before a crash releases nothing of what came after it.
        if (this.holds.includes(hold) && !this.syncPending) this.completeSyncs();
      },
      (error: unknown) => {
        if (this.holds.includes(hold)) this.fail(error instanceof Error ? error : new Error(String(error)));
      },
    );
    this.holds.push(hold);
  }

  /** As the file journal's: syncs whatever was appended so far (at once unless syncPending), then calls back. */
  afterSync(done: (error: Error | null) => void): void {
    if (this.failure !== null || this.durable >= this.entries.length) {
      done(this.failure);
      return;
    }
    this.waiters.push({ entries: this.entries.length, done });
    if (!this.syncPending) this.completeSyncs();
  }

  onFailure(listener: (error: Error) => void): void {
    this.failureListeners.push(listener);
  }

  async close(): Promise<void> {
    await Promise.all(this.holds.map((hold) => hold.settled));
    this.completeSyncs();
    this.loaded = false;
  }

  /**
   * Finishes every requested sync (and whatever was appended with them, up to the first hold not
   * yet released): the callbacks waiting for no more than that run.
   */
  completeSyncs(): void {
    const held = this.holds.find((hold) => !hold.ready);
    this.durable = Math.max(this.durable, held === undefined ? this.entries.length : held.at);
    const waiters = this.waiters;
    this.waiters = waiters.filter((waiter) => waiter.entries > this.durable);
    for (const waiter of waiters) if (waiter.entries <= this.durable) waiter.done(null);
  }

  /** A write or sync failed: waiting callbacks get the error, listeners hear of it, appends throw. */
  fail(error: Error): void {
    this.failure = error;
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.done(error);
    for (const listener of this.failureListeners) listener(error);
  }

  /**
   * The process dies: what was not synced is lost (the next load reports the cut, and counts lost
   * transactions as rolled back), waiting callbacks never run. Load again to recover.
   */
  crash(): void {
    const lost = this.entries.splice(this.durable);
    if (lost.length > 0)
      this.lostInCrash = {
        entries: lost.length,
        transactions: lost.filter((entry) => entry.kind === 'transaction').length,
        at: this.durable,
      };
    this.waiters = [];
    this.holds = [];
    this.loaded = false;
  }

  /**
   * Reclaim and compaction: the adds and updates of deleted records, and the deletes, go (as when
   * their files are freed). Only what is live is left, in order.
   */
  reclaim(): void {
    if (this.holds.some((hold) => !hold.ready))
      throw new Error(`${this.name}: reclaim while appends are held`);
    this.holds = [];
    const deleted = new Set<number>();
    const alive = new Set<number>();
    for (const entry of this.entries) {
      for (const record of entry.kind === 'transaction' ? entry.records : [entry])
        if (record.kind === 'delete') {
          deleted.add(record.id);
          alive.delete(record.id);
        } else if (record.kind === 'add') alive.add(record.id);
    }
    const keep = (record: { kind: string; id: number }): boolean =>
      record.kind !== 'delete' && alive.has(record.id);
    const kept: MemoryJournalEntry[] = [];
    for (const entry of this.entries) {
      if (entry.kind !== 'transaction') {
        if (keep(entry)) kept.push(entry);
        continue;
      }
      const records = entry.records.filter(keep);
      if (records.length > 0) kept.push({ ...entry, records });
    }
    this.entries.splice(0, this.entries.length, ...kept);
    this.durable = Math.min(this.durable, this.entries.length);
  }

  private append(entry: MemoryJournalEntry): void {
    if (this.failure !== null) throw this.failure;
    if (!this.loaded) throw new Error(`${this.name}: append before load (or after close)`);
    if (this.refusal !== null) {
      const refusal = this.refusal;
      this.refusal = null;
      throw refusal;
    }
    const size = largestRecordOf(entry);
    if (size > this.maxRecordBytes)
      throw new RangeError(`${this.name}: a record of ${size} bytes exceeds ${this.maxRecordBytes}`);
    if (entry.kind === 'transaction') {
      // All or nothing, as the transaction: checked on a copy.
      const live = new Set(this.live);
      for (const record of entry.records) this.track(live, record);
      this.live = live;
    } else {
      this.track(this.live, entry);
    }
    this.entries.push(entry);
    if (!entry.sync) return;
    this.requests++;
    if (!this.syncPending) this.completeSyncs();
  }

  /** Applies a record to the set of live ids, refusing what HornetQ's journal refuses. */
  private track(live: Set<number>, record: { kind: string; id: number }): void {
    if (record.kind === 'add') {
      if (live.has(record.id)) throw new Error(`${this.name}: record ${record.id} added twice`);
      live.add(record.id);
    } else if (!live.has(record.id)) {
      throw new Error(`${this.name}: ${record.kind} of record ${record.id}, which is not live`);
    } else if (record.kind === 'delete') {
      live.delete(record.id);
    }
  }
}

function largestRecordOf(entry: MemoryJournalEntry): number {
  const records = entry.kind === 'transaction' ? entry.records : [entry];
  return records.reduce(
    (largest, record) => Math.max(largest, FRAME_BYTES + (record.kind === 'delete' ? 0 : record.body.length)),
    0,
  );
}

function replay(record: JournalTransactionRecord, visitor: JournalRecordVisitor): void {
  if (record.kind === 'delete') {
    visitor.delete(record.id);
    return;
  }
  const view = Buffer.from(record.body);
  if (record.kind === 'add') visitor.add(record.id, record.userType, view);
  else visitor.update(record.id, record.userType, view);
  view.fill(STALE_BYTE);
}
