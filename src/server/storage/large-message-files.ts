import type { Logger } from '../../core/remoting';
import type { DamageReport } from './damage/damage-report';
import type { Journal } from './journal/journal';
import type { LargeMessageStore } from './large-message-store';
import { boundedNotes } from './load-notes';
import type { MessageJournalLoader } from './message-journal-loader';
import {
  encodeLargeMessageHeader,
  largeMessageHeaderOf,
  largeMessageMatches,
  type LargeMessageHeader,
} from './storage-records';
import type { TransactionSteps } from './transaction-steps';

/**
 * Bytes a journal record's frame, ids and transaction id add to its body, at most (the engine's
 * are 21 to 42): what a message inline in the journal costs beyond its encoding.
 */
const RECORD_OVERHEAD = 64;

/** What check() found, for recover(). */
export interface LargeMessageCheck {
  /** Messages that have a file. */
  fileIds: Set<number>;
  /** Message id → its file's bytes, matching its header. */
  matched: Map<number, Buffer>;
  /** Headers whose file is missing or does not match, with the note their drop leaves. */
  dropped: Array<{ messageId: number; note: string }>;
}

/**
 * What the large messages need of the message journal: deletes at load, its syncs, and holding
 * what follows a header until the header's file is on disk.
 */
export type LargeMessageJournal = Pick<Journal, 'appendDelete' | 'afterSync' | 'holdAppendsUntil'>;

export interface LargeMessageFilesOptions {
  /** A message whose encoding has at least this many bytes goes to a large-message file. */
  largeMessageThreshold: number;
  /** The largest record, or transaction with its commit, the message journal takes. */
  maxRecordBytes: number;
  logger: Logger;
}

/**
 * Which stored messages keep their bytes in a large-message file rather than in the journal, and
 * when those files are written, checked and removed. The journal holds only a header per such
 * message; the order of file and journal writes is what keeps a crash from finding a header
 * without its bytes.
 */
export class LargeMessageFiles {
  private readonly messageIds = new Set<number>();

  constructor(
    private readonly store: LargeMessageStore,
    /** The message journal of the current opening (a reopened storage has a new one). */
    private readonly journal: () => LargeMessageJournal,
    private readonly steps: TransactionSteps,
    private readonly options: LargeMessageFilesOptions,
  ) {}

  /**
   * Whether a message's encoding goes in its add record: below the large-message threshold, and
   * small enough for one journal write (a transaction of any size spans as many as it needs).
   */
  fitsInline(length: number): boolean {
    return (
      length < this.options.largeMessageThreshold && length + RECORD_OVERHEAD <= this.options.maxRecordBytes
    );
  }

  /**
   * Writes the message's file; returns the header its journal add record holds instead of the
   * bytes. That record, and whatever is appended after it (the references, a transaction's commit,
   * a duplicate id), reaches the journal's file only once this file is on disk: a crash never
   * finds a header whose bytes are not there, nor half a transaction.
   */
  write(messageId: number, encoding: Buffer): Buffer {
    this.journal().holdAppendsUntil(this.store.write(messageId, encoding));
    this.messageIds.add(messageId);
    this.steps.changed(() => {
      this.messageIds.delete(messageId);
      this.store.remove(messageId);
    });
    return encodeLargeMessageHeader(largeMessageHeaderOf(encoding));
  }

  /** The message's delete was appended: a large message's file goes once that delete is on disk. */
  deleted(messageId: number): void {
    if (!this.messageIds.delete(messageId)) return;
    this.steps.changed(() => this.messageIds.add(messageId));
    this.steps.afterCommit(() => this.removeFileOnceDeleted(messageId));
  }

  /**
   * Reads the files of the large messages the journal holds, writing nothing. A header whose file
   * is missing or does not match it is damage when a queue references the message (it was
   * confirmed: its file was synced before its records were, so only something outside the broker
   * could have changed the file), a finding in `damage`; without a reference it was never
   * confirmed (the crash came before its reference was written) and is dropped either way.
   */
  async check(load: MessageJournalLoader, damage: DamageReport): Promise<LargeMessageCheck> {
    const fileIds = new Set(await this.store.existingIds());
    const referenced = new Set<number>();
    for (const references of load.references.values())
      for (const messageId of references.keys()) referenced.add(messageId);
    const matched = new Map<number, Buffer>();
    const dropped: LargeMessageCheck['dropped'] = [];
    for (const [messageId, header] of load.largeHeaders) {
      const encoding = fileIds.has(messageId) ? await this.store.read(messageId) : null;
      if (encoding !== null && largeMessageMatches(header, encoding)) {
        // A check only reads: it keeps no message's bytes.
        if (damage.repairs) matched.set(messageId, encoding);
        continue;
      }
      const file = this.store.pathOf(messageId);
      const problem = largeFileProblem(file, header, encoding);
      if (!referenced.has(messageId)) {
        dropped.push({ messageId, note: `large message ${messageId} dropped (never confirmed): ${problem}` });
        continue;
      }
      damage.found({
        kind: 'large-message-file',
        file,
        offset: null,
        detail: `large message ${messageId} was confirmed, but ${problem}`,
        messages: 1,
      });
      dropped.push({ messageId, note: `large message ${messageId} dropped (damage accepted): ${problem}` });
    }
    return { fileIds, matched, dropped };
  }

  /**
   * After check() (and once the load may write): puts the bytes read into the load's encodings,
   * deletes the dropped messages' headers, removes files without a header (orphans), adds what it
   * repaired to `notes`, and returns how many bytes it read.
   */
  async recover(checked: LargeMessageCheck, load: MessageJournalLoader, notes: string[]): Promise<number> {
    await this.store.open();
    let bytes = 0;
    for (const [messageId, encoding] of checked.matched) {
      bytes += encoding.length;
      load.encodings.set(messageId, encoding);
      this.messageIds.add(messageId);
    }
    for (const { messageId, note } of checked.dropped) {
      this.options.logger.warn({ messageId }, note);
      this.journal().appendDelete(messageId, false);
    }
    notes.push(
      ...boundedNotes(
        checked.dropped.map(({ note }) => note),
        'large messages dropped',
      ),
    );
    let orphans = 0;
    for (const messageId of checked.fileIds) {
      if (this.messageIds.has(messageId)) continue;
      // A dropped message's file goes too; only files without any header count as orphans.
      await this.store.removeNow(messageId);
      if (!load.largeHeaders.has(messageId)) orphans++;
    }
    if (orphans > 0) notes.push(`${orphans} large-message file(s) without a journal record removed`);
    return bytes;
  }

  clear(): void {
    this.messageIds.clear();
  }

  /**
   * A large message's file goes once its delete's journal is on disk, so that a crash never finds
   * the header of a message whose acknowledgement was lost without its bytes.
   */
  private removeFileOnceDeleted(messageId: number): void {
    this.journal().afterSync((error) => {
      if (error === null) this.store.remove(messageId);
    });
  }
}

/** Why a large message's file is not the one its header confirmed. */
function largeFileProblem(file: string, header: LargeMessageHeader, encoding: Buffer | null): string {
  if (encoding === null) return `its file ${file} is missing`;
  if (encoding.length !== header.length)
    return `its file ${file} holds ${encoding.length} bytes, not ${header.length}`;
  return `its file ${file} does not match its checksum`;
}
