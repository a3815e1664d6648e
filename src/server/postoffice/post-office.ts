import { HornetQException, type CoreMessage } from '../../core/protocol';
import type { StorageManager } from '../storage/storage-manager';
import { AddressSettingsRepository } from './address-settings';
import { AddressSize } from './address-size';
import type { Filter } from './filter';
import { MessageReference, RoutedMessage } from './message-reference';
import { Queue } from './queue';

/** Turns a filter expression into a Filter; throws INVALID_FILTER_EXPRESSION when it cannot. */
export type FilterFactory = (expression: string) => Filter;

export interface CreateQueueOptions {
  name: string;
  address: string;
  filter: string | null;
  durable: boolean;
  temporary: boolean;
}

/** A message ready to be routed, with the queues it will go to; see PostOffice.prepare. */
export interface PreparedRoute {
  message: CoreMessage;
  queues: Queue[];
}

/**
 * Addresses, their bindings (queues) and routing. A message sent to an address goes to every
 * queue bound to it whose filter accepts it: one queue for a JMS queue, one per subscription for a
 * topic. Also keeps each address' size for producer flow control.
 */
export class PostOffice {
  private readonly queues = new Map<string, Queue>();
  private readonly bindings = new Map<string, Queue[]>();
  private readonly addressSizes = new Map<string, AddressSize>();

  constructor(
    private readonly storage: StorageManager,
    readonly addressSettings: AddressSettingsRepository,
    readonly createFilter: FilterFactory,
  ) {}

  /** Rebuilds durable queues and their messages from storage (broker start). */
  load(): void {
    // A message stored for several queues is one routed message again, counted once in its address.
    const routed = new Map<number, RoutedMessage>();
    for (const stored of this.storage.loadQueues()) {
      const queue = this.addQueue({ ...stored, durable: true, temporary: false });
      for (const { message, deliveryCount } of this.storage.loadReferences(stored.name)) {
        let shared = routed.get(message.messageId);
        if (shared === undefined) {
          shared = new RoutedMessage(message, message.encodedSize());
          routed.set(message.messageId, shared);
          this.addressSize(message.address).add(shared.size);
        }
        const reference = new MessageReference(shared, queue);
        reference.deliveryCount = deliveryCount;
        queue.addTail(reference);
      }
    }
  }

  createQueue(options: CreateQueueOptions): Queue {
    if (this.queues.has(options.name)) {
      throw new HornetQException('QUEUE_EXISTS', `Queue ${options.name} already exists`);
    }
    const queue = this.addQueue(options);
    if (queue.durable)
      this.storage.storeQueue({ name: queue.name, address: queue.address, filter: options.filter });
    return queue;
  }

  /** Deletes a queue and its messages; refused while it has consumers. */
  deleteQueue(name: string): void {
    const queue = this.requireQueue(name);
    if (queue.consumerCount > 0) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        `Cannot delete queue ${name} on binding ${queue.address} - it has consumers`,
      );
    }
    this.queues.delete(name);
    const bound = (this.bindings.get(queue.address) ?? []).filter((q) => q !== queue);
    if (bound.length > 0) this.bindings.set(queue.address, bound);
    else this.bindings.delete(queue.address);
    queue.delete();
    if (queue.durable) this.storage.deleteQueue(name);
  }

  getQueue(name: string): Queue | undefined {
    return this.queues.get(name);
  }

  requireQueue(name: string): Queue {
    const queue = this.queues.get(name);
    if (queue === undefined)
      throw new HornetQException('QUEUE_DOES_NOT_EXIST', `Queue ${name} does not exist`);
    return queue;
  }

  allQueues(): Queue[] {
    return [...this.queues.values()];
  }

  queuesBoundTo(address: string): readonly Queue[] {
    return this.bindings.get(address) ?? [];
  }

  addressSize(address: string): AddressSize {
    let size = this.addressSizes.get(address);
    if (size === undefined) {
      size = new AddressSize(address, this.addressSettings.getMatch(address));
      this.addressSizes.set(address, size);
    }
    return size;
  }

  /**
   * Gives the message its id and picks its queues, without delivering it yet: a transaction
   * prepares at send time (so the id is fixed) and routes at commit.
   */
  prepare(message: CoreMessage): PreparedRoute {
    message.messageId = this.storage.generateMessageId();
    const queues = this.queuesBoundTo(message.address).filter(
      (q) => q.filter === null || q.filter.match(message),
    );
    return { message, queues };
  }

  /** Stores (if durable) and enqueues a prepared message; returns how many queues took it. */
  route({ message, queues }: PreparedRoute): number {
    if (queues.length === 0) return 0;
    const routed = new RoutedMessage(message, message.encodedSize());
    if (message.durable) {
      const durableQueues = queues.filter((q) => q.durable).map((q) => q.name);
      if (durableQueues.length > 0) this.storage.storeMessage(message, durableQueues);
    }
    this.addressSize(message.address).add(routed.size);
    for (const queue of queues) queue.addTail(new MessageReference(routed, queue));
    return queues.length;
  }

  private addQueue(options: CreateQueueOptions): Queue {
    const filter =
      options.filter === null || options.filter === '' ? null : this.createFilter(options.filter);
    const queue = new Queue({ ...options, filter }, (reference) => this.onReferenceRemoved(reference));
    this.queues.set(queue.name, queue);
    const bound = this.bindings.get(queue.address);
    if (bound === undefined) this.bindings.set(queue.address, [queue]);
    else bound.push(queue);
    return queue;
  }

  private onReferenceRemoved(reference: MessageReference): void {
    if (reference.message.durable && reference.queue.durable) {
      this.storage.storeAcknowledge(reference.queue.name, reference.message.messageId);
    }
    if (--reference.routed.referenceCount === 0)
      this.addressSize(reference.message.address).remove(reference.size);
  }
}
