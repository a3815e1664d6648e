import type { TransactionSteps } from './transaction-steps';

/**
 * Which durable queue references which message, and how many queues reference each message:
 * a message's delete is due when its last reference goes. Every change within a storage
 * transaction registers its undo, so a refused commit leaves the counts as they were.
 */
export class MessageReferences {
  /** Queue id → the ids of the messages it references. */
  private readonly queueMessages = new Map<number, Set<number>>();
  /** Message id → how many queues reference it; absent at 0. */
  private readonly referenceCounts = new Map<number, number>();

  constructor(private readonly steps: TransactionSteps) {}

  /** A stored queue, referencing nothing yet. */
  addQueue(queueId: number): void {
    this.queueMessages.set(queueId, new Set());
  }

  hasQueue(queueId: number): boolean {
    return this.queueMessages.has(queueId);
  }

  /** The messages the queue references (a deleted queue's, which the caller releases first). */
  messagesOf(queueId: number): Iterable<number> {
    return this.queueMessages.get(queueId) ?? [];
  }

  /** Forgets a queue, after its messages were released. */
  removeQueue(queueId: number): void {
    this.queueMessages.delete(queueId);
  }

  /** Whether any queue references the message (then it is stored already). */
  isReferenced(messageId: number): boolean {
    return this.referenceCounts.has(messageId);
  }

  /** How many queues reference the message. */
  count(messageId: number): number {
    return this.referenceCounts.get(messageId) ?? 0;
  }

  references(queueId: number, messageId: number): boolean {
    return this.queueMessages.get(queueId)?.has(messageId) === true;
  }

  /**
   * The queues among `queueIds` that do not reference the message yet, each once: a queue named
   * twice, or referencing it already, gets no second reference.
   */
  queuesNotReferencing(messageId: number, queueIds: readonly number[]): number[] {
    const queues: number[] = [];
    for (const queueId of queueIds)
      if (!this.references(queueId, messageId) && !queues.includes(queueId)) queues.push(queueId);
    return queues;
  }

  /** The queue's reference, without its count: the caller sets that once for all its queues. */
  add(queueId: number, messageId: number): void {
    const messageIds = this.queueMessages.get(queueId);
    messageIds?.add(messageId);
    this.steps.changed(() => messageIds?.delete(messageId));
  }

  /** Removes the queue's reference, without its count (see release); false when it had none. */
  remove(queueId: number, messageId: number): boolean {
    const messageIds = this.queueMessages.get(queueId);
    if (messageIds?.delete(messageId) !== true) return false;
    this.steps.changed(() => messageIds.add(messageId));
    return true;
  }

  /** 0 forgets the message. */
  setCount(messageId: number, count: number): void {
    const previous = this.referenceCounts.get(messageId);
    if (count > 0) this.referenceCounts.set(messageId, count);
    else this.referenceCounts.delete(messageId);
    this.steps.changed(() => {
      if (previous === undefined) this.referenceCounts.delete(messageId);
      else this.referenceCounts.set(messageId, previous);
    });
  }

  /** One queue let go of the message; returns true when it was the last, so the message's delete is due. */
  release(messageId: number): boolean {
    const count = (this.referenceCounts.get(messageId) ?? 1) - 1;
    this.setCount(messageId, count);
    return count <= 0;
  }

  /** A reference found at load: no transaction is open, so nothing to undo. */
  adopt(queueId: number, messageId: number): void {
    this.queueMessages.get(queueId)?.add(messageId);
    this.referenceCounts.set(messageId, this.count(messageId) + 1);
  }

  clear(): void {
    this.queueMessages.clear();
    this.referenceCounts.clear();
  }
}
