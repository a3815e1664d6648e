import { HornetQException, type CoreMessage } from '../../core/protocol';
import { silentLogger, type Logger } from '../../core/remoting';
import { DEFAULT_BROKER_LIMITS } from '../broker-configuration';
import { traceRoute } from '../broker-tracing';
import { NodePageFileSystem } from '../paging/node-page-file-system';
import type { PageFileSystem } from '../paging/page-file-system';
import { PagingManager, type PagingStats } from '../paging/paging-manager';
import type { QueueTarget } from '../paging/queue-target';
import type { StorageManager } from '../storage/storage-manager';
import type { AddressSettingsRepository } from './address-settings';
import type { AddressSize } from './address-size';
import { AddressSizeTable } from './address-size-table';
import { DuplicateIdCaches } from './duplicate-id-cache';
import type { Filter } from './filter';
import { DeliveryCanceller } from './delivery-canceller';
import { MessageHeader, duplicateIdKey, duplicateIdLength, scheduledDeliveryTime } from './message-headers';
import { MessageReference, REFERENCE_MEMORY_ESTIMATE, RoutedMessage } from './message-reference';
import { MessageMover } from './message-mover';
import { Queue } from './queue';
import { QueueRegistry } from './queue-registry';
import { loadStoredQueues } from './stored-state-loader';

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
  /** The address the message was sent to (it may be headed for the dead-letter address instead). */
  address: string;
  /** The duplicate-detection id as a cache key, or null. */
  duplicateId: string | null;
}

/**
 * A transacted send, counted in its address' size from the send until its transaction ends (as in
 * HornetQ, where the address grows at routing, in a transaction or not): an open transaction
 * cannot grow the broker while its address reports room.
 */
export interface HeldSend {
  route: PreparedRoute;
  /** What it counts for in the address of its message until it is routed or rolled back. */
  bytes: number;
}

export interface PostOfficeOptions {
  /** Ids each address' duplicate-id cache holds (id-cache-size). */
  idCacheSize: number;
  /** Keep the duplicate-id caches in storage, so that they survive a restart (persist-id-cache). */
  persistIdCache: boolean;
  /** Queues in all; creating one more is refused (loading what storage holds never is). */
  maxQueues: number;
  /** The longest queue name or address, in characters. */
  maxNameLength: number;
  /** The longest duplicate-detection id, in characters (a string id) or bytes (a bytes id). */
  maxDuplicateIdLength: number;
  /**
   * Where an address under address-full-policy PAGE pages once past max-size-bytes (an absolute
   * path; paging-directory). Null: nowhere, and such an address keeps accepting in memory.
   */
  pagingDirectory: string | null;
  /** The file layer under the page stores. */
  pageFileSystem: PageFileSystem;
  logger: Logger;
}

export const DEFAULT_POST_OFFICE_OPTIONS: Readonly<PostOfficeOptions> = Object.freeze({
  idCacheSize: 20_000,
  persistIdCache: true,
  maxQueues: DEFAULT_BROKER_LIMITS.maxQueues,
  maxNameLength: DEFAULT_BROKER_LIMITS.maxNameLength,
  maxDuplicateIdLength: DEFAULT_BROKER_LIMITS.maxDuplicateIdLength,
  pagingDirectory: null,
  pageFileSystem: new NodePageFileSystem(),
  logger: silentLogger,
});

/**
 * Addresses, their bindings (queues) and routing. A message sent to an address goes to every
 * queue bound to it whose filter accepts it: one queue for a JMS queue, one per subscription for a
 * topic. Also keeps each address' size for producer flow control and duplicate-id cache. Which
 * queues exist is the QueueRegistry's bookkeeping; creating and deleting them (storage, messages,
 * orphaned temporary queues) is done here. What becomes of failed deliveries is the
 * DeliveryCanceller's to decide, and moves to dead-letter and expiry addresses are the
 * MessageMover's: the post office lends them its routing through narrow interfaces.
 */
export class PostOffice {
  private readonly registry: QueueRegistry;
  private readonly addressSizes: AddressSizeTable;
  private readonly duplicateIds: DuplicateIdCaches;
  private readonly logger: Logger;
  private readonly maxNameLength: number;
  private readonly maxDuplicateIdLength: number;
  private readonly mover: MessageMover;
  private readonly canceller: DeliveryCanceller;
  /** storeAtomically calls in progress: only the outermost begins and commits. */
  private atomicDepth = 0;
  private readonly paging: PagingManager;

  constructor(
    private readonly storage: StorageManager,
    readonly addressSettings: AddressSettingsRepository,
    readonly createFilter: FilterFactory,
    options: Partial<PostOfficeOptions> = {},
  ) {
    const settings = { ...DEFAULT_POST_OFFICE_OPTIONS, ...options };
    const { idCacheSize, persistIdCache, maxQueues, maxNameLength, maxDuplicateIdLength, logger } = settings;
    this.paging = this.createPaging(settings);
    this.addressSizes = new AddressSizeTable(
      (address) => addressSettings.getMatch(address),
      (address) => this.paging.unwrittenBytes(address),
    );
    this.duplicateIds = new DuplicateIdCaches(idCacheSize, storage, persistIdCache);
    this.registry = new QueueRegistry(maxQueues);
    this.maxNameLength = maxNameLength;
    this.maxDuplicateIdLength = maxDuplicateIdLength;
    this.logger = logger;
    this.mover = new MessageMover(
      addressSettings,
      {
        nextMessageId: () => storage.generateMessageId(),
        queuesFor: (address, message) => this.queuesFor(address, message),
        deliver: (message, queues) =>
          this.route({ message, queues: [...queues], address: message.address, duplicateId: null }),
      },
      logger,
    );
    this.canceller = new DeliveryCanceller(storage, addressSettings, this.mover, (work) =>
      this.storeAtomically(work),
    );
  }

  /** Rebuilds durable queues, their messages and the duplicate-id caches from storage (broker start). */
  load(): void {
    loadStoredQueues(
      this.storage,
      {
        addQueue: (stored) => this.addQueue({ ...stored, durable: true, temporary: false }),
        countInAddress: (address, bytes) => this.addressSizes.add(address, bytes),
        pageOut: (message, target) => this.pageIfFull(message, [target]).length === 0,
      },
      Date.now(),
    );
    this.duplicateIds.load((address) => this.registry.hasBindings(address));
  }

  /** The broker stops: queue timers go; messages stay where they are (durable ones in storage). */
  stop(): void {
    for (const queue of this.registry.values()) queue.stop();
  }

  /**
   * After stop: resolves once the page stores' file operations are done and their files removed
   * (paged messages are not kept: durable ones are in storage).
   */
  closePaging(): Promise<void> {
    return this.paging.close();
  }

  /** Resolves once the page stores' file operations asked for so far are done (tests, statistics). */
  pagingIdle(): Promise<void> {
    return this.paging.idle();
  }

  /** What the address' page store holds, or null when the address is not paging. */
  pagingStats(address: string): PagingStats | null {
    return this.paging.stats(address);
  }

  createQueue(options: CreateQueueOptions): Queue {
    this.checkName('queue name', options.name);
    this.checkName('address', options.address);
    this.registry.checkRoomFor(options.name);
    const queue = this.addQueue(options);
    if (queue.durable)
      this.storage.storeQueue({ name: queue.name, address: queue.address, filter: options.filter });
    return queue;
  }

  /**
   * A queue that lives only while it has consumers (HornetQ's transient queue, which JMS 2.0's
   * shared non-durable subscriptions are): not stored, deleted when its last consumer leaves, so
   * that it does not keep collecting what is published to the topic once nobody reads it.
   */
  createTransientQueue(options: Omit<CreateQueueOptions, 'durable' | 'temporary'>): Queue {
    const queue = this.createQueue({ ...options, durable: false, temporary: false });
    this.registry.markOrphaned(queue);
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
    // When the address' last queue goes, its duplicate-id cache goes too (the next queue starts afresh).
    if (this.registry.remove(queue)) this.duplicateIds.forget(queue.address);
    this.paging.queueDeleted(queue);
    queue.delete();
    if (queue.durable) this.storage.deleteQueue(name);
    // Its entries in the pages are read past and dropped, so that the pages can go.
    this.paging.drain(queue.address);
  }

  /**
   * Deletes a temporary queue whose connection has gone. Another connection may still consume
   * from it (a reply queue shared on purpose): then it goes when its last consumer does, so that
   * it neither outlives every user nor takes a consumer's queue away from under it.
   */
  deleteTemporaryQueue(name: string): void {
    const queue = this.registry.get(name);
    if (queue === undefined) return;
    if (queue.consumerCount === 0) this.deleteQueue(name);
    else this.registry.markOrphaned(queue);
  }

  /** A fresh message id, from the same sequence as routed messages' (a forced-delivery marker's). */
  generateMessageId(): number {
    return this.storage.generateMessageId();
  }

  getQueue(name: string): Queue | undefined {
    return this.registry.get(name);
  }

  requireQueue(name: string): Queue {
    return this.registry.require(name);
  }

  allQueues(): Queue[] {
    return [...this.registry.values()];
  }

  /** The queues in creation order, without copying them (a page of statistics walks part of it). */
  eachQueue(): IterableIterator<Queue> {
    return this.registry.values();
  }

  get queueCount(): number {
    return this.registry.size;
  }

  acceptsName(name: string): boolean {
    return name.length <= this.maxNameLength;
  }

  /**
   * Refuses a queue name or address longer than the broker allows: every name a client gives is
   * kept (queues, bindings, address sizes) and written into answers to other clients.
   */
  checkName(what: 'queue name' | 'address', name: string): void {
    if (this.acceptsName(name)) return;
    throw new HornetQException(
      'ILLEGAL_STATE',
      `The ${what} '${name.slice(0, 40)}...' is ${name.length} characters long; the broker allows at most ${this.maxNameLength} (maxNameLength)`,
    );
  }

  /**
   * Refuses a duplicate-detection id longer than the broker allows: each address remembers
   * id-cache-size of them, so their length bounds what a cache can hold.
   */
  private checkDuplicateId(message: CoreMessage): void {
    const length = duplicateIdLength(message);
    if (length <= this.maxDuplicateIdLength) return;
    throw new HornetQException(
      'ILLEGAL_STATE',
      `Message to ${message.address} refused: its duplicate-detection id (${MessageHeader.DUPLICATE_DETECTION_ID}) is ${length} long; the broker allows at most ${this.maxDuplicateIdLength} (maxDuplicateIdLength: characters of a string id, bytes of a bytes id)`,
    );
  }

  queuesBoundTo(address: string): readonly Queue[] {
    return this.registry.boundTo(address);
  }

  /** The address' size now (see AddressSizeTable.of: use it at once, do not keep it). */
  addressSize(address: string): AddressSize {
    return this.addressSizes.of(address);
  }

  /** Addresses whose size the broker keeps: those holding messages. */
  get addressSizeCount(): number {
    return this.addressSizes.count;
  }

  /** Addresses with a duplicate-id cache: only addresses with queues have one. */
  get duplicateIdCacheCount(): number {
    return this.duplicateIds.count;
  }

  /**
   * Gives the message its id (and its expiration under expiry-delay) and picks its queues, without
   * delivering it yet: a transaction prepares at send time (so the id is fixed) and routes at
   * commit. A message no queue takes is headed for the dead-letter address under
   * send-to-dla-on-no-route. A duplicate id longer than the broker keeps is refused.
   */
  prepare(message: CoreMessage): PreparedRoute {
    this.checkDuplicateId(message);
    const address = message.address;
    const settings = this.addressSettings.getMatch(address);
    message.messageId = this.storage.generateMessageId();
    if (settings.expiryDelay >= 0 && message.expiration === 0)
      message.expiration = Date.now() + settings.expiryDelay;
    let queues = this.queuesFor(address, message);
    if (queues.length === 0 && settings.sendToDlaOnNoRoute)
      queues = this.mover.divertUnrouted(message, settings);
    return { message, queues, address, duplicateId: duplicateIdKey(message) };
  }

  /** True when the message's duplicate id was already accepted by its address. */
  isDuplicate(route: PreparedRoute): boolean {
    return route.duplicateId !== null && this.duplicateIds.contains(route.address, route.duplicateId);
  }

  /**
   * Routes a send outside a transaction. A duplicate id the address has seen drops the message
   * (the send itself succeeds, as in HornetQ); a new one is recorded in one storage transaction
   * with the message (as HornetQ's route starts one for it): after a crash both are there or
   * neither, so a retried send is neither discarded for a message that is not there nor stored
   * twice. Returns the number of queues.
   */
  send(route: PreparedRoute): number {
    const duplicateId = route.duplicateId;
    if (duplicateId === null) return this.route(route);
    if (this.isDuplicate(route)) {
      this.logger.warn(
        { address: route.address, messageId: route.message.messageId },
        'Duplicate message detected - message will not be routed',
      );
      return 0;
    }
    return this.storeAtomically(() => {
      this.recordDuplicateId(route.address, duplicateId);
      return this.route(route);
    });
  }

  /**
   * The error that must fail the commit of these sends: a duplicate id already accepted by its
   * address or repeated within the transaction. Null when there is none.
   */
  findDuplicate(routes: readonly PreparedRoute[]): HornetQException | null {
    const seen = new Set<string>();
    for (const route of routes) {
      if (route.duplicateId === null) continue;
      const key = `${route.address}\u0000${route.duplicateId}`;
      if (seen.has(key) || this.isDuplicate(route)) return duplicateRejected(route);
      seen.add(key);
    }
    return null;
  }

  /**
   * Counts a transacted send in its message's address until its transaction ends. Null for one
   * that its commit could do nothing with, which the transaction need not keep: no queue takes it
   * (they were chosen at the send) and its address has no queue to remember its duplicate id.
   * Kept sends are thus bounded by addresses with queues, each by its max-size-bytes.
   */
  hold(route: PreparedRoute): HeldSend | null {
    const remembersId = route.duplicateId !== null && this.registry.hasBindings(route.address);
    if (route.queues.length === 0 && !remembersId) return null;
    // What routing it at commit will count (RoutedMessage.addressBytesFor), so the hold hands over.
    const bytes = route.message.memoryEstimate() + route.queues.length * REFERENCE_MEMORY_ESTIMATE;
    const held = { route, bytes };
    this.addressSizes.add(route.message.address, held.bytes);
    return held;
  }

  /** A transaction ended without routing these sends: they no longer count in their addresses. */
  releaseHeld(sends: readonly HeldSend[]): void {
    for (const { route, bytes } of sends) {
      this.addressSizes.remove(route.message.address, bytes);
    }
  }

  /**
   * Runs `work` as one storage transaction: after a crash, everything it stored is there or none
   * of it is (a commit's sends and acknowledgements). Ended even when `work` throws: what it
   * stored is what it applied in memory, and storage must not hold less than the broker acted on.
   */
  storeAtomically<T>(work: () => T): T {
    // Reentrant: a commit may expire or dead-letter messages on its way; they join its transaction.
    if (this.atomicDepth > 0) return work();
    this.atomicDepth++;
    this.storage.beginTransaction();
    try {
      return work();
    } finally {
      this.atomicDepth--;
      this.storage.commitTransaction();
    }
  }

  /**
   * Routes the sends of a committed transaction, recording their duplicate ids (see findDuplicate).
   * Each is routed before its hold is released, so that the address does not seem to have room in
   * between (and let a waiting producer in) for what it is about to hold anyway. Should routing
   * throw (storage), the sends not routed are released all the same.
   */
  routeCommitted(sends: readonly HeldSend[]): void {
    let routed = 0;
    try {
      for (; routed < sends.length; routed++) {
        const held = sends[routed] as HeldSend;
        const { route } = held;
        if (route.duplicateId !== null) this.recordDuplicateId(route.address, route.duplicateId);
        this.route(route);
        this.releaseHeld([held]);
      }
    } finally {
      this.releaseHeld(sends.slice(routed));
    }
  }

  /**
   * Stores (if durable) and enqueues a prepared message, holding it back until its scheduled
   * delivery time if it has one; returns how many queues took it.
   */
  route(prepared: PreparedRoute): number {
    return traceRoute(
      prepared.message,
      () => prepared.queues.map((queue) => queue.name),
      () => this.routeNow(prepared),
    );
  }

  private routeNow({ message, queues }: PreparedRoute): number {
    // A transaction routes at commit what it prepared earlier: a queue deleted since takes nothing.
    const live = queues.filter((queue) => !queue.isDeleted);
    if (live.length === 0) return 0;
    const time = scheduledDeliveryTime(message);
    const scheduled = time > Date.now();
    if (message.durable) {
      const durableQueues = live.filter((q) => q.durable).map((q) => q.name);
      if (durableQueues.length > 0) this.storage.storeMessage(message, durableQueues);
      if (scheduled)
        for (const name of durableQueues)
          this.storage.updateScheduledDeliveryTime(name, message.messageId, time);
    }
    const targets = live.map((queue) => ({ queue, deliveryCount: 0, scheduledTime: scheduled ? time : 0 }));
    const inMemory = this.pageIfFull(message, targets);
    if (inMemory.length > 0) this.enqueue(message, inMemory);
    return live.length;
  }

  /**
   * address-full-policy PAGE: a message for an address that pages, or that has no room in memory
   * left, goes to the address' page store for the queues that cannot take it in memory now (see
   * PagingManager.page), and comes back to them as they deliver. Returns the targets that hold it
   * in memory.
   */
  private pageIfFull(message: CoreMessage, targets: readonly QueueTarget[]): readonly QueueTarget[] {
    const address = message.address;
    if (!this.paging.isPaging(address)) {
      const size = this.addressSizes.of(address);
      if (size.policy !== 'PAGE' || size.hasRoom() || !this.paging.canPage(address)) return targets;
    }
    return this.paging.page(message, targets);
  }

  /** Puts a message into its queues (in memory), counted in its address; scheduled ones wait. */
  private enqueue(message: CoreMessage, targets: readonly QueueTarget[]): void {
    const routed = new RoutedMessage(message, message.encodedSize());
    this.addressSizes.add(message.address, routed.addressBytesFor(targets.length));
    const now = Date.now();
    for (const { queue, deliveryCount, scheduledTime } of targets) {
      const reference = new MessageReference(routed, queue);
      reference.deliveryCount = deliveryCount;
      if (scheduledTime > now) queue.schedule(reference, scheduledTime);
      else queue.addTail(reference);
    }
  }

  private createPaging(options: PostOfficeOptions): PagingManager {
    return new PagingManager(
      { directory: options.pagingDirectory, fileSystem: options.pageFileSystem, logger: options.logger },
      {
        settingsFor: (address) => this.addressSettings.getMatch(address),
        queueNamed: (name) => this.registry.get(name),
        queueCount: (address) => this.registry.boundTo(address).length,
        enqueue: (message, targets) => this.enqueue(message, targets),
        pageWritten: (address) => this.addressSizes.pageWritten(address),
      },
    );
  }

  /**
   * Returns references whose delivery did not complete. `delivered` ones reached the application:
   * each is a failed delivery, so it goes to the dead-letter address once it has had
   * max-delivery-attempts, or waits out the redelivery delay. `undelivered` ones never left the
   * client's buffer and go straight back (see DeliveryCanceller.cancel).
   */
  cancel(delivered: readonly MessageReference[], undelivered: readonly MessageReference[] = []): void {
    this.canceller.cancel(delivered, undelivered, Date.now());
  }

  /**
   * The largest copies a prepared message can become if it is dead-lettered or expired (see
   * largestMoveCopies): what a send must also be able to deliver.
   */
  largestMoveCopies(route: PreparedRoute): CoreMessage[] {
    return this.mover.largestMoveCopies(route.message, queueNamesOf(route));
  }

  /** At least how many bytes a move adds to a prepared message (see moveGrowthBound). */
  moveGrowthBound(route: PreparedRoute): number {
    return this.mover.moveGrowthBound(route.message, queueNamesOf(route));
  }

  /**
   * Takes every expired waiting message out of every queue (the expiry scan). A queue whose scan
   * fails is logged and the scan goes on with the others: it runs from a timer, with nothing
   * above it to catch.
   */
  expireMessages(now: number): void {
    for (const queue of this.registry.values()) {
      try {
        queue.expireWaiting(now);
      } catch (error) {
        this.queueFailed(queue, error, 'the expiry scan');
      }
    }
  }

  private queuesFor(address: string, message: CoreMessage): Queue[] {
    return this.queuesBoundTo(address).filter((q) => q.filter === null || q.filter.match(message));
  }

  private addQueue(options: CreateQueueOptions): Queue {
    const filter =
      options.filter === null || options.filter === '' ? null : this.createFilter(options.filter);
    const lastValue = this.addressSettings.getMatch(options.address).lastValueQueue;
    const queue = new Queue(
      { ...options, filter, lastValue },
      (reference) => this.onReferenceRemoved(reference),
      {
        expired: (reference, now) => this.mover.moveExpired(reference, now),
        failed: (error, activity) => this.queueFailed(queue, error, activity),
        unused: (unused) => this.deleteIfOrphaned(unused),
        deliveryCounted: (reference) => this.storeDeliveryCount(reference),
        atomically: (work) => this.storeAtomically(work),
        waitingFell: (from) => this.paging.queueWantsMore(from),
      },
    );
    this.registry.add(queue);
    return queue;
  }

  /**
   * Its last consumer has just been removed, in the middle of closing that consumer (whose
   * unacknowledged messages are still to go back): an orphaned temporary queue or a transient
   * queue is deleted once that is done.
   */
  private deleteIfOrphaned(queue: Queue): void {
    if (!this.registry.isOrphaned(queue)) return;
    process.nextTick(() => {
      if (!this.registry.isOrphaned(queue) || queue.consumerCount > 0) return;
      try {
        if (this.registry.get(queue.name) === queue) this.deleteQueue(queue.name);
      } catch (error) {
        this.queueFailed(queue, error, 'deleting a queue whose last consumer has gone');
      }
    });
  }

  /**
   * Only an address with queues remembers duplicate ids: a message sent to one without goes
   * nowhere (or to the dead-letter address), so there is nothing a repeat of it could duplicate,
   * and clients may name any number of such addresses.
   */
  private recordDuplicateId(address: string, id: string): void {
    if (this.registry.hasBindings(address)) this.duplicateIds.add(address, id);
  }

  private queueFailed(queue: Queue, error: unknown, activity: string): void {
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.error(
      { err: error, queue: queue.name },
      `queue ${queue.name}: ${activity} failed (${reason}); the broker carries on`,
    );
  }

  /** Not synced: a count lost in a crash only makes a redelivery look like a first delivery. */
  private storeDeliveryCount(reference: MessageReference): void {
    if (reference.message.durable && reference.queue.durable && !reference.queue.isDeleted) {
      this.storage.updateDeliveryCount(
        reference.queue.name,
        reference.message.messageId,
        reference.deliveryCount,
      );
    }
  }

  private onReferenceRemoved(reference: MessageReference): void {
    if (reference.message.durable && reference.queue.durable) {
      this.storage.storeAcknowledge(reference.queue.name, reference.message.messageId);
    }
    this.addressSizes.remove(reference.message.address, reference.routed.releaseReference());
    // Only its own queue may read on (what waits in memory decides, see Queue.waitingFell): one
    // acknowledgement costs one queue's check, however many subscriptions the address has.
    this.paging.queueWantsMore(reference.queue);
  }
}

function queueNamesOf(route: PreparedRoute): string[] {
  return route.queues.map((queue) => queue.name);
}

function duplicateRejected(route: PreparedRoute): HornetQException {
  return new HornetQException(
    'DUPLICATE_ID_REJECTED',
    `Duplicate message detected - the transaction is rolled back (message ${route.message.messageId} to ${route.address} repeats a duplicate-detection id)`,
  );
}
