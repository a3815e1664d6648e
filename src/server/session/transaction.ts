import type { MessageReference } from '../postoffice/message-reference';
import type { HeldSend, PostOffice, PreparedRoute } from '../postoffice/post-office';

/**
 * A local transaction: sends held until commit, acknowledgements applied at commit. Held sends
 * count in their addresses' sizes from the send (see PostOffice.hold). A rollback
 * returns the acknowledged messages to the head of their queues, in the order they were received,
 * with their delivery count kept (so they come back marked redelivered).
 */
export class Transaction {
  private sends: HeldSend[] = [];
  private acknowledgements: MessageReference[] = [];
  /** Why the transaction can only roll back (a send of it was refused), or null. */
  private rollbackOnlyCause: Error | null = null;

  get hasWork(): boolean {
    return this.sends.length > 0 || this.acknowledgements.length > 0;
  }

  /** Holds a send until commit, unless its commit could do nothing with it (see PostOffice.hold). */
  addSend(postOffice: PostOffice, route: PreparedRoute): void {
    const held = postOffice.hold(route);
    if (held !== null) this.sends.push(held);
  }

  addAcknowledgements(references: readonly MessageReference[]): void {
    for (const reference of references) this.acknowledgements.push(reference);
  }

  /**
   * A send of this transaction was refused (HornetQ's markAsRollbackOnly): committing the rest
   * would commit less than the client sent, so the commit rolls back and fails with `error`, the
   * first refusal. A rollback ends it too; the next transaction starts clean.
   */
  markRollbackOnly(error: Error): void {
    this.rollbackOnlyCause ??= error;
  }

  /**
   * Applies the sends (recording their duplicate ids) and the acknowledgements, stored as one
   * storage transaction so that a crash keeps all of them or none. A send whose
   * duplicate id its address has already accepted fails the whole commit with
   * DUPLICATE_ID_REJECTED: nothing is sent and the acknowledged messages go back to their queues.
   * A transaction marked rollback-only fails the same way, with the refusal that marked it.
   */
  commit(postOffice: PostOffice): void {
    const cause = this.rollbackOnlyCause;
    const { sends, acknowledgements } = this.take();
    const refusal = cause ?? postOffice.findDuplicate(sends.map((held) => held.route));
    if (refusal !== null) {
      postOffice.releaseHeld(sends);
      postOffice.cancel(acknowledgements);
      throw refusal;
    }
    postOffice.storeAtomically(() => {
      postOffice.routeCommitted(sends);
      for (const reference of acknowledgements) reference.queue.acknowledge(reference);
    });
  }

  /**
   * Forgets the sends (their addresses no longer count them) and returns the acknowledged
   * messages, for the caller to cancel.
   */
  rollback(postOffice: PostOffice): MessageReference[] {
    const { sends, acknowledgements } = this.take();
    postOffice.releaseHeld(sends);
    return acknowledgements;
  }

  private take(): { sends: HeldSend[]; acknowledgements: MessageReference[] } {
    const taken = { sends: this.sends, acknowledgements: this.acknowledgements };
    this.sends = [];
    this.acknowledgements = [];
    this.rollbackOnlyCause = null;
    return taken;
  }
}
