import type { Filter } from './filter';
import { LastValueIndex } from './last-value-index';
import { LinkedList, type ListNode } from './linked-list';
import { MessageGroups } from './message-groups';
import { isExpired, lastValueKey } from './message-headers';
import { REFERENCE_MEMORY_ESTIMATE, type MessageReference } from './message-reference';
import { ScheduledDeliveries, type ScheduledReference } from './scheduler';

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
  /** Keep only the newest queued message per _HQ_LVQ_NAME (address setting lastValueQueue). */
  lastValue?: boolean;
}

/** Told when a reference leaves its queue for good (acknowledged, expired, killed or deleted). */
export type ReferenceRemovedListener = (reference: MessageReference) => void;

/** What a queue asks of its post office besides releasing removed references. */
export interface QueueHooks {
  /** An expired message is leaving the queue: its copy goes to the expiry address, if any. */
  expired(reference: MessageReference, now: number): void;
  /**
   * Work the queue started on its own (a delivery pass, scheduled messages coming due) threw:
   * nothing above it would catch it, so the queue reports it here and carries on.
   */
  failed(error: unknown, activity: string): void;
  /** The queue's last consumer left (a temporary queue waiting for that is deleted then). */
  unused?(queue: Queue): void;
  /**
   * A reference's delivery count changed (delivered, or a delivery the client never showed undone):
   * storage keeps it, so that a message delivered before a crash comes back redelivered.
   */
  deliveryCounted?(reference: MessageReference): void;
  /**
   * Runs `work` as one storage transaction (PostOffice.storeAtomically): an expired message's copy
   * to the expiry address and its removal from this queue are stored all or nothing.
   */
  atomically?(work: () => void): void;
  /**
   * Messages waiting in memory left the queue for a consumer (or for good): a queue with messages
   * in its address' pages may read more back (see PagingManager).
   */
  waitingFell?(queue: Queue): void;
}

/** Why a delivered message leaves: consumed, or given up on after too many deliveries. */
export type AckReason = 'consumed' | 'killed';

/** Without hooks (a queue on its own, in tests), a failure is thrown where it happened. */
const NO_HOOKS: QueueHooks = {
  expired: () => undefined,
  failed: (error) => {
    throw error;
  },
};
const PRIORITY_LEVELS = 10;
/** Deliveries per pass before yielding the event loop to other connections. */
const DELIVERIES_PER_PASS = 1000;

type OfferOutcome = 'handled' | 'all-busy' | 'unmatched';

/**
 * A core queue: messages by priority (9 first) and FIFO within a priority, handed to competing
 * consumers in turn. A message being delivered stays counted in the queue until acknowledged; a
 * cancelled one goes back to the head of its priority, ahead of newer messages. Scheduled
 * messages wait beside the lists until their time; grouped messages go to their group's consumer;
 * expired ones are taken out when a delivery pass or an expiry scan meets them.
 */
export class Queue {
  readonly name: string;
  readonly address: string;
  readonly filter: Filter | null;
  readonly durable: boolean;
  readonly temporary: boolean;
  messagesAdded = 0;
  messagesAcknowledged = 0;
  messagesExpired = 0;
  /** Given up on after max-delivery-attempts (sent to the dead-letter address or dropped). */
  messagesKilled = 0;
  /** Messages for this queue waiting in its address' page store (see PagingManager). */
  pagedCount = 0;
  /** What the messages waiting in memory (queued and scheduled) count for in the address' size. */
  private waiting = 0;
  private readonly levels: LinkedList<MessageReference>[] = [];
  private readonly consumers: QueueConsumer[] = [];
  private readonly scheduled: ScheduledDeliveries;
  private readonly groups = new MessageGroups<QueueConsumer>();
  private readonly lastValues: LastValueIndex | null;
  private nextConsumer = 0;
  private delivering = 0;
  private deliveryScheduled = false;
  private deleted = false;
  /** Paused by management: messages still arrive, none is delivered until resumed. */
  private paused = false;

  constructor(
    definition: QueueDefinition,
    private readonly onReferenceRemoved: ReferenceRemovedListener,
    private readonly hooks: QueueHooks = NO_HOOKS,
  ) {
    this.name = definition.name;
    this.address = definition.address;
    this.filter = definition.filter;
    this.durable = definition.durable;
    this.temporary = definition.temporary;
    this.lastValues = definition.lastValue === true ? new LastValueIndex() : null;
    this.scheduled = new ScheduledDeliveries((due) =>
      this.contain('releasing scheduled messages', () => this.release(due)),
    );
    for (let i = 0; i < PRIORITY_LEVELS; i++) this.levels.push(new LinkedList());
  }

  /** Messages in the queue: waiting, scheduled, paged, and delivered but not yet acknowledged. */
  get messageCount(): number {
    return this.queuedCount + this.scheduled.size + this.delivering + this.pagedCount;
  }

  /**
   * What the messages waiting in memory for a consumer (queued and scheduled, not those being
   * delivered) count for: how much of its address' limit the queue holds undelivered.
   */
  get waitingBytes(): number {
    return this.waiting;
  }

  get deliveringCount(): number {
    return this.delivering;
  }

  get scheduledCount(): number {
    return this.scheduled.size;
  }

  get consumerCount(): number {
    return this.consumers.length;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Stops delivering (management's pause); what consumers hold already stays theirs. */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.deliverAsync();
  }

  /**
   * The messages waiting in memory (queued in delivery order, then scheduled in time order), one
   * at a time: browsing a long queue with a limit walks no more of it than it shows. Must not be
   * iterated across a change to the queue (management reads it within one turn).
   */
  *waitingReferences(): Generator<{ reference: MessageReference; scheduledTime: number | null }> {
    for (let level = PRIORITY_LEVELS - 1; level >= 0; level--) {
      for (const reference of (this.levels[level] as LinkedList<MessageReference>).values())
        yield { reference, scheduledTime: null };
    }
    for (const { reference, time } of this.scheduled.snapshot()) yield { reference, scheduledTime: time };
  }

  /**
   * Takes out the waiting (queued and scheduled) messages `match` accepts, at most `limit` of
   * them, for management (remove, move, dead-letter, retry). `dispose` runs on each before it
   * leaves (a move routes its copy there): if it throws, that message stays and the walk stops.
   * Each that leaves counts as acknowledged and is released like an acknowledged one (storage,
   * its address' size). Returns how many left.
   */
  removeWaiting(
    match: (reference: MessageReference) => boolean,
    dispose: (reference: MessageReference) => void = () => undefined,
    limit = Infinity,
  ): number {
    let removed = 0;
    for (const list of this.levels) {
      for (let node = list.first; node !== null && removed < limit;) {
        const next = node.next;
        if (match(node.value)) {
          dispose(node.value);
          this.unlink(list, node);
          this.removed(node.value);
          removed++;
        }
        node = next;
      }
    }
    const scheduled = new Set<MessageReference>();
    try {
      for (const { reference } of this.scheduled.snapshot()) {
        if (removed >= limit) break;
        if (!match(reference)) continue;
        dispose(reference);
        scheduled.add(reference);
        removed++;
      }
    } finally {
      this.scheduled.remove(scheduled);
      for (const reference of scheduled) {
        this.countOut(reference);
        this.removed(reference);
      }
    }
    return removed;
  }

  get isDeleted(): boolean {
    return this.deleted;
  }

  get isLastValue(): boolean {
    return this.lastValues !== null;
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

  /** Removes a consumer; the groups it owned pick a new consumer with their next message. */
  removeConsumer(consumer: QueueConsumer): void {
    const index = this.consumers.indexOf(consumer);
    if (index < 0) return;
    this.consumers.splice(index, 1);
    if (this.nextConsumer > index) this.nextConsumer--;
    this.groups.unbindConsumer(consumer);
    if (this.consumers.length === 0) this.hooks.unused?.(this);
  }

  addTail(reference: MessageReference): void {
    this.messagesAdded++;
    this.enqueue(reference, 'tail');
  }

  /** Adds a message that must not be delivered before `time` (epoch ms). */
  schedule(reference: MessageReference, time: number): void {
    this.messagesAdded++;
    this.countIn(reference);
    this.scheduled.schedule(reference, time, 'tail');
  }

  /** Puts back a reference that was being delivered, ahead of everything of its priority. */
  cancel(reference: MessageReference): void {
    this.delivering--;
    if (this.deleted) {
      // Nowhere to go back to: it leaves for good, so its address' size and storage are released.
      this.onReferenceRemoved(reference);
      return;
    }
    this.enqueue(reference, 'head');
  }

  /**
   * Puts back several references, keeping their original order at the head (the first of
   * `references` will be delivered first).
   */
  cancelAll(references: MessageReference[]): void {
    for (let i = references.length - 1; i >= 0; i--) this.cancel(references[i] as MessageReference);
  }

  /** Puts back a delivered reference that may be redelivered only from `time` on (redelivery delay). */
  cancelUntil(reference: MessageReference, time: number): void {
    this.delivering--;
    if (this.deleted) {
      this.onReferenceRemoved(reference);
      return;
    }
    this.countIn(reference);
    this.scheduled.schedule(reference, time, 'head');
  }

  /** A consumer took `reference` (its delivery count is up by one), or gave it back unseen (down). */
  countDelivery(reference: MessageReference): void {
    this.hooks.deliveryCounted?.(reference);
  }

  acknowledge(reference: MessageReference, reason: AckReason = 'consumed'): void {
    this.delivering--;
    if (reason === 'killed') this.messagesKilled++;
    else this.messagesAcknowledged++;
    this.onReferenceRemoved(reference);
  }

  /** A delivered message its client found expired before the application saw it. */
  expireDelivering(reference: MessageReference, now: number): void {
    this.delivering--;
    this.expire(reference, now);
  }

  /** Takes out every waiting message that has expired by `now` (the expiry scan); returns how many. */
  expireWaiting(now: number): number {
    let expired = 0;
    for (const list of this.levels) {
      for (let node = list.first; node !== null;) {
        const next = node.next;
        if (isExpired(node.value.message, now)) {
          this.unlink(list, node);
          this.expire(node.value, now);
          expired++;
        }
        node = next;
      }
    }
    return expired;
  }

  /** The queued messages in delivery order, for browsing; delivering and scheduled ones are not included. */
  snapshot(): MessageReference[] {
    const references: MessageReference[] = [];
    for (let level = PRIORITY_LEVELS - 1; level >= 0; level--) {
      for (const reference of (this.levels[level] as LinkedList<MessageReference>).values())
        references.push(reference);
    }
    return references;
  }

  /** The scheduled messages in time order, with their times. */
  scheduledSnapshot(): Array<{ reference: MessageReference; time: number }> {
    return this.scheduled.snapshot().map(({ reference, time }) => ({ reference, time }));
  }

  /**
   * Drops every queued and scheduled message (the queue is being deleted); delivering ones go
   * when acknowledged or cancelled.
   */
  delete(): void {
    this.deleted = true;
    for (const level of this.levels) {
      for (let node = level.first; node !== null; node = node.next) {
        level.remove(node);
        this.onReferenceRemoved(node.value);
      }
    }
    for (const reference of this.scheduled.clear()) this.onReferenceRemoved(reference);
    this.waiting = 0;
    this.groups.clear();
    this.lastValues?.clear();
  }

  /** The broker stops: no timer may outlive it (durable scheduled messages are in storage). */
  stop(): void {
    this.scheduled.stop();
  }

  /** Schedules one delivery pass; many triggers in one turn cost one pass. */
  deliverAsync(): void {
    if (this.deliveryScheduled || this.deleted || this.paused || this.consumers.length === 0) return;
    this.deliveryScheduled = true;
    setImmediate(() => this.contain('a delivery pass', () => this.deliver()));
  }

  /** One delivery pass now (a forced delivery needs its result before it answers). */
  deliverNow(): void {
    if (!this.deleted && !this.paused) this.deliver();
  }

  /**
   * One pass over the waiting messages, highest priority first. A consumer found BUSY stays busy
   * for the rest of the pass (credits only arrive between passes), so it is not asked again, and
   * the pass ends as soon as every consumer is busy.
   */
  private deliver(): void {
    this.deliveryScheduled = false;
    if (this.paused) return;
    const now = Date.now();
    const busy = new Set<QueueConsumer>();
    let handled = 0;
    for (let level = PRIORITY_LEVELS - 1; level >= 0; level--) {
      const list = this.levels[level] as LinkedList<MessageReference>;
      for (let node = list.first; node !== null;) {
        const next = node.next;
        if (isExpired(node.value.message, now)) {
          this.unlink(list, node);
          this.expire(node.value, now);
          node = next;
          continue;
        }
        const outcome = this.offer(list, node, busy);
        if (outcome === 'all-busy' || this.consumers.length === 0) return;
        if (outcome === 'handled' && ++handled >= DELIVERIES_PER_PASS) {
          this.deliverAsync();
          return;
        }
        node = next;
      }
    }
  }

  /**
   * Runs work started from a timer or setImmediate: a throw from there would reach the event loop
   * and end the process, so it goes to the hooks instead. Consumers contain their own failures
   * (see ServerConsumer.handle), so what lands here is the queue's own.
   */
  private contain(activity: string, work: () => void): void {
    try {
      work();
    } catch (error) {
      this.hooks.failed(error, activity);
    }
  }

  /**
   * Offers one message: to its group's consumer when the group has one, else to each consumer in
   * turn starting after the last one served (and the consumer that takes it gets its group).
   */
  private offer(
    list: LinkedList<MessageReference>,
    node: ListNode<MessageReference>,
    busy: Set<QueueConsumer>,
  ): OfferOutcome {
    const group = node.value.routed.group;
    const owner = group === null ? undefined : this.groups.ownerOf(group);
    if (owner !== undefined) return this.offerToOwner(owner, list, node, busy);
    const count = this.consumers.length;
    for (let i = 0; i < count; i++) {
      const index = (this.nextConsumer + i) % count;
      const consumer = this.consumers[index] as QueueConsumer;
      if (busy.has(consumer)) continue;
      const status = consumer.handle(node.value);
      if (status === HandleStatus.HANDLED) {
        this.take(list, node);
        if (group !== null) this.groups.bind(group, consumer);
        this.nextConsumer = (index + 1) % Math.max(this.consumers.length, 1);
        return 'handled';
      }
      if (status === HandleStatus.BUSY) busy.add(consumer);
    }
    return busy.size >= count ? 'all-busy' : 'unmatched';
  }

  /** A grouped message waits for its consumer: no other consumer may take it. */
  private offerToOwner(
    owner: QueueConsumer,
    list: LinkedList<MessageReference>,
    node: ListNode<MessageReference>,
    busy: Set<QueueConsumer>,
  ): OfferOutcome {
    if (!busy.has(owner)) {
      const status = owner.handle(node.value);
      if (status === HandleStatus.HANDLED) {
        this.take(list, node);
        return 'handled';
      }
      if (status === HandleStatus.BUSY) busy.add(owner);
    }
    return busy.size >= this.consumers.length ? 'all-busy' : 'unmatched';
  }

  private take(list: LinkedList<MessageReference>, node: ListNode<MessageReference>): void {
    this.delivering++;
    this.unlink(list, node);
  }

  private unlink(list: LinkedList<MessageReference>, node: ListNode<MessageReference>): void {
    list.remove(node);
    this.lastValues?.forget(node);
    this.countOut(node.value);
  }

  /** A waiting message management took out leaves for good, counted as acknowledged. */
  private removed(reference: MessageReference): void {
    this.messagesAcknowledged++;
    this.onReferenceRemoved(reference);
  }

  private countIn(reference: MessageReference): void {
    this.waiting += waitingWeight(reference);
  }

  /** A waiting message left memory's queue: if the queue has paged messages, it may read more. */
  private countOut(reference: MessageReference): void {
    this.waiting -= waitingWeight(reference);
    if (this.pagedCount > 0 && !this.deleted) this.hooks.waitingFell?.(this);
  }

  private expire(reference: MessageReference, now: number): void {
    this.messagesExpired++;
    const move = (): void => {
      this.hooks.expired(reference, now);
      this.onReferenceRemoved(reference);
    };
    if (this.hooks.atomically === undefined) move();
    else this.hooks.atomically(move);
  }

  /** Scheduled references whose time has come: redeliveries ahead (in time order), new ones behind. */
  private release(due: ScheduledReference[]): void {
    // They stay waiting, in the lists now: counted out of the schedule, in again by enqueue.
    for (const entry of due) this.waiting -= waitingWeight(entry.reference);
    for (let i = due.length - 1; i >= 0; i--) {
      const entry = due[i] as ScheduledReference;
      if (entry.position === 'head') this.enqueue(entry.reference, 'head');
    }
    for (const entry of due) if (entry.position === 'tail') this.enqueue(entry.reference, 'tail');
  }

  private enqueue(reference: MessageReference, position: 'head' | 'tail'): void {
    const key = this.lastValues === null ? null : lastValueKey(reference.message);
    if (key === null || !this.replaceLastValue(key, reference, position)) {
      const list = this.levelOf(reference);
      const node = position === 'tail' ? list.addTail(reference) : list.addHead(reference);
      this.countIn(reference);
      if (key !== null) this.lastValues?.set(key, node);
    }
    this.deliverAsync();
  }

  /**
   * Last-value queue: a newer message replaces the waiting one with the same name (in place when
   * it has the same priority); an older one coming back from a consumer gives way to the waiting
   * one. Returns false when no message with that name is waiting.
   */
  private replaceLastValue(key: string, reference: MessageReference, position: 'head' | 'tail'): boolean {
    const lastValues = this.lastValues as LastValueIndex;
    const waiting = lastValues.get(key);
    if (waiting === undefined) return false;
    if (position === 'head') {
      this.messagesAcknowledged++;
      this.onReferenceRemoved(reference);
      return true;
    }
    const replaced = waiting.value;
    if (replaced.message.priority === reference.message.priority) {
      waiting.value = reference;
      this.countIn(reference);
      this.countOut(replaced);
    } else {
      this.unlink(this.levelOf(replaced), waiting);
      lastValues.set(key, this.levelOf(reference).addTail(reference));
      this.countIn(reference);
    }
    this.messagesAcknowledged++;
    this.onReferenceRemoved(replaced);
    return true;
  }

  private levelOf(reference: MessageReference): LinkedList<MessageReference> {
    return this.levels[reference.message.priority] as LinkedList<MessageReference>;
  }
}

/** What a waiting reference counts for (as in its address' size: its message and itself). */
function waitingWeight(reference: MessageReference): number {
  return reference.routed.memoryEstimate + REFERENCE_MEMORY_ESTIMATE;
}
