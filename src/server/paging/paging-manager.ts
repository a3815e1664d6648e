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
  settingsFor(address: string): Pick<AddressSettings, 'pageSizeBytes' | 'pageMaxCacheSize'>;
  /** The queue of that name now, if there is one. */
  queueNamed(name: string): Queue | undefined;
  /** The address has room in memory for one more message (see AddressSize.hasRoom). */
  hasRoom(address: string): boolean;
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
  /** Entries appended and read so far: an entry's number is its place in the address' order. */
  appended: number;
  read: number;
  /** Queues deleted while they had entries here: their entries numbered below the mark are skipped. */
  readonly skipBelow: Map<string, number>;
}

/**
 * address-full-policy PAGE: an address over max-size-bytes sends what is routed to it to its page
 * store instead of memory, and every later message of that address follows (so that order is kept)
 * until the store is empty again. As the address drains below max-size-bytes, messages are read
 * back in order and put into their queues (those that still exist). Page files are a spool for
 * memory, never synced, and cleared at start and at stop: a durable paged message is in the
 * journal too, and pages out again when the journal loads.
 */
export class PagingManager {
  private readonly addresses = new Map<string, AddressPaging>();
  /** Stores being let go, by address: a new store of that address starts once its files are gone. */
  private readonly retiring = new Map<string, Promise<void>>();
  private readonly draining = new Set<string>();
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

  /** Appends a message routed to `targets` to its address' page store (starting it if need be). */
  page(message: CoreMessage, targets: readonly QueueTarget[]): void {
    const paging = this.addresses.get(message.address) ?? this.start(message.address);
    const entry: PageEntry = {
      message,
      targets: targets.map(({ queue, deliveryCount, scheduledTime }) => ({
        queueName: queue.name,
        deliveryCount,
        scheduledTime,
      })),
    };
    paging.store.append(entry);
    paging.appended++;
    for (const { queue } of targets) queue.pagedCount++;
  }

  /**
   * Reads messages back into their queues while the address has room for them in memory; once
   * the store is empty the address stops paging. Called when the address shrinks and when a page
   * comes in from disk; a call made while a drain runs (a queue releasing a reference as it takes
   * one) is left to the running one.
   */
  drain(address: string): void {
    const paging = this.addresses.get(address);
    if (paging === undefined || this.draining.has(address)) return;
    this.draining.add(address);
    try {
      while (this.hooks.hasRoom(address)) {
        const entry = paging.store.next();
        if (entry === null) break;
        this.readBack(address, paging, entry);
      }
      if (paging.store.isEmpty && this.addresses.get(address) === paging) this.retire(address, paging);
    } finally {
      this.draining.delete(address);
    }
  }

  /** A queue is being deleted: its paged entries are skipped when they are read back. */
  queueDeleted(queue: Queue): void {
    const paging = this.addresses.get(queue.address);
    if (paging === undefined) return;
    for (const [name, mark] of paging.skipBelow) if (mark <= paging.read) paging.skipBelow.delete(name);
    paging.skipBelow.set(queue.name, paging.appended);
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

  /** The broker stops: once every file operation is done, the page files are removed. */
  async close(): Promise<void> {
    const pending = [...this.addresses.values()].map(({ store }) => store.idle());
    this.addresses.clear();
    await Promise.all([this.ready, ...pending, ...this.retiring.values()]);
    await this.clearDirectory();
  }

  private readBack(address: string, paging: AddressPaging, entry: PageEntry): void {
    const number = paging.read++;
    const targets: QueueTarget[] = [];
    for (const { queueName, deliveryCount, scheduledTime } of entry.targets) {
      const queue = this.hooks.queueNamed(queueName);
      if (queue === undefined || queue.isDeleted || queue.address !== address) continue;
      if (number < (paging.skipBelow.get(queueName) ?? 0)) continue;
      queue.pagedCount--;
      targets.push({ queue, deliveryCount, scheduledTime });
    }
    if (targets.length > 0) this.hooks.enqueue(entry.message, targets);
  }

  private start(address: string): AddressPaging {
    const directory = join(this.options.directory as string, addressDirectoryName(address));
    const { pageSizeBytes, pageMaxCacheSize } = this.hooks.settingsFor(address);
    const previous = this.retiring.get(address);
    let paging: AddressPaging | null = null;
    const store = new PageStore({
      directory,
      address,
      pageSizeBytes,
      pageMaxCacheSize,
      fileSystem: this.options.fileSystem,
      ready: previous === undefined ? this.ready : Promise.all([this.ready, previous]).then(() => undefined),
      onReadable: () => this.drainFromIo(address),
      onWritten: () => this.hooks.pageWritten(address),
      onLost: (error, count, unreadByQueue) => {
        if (paging !== null) paging.read += count;
        this.lost(address, error, count, unreadByQueue);
      },
      onError: (error, activity) =>
        this.options.logger.error(
          { err: error, address },
          `address ${address}: ${activity} failed (${error.message}); paging carries on`,
        ),
    });
    paging = { store, appended: 0, read: 0, skipBelow: new Map() };
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
