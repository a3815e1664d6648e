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

  commit(postOffice: PostOffice): void {
    const { sends, acknowledgements } = this.take();
    for (const route of sends) postOffice.route(route);
    for (const reference of acknowledgements) reference.queue.acknowledge(reference);
  }

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
