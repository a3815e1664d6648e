import { join } from 'node:path';
import type { CoreMessage } from '../../core/protocol';
import type { Logger } from '../../core/remoting';
import type { AddressSettings } from '../postoffice/address-settings';
import type { Queue } from '../postoffice/queue';
import { ADDRESS_DIRECTORY_PATTERN, addressDirectoryName } from './address-directory-name';
import type { PageEntry } from './page-entry-codec';
import type { PageFileSystem } from './page-file-system';
import { ADDRESS_FILE, PAGE_FILE_PATTERN, PageStore } from './page-store';
import type { QueueTarget } from './queue-target';

export interface PagingManagerOptions {
  /** Where page files go (paging-directory); null for nowhere: PAGE then keeps messages in memory. */
  directory: string | null;
  fileSystem: PageFileSystem;
  logger: Logger;
}

/** What paging needs from the post office. */
export interface PagingHooks {
  settingsFor(address: string): Pick<AddressSettings, 'pageSizeBytes' | 'pageMaxCacheSize' | 'maxSizeBytes'>;
  /** The queue of that name now, if there is one. */
  queueNamed(name: string): Queue | undefined;
  /** Queues bound to the address now: they share its max-size-bytes. */
  queueCount(address: string): number;
  /** Puts a message read back into its queues, in memory, counted in its address. */
  enqueue(message: CoreMessage, targets: QueueTarget[]): void;
  /** A page of the address is written out (or its write is over): producers may go on. */
  pageWritten(address: string): void;
}

/** What an address' paging holds now (for statistics and tests). */
export interface PagingStats {
  /** Messages in the page store (one entry each, however many queues it goes to). */
  messages: number;
  pages: number;
  /** Pages whose bytes are in memory: read ahead, filling, or being written. */
  pagesInMemory: number;
  unwrittenPages: number;
}

interface AddressPaging {
  readonly store: PageStore;
  /** Queues deleted while they had entries here: their entries numbered below the mark are skipped. */
  readonly skipBelow: Map<string, number>;
}

/**
 * address-full-policy PAGE, per queue as HornetQ's page subscriptions are: once an address is
 * over max-size-bytes (or already paging), a message goes in memory to each of its queues that
 * has nothing in the pages and holds less than its share of max-size-bytes waiting for a consumer
 * (the limit divided among the address' queues; scheduled messages count, those delivered and
 * waiting for an acknowledgement do not), and to the page store for the others.
 * Each queue reads its entries back in order through a cursor of its own as it delivers what it
 * holds, so consumers that acknowledge in batches get every message, and a subscription whose
 * consumer is away keeps its share in memory and the rest in the pages while the others go on.
 * The address stops paging when no queue has entries left. Page files are a spool for memory,
 * never synced, and cleared at start and at stop: a durable paged message is in the journal too,
 * and pages out again when the journal loads.
 */
export class PagingManager {
  private readonly addresses = new Map<string, AddressPaging>();
  /** Stores being let go, by address: a new store of that address starts once its files are gone. */
  private readonly retiring = new Map<string, Promise<void>>();
  private readonly draining = new Set<string>();
  /** Addresses whose drain was asked for again while it ran: it runs once more. */
  private readonly drainAgain = new Set<string>();
  private readonly ready: Promise<void>;
  private warnedNoDirectory = false;

  constructor(
    private readonly options: PagingManagerOptions,
    private readonly hooks: PagingHooks,
  ) {
    this.ready = this.clearDirectory();
  }

  /** Messages of the address go to its page store: it holds some, so later ones must follow them. */
  isPaging(address: string): boolean {
    return this.addresses.has(address);
  }

  /**
   * Whether an address may start paging. Without a paging directory it may not: it keeps
   * accepting in memory as before, which is said once.
   */
  canPage(address: string): boolean {
    if (this.options.directory !== null) return true;
    if (!this.warnedNoDirectory) {
      this.warnedNoDirectory = true;
      this.options.logger.warn(
        { address },
        `address ${address} is full under address-full-policy PAGE, but no paging directory is configured: its messages stay in memory`,
      );
    }
    return false;
  }

  /**
   * Routes a message of a full or paging address: a queue with nothing in the pages that wants
   * more (see wantsMore) takes it in memory; for the others it is appended to the address' page
   * store (started if need be), so that each queue keeps its order. Returns the targets that take
   * it in memory.
   */
  page(message: CoreMessage, targets: readonly QueueTarget[]): QueueTarget[] {
    const address = message.address;
    const current = this.addresses.get(address);
    const inMemory: QueueTarget[] = [];
    const paged: QueueTarget[] = [];
    for (const target of targets) {
      const { queue } = target;
      const behind = current !== undefined && current.store.unreadOf(queue.name) > 0;
      if (!behind && this.wantsMore(queue, address)) inMemory.push(target);
      else paged.push(target);
    }
    if (paged.length === 0) return inMemory;
    const paging = current ?? this.start(address);
    const entry: PageEntry = {
      message,
      targets: paged.map(({ queue, deliveryCount, scheduledTime }) => ({
        queueName: queue.name,
        deliveryCount,
        scheduledTime,
      })),
    };
    paging.store.append(entry);
    for (const { queue } of paged) queue.pagedCount++;
    return inMemory;
  }

  /**
   * Reads messages back into every queue of the address that wants more (see the class comment);
   * once the store is empty the address stops paging. Called when the address shrinks and when a
   * page comes in from disk.
   */
  drain(address: string): void {
    this.drainQueues(address, null);
  }

  /** The queue delivered (or lost) messages it held: it may take more from the pages. */
  queueWantsMore(queue: Queue): void {
    if (queue.pagedCount > 0) this.drainQueues(queue.address, [queue.name]);
  }

  /**
   * Reads back into the named queues (null: every queue with entries in the pages). A call made
   * while a drain of the address runs (a queue releasing a reference as it takes one) makes the
   * running one go round again, over every queue.
   */
  private drainQueues(address: string, names: readonly string[] | null): void {
    const paging = this.addresses.get(address);
    if (paging === undefined) return;
    if (this.draining.has(address)) {
      this.drainAgain.add(address);
      return;
    }
    this.draining.add(address);
    try {
      let queueNames = names;
      do {
        this.drainAgain.delete(address);
        for (const name of queueNames ?? [...paging.store.queuesWithUnread.keys()])
          this.depage(address, paging, name);
        queueNames = null;
      } while (this.drainAgain.has(address));
      if (paging.store.isEmpty && this.addresses.get(address) === paging) this.retire(address, paging);
    } finally {
      this.draining.delete(address);
      this.drainAgain.delete(address);
    }
  }

  /**
   * Reads one queue's entries back while it wants more; the entries of a deleted queue (or of one
   * deleted before a queue of the same name was made) are read past and dropped.
   */
  private depage(address: string, paging: AddressPaging, name: string): void {
    const { store, skipBelow } = paging;
    for (;;) {
      const queue = this.hooks.queueNamed(name);
      const live = queue !== undefined && !queue.isDeleted && queue.address === address;
      if (live && !this.wantsMore(queue, address)) break;
      const read = store.next(name);
      if (read === null) break;
      if (!live || read.sequence < (skipBelow.get(name) ?? 0)) continue;
      queue.pagedCount--;
      const { deliveryCount, scheduledTime } = read.target;
      this.hooks.enqueue(read.message, [{ queue, deliveryCount, scheduledTime }]);
    }
    // Every entry the mark was for is read: a later entry of that name is the new queue's.
    if (skipBelow.has(name) && store.unreadOf(name) === 0) skipBelow.delete(name);
  }

  /**
   * Whether a queue of a paging address takes another message in memory: it holds nothing
   * waiting, or less than its share of max-size-bytes (divided among the address' queues, so
   * that the shares add up to the limit).
   */
  private wantsMore(queue: Queue, address: string): boolean {
    const waiting = queue.waitingBytes;
    if (waiting === 0) return true;
    const { maxSizeBytes } = this.hooks.settingsFor(address);
    if (maxSizeBytes < 0) return true;
    return waiting < maxSizeBytes / Math.max(1, this.hooks.queueCount(address));
  }

  /** A queue is being deleted: its paged entries are skipped when they are read back. */
  queueDeleted(queue: Queue): void {
    const paging = this.addresses.get(queue.address);
    if (paging === undefined) return;
    if (paging.store.unreadOf(queue.name) > 0) paging.skipBelow.set(queue.name, paging.store.nextSequence);
    queue.pagedCount = 0;
  }

  /** Bytes of the address' sealed pages not yet written: producers wait while there are any. */
  unwrittenBytes(address: string): number {
    return this.addresses.get(address)?.store.unwrittenBytes ?? 0;
  }

  stats(address: string): PagingStats | null {
    const paging = this.addresses.get(address);
    if (paging === undefined) return null;
    const { store } = paging;
    return {
      messages: store.size,
      pages: store.pageCount,
      pagesInMemory: store.pagesInMemory,
      unwrittenPages: store.unwrittenPages,
    };
  }

  /**
   * Resolves once the file operations asked for so far are done: page writes, and the removal of
   * read pages and of retired stores' directories.
   */
  async idle(): Promise<void> {
    const pending = [...this.addresses.values()].map(({ store }) => store.idle());
    await Promise.all([this.ready, ...pending, ...this.retiring.values()]);
  }

  /** The broker stops: once every file operation is done, the page files are removed. */
  async close(): Promise<void> {
    const pending = [...this.addresses.values()].map(({ store }) => store.stop());
    this.addresses.clear();
    await Promise.all([this.ready, ...pending, ...this.retiring.values()]);
    await this.clearDirectory();
  }

  private start(address: string): AddressPaging {
    const directory = join(this.options.directory as string, addressDirectoryName(address));
    const { pageSizeBytes, pageMaxCacheSize } = this.hooks.settingsFor(address);
    const previous = this.retiring.get(address);
    const store = new PageStore({
      directory,
      address,
      pageSizeBytes,
      pageMaxCacheSize,
      fileSystem: this.options.fileSystem,
      ready: previous === undefined ? this.ready : Promise.all([this.ready, previous]).then(() => undefined),
      onReadable: () => this.drainFromIo(address),
      onWritten: () => this.hooks.pageWritten(address),
      onLost: (error, count, unreadByQueue) => this.lost(address, error, count, unreadByQueue),
      onError: (error, activity) =>
        this.options.logger.error(
          { err: error, address },
          `address ${address}: ${activity} failed (${error.message}); paging carries on`,
        ),
      onWritesResumed: () =>
        this.options.logger.info({ address }, `address ${address}: page files are written again`),
    });
    const paging: AddressPaging = { store, skipBelow: new Map() };
    this.addresses.set(address, paging);
    this.options.logger.info(
      { address, directory },
      `address ${address} is full: its messages page to ${directory} until it drains`,
    );
    return paging;
  }

  private retire(address: string, paging: AddressPaging): void {
    this.addresses.delete(address);
    const done: Promise<void> = paging.store.retire().then(() => {
      if (this.retiring.get(address) === done) this.retiring.delete(address);
    });
    this.retiring.set(address, done);
    this.options.logger.info({ address }, `address ${address} has drained its page store and stops paging`);
  }

  /** A page came in from disk: the drain runs from a file callback, with nothing above it to catch. */
  private drainFromIo(address: string): void {
    try {
      this.drain(address);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.options.logger.error(
        { err: error, address },
        `address ${address}: reading paged messages back failed (${reason}); the broker carries on`,
      );
    }
  }

  private lost(
    address: string,
    error: Error,
    count: number,
    unreadByQueue: ReadonlyMap<string, number>,
  ): void {
    this.options.logger.error(
      { err: error, address },
      `address ${address}: ${count} paged messages cannot be read back and are lost from memory (${error.message}); durable ones come back from the journal at the next start`,
    );
    for (const [name, unread] of unreadByQueue) {
      const queue = this.hooks.queueNamed(name);
      if (queue !== undefined && queue.address === address)
        queue.pagedCount = Math.max(0, queue.pagedCount - unread);
    }
  }

  /**
   * Removes what an earlier run left (page files are a spool, never reloaded), touching only what
   * the page store writes: address directories by their hash names, page files and address.txt.
   */
  private async clearDirectory(): Promise<void> {
    const { directory, fileSystem, logger } = this.options;
    if (directory === null) return;
    let names: string[];
    try {
      names = await fileSystem.list(directory);
    } catch (error) {
      logger.error({ err: error, directory }, `cannot list the paging directory ${directory}`);
      return;
    }
    for (const name of names.filter((entry) => ADDRESS_DIRECTORY_PATTERN.test(entry))) {
      const sub = join(directory, name);
      try {
        for (const file of await fileSystem.list(sub)) {
          if (PAGE_FILE_PATTERN.test(file) || file === ADDRESS_FILE) await fileSystem.remove(join(sub, file));
        }
        await fileSystem.removeDirectory(sub);
      } catch (error) {
        logger.error({ err: error, directory: sub }, `cannot clear the page directory ${sub}`);
      }
    }
  }
}
