import { IllegalStateException } from '../exceptions';
import type { TemporaryQueue } from './destination';
import { AddressPrefix } from './hornetq-destination';
import { HornetQQueue } from './hornetq-queue';

/** Deletes a temporary destination on the broker; supplied by the connection that created it. */
export type TemporaryDestinationDeleter = () => Promise<void>;

/**
 * A temporary queue, address `jms.tempqueue.<name>`. Only the handle its connection created can
 * delete it: a handle decoded from a message (JMSReplyTo) has no deleter, and its delete() rejects.
 */
export class HornetQTemporaryQueue extends HornetQQueue implements TemporaryQueue {
  static override readonly brand: string = 'HornetQTemporaryQueue';

  /** @internal (a temporary queue is made by a connection or a session, or decoded from an address) */
  constructor(
    name: string,
    private readonly deleter: TemporaryDestinationDeleter | null = null,
  ) {
    super(name, AddressPrefix.TEMP_QUEUE);
  }

  override get isTemporary(): boolean {
    return true;
  }

  delete(): Promise<void> {
    if (this.deleter === null) {
      return Promise.reject(
        new IllegalStateException(
          `temporary queue ${this.name} can only be deleted by the connection that created it`,
        ),
      );
    }
    return this.deleter();
  }
}
