import type { CoreMessage } from '../../core/protocol';
import type { Logger } from '../../core/remoting';
import type { AddressSettings, AddressSettingsRepository } from './address-settings';
import {
  copyForMove,
  largestMoveCopies,
  moveGrowthBound,
  setOriginalHeaders,
  type MoveTargets,
} from './message-copy';
import type { MessageReference } from './message-reference';
import type { Queue } from './queue';

/**
 * What a move needs from whoever owns the queues: a new message id, the queues an address routes
 * a message to, and a way to deliver it there. Kept to these three so that the mover is not tied
 * to the PostOffice (and can be tested with a recorder).
 */
export interface MoveRouting {
  nextMessageId(): number;
  /** The queues bound to `address` whose filter accepts the message. */
  queuesFor(address: string, message: CoreMessage): Queue[];
  /** Stores (if durable) and enqueues the message in `queues`; returns how many took it. */
  deliver(message: CoreMessage, queues: readonly Queue[]): number;
}

/**
 * Moves messages to the dead-letter and expiry addresses of their address settings: a copy of a
 * message that exhausted max-delivery-attempts or expired, and (send-to-dla-on-no-route) a message
 * no queue takes. Also answers how large a message can grow by such moves, which a send must be
 * able to deliver. A move whose target is not configured, or has no queue, drops the message with
 * a log line, as in HornetQ.
 */
export class MessageMover {
  constructor(
    private readonly settings: Pick<AddressSettingsRepository, 'getMatch' | 'longestAddress'>,
    private readonly routing: MoveRouting,
    private readonly logger: Logger,
  ) {}

  /** A message has had max-delivery-attempts: its copy goes to the dead-letter address. */
  sendToDeadLetter(reference: MessageReference, settings: AddressSettings): void {
    const target = settings.deadLetterAddress;
    const context = { queue: reference.queue.name, messageId: reference.message.messageId };
    if (target === null) {
      this.logger.warn(
        context,
        `Message has exceeded max delivery attempts. No Dead Letter Address configured for queue ${reference.queue.name} so dropping it`,
      );
    } else if (!this.move(reference, target)) {
      this.logger.warn(
        context,
        `Message has exceeded max delivery attempts. No bindings for Dead Letter Address ${target} so dropping it`,
      );
    }
  }

  /** The queue hook for an expired message: its copy goes to the expiry address, if there is one. */
  moveExpired(reference: MessageReference, now: number): void {
    const target = this.settings.getMatch(reference.queue.address).expiryAddress;
    const context = { queue: reference.queue.name, messageId: reference.message.messageId };
    if (target === null) {
      this.logger.debug(context, 'Message has expired. No expiry address configured so dropping it');
    } else if (!this.move(reference, target, now)) {
      this.logger.warn(
        context,
        `Message has expired. No bindings for Expiry Address ${target} so dropping it`,
      );
    }
  }

  /**
   * send-to-dla-on-no-route: readdresses an unroutable message to the dead-letter address and
   * returns the queues there that take it (none when no dead-letter address is configured).
   */
  divertUnrouted(message: CoreMessage, settings: AddressSettings): Queue[] {
    const target = settings.deadLetterAddress;
    if (target === null) {
      this.logger.warn(
        { address: message.address },
        `Message sent to ${message.address} has no route and no Dead Letter Address is configured; it is dropped`,
      );
      return [];
    }
    setOriginalHeaders(message, message, null);
    message.address = target;
    return this.routing.queuesFor(target, message);
  }

  /**
   * The largest copies a message bound for these queues can become if it is dead-lettered or
   * expired (see largestMoveCopies in message-copy.ts).
   */
  largestMoveCopies(message: CoreMessage, queueNames: readonly string[]): CoreMessage[] {
    return largestMoveCopies(message, queueNames, this.moveTargets());
  }

  /** At least how many bytes a move adds to a message bound for these queues (see moveGrowthBound). */
  moveGrowthBound(message: CoreMessage, queueNames: readonly string[]): number {
    return moveGrowthBound(message, queueNames, this.moveTargets());
  }

  /** Routes a copy of the reference's message to `address`; false when no queue took it. */
  private move(reference: MessageReference, address: string, expiredAt?: number): boolean {
    const copy = copyForMove(reference.message, {
      messageId: this.routing.nextMessageId(),
      address,
      queueName: reference.queue.name,
      ...(expiredAt === undefined ? {} : { expiredAt }),
    });
    return this.routing.deliver(copy, this.routing.queuesFor(address, copy)) > 0;
  }

  /**
   * The longest configured target of each kind of move: the worst case, since any address'
   * settings may send a message there.
   */
  private moveTargets(): MoveTargets {
    return {
      deadLetterAddress: this.settings.longestAddress('deadLetterAddress'),
      expiryAddress: this.settings.longestAddress('expiryAddress'),
    };
  }
}
