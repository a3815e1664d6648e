import type { MessageReference } from '../postoffice/message-reference';
import type { PostOffice, PreparedRoute } from '../postoffice/post-office';

/**
 * A local transaction: sends held until commit, acknowledgements applied at commit. A rollback
 * returns the acknowledged messages to the head of their queues, in the order they were received,
 * with their delivery count kept (so they come back marked redelivered).
 */
export class Transaction {
  private sends: PreparedRoute[] = [];
  private acknowledgements: MessageReference[] = [];

  get hasWork(): boolean {
    return this.sends.length > 0 || this.acknowledgements.length > 0;
  }

  addSend(route: PreparedRoute): void {
    this.sends.push(route);
  }

  addAcknowledgements(references: readonly MessageReference[]): void {
    for (const reference of references) this.acknowledgements.push(reference);
  }

  /**
   * Applies the sends (recording their duplicate ids) and the acknowledgements. A send whose
   * duplicate id its address has already accepted fails the whole commit with
   * DUPLICATE_ID_REJECTED: nothing is sent and the acknowledged messages go back to their queues.
   */
  commit(postOffice: PostOffice): void {
    const { sends, acknowledgements } = this.take();
    const duplicate = postOffice.findDuplicate(sends);
    if (duplicate !== null) {
      postOffice.cancel(acknowledgements);
      throw duplicate;
    }
    postOffice.routeCommitted(sends);
    for (const reference of acknowledgements) reference.queue.acknowledge(reference);
  }

  /** Forgets the sends and returns the acknowledged messages, for the caller to cancel. */
  rollback(): MessageReference[] {
    return this.take().acknowledgements;
  }

  private take(): { sends: PreparedRoute[]; acknowledgements: MessageReference[] } {
    const taken = { sends: this.sends, acknowledgements: this.acknowledgements };
    this.sends = [];
    this.acknowledgements = [];
    return taken;
  }
}
