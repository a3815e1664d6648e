import { PropertyKind, type CoreMessage } from '../../core/protocol';
import type { Logger } from '../../core/remoting';
import type { Filter } from '../postoffice/filter';
import { copyForMove, setOriginalHeaders } from '../postoffice/message-copy';
import { MessageHeader, duplicateIdKey } from '../postoffice/message-headers';
import type { MessageReference } from '../postoffice/message-reference';
import type { PostOffice } from '../postoffice/post-office';
import type { Queue } from '../postoffice/queue';

/** Which waiting messages an operation takes: those its filter accepts, or one by id. */
export type MessageMatch = (reference: MessageReference) => boolean;

/**
 * What management does to the messages waiting in a queue: remove them, move them to another
 * queue's address, send them to the dead-letter address, or retry dead letters at their original
 * address. Each operation is one storage transaction (after a crash, a moved message is in one
 * place, not both nor neither). Messages routed while it runs (its own copies, if the target is
 * the same queue) are not taken again: only messages older than the operation are.
 */
export class QueueMessageOperations {
  constructor(
    private readonly postOffice: PostOffice,
    private readonly logger: Logger,
  ) {}

  /** Removes the matching waiting messages; returns how many. */
  remove(queue: Queue, match: MessageMatch, limit = Infinity): number {
    return this.postOffice.storeAtomically(() =>
      queue.removeWaiting(this.olderThanNow(match), undefined, limit),
    );
  }

  /**
   * Moves the matching waiting messages to `address` (copies with new ids and the original
   * headers). With `rejectDuplicates`, a message whose duplicate id the target has seen is
   * dropped instead (HornetQ's moveMessages). Returns how many left the queue.
   */
  move(
    queue: Queue,
    match: MessageMatch,
    address: string,
    rejectDuplicates: boolean,
    limit = Infinity,
  ): number {
    return this.postOffice.storeAtomically(() =>
      queue.removeWaiting(
        this.olderThanNow(match),
        (reference) => {
          const copy = this.copyOf(reference, address);
          setOriginalHeaders(copy, reference.message, queue.name);
          this.route(copy, this.queuesFor(address, copy), rejectDuplicates);
        },
        limit,
      ),
    );
  }

  /**
   * Sends the matching waiting messages to the queue's dead-letter address, as a delivery that
   * ran out of attempts would be; without one (or with no queue there) they are dropped, logged.
   */
  sendToDeadLetter(queue: Queue, match: MessageMatch, limit = Infinity): number {
    const target = this.postOffice.addressSettings.getMatch(queue.address).deadLetterAddress;
    return this.postOffice.storeAtomically(() =>
      queue.removeWaiting(
        this.olderThanNow(match),
        (reference) => {
          queue.messagesKilled++;
          if (target === null) {
            this.logger.warn(
              { queue: queue.name, messageId: reference.message.messageId },
              `No Dead Letter Address configured for queue ${queue.name} so dropping the message`,
            );
            return;
          }
          const copy = copyForMove(reference.message, {
            messageId: this.postOffice.generateMessageId(),
            address: target,
            queueName: queue.name,
          });
          this.route(copy, this.queuesFor(target, copy), false);
        },
        limit,
      ),
    );
  }

  /**
   * Sends dead-lettered (or expired) messages back where they came from: to their original queue
   * when it still exists on the original address, else to every queue of the original address.
   * The copy loses its _HQ_ORIG_* headers, so that a later failure records a fresh origin.
   * Messages without an original address stay. Returns how many went.
   */
  retry(queue: Queue, match: MessageMatch, limit = Infinity): number {
    return this.postOffice.storeAtomically(() =>
      queue.removeWaiting(
        this.olderThanNow((reference) => originalAddress(reference.message) !== null && match(reference)),
        (reference) => {
          const address = originalAddress(reference.message) as string;
          const copy = this.copyOf(reference, address);
          const originalQueue = stringProperty(reference.message, MessageHeader.ORIGINAL_QUEUE);
          for (const name of ORIGIN_HEADERS) copy.properties.delete(name);
          this.route(copy, this.retryTargets(address, originalQueue, copy), false);
        },
        limit,
      ),
    );
  }

  /** A filter (or none) as a match: every message when null. */
  static matching(filter: Filter | null): MessageMatch {
    return filter === null ? () => true : (reference) => filter.match(reference.message);
  }

  /** One message by its broker id. */
  static byId(messageId: number): MessageMatch {
    return (reference) => reference.message.messageId === messageId;
  }

  /**
   * Only messages routed before now: ids only grow, so a copy this operation routes (into the
   * same queue, say) has a larger id than any message it started with, and is not taken again.
   */
  private olderThanNow(match: MessageMatch): MessageMatch {
    const boundary = this.postOffice.generateMessageId();
    return (reference) => reference.message.messageId < boundary && match(reference);
  }

  private copyOf(reference: MessageReference, address: string): CoreMessage {
    const copy = reference.message.copy();
    copy.messageId = this.postOffice.generateMessageId();
    copy.address = address;
    return copy;
  }

  private retryTargets(address: string, originalQueue: string | null, copy: CoreMessage): Queue[] {
    const queue = originalQueue === null ? undefined : this.postOffice.getQueue(originalQueue);
    if (queue !== undefined && queue.address === address && (queue.filter?.match(copy) ?? true))
      return [queue];
    return this.queuesFor(address, copy);
  }

  private queuesFor(address: string, message: CoreMessage): Queue[] {
    return this.postOffice
      .queuesBoundTo(address)
      .filter((queue) => queue.filter === null || queue.filter.match(message));
  }

  /** Routes a copy; with `rejectDuplicates`, through duplicate detection (a seen id drops it). */
  private route(copy: CoreMessage, queues: Queue[], rejectDuplicates: boolean): void {
    const route = {
      message: copy,
      queues,
      address: copy.address,
      duplicateId: rejectDuplicates ? duplicateIdKey(copy) : null,
    };
    if (queues.length === 0) {
      this.logger.warn(
        { address: copy.address, messageId: copy.messageId },
        `No queue on ${copy.address} takes the message; it is dropped`,
      );
    }
    if (rejectDuplicates) this.postOffice.send(route);
    else this.postOffice.route(route);
  }
}

/** What a retry takes off: the headers a dead-letter or expiry move put on. */
const ORIGIN_HEADERS = [
  MessageHeader.ORIGINAL_ADDRESS,
  MessageHeader.ORIGINAL_QUEUE,
  MessageHeader.ORIGINAL_MESSAGE_ID,
  MessageHeader.ACTUAL_EXPIRY_TIME,
];

function originalAddress(message: CoreMessage): string | null {
  return stringProperty(message, MessageHeader.ORIGINAL_ADDRESS);
}

function stringProperty(message: CoreMessage, name: string): string | null {
  const value = message.properties.get(name);
  return value !== undefined && value.kind === PropertyKind.STRING && value.value !== '' ? value.value : null;
}
