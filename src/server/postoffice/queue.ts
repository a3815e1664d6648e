import type { Filter } from './filter';
import { LinkedList, type ListNode } from './linked-list';
import type { MessageReference } from './message-reference';

/** What a consumer answers when a queue offers it a message. */
export const HandleStatus = {
  /** Taken: the message is now being delivered to this consumer. */
  HANDLED: 0,
  /** Cannot take anything now (no credits, stopped, closing). */
  BUSY: 1,
  /** Does not want this message (its filter does not match). */
  NO_MATCH: 2,
} as const;
export type HandleStatus = (typeof HandleStatus)[keyof typeof HandleStatus];

export interface QueueConsumer {
  handle(reference: MessageReference): HandleStatus;
}

export interface QueueDefinition {
  name: string;
  address: string;
  filter: Filter | null;
  durable: boolean;
  temporary: boolean;
}

/** Told when a reference leaves its queue for good (acknowledged or deleted with the queue). */
export type ReferenceRemovedListener = (reference: MessageReference) => void;

const PRIORITY_LEVELS = 10;
/** Deliveries per pass before yielding the event loop to other connections. */
const DELIVERIES_PER_PASS = 1000;

/**
 * A core queue: messages by priority (9 first) and FIFO within a priority, handed to competing
 * consumers in turn. A message being delivered stays counted in the queue until acknowledged; a
 * cancelled one goes back to the head of its priority, ahead of newer messages.
 */
export class Queue {
  readonly name: string;
  readonly address: string;
  readonly filter: Filter | null;
  readonly durable: boolean;
  readonly temporary: boolean;
  messagesAdded = 0;
  messagesAcknowledged = 0;
  private readonly levels: LinkedList<MessageReference>[] = [];
  private readonly consumers: QueueConsumer[] = [];
  private nextConsumer = 0;
  private delivering = 0;
  private deliveryScheduled = false;
  private deleted = false;

  constructor(
    definition: QueueDefinition,
    private readonly onReferenceRemoved: ReferenceRemovedListener,
  ) {
    this.name = definition.name;
    this.address = definition.address;
    this.filter = definition.filter;
    this.durable = definition.durable;
    this.temporary = definition.temporary;
    for (let i = 0; i < PRIORITY_LEVELS; i++) this.levels.push(new LinkedList());
  }

  /** Messages in the queue, including those delivered and not yet acknowledged. */
  get messageCount(): number {
    return this.queuedCount + this.delivering;
  }

  get deliveringCount(): number {
    return this.delivering;
  }

  get consumerCount(): number {
    return this.consumers.length;
  }

  private get queuedCount(): number {
    let count = 0;
    for (const level of this.levels) count += level.size;
    return count;
  }

  addConsumer(consumer: QueueConsumer): void {
    this.consumers.push(consumer);
    this.deliverAsync();
  }

  removeConsumer(consumer: QueueConsumer): void {
    const index = this.consumers.indexOf(consumer);
    if (index < 0) return;
    this.consumers.splice(index, 1);
    if (this.nextConsumer > index) this.nextConsumer--;
  }

  addTail(reference: MessageReference): void {
    this.messagesAdded++;
    this.levelOf(reference).addTail(reference);
    this.deliverAsync();
  }

  /** Puts back a reference that was being delivered, ahead of everything of its priority. */
  cancel(reference: MessageReference): void {
    this.delivering--;
    if (this.deleted) {
      // Nowhere to go back to: it leaves for good, so its address' size and storage are released.
      this.onReferenceRemoved(reference);
      return;
    }
    this.levelOf(reference).addHead(reference);
    this.deliverAsync();
  }

  /**
   * Puts back several references, keeping their original order at the head (the first of
   * `references` will be delivered first).
   */
  cancelAll(references: MessageReference[]): void {
    for (let i = references.length - 1; i >= 0; i--) this.cancel(references[i] as MessageReference);
  }

  acknowledge(reference: MessageReference): void {
    this.delivering--;
    this.messagesAcknowledged++;
    this.onReferenceRemoved(reference);
  }

  /** The queued messages in delivery order, for browsing; delivering ones are not included. */
  snapshot(): MessageReference[] {
    const references: MessageReference[] = [];
    for (let level = PRIORITY_LEVELS - 1; level >= 0; level--) {
      for (const reference of (this.levels[level] as LinkedList<MessageReference>).values())
        references.push(reference);
    }
    return references;
  }

  /**
   * Drops every queued message (the queue is being deleted); delivering ones go when acknowledged
   * or cancelled.
   */
  delete(): void {
    this.deleted = true;
    for (const level of this.levels) {
      for (let node = level.first; node !== null; node = node.next) {
        level.remove(node);
        this.onReferenceRemoved(node.value);
      }
    }
  }

  /** Schedules one delivery pass; many triggers in one turn cost one pass. */
  deliverAsync(): void {
    if (this.deliveryScheduled || this.deleted || this.consumers.length === 0) return;
    this.deliveryScheduled = true;
    setImmediate(() => this.deliver());
  }

  /** One delivery pass now (a forced delivery needs its result before it answers). */
  deliverNow(): void {
    if (!this.deleted) this.deliver();
  }

  private deliver(): void {
    this.deliveryScheduled = false;
    let handled = 0;
    for (let level = PRIORITY_LEVELS - 1; level >= 0; level--) {
      const list = this.levels[level] as LinkedList<MessageReference>;
      for (let node = list.first; node !== null;) {
        const next = node.next;
        const outcome = this.offer(list, node);
        if (outcome === 'all-busy' || this.consumers.length === 0) return;
        if (outcome === 'handled' && ++handled >= DELIVERIES_PER_PASS) {
          this.deliverAsync();
          return;
        }
        node = next;
      }
    }
  }

  /** Offers one message to each consumer in turn, starting after the last one served. */
  private offer(
    list: LinkedList<MessageReference>,
    node: ListNode<MessageReference>,
  ): 'handled' | 'all-busy' | 'unmatched' {
    const count = this.consumers.length;
    let busy = 0;
    for (let i = 0; i < count; i++) {
      const index = (this.nextConsumer + i) % count;
      const status = (this.consumers[index] as QueueConsumer).handle(node.value);
      if (status === HandleStatus.HANDLED) {
        list.remove(node);
        this.delivering++;
        this.nextConsumer = (index + 1) % Math.max(this.consumers.length, 1);
        return 'handled';
      }
      if (status === HandleStatus.BUSY) busy++;
    }
    return busy === count ? 'all-busy' : 'unmatched';
  }

  private levelOf(reference: MessageReference): LinkedList<MessageReference> {
    return this.levels[reference.message.priority] as LinkedList<MessageReference>;
  }
}
