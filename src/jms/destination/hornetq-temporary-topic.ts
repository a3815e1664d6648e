import { IllegalStateException } from '../exceptions';
import type { TemporaryTopic } from './destination';
import { AddressPrefix } from './hornetq-destination';
import type { TemporaryDestinationDeleter } from './hornetq-temporary-queue';
import { HornetQTopic } from './hornetq-topic';

/**
 * A temporary topic, address `jms.temptopic.<name>`. As for temporary queues, only the handle its
 * connection created (with a deleter) can delete it.
 */
export class HornetQTemporaryTopic extends HornetQTopic implements TemporaryTopic {
  static override readonly brand: string = 'HornetQTemporaryTopic';

  /** @internal (a temporary topic is made by a connection or a session, or decoded from an address) */
  constructor(
    name: string,
    private readonly deleter: TemporaryDestinationDeleter | null = null,
  ) {
    super(name, AddressPrefix.TEMP_TOPIC);
  }

  override get isTemporary(): boolean {
    return true;
  }

  delete(): Promise<void> {
    if (this.deleter === null) {
      return Promise.reject(
        new IllegalStateException(
          `temporary topic ${this.name} can only be deleted by the connection that created it`,
        ),
      );
    }
    return this.deleter();
  }
}
